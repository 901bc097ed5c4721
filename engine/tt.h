// TranspositionTable: the search's shared hash table of bounds, best moves and evaluations.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "base/huge_pages.h"
#include "engine/names.h"
#include "shogi/types.h"

namespace engine {

enum Bound : uint8_t { kBoundNone = 0, kBoundUpper = 1, kBoundLower = 2, kBoundExact = 3 };

// One slot, 16 bytes. Read and written without locks by every search thread (Lazy SMP):
// a torn entry is possible and harmless, since moves are re-validated before use. Each field
// is read and written as a relaxed atomic (plain loads and stores on x86), so that the
// races are defined behaviour and ThreadSanitizer sees none; the fields together are not
// atomic, which is what the re-validation is for.
class TTEntry {
 public:
  static constexpr int kDepthOffset = 8;
  uint64_t key() const { return load(key_); }
  uint16_t move16() const { return load(move16_); }  // Move::key16(); see complete_move
  Value value() const { return Value(load(value_)); }
  Value eval() const { return Value(load(eval_)); }
  uint8_t depth() const { return load(depth_); }
  uint8_t gen_bound() const { return load(gen_bound_); }
  Bound bound() const { return Bound(gen_bound() & 3); }
  int stored_depth() const { return int(depth()) - kDepthOffset; }

 private:
  friend class TranspositionTable;
  template <class T>
  static T load(const T& field) {
    // REQUIRES: the entry itself is not const (the table's entries never are).
    return std::atomic_ref<T>(const_cast<T&>(field)).load(std::memory_order_relaxed);
  }
  template <class T>
  static void store(T& field, T v) {
    std::atomic_ref<T>(field).store(v, std::memory_order_relaxed);
  }

  uint64_t key_;
  uint16_t move16_;
  int16_t value_;
  int16_t eval_;
  uint8_t depth_;      // depth + kDepthOffset, so that quiescence depths fit
  uint8_t gen_bound_;  // generation in the upper 6 bits, Bound in the lower 2
};
static_assert(sizeof(TTEntry) == 16);

// A table of 64-byte clusters of four entries, sized in MB. Replacement prefers empty,
// then stale (older generation), then shallow entries. Thread-safe in the Lazy-SMP sense
// above; resize and clear only while no search runs.
class TranspositionTable {
 public:
  TranspositionTable() { resize(16); }
  void resize(size_t megabytes);
  void clear();
  void new_search() { generation_ = uint8_t(generation_ + 4); }

  // Finds the entry for key; *found says whether it holds that key. The returned pointer is
  // where store() should write.
  TTEntry* probe(uint64_t key, bool* found) const;
  // Starts loading key's cluster into the cache, so that a probe soon after does not wait
  // for memory (the search calls it with Position::key_after before making a move).
  void prefetch(uint64_t key) const { __builtin_prefetch(&clusters_[cluster_index(key)]); }
  void store(TTEntry* entry, uint64_t key, Value value, Bound bound, int depth, Move move,
             Value eval);
  int hashfull() const;  // per mille of the first 1000 clusters used in this generation

 private:
  struct Cluster {
    TTEntry entries[4];
  };
  size_t cluster_index(uint64_t key) const {
    return size_t((unsigned __int128)key * cluster_count_ >> 64);
  }
  std::unique_ptr<Cluster[], HugePagesDeleter> clusters_;
  size_t cluster_count_ = 0;
  uint8_t generation_ = 0;
};

}  // namespace engine
