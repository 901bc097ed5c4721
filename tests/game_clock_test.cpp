// GameClock: the CSA time rules (truncation, byoyomi, Fischer, units, roundup, delay) in ms.
#include "client/game_clock.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

namespace game_clock_test {

using namespace client;
using shogi::kBlack;
using shogi::kWhite;

namespace {

ClockRules rules(int64_t total_ms, int64_t byoyomi_ms, int64_t increment_ms) {
  ClockRules r;
  r.total_ms = total_ms;
  r.byoyomi_ms = byoyomi_ms;
  r.increment_ms = increment_ms;
  r.unlimited = total_ms == 0 && byoyomi_ms == 0 && increment_ms == 0;
  return r;
}

// The clocks of a summary with this BEGIN Time block (fields separated by '\n'), read by the
// SummaryParser, with `moves` played before the game.
GameClock clock_of(const std::string& time_block, const ClockOptions& options = {},
                   const std::string& moves = "",
                   const std::string& game_id = "research+demo-60-5+alice+bob+20261125211451") {
  const std::string text = "BEGIN Game_Summary\nProtocol_Version:1.2\nGame_ID:" + game_id +
                           "\nName+:alice\nName-:bob\nYour_Turn:+\nTo_Move:+\nBEGIN Time\n" +
                           time_block + "\nEND Time\nBEGIN Position\nPI\n+\n" + moves +
                           "END Position\nEND Game_Summary";
  SummaryParser parser;
  SummaryParser::Result r = SummaryParser::Result::kNeedMore;
  for (size_t p = 0; p < text.size();) {
    const size_t e = std::min(text.find('\n', p), text.size());
    r = parser.feed(text.substr(p, e - p));
    p = e + 1;
  }
  REQUIRE_MESSAGE(r == SummaryParser::Result::kDone, parser.error());
  return GameClock::from_summary(parser.summary(), options);
}

}  // namespace

TEST_CASE("clock: sudden death (floodgate-900-0)") {
  GameClock c(rules(900000, 0, 0), rules(900000, 0, 0));
  CHECK(c.available_ms(kBlack) == 900000);
  CHECK(c.think_limit_ms(kBlack, 100, 1000) == 900000 - 1 - 100 - 1000);
  c.charge_ms(kBlack, 10000);
  CHECK(c.remaining_ms(kBlack) == 890000);
  CHECK(c.used_ms(kBlack) == 10000);
  CHECK(!c.is_time_up(kBlack, 889999));
  CHECK(c.is_time_up(kBlack, 890000));  // remaining - t <= 0 loses
  const engine::SearchLimits l = c.search_limits(kBlack, 100, 1000, 10000);
  CHECK(l.time_left_ms[kBlack] + l.byoyomi_ms == c.think_limit_ms(kBlack, 100, 1000));
  CHECK(l.byoyomi_ms == 0);
  CHECK(l.time_left_ms[kWhite] == 900000);
  c.charge_ms(kBlack, 2000000);
  CHECK(c.remaining_ms(kBlack) == 0);
  CHECK(c.think_limit_ms(kBlack, 100, 1000) == 0);
}

TEST_CASE("clock: byoyomi (floodgate-600-10); the silent and timeup transcripts") {
  GameClock c(rules(600000, 10000, 0), rules(600000, 10000, 0));
  engine::SearchLimits l = c.search_limits(kWhite, 200, 1000, 0);
  CHECK(l.time_left_ms[kWhite] == 600000);  // the reserve comes out of the byoyomi
  CHECK(l.byoyomi_ms == 10000 - 1201);
  c.charge_ms(kWhite, 605000);
  CHECK(c.remaining_ms(kWhite) == 0);
  CHECK(c.available_ms(kWhite) == 10000);
  CHECK(!c.is_time_up(kWhite, 9999));
  CHECK(c.is_time_up(kWhite, 10000));
  l = c.search_limits(kWhite, 200, 1000, 0);
  CHECK(l.time_left_ms[kWhite] == 0);
  CHECK(l.byoyomi_ms == 10000 - 1201);
  // tu-0-2: 0 s + 2 s byoyomi; thinking 3.0 s loses, 1.9 s does not.
  GameClock t(rules(0, 2000, 0), rules(0, 2000, 0));
  CHECK(t.is_time_up(kBlack, 3001));
  CHECK(!t.is_time_up(kBlack, 1999));
  CHECK(t.think_limit_ms(kBlack, 0, 1000) == 999);
  // A byoyomi shorter than the reserve: the rest comes out of the main time.
  GameClock s(rules(5000, 500, 0), rules(5000, 500, 0));
  l = s.search_limits(kBlack, 300, 1000, 0);
  CHECK(l.byoyomi_ms == 0);
  CHECK(l.time_left_ms[kBlack] == 5000 + 500 - 1301);
}

TEST_CASE("clock: Fischer credited before every move (the fischer transcript, fi-2-3F)") {
  GameClock c(rules(2000, 0, 3000), rules(2000, 0, 3000));
  CHECK(c.available_ms(kBlack) == 5000);  // move 1 may use Total + Increment
  CHECK(!c.is_time_up(kBlack, 4300));     // 4.3 s: accepted as T4
  c.charge_ms(kBlack, 4000);
  CHECK(c.remaining_ms(kBlack) == 1000);  // 2 + 3 - 4
  CHECK(c.available_ms(kBlack) == 4000);  // 1 + 3
  CHECK(c.is_time_up(kBlack, 4200));      // 4.2 s: #TIME_UP
  const engine::SearchLimits l = c.search_limits(kBlack, 0, 500, 0);
  CHECK(l.increment_ms[kBlack] == 3000);
  CHECK(l.time_left_ms[kBlack] == 4000 - 1 - 500);  // main time includes this move's increment
  CHECK(l.byoyomi_ms == 0);
  // floodgate-300-10F from a summary.
  GameClock f = clock_of("Time_Unit:1sec\nTotal_Time:300\nByoyomi:0\nIncrement:10");
  CHECK(f.available_ms(kWhite) == 310000);
  f.charge_t(kWhite, 30000);  // T30
  CHECK(f.remaining_ms(kWhite) == 280000);
}

TEST_CASE("clock: Time_Unit msec and min, T counted in seconds (or in Time_Unit)") {
  const std::string msec = "Time_Unit:1msec\nTotal_Time:30000\nByoyomi:5000";
  GameClock c = clock_of(msec);
  CHECK(c.rules(kBlack).total_ms == 30000);
  CHECK(c.rules(kBlack).byoyomi_ms == 5000);
  CHECK(c.rules(kBlack).unit_ms == 1);
  CHECK(c.charged_ms(kBlack, 1234) == 1234);
  CHECK(c.t_to_ms(3000) == 3000);  // T3 is three seconds
  c.charge_t(kBlack, 3500);        // T3.5
  CHECK(c.remaining_ms(kBlack) == 26500);
  ClockOptions in_units;
  in_units.t_in_time_unit = true;
  CHECK(clock_of(msec, in_units).t_to_ms(3000) == 3);  // T3 would be 3 ms
  const std::string min = "Time_Unit:1min\nTotal_Time:10\nByoyomi:1";
  c = clock_of(min);
  CHECK(c.rules(kBlack).total_ms == 600000);
  CHECK(c.rules(kBlack).byoyomi_ms == 60000);
  CHECK(c.charged_ms(kBlack, 119999) == 60000);  // truncated to whole minutes
  CHECK(clock_of(min, in_units).t_to_ms(2000) == 120000);
  CHECK(!c.stop_watch());
}

TEST_CASE("clock: shogi-server stop-watch games (Time_Unit:1min, values in seconds)") {
  const std::string block = "Time_Unit:1min\nTotal_Time:600\nByoyomi:60";
  GameClock c = clock_of(block, {}, "", "research+sw-600-060+a+b+20261125000000");
  CHECK(c.stop_watch());
  CHECK(c.rules(kBlack).total_ms == 600000);
  CHECK(c.rules(kBlack).byoyomi_ms == 0);
  CHECK(c.charged_ms(kBlack, 119000) == 60000);  // whole minutes, truncated
  c.charge_t(kBlack, 61000);                     // the server reports T61 (seconds)
  CHECK(c.remaining_ms(kBlack) == 539000);
  CHECK(c.is_time_up(kBlack, 540000));
  CHECK(!clock_of(block).stop_watch());  // another game name: 600 minutes, taken as written
}

TEST_CASE("clock: Time_Roundup, Least_Time_Per_Move, Delay, unlimited, moves played") {
  ClockRules r = rules(0, 10000, 0);
  r.roundup = true;
  GameClock c(r, r);
  CHECK(c.charged_ms(kBlack, 1001) == 2000);
  CHECK(c.think_limit_ms(kBlack, 0, 0) == 9000);  // 9.0 s is charged 9, 9.001 s is charged 10
  CHECK(!c.is_time_up(kBlack, 9000));
  CHECK(c.is_time_up(kBlack, 9001));
  r = rules(60000, 0, 0);
  r.least_ms = 1000;
  CHECK(GameClock(r, r).charged_ms(kBlack, 200) == 1000);
  const std::string delay = "Time_Unit:1sec\nTotal_Time:60\nByoyomi:5\nDelay:3";
  CHECK(clock_of(delay).think_limit_ms(kBlack, 0, 0) == 65000 - 1);  // Delay not trusted
  ClockOptions trust;
  trust.trust_delay = true;
  GameClock d = clock_of(delay, trust);
  CHECK(d.think_limit_ms(kBlack, 0, 0) == 68000 - 1);
  CHECK(d.charged_ms(kBlack, 4500) == 1000);
  GameClock u = clock_of("Time_Unit:1sec\nTotal_Time:0\nByoyomi:0\nIncrement:0");
  CHECK(u.rules(kBlack).unlimited);
  CHECK(u.available_ms(kBlack) == GameClock::kNoLimit);
  CHECK(!u.is_time_up(kBlack, 1000000000));
  const engine::SearchLimits l = u.search_limits(kBlack, 0, 1000, 7000);
  CHECK(l.movetime_ms == 7000);
  CHECK(!l.has_clock());
  // Moves already played are charged their T.
  GameClock m = clock_of("Total_Time:60\nByoyomi:5", {}, "+7776FU,T10\n-3334FU,T20\n");
  CHECK(m.remaining_ms(kBlack) == 50000);
  CHECK(m.remaining_ms(kWhite) == 40000);
  CHECK(m.t_to_ms(int64_t(1) << 60) == kMaxTimeMs);  // saturates, no overflow
  // Fischer: no increment for moves played before (a buoy game starts at Total_Time on
  // shogi-server): never more than Total_Time, less when the moves took more than it.
  GameClock f = clock_of("Total_Time:300\nByoyomi:0\nIncrement:10", {},
                         "+7776FU,T1\n-3334FU,T1\n+2726FU,T1\n-8384FU,T25\n");
  CHECK(f.remaining_ms(kBlack) == 300000);
  CHECK(f.remaining_ms(kWhite) == 300000 - 26000 + 20000);
  CHECK(f.available_ms(kBlack) == 310000);
}

}  // namespace game_clock_test
