// Futility margins by target precision: counting and choosing.
#include "engine/futility.h"

#include <cstdio>

namespace engine {

void FutilityController::configure(Mode mode, int target_precision_percent, Value fixed_margin) {
  mode_ = mode;
  target_percent_ = target_precision_percent;
  fixed_margin_ = fixed_margin;
}

void FutilityController::reset() {
  for (int side = 0; side < 2; ++side) {
    for (int d = 0; d < 2; ++d) {
      for (int i = 0; i < kCandidateCount; ++i) {
        all_[side][d][i].store(0, std::memory_order_relaxed);
        fail_[side][d][i].store(0, std::memory_order_relaxed);
      }
      adopted_[side][d].store(-1, std::memory_order_relaxed);
      records_[side][d].store(0, std::memory_order_relaxed);
    }
  }
}

Value FutilityController::margin(Side side, int depth) const {
  switch (mode_) {
    case Mode::kOff:
      return kValueNone;
    case Mode::kFixed:
      return fixed_margin_ * depth;
    case Mode::kDynamic: {
      const int i = adopted_[side][depth - 1].load(std::memory_order_relaxed);
      return i < 0 ? kValueNone : kCandidates[i] * depth;
    }
  }
  return kValueNone;
}

void FutilityController::count(Side side, int depth, int candidates_pruning, bool failed) {
  const int d = depth - 1;
  for (int i = 0; i < candidates_pruning; ++i) {
    all_[side][d][i].fetch_add(1, std::memory_order_relaxed);
    if (failed) fail_[side][d][i].fetch_add(1, std::memory_order_relaxed);
  }
  // Re-decide now and then: cheap, and the choice tracks the statistics.
  if ((records_[side][d].fetch_add(1, std::memory_order_relaxed) & 63) == 0) reconsider(side, d);
}

void FutilityController::record_node(int depth, Value static_eval, Value beta, Value result) {
  if (mode_ != Mode::kDynamic) return;
  // Margin i would have cut the node while static_eval - margin_i >= beta; larger margins
  // cut less, so the candidates that would have pruned are a prefix.
  int n = 0;
  while (n < kCandidateCount && static_eval - kCandidates[n] * depth >= beta) ++n;
  if (n > 0) count(kFailHigh, depth, n, result < beta);
}

void FutilityController::record_move(int depth, Value static_eval, Value alpha, Value result) {
  if (mode_ != Mode::kDynamic) return;
  int n = 0;
  while (n < kCandidateCount && static_eval + kCandidates[n] * depth <= alpha) ++n;
  if (n > 0) count(kFailLow, depth, n, result > alpha);
}

void FutilityController::reconsider(Side side, int d) {
  for (int i = 0; i < kCandidateCount; ++i) {
    const uint64_t all = all_[side][d][i].load(std::memory_order_relaxed);
    if (all <= kSettleCount) continue;
    const uint64_t fail = fail_[side][d][i].load(std::memory_order_relaxed);
    // precision >= target  <=>  100 * (all - fail) >= target * all
    if (100 * (all - fail) >= uint64_t(target_percent_) * all) {
      adopted_[side][d].store(i, std::memory_order_relaxed);
      return;
    }
  }
}

std::string FutilityController::report() const {
  std::string out;
  for (int side = 0; side < 2; ++side) {
    for (int d = 0; d < 2; ++d) {
      char line[80];
      const int a = adopted_[side][d].load();
      std::snprintf(line, sizeof line, "%s depth %d margin %d:",
                    side == kFailHigh ? "fail-high" : "fail-low", d + 1,
                    a < 0 ? -1 : int(kCandidates[a] * (d + 1)));
      out += line;
      for (int i = 0; i < kCandidateCount; ++i) {
        const uint64_t all = all_[side][d][i].load(), fail = fail_[side][d][i].load();
        std::snprintf(line, sizeof line, " %d:%.2f/%llu", int(kCandidates[i] * (d + 1)),
                      all ? 1.0 - double(fail) / double(all) : 0.0, (unsigned long long)all);
        out += line;
      }
      out += "\n";
    }
  }
  return out;
}

}  // namespace engine
