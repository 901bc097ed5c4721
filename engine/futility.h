// Futility margins chosen online by target precision (techniques.md §4).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "engine/types.h"

namespace engine {

// Chooses the margins of futility pruning at frontier (depth 1) and pre-frontier (depth 2)
// nodes, on two sides kept apart:
//   kFailHigh  a node is cut when static_eval - margin >= beta (the document's side);
//   kFailLow   a quiet move is skipped when static_eval + margin <= alpha (the mirror).
// In dynamic mode it watches, for every candidate margin n, how often n would have pruned
// (CountAll) and how often the full search then showed the prune wrong (CountFail: the node
// did not fail high after all; the skipped move would have raised alpha); precision(n) =
// 1 - CountFail/CountAll. Once a candidate has been seen more than kSettleCount times, the
// smallest margin whose precision reaches the target is adopted; statistics go on
// accumulating, so the choice can move. Fixed mode prunes with one margin on both sides;
// off never prunes. Thread-safe: counters are relaxed atomics shared by every thread.
class FutilityController {
 public:
  enum class Mode { kDynamic, kFixed, kOff };
  static constexpr int kCandidateCount = 10;
  // Candidate frontier margins, half a pawn to eight pawns; pre-frontier uses twice these.
  static constexpr Value kCandidates[kCandidateCount] = {50, 75, 100, 150, 200,
                                                         300, 400, 500, 600, 800};
  static constexpr uint64_t kSettleCount = 500;
  // The margin of fixed mode unless configured otherwise (the FutilityMargin option's default).
  static constexpr Value kDefaultFixedMargin = 100;
  enum Side { kFailHigh = 0, kFailLow = 1 };

  void configure(Mode mode, int target_precision_percent, Value fixed_margin);
  void reset();  // forgets the statistics (and the adopted margins)

  // The margin in force on this side at this depth (1 or 2), or kValueNone when none is.
  Value margin(Side side, int depth) const;
  // Records a node at depth 1 or 2 that was searched in full: its static evaluation, beta,
  // and the value the search returned. REQUIRES: not in check, not a PV node.
  void record_node(int depth, Value static_eval, Value beta, Value result);
  // Records a quiet move searched in full at depth 1 or 2: the node's static evaluation,
  // alpha before the move, and the move's value. REQUIRES: not in check.
  void record_move(int depth, Value static_eval, Value alpha, Value result);

  Mode mode() const { return mode_; }
  // One line per side and depth: the adopted margin and each candidate's precision/count.
  std::string report() const;

 private:
  void count(Side side, int depth, int candidates_pruning, bool failed);
  void reconsider(Side side, int d);
  Mode mode_ = Mode::kDynamic;
  int target_percent_ = 60;
  Value fixed_margin_ = kDefaultFixedMargin;
  // Indexed by side, depth - 1, candidate.
  std::atomic<uint64_t> all_[2][2][kCandidateCount] = {};
  std::atomic<uint64_t> fail_[2][2][kCandidateCount] = {};
  std::atomic<int> adopted_[2][2] = {{-1, -1}, {-1, -1}};  // index into kCandidates, or -1
  std::atomic<uint64_t> records_[2][2] = {};
};

}  // namespace engine
