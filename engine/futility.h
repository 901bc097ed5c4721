// Futility margins chosen online by target precision (docs/techniques.md §4).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "engine/names.h"
#include "shogi/types.h"

namespace engine {

// Chooses the margins of futility pruning at frontier (depth 1) and pre-frontier (depth 2)
// nodes, on two sides kept apart:
//   kFailHigh  a node is cut when static_eval - margin >= beta (the document's side);
//   kFailLow   a quiet move is skipped when static_eval + margin <= alpha (the mirror).
// For every candidate margin n it counts how often n would have pruned (CountAll) and how
// often the full search then showed the prune wrong (CountFail: the node did not fail high
// after all; the skipped move would have raised alpha); precision(n) = 1 - CountFail/CountAll.
// Once a candidate has been seen more than kSettleCount times, the smallest margin whose
// precision reaches the target is adopted; statistics go on accumulating, so the choice can
// move.
//   kPaper    the document's method as written: only nodes left unpruned are counted, every
//             wrong prune counts one, one set of statistics for the whole game.
//   kDynamic  the same choice, measured without its bias: one node in kVerifyOneIn that the
//             adopted margin would prune is searched anyway and counted kVerifyOneIn times
//             (so the margins in force keep being measured); a wrong prune is weighted by
//             its cost, 1 + (how far the true value passed the bound) / kCostUnit, capped;
//             and the statistics are kept per game phase (the root's game ply).
//   kFixed    one margin on both sides; kOff never prunes.
// Thread-safe: counters are relaxed atomics shared by every thread.
class FutilityController {
 public:
  enum class Mode { kDynamic, kPaper, kFixed, kOff };
  static constexpr int kCandidateCount = 10;
  // Candidate frontier margins, half a pawn to eight pawns; pre-frontier uses twice these.
  static constexpr Value kCandidates[kCandidateCount] = {50,  75,  100, 150, 200,
                                                         300, 400, 500, 600, 800};
  static constexpr uint64_t kSettleCount = 500;
  static constexpr int kPhaseCount = 3;  // game plies 1-49, 50-99, 100 on (dynamic)
  static constexpr int kPhasePlies = 50;
  static constexpr uint64_t kVerifyOneIn = 16;  // a power of two (dynamic)
  static constexpr Value kCostUnit = 100;       // a wrong prune's cost, in units of this
  static constexpr Value kCostCap = 800;        // ... passed the bound by at most this
  // The margin of fixed mode unless configured otherwise (the FutilityMargin option's default).
  static constexpr Value kDefaultFixedMargin = 100;
  enum Side { kFailHigh = 0, kFailLow = 1 };

  void configure(Mode mode, int target_precision_percent, Value fixed_margin);
  void reset();  // forgets the statistics (and the adopted margins)
  // The searches that follow start from a position of this game ply (dynamic: its phase).
  void set_root_ply(int game_ply);

  // The margin in force on this side at this depth (1 or 2), or kValueNone when none is.
  // key: the node's position key; in dynamic mode it picks the nodes searched unpruned to
  // verify the margin in force (kValueNone for those).
  Value margin(Side side, int depth, uint64_t key) const;
  // Records a node at depth 1 or 2 that was searched in full: its static evaluation, beta,
  // and the value the search returned. REQUIRES: not in check, not a PV node.
  void record_node(int depth, Value static_eval, Value beta, Value result);
  // Records a quiet move searched in full at depth 1 or 2: the node's static evaluation,
  // alpha before the move, and the move's value. REQUIRES: not in check.
  void record_move(int depth, Value static_eval, Value alpha, Value result);

  Mode mode() const { return mode_; }
  // One line per phase, side and depth with records: the adopted margin and each
  // candidate's precision/count.
  std::string report() const;

 private:
  // A record for the candidates [0, candidates_pruning); `excess`: by how much the full
  // search passed the bound the prune assumed (> 0: the prune would have been wrong).
  void count(Side side, int depth, int candidates_pruning, Value excess);
  void reconsider(int phase, Side side, int d);
  Mode mode_ = Mode::kDynamic;
  int target_percent_ = 60;
  Value fixed_margin_ = kDefaultFixedMargin;
  std::atomic<int> phase_{0};
  // Indexed by phase, side, depth - 1, candidate. all_ and fail_ are weighted (in kCostUnit
  // units of a correct prune); seen_ counts the records behind them.
  std::atomic<uint64_t> all_[kPhaseCount][2][2][kCandidateCount] = {};
  std::atomic<uint64_t> fail_[kPhaseCount][2][2][kCandidateCount] = {};
  std::atomic<uint64_t> seen_[kPhaseCount][2][2][kCandidateCount] = {};
  std::atomic<int> adopted_[kPhaseCount][2][2] = {};  // index into kCandidates + 1; 0: none
  std::atomic<uint64_t> records_[kPhaseCount][2][2] = {};
};

}  // namespace engine
