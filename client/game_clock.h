// GameClock: both sides' clocks in a CSA game as the server keeps them, and what we may spend.
#pragma once

// The server is authoritative: remaining times move only by the T values it reports. The rules
// are shogi-server's (docs/csa-protocol.md section 1.5, time_clock.rb):
//   charged   t = max(elapsed truncated to the Time_Unit, Least_Time_Per_Move)
//                 (rounded up instead with Time_Roundup:YES)
//   time up   when remaining - t + Byoyomi + Increment <= 0
//   after     remaining = max(0, remaining + Increment - t)
// so the Fischer increment is credited before every move, the first included, and a move may
// use remaining + Increment + Byoyomi, exclusive. The network round trip is charged to the mover.

#include <cstdint>

#include "client/csa_protocol.h"
#include "engine/engine.h"
#include "shogi/types.h"

namespace client {

struct ClockOptions {
  // T values count seconds whatever the Time_Unit, as shogi-server sends them (and as ShogiHome
  // reads them since its 2026 fix); true reads them in Time_Unit instead. Reading seconds is the
  // safe error: a server sending Time_Unit values would look like it charges us more, not less.
  // Default: false.
  bool t_in_time_unit = false;
  // Spend the Delay (a time at the start of each move that would not be charged). Its meaning is
  // not confirmed on any server (section 1.3), so by default it is reported but never spent.
  // Default: false.
  bool trust_delay = false;
};

// One side's time rules in milliseconds.
struct ClockRules {
  int64_t total_ms = 0;
  int64_t byoyomi_ms = 0;
  int64_t increment_ms = 0;  // Fischer, credited before each move
  int64_t delay_ms = 0;
  int64_t least_ms = 0;    // Least_Time_Per_Move: the least any move is charged
  int64_t unit_ms = 1000;  // elapsed time is truncated (or rounded up) to multiples of this
  bool roundup = false;    // Time_Roundup:YES
  bool unlimited = false;  // no time limit (Total_Time, Byoyomi and Increment all 0)
};

// Rules from a summary's time block, as written (values times unit_ms).
ClockRules clock_rules_from(const TimeRules& t);

// Both clocks. A plain value type; not thread-safe.
class GameClock {
 public:
  static constexpr int64_t kNoLimit = int64_t(1) << 50;

  GameClock() { rules_[0].unlimited = rules_[1].unlimited = true; }
  GameClock(const ClockRules& black, const ClockRules& white);
  // The clocks at the start of a game: the summary's rules (Time, or Time+ / Time-), with the
  // moves already played charged their T and credited no increment (never above Total_Time).
  // Recognises shogi-server's stop-watch games, whose summary says Time_Unit:1min but gives
  // Total_Time and Byoyomi in seconds (time_clock.rb StopWatchClock: elapsed time truncated to
  // whole "Byoyomi" periods, no byoyomi as such).
  static GameClock from_summary(const GameSummary& summary, const ClockOptions& options = {});

  const ClockRules& rules(shogi::Color c) const { return rules_[c]; }
  bool stop_watch() const { return stop_watch_; }
  // Main time left, before the increment of c's next move is credited.
  int64_t remaining_ms(shogi::Color c) const { return remaining_ms_[c]; }
  // Total charged to c so far.
  int64_t used_ms(shogi::Color c) const { return used_ms_[c]; }

  // A T value (MoveLine::t_milli) in milliseconds under the options. Saturates at kMaxTimeMs.
  int64_t t_to_ms(int64_t t_milli) const;
  // Charges a move of c as the server reported it: remaining = max(0, remaining + inc - t).
  void charge_ms(shogi::Color c, int64_t charged_ms);
  void charge_t(shogi::Color c, int64_t t_milli) { charge_ms(c, t_to_ms(t_milli)); }

  // What the server charges c for a move that took `elapsed_ms` from its turn start.
  int64_t charged_ms(shogi::Color c, int64_t elapsed_ms) const;
  // remaining + increment + byoyomi: c's move loses when it is charged this much or more.
  // kNoLimit when c has no time limit.
  int64_t available_ms(shogi::Color c) const;
  // The server's time-up rule for a move of c that took `elapsed_ms`.
  bool is_time_up(shogi::Color c, int64_t elapsed_ms) const;
  // The longest c may think, measured locally from receiving the previous move, and still have
  // its move reach the server in time: the available time (one unit less when rounding up;
  // plus the delay when trusted), less the round trip and the margin. Never negative;
  // kNoLimit when c has no time limit.
  int64_t think_limit_ms(shogi::Color c, int64_t rtt_ms, int64_t margin_ms) const;

  // What the engine is told for our move (USI btime/wtime, byoyomi, binc/winc), such that
  // time_left[us] + byoyomi == think_limit_ms(us, rtt, margin): the engine never loses on time
  // as long as it keeps within its clock. Our main time includes this move's increment (the
  // engine's time manager expects it so: engine/timeman.cpp); the round trip and margin are
  // taken from the byoyomi first, then from the main time. The opponent's entry is its
  // remaining time. With no time limit for us, movetime = unlimited_move_ms.
  engine::SearchLimits search_limits(shogi::Color us, int64_t rtt_ms, int64_t margin_ms,
                                     int64_t unlimited_move_ms) const;

 private:
  ClockRules rules_[shogi::kColorNb];
  int64_t remaining_ms_[shogi::kColorNb] = {0, 0};
  int64_t used_ms_[shogi::kColorNb] = {0, 0};
  ClockOptions options_;
  int64_t t_unit_ms_ = 1000;  // what one T counts
  bool stop_watch_ = false;
};

}  // namespace client
