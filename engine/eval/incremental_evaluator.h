// The search's evaluation: evaluate() with the board's placement sums updated move by move.
#pragma once

#include <array>
#include <cstdint>

#include "engine/eval/feature_layout.h"
#include "engine/eval/value_sums.h"
#include "engine/eval/weights.h"
#include "engine/names.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace engine::eval {

// Gives exactly evaluate(pos, w), faster inside a search. The board part of the sums
// (material, king-relative placement and piece-square of every non-king piece, and the
// board's progress points: visit_board in feature_visitor.h) is kept per ply; when one of
// the last kMaxChain positions of pos's history was evaluated, its sums are updated with
// the moves made since (a few pieces each) instead of visiting every piece again. A chain
// that moves or captures a king starts from scratch (every king-relative feature of a
// side changes). The hands' features come from a table of per-count sums, and the
// attack-based features are computed afresh every time. Entries are matched by the
// position's key at its ply, so any sequence of do/undo moves between calls is safe.
// One per search thread; not thread-safe.
class IncrementalEvaluator {
 public:
  IncrementalEvaluator();
  // Forgets every saved sum (the next call starts from scratch).
  void reset();
  // evaluate(pos, w). Switching to another Weights object resets.
  Value evaluate(const Position& pos, const Weights& w);

 private:
  struct Board {
    ValueSums sums;
    int progress_points = 0;
  };
  struct Entry {
    uint64_t key = 0;
    bool valid = false;
    Board board;
  };
  // Entries by plies_played() modulo kEntryNb: more than the search's deepest line.
  static constexpr int kEntryNb = 256;
  // How far back the history is searched for an evaluated position.
  static constexpr int kMaxChain = 8;

  // The board sums of pos: its own entry, an ancestor's updated, or from scratch.
  const Board& board(const Position& pos);
  // `board` (the sums before `state`'s move) updated with that move. REQUIRES: the move
  // neither moves nor captures a king; kings stand where they stand in pos.
  void apply(const Position& pos, const StateInfo& state, Color mover, Board& board) const;

  std::array<Entry, kEntryNb> entries_;
  const Weights* weights_ = nullptr;
  // weights_'s phase weights interleaved (PairSink's pairs), copied when weights_ is set.
  std::array<int32_t, 2 * kPhaseSize> phase_pairs_ = {};
  // hand_sums_[t - 1][n]: the base units of holding n pieces of kind t (pawn .. gold).
  int32_t hand_sums_[kHandKindNb][kHandCountNb + 1] = {};
};

}  // namespace engine::eval
