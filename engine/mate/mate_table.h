// The mate transposition table: proof and disproof numbers per position, with hand
// domination (superiority for proofs, inferiority for disproofs) and bounded memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "base/huge_pages.h"
#include "engine/names.h"
#include "shogi/hand.h"
#include "shogi/types.h"

namespace engine::mate {

constexpr uint32_t kInfinitePn = 0x3fffffff;  // proof or disproof number of a solved node

// Saturating sum of proof (or disproof) numbers.
inline uint32_t add_numbers(uint32_t a, uint32_t b) {
  // Only solved nodes hold kInfinitePn: a sum of unsolved numbers stops just below it.
  const uint64_t s = uint64_t(a) + b;
  return s >= kInfinitePn ? kInfinitePn - 1 : uint32_t(s);
}

// What the table knows of a position. Solved entries (pn or dn 0) carry their proof or
// disproof hand in `hand`; unsolved ones the attacker's hand of the position itself.
struct MateEntry {
  uint64_t board_key = 0;  // Position::board_key(); 0 marks an empty slot
  uint32_t hand = 0;       // Hand::raw()
  uint32_t pn = 1;
  uint32_t dn = 1;
  uint32_t amount = 0;      // nodes spent below this position: what garbage collection keeps
  uint32_t move = 0;        // proven OR node: the mating move (Move::raw())
  uint16_t mate_len = 0;    // proven: plies to mate along the stored moves
  uint16_t generation = 0;  // entries of another generation than the table's are empty
};

struct MateLookup {
  bool found = false;
  uint32_t pn = 1, dn = 1;
  Hand hand;  // the proof or disproof hand when solved
  Move move = kMoveNone;
  int mate_len = 0;
  uint32_t amount = 0;
};

// A fixed-size table of 8-entry clusters indexed by the board key, so that every hand of
// one board lies in one cluster. When 90% full, a garbage collection frees about half of it,
// the entries with the least work below them. Not thread-safe.
class MateTable {
 public:
  // Default: 64 MiB (2M entries). REQUIRES: megabytes >= 1.
  explicit MateTable(size_t megabytes = 64);

  // Empties the table in O(1) (a new generation; a full wipe every 65535 clears).
  void clear();
  // The best knowledge for (board, attacker hand): a proof whose hand the attacker's
  // dominates, else a disproof whose hand dominates the attacker's, else the exact entry.
  MateLookup lookup(uint64_t board_key, Hand attacker_hand) const;
  // Stores a result. For solved results `hand` is the proof or disproof hand; entries of the
  // same board that it subsumes are dropped.
  void store(uint64_t board_key, Hand hand, uint32_t pn, uint32_t dn, uint32_t amount,
             Move move = kMoveNone, int mate_len = 0);

  // Starts loading the cluster of a board into the cache.
  void prefetch(uint64_t board_key) const { __builtin_prefetch(cluster(board_key)); }

  size_t capacity() const { return entry_count_; }
  size_t used() const { return used_; }
  uint64_t collections() const { return collections_; }
  // Frees the least-worked entries until about half the table is free.
  void collect_garbage();

 private:
  static constexpr int kClusterSize = 8;
  MateEntry* cluster(uint64_t board_key);
  bool live(const MateEntry& e) const { return e.board_key != 0 && e.generation == generation_; }
  const MateEntry* cluster(uint64_t board_key) const;

  std::unique_ptr<MateEntry[], HugePagesDeleter> entries_;  // in huge pages: probes are random
  size_t entry_count_ = 0;
  size_t cluster_count_ = 0;
  size_t used_ = 0;
  uint16_t generation_ = 1;
  uint64_t collections_ = 0;
};

}  // namespace engine::mate
