// The positions on the mate search's current path, by full key: a stack behind a counting
// filter, since nearly every look-up (each child at each pass) misses.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engine/names.h"

namespace engine::mate {

class PathKeys {
 public:
  // Leaves every position (the counts return to zero one by one: cheaper than refilling
  // them for the short paths of small searches).
  void clear() {
    while (!stack_.empty()) pop();
  }
  // Enters a position at `ply`; a position already on the path keeps its shallower ply.
  void push(uint64_t key, int ply) {
    stack_.push_back({key, ply});
    ++counts_[slot(key)];
  }
  // Leaves the position entered last.
  void pop() {
    --counts_[slot(stack_.back().key)];
    stack_.pop_back();
  }
  // The shallowest ply at which `key` stands on the path, or -1 when it does not.
  int find(uint64_t key) const {
    if (counts_[slot(key)] == 0) return -1;
    for (const Entry& e : stack_)
      if (e.key == key) return e.ply;
    return -1;
  }

 private:
  struct Entry {
    uint64_t key;
    int ply;
  };
  static constexpr int kSlots = 4096;
  static size_t slot(uint64_t key) { return size_t(key >> 52) & (kSlots - 1); }

  std::vector<Entry> stack_;
  std::array<uint16_t, kSlots> counts_{};
};

}  // namespace engine::mate
