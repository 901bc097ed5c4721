// Futility margins by target precision: counting and choosing.
#include "engine/futility.h"

#include <algorithm>
#include <cstdio>

#include "engine/names.h"

namespace engine {

void FutilityController::configure(Mode mode, int target_precision_percent, Value fixed_margin) {
  mode_ = mode;
  target_percent_ = target_precision_percent;
  fixed_margin_ = fixed_margin;
}

void FutilityController::reset() {
  for (int p = 0; p < kPhaseCount; ++p) {
    for (int side = 0; side < 2; ++side) {
      for (int d = 0; d < 2; ++d) {
        for (int i = 0; i < kCandidateCount; ++i) {
          all_[p][side][d][i].store(0, std::memory_order_relaxed);
          fail_[p][side][d][i].store(0, std::memory_order_relaxed);
          seen_[p][side][d][i].store(0, std::memory_order_relaxed);
        }
        adopted_[p][side][d].store(0, std::memory_order_relaxed);
        records_[p][side][d].store(0, std::memory_order_relaxed);
      }
    }
  }
}

void FutilityController::set_root_ply(int game_ply) {
  phase_.store(std::clamp((game_ply - 1) / kPhasePlies, 0, kPhaseCount - 1),
               std::memory_order_relaxed);
}

Value FutilityController::margin(Side side, int depth, uint64_t key) const {
  switch (mode_) {
    case Mode::kOff:
      return kValueNone;
    case Mode::kFixed:
      return fixed_margin_ * depth;
    case Mode::kPaper:
    case Mode::kDynamic: {
      const int p = mode_ == Mode::kDynamic ? phase_.load(std::memory_order_relaxed) : 0;
      const int i = adopted_[p][side][depth - 1].load(std::memory_order_relaxed) - 1;
      if (i < 0) return kValueNone;
      // The two sides verify different nodes (other bits of the key).
      if (mode_ == Mode::kDynamic &&
          ((key >> (side == kFailHigh ? 40 : 48)) & (kVerifyOneIn - 1)) == 0)
        return kValueNone;
      return kCandidates[i] * depth;
    }
  }
  return kValueNone;
}

void FutilityController::count(Side side, int depth, int candidates_pruning, Value excess) {
  const int d = depth - 1;
  const bool dynamic = mode_ == Mode::kDynamic;
  const int p = dynamic ? phase_.load(std::memory_order_relaxed) : 0;
  // A record the adopted margin would have pruned is a verification sample: it stands for
  // kVerifyOneIn such nodes. (In paper mode no such record reaches here.)
  const int adopted = adopted_[p][side][d].load(std::memory_order_relaxed) - 1;
  const uint64_t weight =
      dynamic && adopted >= 0 && adopted < candidates_pruning ? kVerifyOneIn : 1;
  const bool failed = excess > 0;
  uint64_t cost = kCostUnit;  // of a wrong prune, in the units of a correct one
  if (failed && dynamic) cost += std::min(excess, kCostCap);
  for (int i = 0; i < candidates_pruning; ++i) {
    all_[p][side][d][i].fetch_add(weight * (failed ? cost : kCostUnit), std::memory_order_relaxed);
    if (failed) fail_[p][side][d][i].fetch_add(weight * cost, std::memory_order_relaxed);
    seen_[p][side][d][i].fetch_add(weight, std::memory_order_relaxed);
  }
  // Re-decide now and then: cheap, and the choice tracks the statistics.
  if ((records_[p][side][d].fetch_add(1, std::memory_order_relaxed) & 63) == 0)
    reconsider(p, side, d);
}

void FutilityController::record_node(int depth, Value static_eval, Value beta, Value result) {
  if (mode_ != Mode::kDynamic && mode_ != Mode::kPaper) return;
  // Margin i would have cut the node while static_eval - margin_i >= beta; larger margins
  // cut less, so the candidates that would have pruned are a prefix.
  int n = 0;
  while (n < kCandidateCount && static_eval - kCandidates[n] * depth >= beta) ++n;
  if (n > 0) count(kFailHigh, depth, n, beta - result);
}

void FutilityController::record_move(int depth, Value static_eval, Value alpha, Value result) {
  if (mode_ != Mode::kDynamic && mode_ != Mode::kPaper) return;
  int n = 0;
  while (n < kCandidateCount && static_eval + kCandidates[n] * depth <= alpha) ++n;
  if (n > 0) count(kFailLow, depth, n, result - alpha);
}

void FutilityController::reconsider(int p, Side side, int d) {
  for (int i = 0; i < kCandidateCount; ++i) {
    if (seen_[p][side][d][i].load(std::memory_order_relaxed) <= kSettleCount) continue;
    const uint64_t all = all_[p][side][d][i].load(std::memory_order_relaxed);
    const uint64_t fail = fail_[p][side][d][i].load(std::memory_order_relaxed);
    // precision >= target  <=>  100 * (all - fail) >= target * all
    if (100 * (all - fail) >= uint64_t(target_percent_) * all) {
      adopted_[p][side][d].store(i + 1, std::memory_order_relaxed);
      return;
    }
  }
  // None is precise enough (any more): no pruning on this side until one is.
  adopted_[p][side][d].store(0, std::memory_order_relaxed);
}

std::string FutilityController::report() const {
  std::string out;
  for (int p = 0; p < kPhaseCount; ++p) {
    for (int side = 0; side < 2; ++side) {
      for (int d = 0; d < 2; ++d) {
        if (records_[p][side][d].load() == 0) continue;
        char line[96];
        const int a = adopted_[p][side][d].load() - 1;
        std::snprintf(line, sizeof line, "phase %d %s depth %d margin %d:", p,
                      side == kFailHigh ? "fail-high" : "fail-low", d + 1,
                      a < 0 ? -1 : int(kCandidates[a] * (d + 1)));
        out += line;
        for (int i = 0; i < kCandidateCount; ++i) {
          const uint64_t all = all_[p][side][d][i].load(), fail = fail_[p][side][d][i].load();
          std::snprintf(line, sizeof line, " %d:%.3f/%llu", int(kCandidates[i] * (d + 1)),
                        all ? 1.0 - double(fail) / double(all) : 0.0,
                        (unsigned long long)seen_[p][side][d][i].load());
          out += line;
        }
        out += "\n";
      }
    }
  }
  return out;
}

}  // namespace engine
