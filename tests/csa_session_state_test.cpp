// CSA client session: the state machine's paths the transcripts do not take.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "client/csa_session.h"
#include "shogi/csa_notation.h"
#include "tests/csa_test_driver.h"
#include "tests/search_request.h"

namespace csa_session_state_test {

using namespace client;
using namespace csa_test;
using shogi::kBlack;
using shogi::kWhite;

namespace {

SessionConfig config(bool x1 = false) {
  SessionConfig c;
  c.name = "alice";
  c.password = x1 ? "trip" : "demo-60-5,trip";
  c.x1 = x1;
  c.x1_game_name = "floodgate-300-10F";
  c.keep_alive_s = 0;
  return c;
}

GameSummary make_summary(const std::string& id, shogi::Color you, int total_s, int byoyomi_s,
                         int increment_s = 0) {
  GameSummary s;
  s.protocol_version = "1.2";
  s.protocol_mode = "Server";
  s.format = "Shogi 1.0";
  s.declaration = "Jishogi 1.1";
  s.game_id = "research+" + id + "+alice+bob+20261125000000";
  s.names[kBlack] = you == kBlack ? "alice" : "bob";
  s.names[kWhite] = you == kBlack ? "bob" : "alice";
  s.your_turn = you;
  s.max_moves = 256;
  for (TimeRules& t : s.time)
    t.total_time = total_s, t.byoyomi = byoyomi_s, t.increment = increment_s;
  s.initial = shogi::csa_start_setup();
  return s;
}

void offer(Driver& d, int64_t now, const GameSummary& s) {
  for (const std::string& l : format_game_summary(s)) d.server(now, l);
}

// Start, login, summary, START.
void start_game(Driver& d, int64_t now, const GameSummary& s) {
  d.handle(now, event::Start{});
  d.server(now + 50, "LOGIN:alice OK");
  offer(d, now + 60, s);
  d.server(now + 70, "START:" + s.game_id);
}

void answer(Driver& d, int64_t now, const std::string& line) {
  REQUIRE(!d.searches.empty());
  d.handle(now,
           event::EngineMoveReady{d.searches.back().id, engine_answer(d.searches.back(), line)});
}

}  // namespace

TEST_CASE("session: x1 plays several games on one connection, then LOGOUT") {
  SessionConfig c = config(true);
  c.games = 2;
  Driver d(c);
  d.handle(0, event::Start{});
  d.server(10, "LOGIN:alice OK");
  CHECK(d.transport.sent == std::vector<std::string>{"LOGIN alice trip x1"});
  d.server(10, "##[LOGIN] +OK x1");
  CHECK(d.transport.sent.back() == "%%GAME floodgate-300-10F *");
  for (int g = 1; g <= 2; ++g) {
    const GameSummary s = make_summary("g" + std::to_string(g), kWhite, 300, 0, 10);
    offer(d, 1000 * g, s);
    CHECK(d.transport.sent.back() == "AGREE " + s.game_id);
    d.server(1000 * g, "START:" + s.game_id);
    d.server(1000 * g + 100, "+7776FU,T3");
    answer(d, 1000 * g + 200, "-3334FU,'* -40 +2726FU");
    CHECK(d.transport.sent.back() == "-3334FU,'* -40 +2726FU");
    d.server(1000 * g + 300, "-3334FU,T1");
    CHECK(d.session.clock().remaining_ms(kWhite) == 300000 + 10000 - 1000);
    for (const char* l : {"%TORYO", "#RESIGN", "#WIN"}) d.server(1000 * g + 400, l);
    CHECK(d.results.back().outcome == GameOutcome::kWin);
    CHECK(d.transport.sent.back() == (g == 1 ? "%%GAME floodgate-300-10F *" : "LOGOUT"));
  }
  d.server(3000, "LOGOUT:completed");
  REQUIRE(d.finished);
  CHECK(d.finished->ok);
  CHECK(d.session.games_played() == 2);
  CHECK(!d.transport.is_open());
  CHECK(d.transport.connects == 1);
}

TEST_CASE("session: x1, an ##[ERROR] answering %%GAME ends the run instead of waiting for ever") {
  Driver d(config(true));
  d.handle(0, event::Start{});
  d.server(10, "LOGIN:alice OK");
  d.server(10, "##[LOGIN] +OK x1");
  REQUIRE(d.transport.sent.back() == "%%GAME floodgate-300-10F *");
  d.server(20, "##[ERROR] bad game name: floodgate-300-10F.");
  REQUIRE(d.finished);
  CHECK(!d.finished->ok);
  CHECK(d.finished->reason.find("refused %%GAME floodgate-300-10F *") != std::string::npos);
  CHECK(d.finished->reason.find("bad game name") != std::string::npos);
  CHECK(!d.transport.is_open());
  CHECK(d.transport.connects == 1);

  // After an operator's %% command the error may answer that command: logged, waiting on.
  Driver u(config(true));
  u.handle(0, event::Start{});
  u.server(10, "LOGIN:alice OK");
  u.server(10, "##[LOGIN] +OK x1");
  u.handle(15, event::UserCommand{"%%FOO"});
  u.server(20, "##[ERROR] unknown command: %%FOO");
  CHECK(!u.finished);
  CHECK(u.count_logs(LogLevel::kWarning, "##[ERROR] unknown command") == 1);
  CHECK(u.session.state() == CsaSession::State::kWaitingForGame);

  // Once a game summary has come, a later error is no refusal of %%GAME.
  Driver g(config(true));
  g.handle(0, event::Start{});
  g.server(10, "LOGIN:alice OK");
  g.server(10, "##[LOGIN] +OK x1");
  const GameSummary s = make_summary("g", kWhite, 300, 0, 10);
  offer(g, 100, s);
  g.server(110, "##[ERROR] unknown command: x");
  CHECK(!g.finished);
  CHECK(g.transport.sent.back() == "AGREE " + s.game_id);
}

TEST_CASE("session: CSA mode logs in again for each game after the server closes") {
  SessionConfig c = config();
  c.games = 2;
  Driver d(c);
  d.auto_reconnect = true;
  start_game(d, 0, make_summary("g1", kBlack, 60, 5));
  answer(d, 1000, "+7776FU");
  d.server(1010, "+7776FU,T1");
  d.server(2000, "-3334FU,T1");
  CHECK(d.searches.size() == 2);
  for (const char* l : {"%TORYO", "#RESIGN", "#WIN"}) d.server(2100, l);
  CHECK(d.stops.size() == 1);  // the search running when the game ended was stopped
  CHECK(d.session.state() == CsaSession::State::kGameOver);
  d.transport.server_closes();
  d.pump(2200);
  CHECK(d.connect_delays == std::vector<int64_t>{0, 1000});
  CHECK(d.transport.connects == 2);
  CHECK(d.transport.sent.back() == "LOGIN alice demo-60-5,trip");
  d.server(3300, "LOGIN:alice OK");
  const GameSummary s2 = make_summary("g2", kWhite, 60, 5);
  offer(d, 3400, s2);
  d.server(3500, "START:" + s2.game_id);
  CHECK(d.session.position().plies_played() == 0);
  for (const char* l : {"#TIME_UP", "#WIN"}) d.server(9000, l);
  d.transport.server_closes();
  d.pump(9100);
  REQUIRE(d.finished);
  CHECK(d.finished->reason == "all games played");
  CHECK(d.games_started == 2);
}

TEST_CASE("session: keep-alive after N s of silence, never under 30 s, not before login") {
  SessionConfig c = config();
  c.keep_alive_s = 5;  // raised to 30
  Driver d(c);
  d.handle(0, event::Start{});
  CHECK(d.session.next_wakeup_ms() == CsaSession::kNever);
  d.server(100, "LOGIN:alice OK");
  CHECK(d.session.next_wakeup_ms() == 30000);
  d.advance_to(29999);
  CHECK(d.transport.sent.size() == 1);
  d.advance_to(30000);
  CHECK(d.transport.sent.back().empty());
  d.server(30010, "");  // the server's answer is ignored
  CHECK(d.session.next_wakeup_ms() == 60000);
  offer(d, 45000, make_summary("g", kBlack, 60, 5));  // AGREE counts as traffic
  CHECK(d.session.next_wakeup_ms() == 75000);
  Driver off(config());
  off.handle(0, event::Start{});
  off.server(100, "LOGIN:alice OK");
  CHECK(off.session.next_wakeup_ms() == CsaSession::kNever);
}

TEST_CASE("session: games we cannot or will not play are rejected with the reason") {
  GameSummary s = make_summary("g", kBlack, 60, 5);
  s.rematch_on_draw = true;
  Driver d(config());
  d.handle(0, event::Start{});
  d.server(10, "LOGIN:alice OK");
  offer(d, 20, s);
  CHECK(d.transport.sent.back() == "REJECT " + s.game_id);
  d.server(30, "REJECT:" + s.game_id + " by alice");
  REQUIRE(d.rejections.size() == 1);
  CHECK(d.rejections[0].reason.find("Rematch_On_Draw") != std::string::npos);
  // An unreadable summary is rejected once its END arrives.
  Driver u(config());
  u.handle(0, event::Start{});
  u.server(10, "LOGIN:alice OK");
  std::vector<std::string> lines = format_game_summary(make_summary("g", kBlack, 60, 5));
  for (std::string& l : lines)
    if (l.starts_with("Total_Time")) l = "Total_Time:abc";
  for (size_t i = 0; i + 1 < lines.size(); ++i) u.server(20, lines[i]);
  CHECK(u.transport.sent.size() == 1);
  u.server(20, lines.back());
  CHECK(u.transport.sent.back().starts_with("REJECT research+g+"));
  CHECK(u.count_logs(LogLevel::kError, "Total_Time:abc") == 1);
  // Our own policy.
  SessionConfig c = config();
  c.send_game_id = false;
  c.game_filter = [](const GameSummary& g) {
    return g.names[~g.your_turn] == "bob" ? "no games against bob" : "";
  };
  Driver f(c);
  f.handle(0, event::Start{});
  f.server(10, "LOGIN:alice OK");
  offer(f, 20, make_summary("g", kWhite, 60, 5));
  CHECK(f.transport.sent.back() == "REJECT");
  CHECK(f.count_logs(LogLevel::kWarning, "no games against bob") == 1);
}

TEST_CASE("session: login refused, connection lost in a game, quitting") {
  Driver d(config());
  d.handle(0, event::Start{});
  d.server(10, "LOGIN:incorrect");
  REQUIRE(d.finished);
  CHECK(!d.finished->ok);
  CHECK(!d.transport.is_open());
  CHECK(d.session.redact("LOGIN alice demo-60-5,trip") == "LOGIN alice *****");
  SessionConfig c = config();
  c.games = 3;
  Driver lost(c);
  start_game(lost, 0, make_summary("g", kBlack, 60, 5));
  lost.transport.server_closes();
  lost.pump(500);
  REQUIRE(lost.results.size() == 1);
  CHECK(!lost.results[0].outcome);
  CHECK(lost.stops.size() == 1);
  CHECK(lost.connect_delays.back() == c.reconnect_delay_ms);
  CHECK(lost.session.state() == CsaSession::State::kConnecting);
  // Quit after the game: nothing sent during it; immediate: %TORYO (no %CHUDAN on floodgate).
  Driver q(config());
  start_game(q, 0, make_summary("g", kBlack, 60, 5));
  q.handle(100, event::QuitRequested{false});
  CHECK(q.transport.sent.back().starts_with("AGREE"));
  q.handle(200, event::QuitRequested{true});
  CHECK(q.transport.sent.back() == "%TORYO");
  Driver w(config());
  w.handle(0, event::Start{});
  w.server(10, "LOGIN:alice OK");
  w.handle(20, event::QuitRequested{false});
  CHECK(w.transport.sent.back() == "LOGOUT");
  w.transport.server_closes();
  w.pump(30);
  CHECK(w.finished->reason == "quit");
}

TEST_CASE("session: LOGIN:incorrect after a cut game logs in again, for an hour at most") {
  SessionConfig c = config();
  c.games = 3;
  Driver d(c);
  d.auto_reconnect = true;
  start_game(d, 0, make_summary("g", kBlack, 60, 5));
  d.transport.server_closes();
  d.pump(500);  // cut: the server still holds this session in its game
  REQUIRE(d.session.state() == CsaSession::State::kLoggingIn);
  REQUIRE(d.transport.connects == 2);
  // Refused while the old game goes on: tried again, later and later, at most a minute apart.
  int64_t now = 500 + c.reconnect_delay_ms;
  for (int i = 0; i < 5; ++i) {
    d.server(now, "LOGIN:incorrect");
    REQUIRE(!d.finished);
    CHECK(d.session.state() == CsaSession::State::kLoggingIn);
    now += d.connect_delays.back();
  }
  CHECK(d.transport.connects == 7);
  CHECK(d.connect_delays[2] == 10000);
  CHECK(d.connect_delays[3] == 20000);
  CHECK(d.connect_delays[4] == 40000);
  CHECK(d.connect_delays[5] == 60000);
  CHECK(d.count_logs(LogLevel::kWarning, "previous session") == 5);
  // The old game has ended: the login succeeds and the next game is played.
  d.server(now, "LOGIN:alice OK");
  const GameSummary s = make_summary("g2", kWhite, 60, 5);
  offer(d, now + 10, s);
  CHECK(d.transport.sent.back() == "AGREE " + s.game_id);
  d.server(now + 20, "START:" + s.game_id);
  CHECK(d.games_started == 2);
  // Refused for an hour without a successful login: a real refusal, the session ends.
  d.transport.server_closes();
  d.pump(now + 30);
  now += 30 + c.reconnect_delay_ms;
  const int64_t first_refusal = now;
  for (;;) {
    d.server(now, "LOGIN:incorrect");
    if (d.finished) break;
    now += d.connect_delays.back();
  }
  CHECK(!d.finished->ok);
  CHECK(d.finished->reason.find("60 minutes") != std::string::npos);
  CHECK(now - first_refusal >= 60 * 60 * 1000);
  CHECK(now - first_refusal < 61 * 60 * 1000);
}

TEST_CASE("session: deadline stop, stale answers, round trip measured from our echoes") {
  Driver d(config());
  start_game(d, 0, make_summary("g", kBlack, 10, 0));
  REQUIRE(d.searches.size() == 1);
  CHECK(d.session.rtt_ms() == 50);  // LOGIN -> LOGIN:alice OK
  const int64_t limit = 10000 - 1 - 50 - 1000;
  CHECK(d.searches[0].deadline_ms == 70 + limit);
  d.advance_to(70 + limit - 1);
  CHECK(d.stops.empty());
  d.advance_to(70 + limit);
  REQUIRE(d.stops.size() == 1);
  CHECK(d.stops[0] == std::pair<uint64_t, int64_t>{1, 70 + limit});
  d.handle(9000, event::EngineMoveReady{99, {}});  // stale
  CHECK(d.transport.sent.back().starts_with("AGREE"));
  answer(d, 9100, "+7776FU");
  CHECK(d.transport.sent.back() == "+7776FU");
  d.server(9500, "+7776FU,T9");  // the echo 400 ms later: the round trip
  CHECK(d.session.rtt_ms() == 400);
  d.server(9600, "-3334FU,T0");
  // 1 s left, no byoyomi, 0.4 s round trip and 1 s margin: move at once.
  CHECK(d.searches.back().deadline_ms == 9600);
  CHECK(d.searches.back().limits.time_left_ms[kBlack] == 0);
  CHECK(d.searches.back().limits.time_left_ms[kWhite] == 10000);
}

TEST_CASE("session: hostile lines in a game are skipped; a move our rules refuse resigns") {
  Driver d(config());
  start_game(d, 0, make_summary("g", kWhite, 60, 5));
  for (const std::string& l :
       {std::string("\x01\x02garbage"), std::string(10000, 'A'), std::string("#NONSENSE"),
        std::string("+99XXFU,T1"), std::string("START:other"), std::string("LOGIN:alice OK"),
        std::string("something")})
    d.server(100, l);
  CHECK(d.count_logs(LogLevel::kWarning, "skipped") == 7);
  d.server(200, "+7776FU,T0");
  CHECK(d.session.record().moves.size() == 1);
  answer(d, 300, "-3334FU");
  d.server(310, "-3334FU,T0");
  d.server(400, "+2726FU,T0");
  CHECK(d.searches.size() == 2);
  d.server(500, "-8384FU,T0");  // "our" move, never sent by us: applied, warned
  CHECK(d.count_logs(LogLevel::kWarning, "for us") == 1);
  CHECK(d.stops.size() == 1);  // our engine's search for that move is stopped
  d.server(600, "+2625FU,T0");
  CHECK(d.searches.size() == 3);
  d.server(700, "+1112KY,T0");  // Black moving White's lance: our rules refuse it
  CHECK(d.transport.sent.back() == "%TORYO");
  CHECK(d.stops.size() == 2);
  CHECK(d.count_logs(LogLevel::kError, "our rules refuse") == 1);
}

TEST_CASE("session: a move echo with a broken time is played, and charged as measured here") {
  Driver d(config());
  start_game(d, 0, make_summary("g", kBlack, 60, 0));  // START at 70 ms
  REQUIRE(d.searches.size() == 1);
  answer(d, 2000, "+7776FU");
  d.server(3100, "+7776FU,Tabc");  // 3030 ms after the turn began: shogi-server charges 3 s
  CHECK(d.session.record().moves.size() == 1);
  CHECK(!d.session.record().moves[0].time_ms);
  CHECK(d.session.clock().remaining_ms(kBlack) == 57000);
  CHECK(d.count_logs(LogLevel::kWarning, "kept without its time") == 1);
  CHECK(d.count_logs(LogLevel::kWarning, "charged 3000 ms as measured here") == 1);
  d.server(4200, "-3334FU,T1");  // the game goes on: our engine is asked for the next move
  CHECK(d.session.record().moves.size() == 2);
  CHECK(d.searches.size() == 2);
  CHECK(d.session.clock().remaining_ms(kWhite) == 59000);
}

TEST_CASE("session: a buoy game's moves, clocks and the record; x1 commands") {
  GameSummary s = make_summary("buoy_x-60-0", kBlack, 60, 0);
  shogi::Position pos;
  for (const char* t : {"+7776FU", "-3334FU"}) {
    shogi::Move m;
    REQUIRE(shogi::parse_csa_move(pos, t, m));
    s.moves.push_back({t, m, 1000});
    pos.do_move(m);
  }
  Driver d(config());
  start_game(d, 0, s);
  REQUIRE(d.searches.size() == 1);
  const SearchRequest& r = d.searches[0];
  CHECK(r.root.sfen() == shogi::Position().sfen());
  CHECK(test_requests::usi_moves(r) == std::vector<std::string>{"7g7f", "3c3d"});
  CHECK(r.limits.time_left_ms[kWhite] == 59000);
  CHECK(d.session.record().moves.size() == 2);
  CHECK(d.session.record().moves[1].time_ms == 1000);
  const int updates = d.record_updates;
  answer(d, 200, "+2726FU");
  d.server(210, "+2726FU,T0");
  CHECK(d.record_updates == updates + 1);  // flushed after every move
  // x1 commands: only in x1 mode, once logged in.
  d.handle(300, event::UserCommand{"%%WHO"});
  CHECK(d.transport.sent.back() == "+2726FU");
  CHECK(d.count_logs(LogLevel::kWarning, "command not sent") == 1);
  SessionConfig c = config(true);
  Driver x(c);
  x.handle(0, event::Start{});
  x.handle(1, event::UserCommand{"%%WHO"});
  CHECK(x.transport.sent.size() == 1);
  x.server(10, "LOGIN:alice OK");
  x.handle(20, event::UserCommand{"%%WHO"});
  CHECK(x.transport.sent.back() == "%%WHO");
}

TEST_CASE("session: CSA mode, a server that does not close after the last game: LOGOUT") {
  // shogi-server, when the opponent's line ended the game: its reader closes our session only
  // once it reads a line from it.
  Driver d(config());
  start_game(d, 0, make_summary("g", kWhite, 60, 5));
  for (const char* l : {"#TIME_UP", "#LOSE"}) d.server(1000, l);
  d.advance_to(1000 + 299);
  CHECK(d.transport.sent.back().starts_with("AGREE"));
  d.advance_to(1000 + 300);
  CHECK(d.transport.sent.back() == "LOGOUT");
  CHECK(!d.finished);
  d.transport.server_closes();
  d.pump(1000 + 320);
  REQUIRE(d.finished);
  CHECK(d.finished->ok);
  CHECK(d.finished->reason == "all games played");
  CHECK(d.sent_while_closed.empty());

  // A server that does not even close after the LOGOUT: closed close_wait_ms after it.
  Driver e(config());
  start_game(e, 0, make_summary("g", kWhite, 60, 5));
  for (const char* l : {"#TIME_UP", "#LOSE"}) e.server(1000, l);
  e.advance_to(1300 + 9999);
  CHECK(e.transport.sent.back() == "LOGOUT");
  CHECK(e.transport.is_open());
  CHECK(!e.finished);
  e.advance_to(1300 + 10000);
  CHECK(!e.transport.is_open());
  REQUIRE(e.finished);
  CHECK(e.finished->ok);

  // A server that closes with the result: nothing more is sent.
  Driver f(config());
  start_game(f, 0, make_summary("g", kWhite, 60, 5));
  f.transport.server_sends("#TIME_UP");
  f.transport.server_sends("#LOSE");
  f.transport.server_closes();
  f.pump(1000);
  REQUIRE(f.finished);
  CHECK(f.transport.sent.back().starts_with("AGREE"));
  CHECK(f.sent_while_closed.empty());
}

TEST_CASE("session: CSA mode, games to come: the server's close is awaited, with no LOGOUT") {
  SessionConfig c = config();
  c.games = 2;
  Driver d(c);
  start_game(d, 0, make_summary("g", kWhite, 60, 5));
  for (const char* l : {"#TIME_UP", "#LOSE"}) d.server(1000, l);
  d.advance_to(1000 + 9999);
  CHECK(d.transport.sent.back().starts_with("AGREE"));
  CHECK(d.transport.is_open());
  d.advance_to(1000 + 10000);
  // Closed without a LOGOUT: a championship server may send the next game's summary on this
  // connection, which a LOGOUT would end.
  CHECK(d.transport.sent.back().starts_with("AGREE"));
  CHECK(!d.transport.is_open());
  CHECK(!d.finished);
  CHECK(d.connect_delays.back() == c.next_game_delay_ms);
}

TEST_CASE("session: Max_Moves reached, sennichite, and a second immediate quit") {
  GameSummary s = make_summary("g", kBlack, 60, 5);
  s.max_moves = 2;
  Driver d(config());
  start_game(d, 0, s);
  answer(d, 100, "+7776FU");
  d.server(110, "+7776FU,T0");
  d.server(200, "-3334FU,T0");
  CHECK(d.searches.size() == 1);  // ply 2 = Max_Moves: the server ends the game now
  for (const char* l : {"#MAX_MOVES", "#CENSORED"}) d.server(210, l);
  REQUIRE(d.results.size() == 1);
  CHECK(d.results[0].outcome == GameOutcome::kCensored);
  CHECK(d.results[0].reason == GameEndReason::kMaxMoves);
  CHECK(d.session.record().result == shogi::CsaSpecialMove::kMaxMoves);
  Driver r(config());
  start_game(r, 0, make_summary("g", kWhite, 60, 5));
  r.server(100, "+7776FU,T0");
  for (const char* l : {"#SENNICHITE", "#DRAW"}) r.server(110, l);
  CHECK(r.stops.size() == 1);
  CHECK(r.results[0].outcome == GameOutcome::kDraw);
  CHECK(r.session.record().result == shogi::CsaSpecialMove::kSennichite);
  Driver q(config());
  start_game(q, 0, make_summary("g", kBlack, 60, 5));
  q.handle(100, event::QuitRequested{true});
  q.handle(200, event::QuitRequested{true});
  CHECK(std::count(q.transport.sent.begin(), q.transport.sent.end(), "%TORYO") == 1);
}

}  // namespace csa_session_state_test

namespace csa_session_state_test {

namespace {

// Our move `usi` with the engine's expected reply `reply` as the PV's second move.
EngineMove move_with_reply(const SearchRequest& r, const std::string& usi,
                           const std::string& reply) {
  shogi::Position pos = r.position();
  EngineMove em;
  REQUIRE(shogi::parse_usi_move(pos, usi, em.move));
  em.move = pos.complete_move(em.move);
  em.score = 10;
  em.pv.push_back(em.move);
  pos.do_move(em.move);
  shogi::Move second;
  if (shogi::parse_usi_move(pos, reply, second))
    em.pv.push_back(second);
  else
    em.pv.push_back(em.move);  // an impossible reply (not legal for the opponent)
  return em;
}

SessionConfig ponder_config() {
  SessionConfig c = config();
  c.ponder = true;
  return c;
}

}  // namespace

TEST_CASE("session: a council's vote goes into the record's comments and its agreement counts") {
  bool unanimous = false;
  CHECK(council_vote_of("council: majority 7g7f 3/3 (weight 3/3) from a; a 7g7f 30", unanimous));
  CHECK(unanimous);
  CHECK(council_vote_of("council: optimistic 2g2f 1/2 from b; a 7g7f 100, b 2g2f 160", unanimous));
  CHECK_FALSE(unanimous);
  CHECK_FALSE(council_vote_of("book 7g7f (weight 0.5)", unanimous));
  CHECK_FALSE(council_vote_of("council: majority: no member answered", unanimous));

  Driver d(config());
  const GameSummary s = make_summary("cv", kBlack, 60, 0, 2);
  start_game(d, 0, s);
  REQUIRE(d.searches.size() == 1);
  EngineMove first = move_with_reply(d.searches[0], "7g7f", "3c3d");
  first.note = "council: majority 7g7f 2/3 (weight 2/3) from a; a 7g7f 30, b 2g2f 90, c 7g7f 20";
  d.handle(1000, event::EngineMoveReady{d.searches[0].id, first});
  d.server(1100, "+7776FU,T1");
  d.server(2000, "-3334FU,T1");
  REQUIRE(d.searches.size() == 2);
  EngineMove second = move_with_reply(d.searches[1], "2g2f", "8c8d");
  second.note = "council: majority 2g2f 3/3 (weight 3/3) from a; a 2g2f 30, b 2g2f 35, c 2g2f 20";
  d.handle(3000, event::EngineMoveReady{d.searches[1].id, second});
  d.server(3100, "+2726FU,T1");
  const auto& moves = d.session.record().moves;
  REQUIRE(moves.size() == 3);
  CHECK(std::find(moves[0].comments.begin(), moves[0].comments.end(), first.note) !=
        moves[0].comments.end());
  CHECK(std::find(moves[2].comments.begin(), moves[2].comments.end(), second.note) !=
        moves[2].comments.end());
  for (const char* l : {"%TORYO", "#RESIGN", "#WIN"}) d.server(4000, l);
  REQUIRE(d.results.size() == 1);
  CHECK(d.results[0].council_votes == 2);
  CHECK(d.results[0].council_agreed == 1);
}

TEST_CASE("session: ponder hit: the ponder search becomes our move's search") {
  Driver d(ponder_config());
  const GameSummary s = make_summary("ph", kBlack, 60, 0, 2);
  start_game(d, 0, s);
  REQUIRE(d.searches.size() == 1);
  const SearchRequest first = d.searches[0];
  CHECK(!first.limits.ponder);
  d.handle(1000, event::EngineMoveReady{first.id, move_with_reply(first, "7g7f", "3c3d")});
  CHECK(d.transport.sent.back().starts_with("+7776FU"));
  d.server(1100, "+7776FU,T1");
  // Pondering on 3c3d with our clock as it will be at our next turn (increment credited).
  REQUIRE(d.searches.size() == 2);
  const SearchRequest ponder = d.searches[1];
  CHECK(ponder.limits.ponder);
  CHECK(test_requests::usi_moves(ponder) == std::vector<std::string>{"7g7f", "3c3d"});
  CHECK(ponder.limits.increment_ms[kBlack] == 2000);
  d.server(6100, "-3334FU,T5");
  CHECK(d.searches.size() == 2);  // no new search
  REQUIRE(d.ponderhits.size() == 1);
  CHECK(d.ponderhits[0].search_id == ponder.id);
  CHECK(!d.ponderhits[0].request.limits.ponder);
  // The deadline counts from the opponent's move, not from the start of pondering.
  CHECK(d.ponderhits[0].request.started_ms == 6100);
  CHECK(d.ponderhits[0].request.limits.time_left_ms[kBlack] == ponder.limits.time_left_ms[kBlack]);
  CHECK(d.ponderhits[0].request.deadline_ms > 6100);
  CHECK(d.stops.empty());
  d.handle(6300, event::EngineMoveReady{ponder.id,
                                        move_with_reply(d.ponderhits[0].request, "2g2f", "8c8d")});
  CHECK(d.transport.sent.back().starts_with("+2726FU"));
  d.server(6400, "+2726FU,T0");
  REQUIRE(d.searches.size() == 3);  // pondering on 8c8d
  for (const char* l : {"%TORYO", "#RESIGN", "#WIN"}) d.server(7000, l);
  REQUIRE(d.results.size() == 1);
  CHECK(d.results[0].ponder_searches == 2);
  CHECK(d.results[0].ponder_hits == 1);
  CHECK(d.results[0].ponder_hit_ms == 5000);
  // The game's end stopped the second ponder search.
  REQUIRE(!d.stops.empty());
  CHECK(d.stops.back().first == d.searches[2].id);
}

TEST_CASE("session: ponder miss: the ponder search is stopped and a new one starts") {
  Driver d(ponder_config());
  start_game(d, 0, make_summary("pm", kBlack, 60, 10));
  const SearchRequest first = d.searches.at(0);
  d.handle(1000, event::EngineMoveReady{first.id, move_with_reply(first, "7g7f", "3c3d")});
  d.server(1100, "+7776FU,T1");
  REQUIRE(d.searches.size() == 2);
  const SearchRequest ponder = d.searches[1];
  d.server(3100, "-8384FU,T2");
  REQUIRE(d.stops.size() == 1);
  CHECK(d.stops[0].first == ponder.id);
  REQUIRE(d.searches.size() == 3);
  const SearchRequest fresh = d.searches[2];
  CHECK(!fresh.limits.ponder);
  CHECK(fresh.id != ponder.id);
  CHECK(test_requests::usi_moves(fresh) == std::vector<std::string>{"7g7f", "8c8d"});
  CHECK(fresh.limits.time_left_ms[kBlack] == ponder.limits.time_left_ms[kBlack]);
  CHECK(d.ponderhits.empty());
  // The stopped ponder search's answer is ignored; the fresh one's is played.
  const size_t sent = d.transport.sent.size();
  d.handle(3150, event::EngineMoveReady{ponder.id, move_with_reply(ponder, "2g2f", "8c8d")});
  CHECK(d.transport.sent.size() == sent);
  d.handle(3200, event::EngineMoveReady{fresh.id, move_with_reply(fresh, "2g2f", "8d8e")});
  CHECK(d.transport.sent.back().starts_with("+2726FU"));
}

TEST_CASE("session: no ponder on a reply the opponent cannot play (after a mate, say)") {
  Driver d(ponder_config());
  start_game(d, 0, make_summary("pn", kBlack, 60, 10));
  const SearchRequest first = d.searches.at(0);
  d.handle(1000, event::EngineMoveReady{first.id, move_with_reply(first, "7g7f", "7g7f")});
  d.server(1100, "+7776FU,T1");
  CHECK(d.searches.size() == 1);
  // Without ponder on, nothing is pondered either.
  Driver off(config());
  start_game(off, 0, make_summary("po", kBlack, 60, 10));
  const SearchRequest r = off.searches.at(0);
  off.handle(1000, event::EngineMoveReady{r.id, move_with_reply(r, "7g7f", "3c3d")});
  off.server(1100, "+7776FU,T1");
  CHECK(off.searches.size() == 1);
}

TEST_CASE("session: an immediate quit on the opponent's turn resigns when our turn comes") {
  Driver d(config());
  start_game(d, 0, make_summary("rq", kBlack, 60, 10));
  const SearchRequest first = d.searches.at(0);
  d.handle(1000, event::EngineMoveReady{first.id, move_with_reply(first, "7g7f", "3c3d")});
  d.server(1100, "+7776FU,T1");
  d.handle(1200, event::QuitRequested{true});
  CHECK(d.transport.sent.back().starts_with("+7776FU"));  // nothing out of turn
  d.server(2000, "-3334FU,T1");
  CHECK(d.transport.sent.back() == "%TORYO");
  CHECK(d.searches.size() == 1);  // no search for a move we will not play
  for (const char* l : {"%TORYO", "#RESIGN", "#LOSE"}) d.server(2100, l);
  REQUIRE(d.results.size() == 1);
  CHECK(std::count(d.transport.sent.begin(), d.transport.sent.end(), "%TORYO") == 1);
}

}  // namespace csa_session_state_test
