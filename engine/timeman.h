// Time management: how long one move may think under sudden death, byoyomi or Fischer.
#pragma once

#include <cstdint>

#include "engine/engine.h"
#include "engine/names.h"
#include "engine/search_params.h"

namespace engine {

// The time budget of one search, in milliseconds from its start.
struct TimeBudget {
  int64_t optimum_ms = 0;  // stop starting new iterations past this (scaled by instability)
  int64_t maximum_ms = 0;  // never think longer than this
  bool managed = false;    // false: no clock (infinite, depth, nodes); search until told
  bool spend_all = false;  // byoyomi-only or movetime: time not used is lost, so use it
};

// The time options a GUI or an operator sets (USI options of the same names; the last four
// are YaneuraOu's, which GUI users and tournament operators know).
struct TimeOptions {
  int64_t overhead_ms = 100;        // MoveOverhead: lost per move (GUI, network), from all
  int64_t network_delay_ms = 0;     // NetworkDelay: the usual delay, from the target time
  int64_t network_delay2_ms = 0;    // NetworkDelay2: the worst delay, from the hard limit
  int64_t minimum_thinking_ms = 0;  // MinimumThinkingTime: think at least this (main time)
  int slow_mover_percent = 100;     // SlowMover: scales the target time (main time)
};

// Computes the budget for the side to move. What the GUI or the network loses per move is
// subtracted from every allowance, so that the move arrives in time: the target time loses
// the larger of MoveOverhead and NetworkDelay, the hard limit the largest of the three
// delays. `ply` is the game ply (1 = Black's first move).
//   movetime: exactly that, less the hard limit's delay.
//   byoyomi with no main time left: all of the byoyomi less the hard limit's delay.
//   main time: a share of it (remaining / moves to go, more early in the middle game; about
//   half of that at the first move, rising to all of it at ply 24), plus the byoyomi or
//   most of the Fischer increment, times SlowMover, at least MinimumThinkingTime; the
//   maximum is three times that share at most and a quarter of what is left, and never more
//   than the time that can be spent without losing.
// The moves to go, the increment's share and the maximum's ratio are `params`' Time*.
TimeBudget compute_time_budget(const SearchLimits& limits, Color us, int ply,
                               const TimeOptions& time,
                               const SearchParams& params = SearchParams());

}  // namespace engine
