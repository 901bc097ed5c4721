// TranspositionTable: allocation, probing and the replacement scheme.
#include "engine/tt.h"

#include <algorithm>
#include <cstring>

#include "base/huge_pages.h"
#include "engine/names.h"

namespace engine {

void TranspositionTable::resize(size_t megabytes) {
  size_t count = megabytes * 1024 * 1024 / sizeof(Cluster);
  if (count == 0) count = 1;
  // Huge pages: every probe is a random access, and with 4 KB pages most of them also miss
  // the TLB.
  clusters_.reset(static_cast<Cluster*>(allocate_huge_pages(count * sizeof(Cluster)).release()));
  cluster_count_ = count;
  clear();
}

void TranspositionTable::clear() {
  std::memset(static_cast<void*>(clusters_.get()), 0, cluster_count_ * sizeof(Cluster));
  generation_ = 0;
}

TTEntry* TranspositionTable::probe(uint64_t key, bool* found) const {
  TTEntry* const entries = clusters_[cluster_index(key)].entries;
  for (int i = 0; i < 4; ++i) {
    if (entries[i].key == key && entries[i].gen_bound != 0) {
      *found = true;
      return &entries[i];
    }
  }
  *found = false;
  // Replacement: the entry with the lowest (depth - 8 * age).
  TTEntry* replace = &entries[0];
  auto worth = [this](const TTEntry& e) {
    if (e.gen_bound == 0) return -100000;
    const int age = ((generation_ - (e.gen_bound & ~3)) & 0xFF) / 4;
    return int(e.depth) - 8 * age;
  };
  for (int i = 1; i < 4; ++i)
    if (worth(entries[i]) < worth(*replace)) replace = &entries[i];
  return replace;
}

void TranspositionTable::store(TTEntry* e, uint64_t key, Value value, Bound bound, int depth,
                               Move move, Value eval) {
  // Keep an existing move when the new data has none for the same position.
  if (move != kMoveNone || e->key != key) e->move16 = move.key16();
  if (e->key != key || bound == kBoundExact || depth + 2 >= e->stored_depth() ||
      (e->gen_bound & ~3) != generation_) {
    e->key = key;
    e->value = int16_t(value);
    e->eval = int16_t(eval);
    e->depth = uint8_t(std::clamp(depth + TTEntry::kDepthOffset, 0, 255));
    e->gen_bound = uint8_t(generation_ | bound);
  }
}

int TranspositionTable::hashfull() const {
  int used = 0;
  const size_t n = std::min<size_t>(1000, cluster_count_);
  for (size_t i = 0; i < n; ++i)
    for (const TTEntry& e : clusters_[i].entries)
      used += e.gen_bound != 0 && (e.gen_bound & ~3) == generation_;
  return int(used * 1000 / (n * 4));
}

}  // namespace engine
