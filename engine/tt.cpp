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
    if (entries[i].key() == key && entries[i].gen_bound() != 0) {
      *found = true;
      return &entries[i];
    }
  }
  *found = false;
  // Replacement: the entry with the lowest (depth - 8 * age).
  TTEntry* replace = &entries[0];
  auto worth = [this](const TTEntry& e) {
    const uint8_t gen_bound = e.gen_bound();
    if (gen_bound == 0) return -100000;
    const int age = ((generation_ - (gen_bound & ~3)) & 0xFF) / 4;
    return int(e.depth()) - 8 * age;
  };
  int replace_worth = worth(*replace);
  for (int i = 1; i < 4; ++i) {
    if (const int w = worth(entries[i]); w < replace_worth) {
      replace = &entries[i];
      replace_worth = w;
    }
  }
  return replace;
}

void TranspositionTable::store(TTEntry* e, uint64_t key, Value value, Bound bound, int depth,
                               Move move, Value eval) {
  // Keep an existing move when the new data has none for the same position.
  const uint64_t old_key = e->key();
  if (move != kMoveNone || old_key != key) TTEntry::store(e->move16_, move.key16());
  if (old_key != key || bound == kBoundExact || depth + 2 >= e->stored_depth() ||
      (e->gen_bound() & ~3) != generation_) {
    TTEntry::store(e->key_, key);
    TTEntry::store(e->value_, int16_t(value));
    TTEntry::store(e->eval_, int16_t(eval));
    TTEntry::store(e->depth_, uint8_t(std::clamp(depth + TTEntry::kDepthOffset, 0, 255)));
    TTEntry::store(e->gen_bound_, uint8_t(generation_ | bound));
  }
}

int TranspositionTable::hashfull() const {
  int used = 0;
  const size_t n = std::min<size_t>(1000, cluster_count_);
  for (size_t i = 0; i < n; ++i)
    for (const TTEntry& e : clusters_[i].entries) {
      const uint8_t gen_bound = e.gen_bound();
      used += gen_bound != 0 && (gen_bound & ~3) == generation_;
    }
  return int(used * 1000 / (n * 4));
}

}  // namespace engine
