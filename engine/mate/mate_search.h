// The proof-number search core shared by df-pn and PDS: node expansion, the per-ply child
// lists, repetition (graph-history interaction) bookkeeping, proof/disproof hands, and the
// table stores. Used through solve_mate() (solver.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/mate/mate_table.h"
#include "engine/mate/path_keys.h"
#include "engine/mate/solver.h"
#include "engine/names.h"
#include "shogi/position.h"

namespace engine::mate {

// Recursion: one C++ frame per ply of the current path, each small (the child lists live in
// heap vectors indexed by ply), and the path is bounded by MateOptions::max_ply, so even a
// 4000-ply path needs well under a megabyte of stack.
//
// Repetitions (GHI): a position already on the current path is "no mate" for that path only
// (the attacker cannot win by repeating). Such a disproof, and every disproof derived from
// it, carries `min_rep`, the shallowest ply of a repeated position it depends on. It is
// stored in the table only at a node at or above that ply (where it no longer depends on
// the path above); below, it is kept in the parent's child list for as long as that parent
// stays on the path. Proofs never rest on repetitions. A path cut at max_ply gives
// min_rep = -1: never stored, and at the root it reads as unknown, not no mate.
class MateSearch {
 public:
  struct Scratch;  // the memory one search leaves to the next (below)

  // `attacker`: the side that mates; usually the side to move, or its opponent for an
  // escape problem (the defender to move, in check). `scratch` must not serve another
  // search at the same time.
  MateSearch(Position& pos, MateTable& table, const MateOptions& options, Color attacker,
             Scratch& scratch);

  // Searches from the current position (the attacker to move).
  MateStatus run(std::string& note);
  // After an unknown answer: every path was refuted or cut by max_ply (no mate of at most
  // max_ply plies exists), as opposed to a search stopped by its limits.
  bool refuted_within_max_ply() const { return refuted_within_max_ply_; }
  uint64_t nodes() const { return nodes_; }
  int max_ply_reached() const { return max_ply_reached_; }
  size_t stack_bytes() const { return stack_bytes_; }

 private:
  static constexpr int kSound = 1 << 30;  // min_rep of a disproof that rests on no repetition

  struct Child {
    Move move;
    uint64_t key = 0;        // full key (repetition)
    uint64_t board_key = 0;  // table key
    Hand hand;               // the attacker's hand in the child
    uint32_t pn = 1, dn = 1;
    uint32_t init_pn = 1, init_dn = 1;
    Hand solved_hand;  // proof or disproof hand once solved (sound ones)
    int mate_len = 0;
    int min_rep = kSound;
    bool sticky = false;       // a path-dependent disproof found while this frame is on the path
    bool known = false;        // pn/dn came from the table or from a search, not from init_pn/dn
    bool gives_check = false;  // every check; an evasion that checks the attacker's king
  };
  struct Value {
    uint32_t pn = 1, dn = 1;
    int min_rep = kSound;
  };

 public:
  // The per-ply child lists and the path's keys: kept from search to search (their vectors
  // keep their capacity), so that the small calls inside the main search allocate nothing.
  struct Scratch {
    std::vector<std::vector<Child>> frames;
    PathKeys on_path;  // empty between searches
  };

 private:
  Value dfpn(int ply, uint32_t thpn, uint32_t thdn);
  Value pds(int ply, uint32_t thpn, uint32_t thdn);

  // Counts a node, checks the limits, generates the children into frames_[ply]. Returns
  // false when the node is terminal (its value in *terminal, stored) or the search aborts.
  bool expand(int ply, Value* terminal);
  // Re-reads each child's numbers (repetition, sticky disproof, table, initial numbers).
  void refresh(int ply);
  void numbers(int ply, uint32_t& pn, uint32_t& dn) const;
  // Computes the node's value from its children, stores what is sound, returns it.
  Value finish(int ply, uint64_t amount);
  // Plays a child and searches it with the given thresholds.
  Value search_child(int ply, Child& child, uint32_t thpn, uint32_t thdn, bool use_pds);
  void threshold_increments(int ply, uint32_t& pn_increment, uint32_t& dn_increment);
  bool is_or_node(int ply) const { return ((ply + root_offset_) & 1) == 0; }
  Hand attacker_hand() const { return pos_.hand(attacker_); }

  Position& pos_;
  MateTable& table_;
  const MateOptions& options_;
  Color attacker_;
  int root_offset_ = 0;                      // 1 when the defender is to move at the root
  std::vector<std::vector<Child>>& frames_;  // the scratch's
  PathKeys& on_path_;  // full keys of the current path, with their plies (the scratch's)
  uint64_t nodes_ = 0;
  int max_ply_reached_ = 0;
  uintptr_t stack_root_ = 0;
  size_t stack_bytes_ = 0;
  bool aborted_ = false;
  bool refuted_within_max_ply_ = false;
  std::string abort_reason_;
  int64_t start_ms_ = 0;
  int64_t last_progress_ms_ = 0;  // when options_.progress was last called
};

}  // namespace engine::mate
