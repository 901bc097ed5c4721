// Futility margins chosen online by target precision (techniques.md §4).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "engine/types.h"

namespace engine {

// Chooses the margin of futility pruning at frontier (depth 1) and pre-frontier (depth 2)
// nodes. In dynamic mode it watches, for every candidate margin n, how often n would have
// pruned a node (CountAll) and how often the full search then showed the prune wrong
// (CountFail: the node did not fail high after all); precision(n) = 1 - CountFail/CountAll.
// Once a candidate has been seen more than kSettleCount times, the smallest margin whose
// precision reaches the target is adopted; statistics go on accumulating, so the choice can
// move. Fixed mode prunes with one margin; off never prunes.
// Thread-safe: counters are relaxed atomics shared by every search thread.
class FutilityController {
 public:
  enum class Mode { kDynamic, kFixed, kOff };
  static constexpr int kCandidateCount = 10;
  // Candidate frontier margins, half a pawn to eight pawns; pre-frontier uses twice these.
  static constexpr Value kCandidates[kCandidateCount] = {50, 75, 100, 150, 200,
                                                         300, 400, 500, 600, 800};
  static constexpr uint64_t kSettleCount = 500;

  void configure(Mode mode, int target_precision_percent, Value fixed_margin);
  void reset();  // forgets the statistics (and the adopted margins)

  // The margin in force at this depth (1 or 2), or kValueNone when none is.
  Value margin(int depth) const;
  // Records a node at depth 1 or 2 that was searched in full: its static evaluation, beta,
  // and the value the search returned. REQUIRES: not in check, not a PV node.
  void record(int depth, Value static_eval, Value beta, Value result);

  Mode mode() const { return mode_; }
  // One line per depth: the adopted margin and each candidate's precision and count.
  std::string report() const;

 private:
  void reconsider(int d);
  Mode mode_ = Mode::kDynamic;
  int target_percent_ = 60;
  Value fixed_margin_ = 200;
  std::atomic<uint64_t> all_[2][kCandidateCount] = {};
  std::atomic<uint64_t> fail_[2][kCandidateCount] = {};
  std::atomic<int> adopted_[2] = {-1, -1};  // index into kCandidates, or -1
  std::atomic<uint64_t> records_[2] = {0, 0};
};

}  // namespace engine
