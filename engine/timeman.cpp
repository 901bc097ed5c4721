// Time management: the budget formulas.
#include "engine/timeman.h"

#include <algorithm>

#include "engine/names.h"

namespace engine {

TimeBudget compute_time_budget(const SearchLimits& limits, Color us, int ply,
                               const TimeOptions& time, const SearchParams& params) {
  TimeBudget b;
  constexpr int64_t kMinimumMs = 20;  // always leave the search a little
  const int64_t target_delay = std::max(time.overhead_ms, time.network_delay_ms);
  const int64_t hard_delay = std::max(target_delay, time.network_delay2_ms);
  if (limits.movetime_ms >= 0) {
    b.managed = true;
    b.optimum_ms = b.maximum_ms = std::max<int64_t>(kMinimumMs, limits.movetime_ms - hard_delay);
    b.spend_all = true;
    return b;
  }
  if (limits.infinite || limits.ponder || !limits.has_clock()) {
    if (!limits.infinite && !limits.ponder && limits.byoyomi_ms > 0) {
      b.managed = true;
      b.optimum_ms = b.maximum_ms = std::max<int64_t>(kMinimumMs, limits.byoyomi_ms - hard_delay);
      b.spend_all = true;
    }
    return b;
  }
  b.managed = true;
  const int64_t remaining = std::max<int64_t>(0, limits.time_left_ms[us]);
  const int64_t increment = limits.increment_ms[us];
  const int64_t byoyomi = limits.byoyomi_ms;
  // What can be spent on this move without losing on time. The Fischer increment is not
  // counted: under USI it is credited after the move (the CSA client passes a main time
  // that already includes an increment credited before the move).
  const int64_t safe = std::max<int64_t>(kMinimumMs, remaining + byoyomi - hard_delay);
  if (remaining == 0) {
    b.optimum_ms = b.maximum_ms = safe;
    b.spend_all = byoyomi > 0;
    return b;
  }
  // Moves still to play with this main time: more in the opening, fewer late.
  const int most_to_go = params[kTimeMovesToGo];
  const int moves_to_go = std::clamp(most_to_go - ply / 4, std::min(20, most_to_go), most_to_go);
  int64_t optimum =
      remaining / moves_to_go + increment * params[kTimeIncrementPercent] / 100 + byoyomi;
  // The opening: positions the books and the engine know, the whole game still to come: from
  // about half the share at the first move to all of it at kOpeningPlies.
  constexpr int kOpeningPlies = 24;
  if (ply < kOpeningPlies)
    optimum = optimum * (kOpeningPlies + std::max(ply, 0)) / (2 * kOpeningPlies);
  // An iteration started just before the optimum may run several times as long: the hard
  // limit stays within a few optimums, and within a quarter of what is left.
  int64_t maximum =
      std::min(remaining / 4 + increment + byoyomi, params[kTimeMaximumRatio] * optimum / 10);
  // With byoyomi, the main time is a bonus: do not burn it to the last second.
  if (byoyomi > 0) optimum = std::max(optimum, byoyomi);
  optimum = optimum * time.slow_mover_percent / 100;
  b.optimum_ms =
      std::clamp(std::max(optimum - target_delay, time.minimum_thinking_ms), kMinimumMs, safe);
  b.maximum_ms = std::clamp(maximum - hard_delay, b.optimum_ms, safe);
  return b;
}

}  // namespace engine
