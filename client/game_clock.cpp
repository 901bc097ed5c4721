// GameClock: the CSA time rules in milliseconds (see game_clock.h).
#include "client/game_clock.h"

#include <algorithm>

namespace client {

namespace {

using shogi::Color;

int64_t clamp_ms(int64_t v) { return std::clamp<int64_t>(v, 0, kMaxTimeMs); }

}  // namespace

ClockRules clock_rules_from(const TimeRules& t) {
  ClockRules r;
  const int64_t u = std::max<int64_t>(1, t.unit_ms);
  auto ms = [&](int64_t v) { return v > kMaxTimeMs / u ? kMaxTimeMs : v * u; };
  r.total_ms = ms(t.total_time);
  r.byoyomi_ms = ms(t.byoyomi);
  r.increment_ms = ms(t.increment);
  r.delay_ms = ms(t.delay);
  r.least_ms = ms(t.least_time_per_move);
  r.unit_ms = u;
  r.roundup = t.time_roundup;
  r.unlimited = t.unlimited();
  return r;
}

GameClock::GameClock(const ClockRules& black, const ClockRules& white) {
  rules_[shogi::kBlack] = black;
  rules_[shogi::kWhite] = white;
  for (Color c : {shogi::kBlack, shogi::kWhite}) remaining_ms_[c] = rules_[c].total_ms;
}

GameClock GameClock::from_summary(const GameSummary& s, const ClockOptions& options) {
  ClockRules rules[shogi::kColorNb];
  bool stop_watch = false;
  for (Color c : {shogi::kBlack, shogi::kWhite}) rules[c] = clock_rules_from(s.time[c]);
  // shogi-server's stop-watch games ("<name>-600-060"): Time_Unit:1min, values in seconds.
  const TimeRules& t = s.time[shogi::kBlack];
  if (const auto g = parse_game_name_time(game_name_from_id(s.game_id));
      g && g->stop_watch && !s.per_side_time && t.unit_ms == 60000 && g->byoyomi_s > 0 &&
      t.total_time == g->total_s && t.byoyomi == g->byoyomi_s) {
    stop_watch = true;
    for (ClockRules& r : rules) {
      r = ClockRules();
      r.total_ms = t.total_time * 1000;
      r.unit_ms = t.byoyomi * 1000;
      r.least_ms = t.least_time_per_move * 1000;
      r.unlimited = t.total_time == 0;
    }
  }
  GameClock clock(rules[shogi::kBlack], rules[shogi::kWhite]);
  clock.options_ = options;
  clock.stop_watch_ = stop_watch;
  clock.t_unit_ms_ =
      (options.t_in_time_unit && !stop_watch) ? std::max<int64_t>(1, t.unit_ms) : 1000;
  Color mover = s.initial.side_to_move;
  for (const SummaryMove& m : s.moves) {
    if (m.t_milli) clock.charge_t(mover, *m.t_milli);
    mover = ~mover;
  }
  // Moves played before never add time: shogi-server starts a buoy game's clocks at
  // Total_Time whatever its moves' T, so the increments charge_t credited them (Fischer) are
  // not there; a resumed game keeps its time used.
  for (Color c : {shogi::kBlack, shogi::kWhite})
    clock.remaining_ms_[c] = std::min(clock.remaining_ms_[c], clock.rules_[c].total_ms);
  return clock;
}

int64_t GameClock::t_to_ms(int64_t t_milli) const {
  t_milli = std::max<int64_t>(0, t_milli);
  const int64_t whole = t_milli / 1000, frac = t_milli % 1000;
  if (whole > kMaxTimeMs / t_unit_ms_) return kMaxTimeMs;
  return clamp_ms(whole * t_unit_ms_ + frac * t_unit_ms_ / 1000);
}

void GameClock::charge_ms(Color c, int64_t charged) {
  charged = clamp_ms(charged);
  const ClockRules& r = rules_[c];
  remaining_ms_[c] = clamp_ms(std::max<int64_t>(0, remaining_ms_[c] + r.increment_ms - charged));
  used_ms_[c] = clamp_ms(used_ms_[c] + charged);
}

int64_t GameClock::charged_ms(Color c, int64_t elapsed_ms) const {
  const ClockRules& r = rules_[c];
  int64_t e = clamp_ms(elapsed_ms);
  if (options_.trust_delay) e = std::max<int64_t>(0, e - r.delay_ms);
  const int64_t u = std::max<int64_t>(1, r.unit_ms);
  int64_t t = (r.roundup ? (e + u - 1) / u : e / u) * u;
  return std::max(t, r.least_ms);
}

int64_t GameClock::available_ms(Color c) const {
  const ClockRules& r = rules_[c];
  if (r.unlimited) return kNoLimit;
  return remaining_ms_[c] + r.increment_ms + r.byoyomi_ms;
}

bool GameClock::is_time_up(Color c, int64_t elapsed_ms) const {
  return !rules_[c].unlimited && charged_ms(c, elapsed_ms) >= available_ms(c);
}

int64_t GameClock::think_limit_ms(Color c, int64_t rtt_ms, int64_t margin_ms) const {
  const ClockRules& r = rules_[c];
  if (r.unlimited) return kNoLimit;
  int64_t limit = available_ms(c);
  if (options_.trust_delay) limit += r.delay_ms;
  // Truncation: any elapsed time below the available time is safe (so 1 ms less). Rounding up:
  // the elapsed time counts one unit more, so one unit less.
  limit -= r.roundup ? r.unit_ms : 1;
  limit -= std::max<int64_t>(0, rtt_ms) + std::max<int64_t>(0, margin_ms);
  return std::max<int64_t>(0, limit);
}

engine::SearchLimits GameClock::search_limits(Color us, int64_t rtt_ms, int64_t margin_ms,
                                              int64_t unlimited_move_ms) const {
  engine::SearchLimits l;
  const Color them = ~us;
  if (!rules_[them].unlimited) {
    l.time_left_ms[them] = remaining_ms_[them];
    l.increment_ms[them] = rules_[them].increment_ms;
  }
  const ClockRules& r = rules_[us];
  if (r.unlimited) {
    l.time_left_ms[them] = -1;
    l.movetime_ms = std::max<int64_t>(0, unlimited_move_ms);
    return l;
  }
  const int64_t main = remaining_ms_[us] + r.increment_ms + (options_.trust_delay ? r.delay_ms : 0);
  const int64_t limit = think_limit_ms(us, rtt_ms, margin_ms);
  const int64_t reserve = std::max<int64_t>(0, main + r.byoyomi_ms - limit);
  const int64_t from_byoyomi = std::min(reserve, r.byoyomi_ms);
  l.byoyomi_ms = r.byoyomi_ms - from_byoyomi;
  l.time_left_ms[us] = std::max<int64_t>(0, main - (reserve - from_byoyomi));
  l.increment_ms[us] = r.increment_ms;
  return l;
}

}  // namespace client
