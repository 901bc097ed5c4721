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
  for (int d = 0; d < 2; ++d) {
    for (int i = 0; i < kCandidateCount; ++i) {
      all_[d][i].store(0, std::memory_order_relaxed);
      fail_[d][i].store(0, std::memory_order_relaxed);
    }
    adopted_[d].store(-1, std::memory_order_relaxed);
    records_[d].store(0, std::memory_order_relaxed);
  }
}

Value FutilityController::margin(int depth) const {
  switch (mode_) {
    case Mode::kOff:
      return kValueNone;
    case Mode::kFixed:
      return fixed_margin_ * depth;
    case Mode::kDynamic: {
      const int i = adopted_[depth - 1].load(std::memory_order_relaxed);
      return i < 0 ? kValueNone : kCandidates[i] * depth;
    }
  }
  return kValueNone;
}

void FutilityController::record(int depth, Value static_eval, Value beta, Value result) {
  if (mode_ != Mode::kDynamic) return;
  const int d = depth - 1;
  const bool failed = result < beta;
  for (int i = 0; i < kCandidateCount; ++i) {
    if (static_eval - kCandidates[i] * depth < beta) break;  // larger margins prune less
    all_[d][i].fetch_add(1, std::memory_order_relaxed);
    if (failed) fail_[d][i].fetch_add(1, std::memory_order_relaxed);
  }
  // Re-decide now and then: cheap, and the choice tracks the statistics.
  if ((records_[d].fetch_add(1, std::memory_order_relaxed) & 63) == 0) reconsider(d);
}

void FutilityController::reconsider(int d) {
  for (int i = 0; i < kCandidateCount; ++i) {
    const uint64_t all = all_[d][i].load(std::memory_order_relaxed);
    if (all <= kSettleCount) continue;
    const uint64_t fail = fail_[d][i].load(std::memory_order_relaxed);
    // precision >= target  <=>  100 * (all - fail) >= target * all
    if (100 * (all - fail) >= uint64_t(target_percent_) * all) {
      adopted_[d].store(i, std::memory_order_relaxed);
      return;
    }
  }
}

std::string FutilityController::report() const {
  std::string out;
  for (int d = 0; d < 2; ++d) {
    char line[64];
    const int a = adopted_[d].load();
    std::snprintf(line, sizeof line, "depth %d margin %d:", d + 1,
                  a < 0 ? -1 : int(kCandidates[a] * (d + 1)));
    out += line;
    for (int i = 0; i < kCandidateCount; ++i) {
      const uint64_t all = all_[d][i].load(), fail = fail_[d][i].load();
      std::snprintf(line, sizeof line, " %d:%.2f/%llu", int(kCandidates[i] * (d + 1)),
                    all ? 1.0 - double(fail) / double(all) : 0.0, (unsigned long long)all);
      out += line;
    }
    out += "\n";
  }
  return out;
}

}  // namespace engine
