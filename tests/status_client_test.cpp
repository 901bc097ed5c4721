// The status page's model: what the client and the local server put in it, its records and
// the [status] settings.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "client/client_status.h"
#include "client/csa_config.h"
#include "client/csa_session.h"
#include "client/status_board.h"
#include "client/status_http.h"
#include "client/status_page.h"
#include "client/status_render.h"
#include "client/status_service.h"
#include "shogi/notation.h"
#include "tests/temp_dir.h"
#include "tools/server/csa_server_game.h"
#include "tools/server/server_status.h"

namespace status_client_test {

namespace {

using namespace client;

// A session logged in and playing game "g1" as White, 60 s + 2 s Fischer; its actions are
// handed to `status` as the client's loop would.
struct PlayingSession {
  PlayingSession() : session(config()), status(board, csa_config(), 1000000) {
    handle(0, event::Start{});
    handle(0, event::Connected{});
    line(10, "LOGIN:tester OK");
    std::vector<std::string> s = {"BEGIN Game_Summary",
                                  "Protocol_Version:1.2",
                                  "Protocol_Mode:Server",
                                  "Format:Shogi 1.0",
                                  "Declaration:Jishogi 1.1",
                                  "Game_ID:g1",
                                  "Name+:opp \"x\"",
                                  "Name-:tester",
                                  "Your_Turn:-",
                                  "Rematch_On_Draw:NO",
                                  "To_Move:+",
                                  "Max_Moves:256",
                                  "BEGIN Time",
                                  "Time_Unit:1sec",
                                  "Total_Time:60",
                                  "Byoyomi:0",
                                  "Increment:2",
                                  "Least_Time_Per_Move:0",
                                  "END Time",
                                  "BEGIN Position"};
    shogi::PositionSetup start;
    REQUIRE(shogi::parse_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                              start));
    for (const std::string& l : tools::summary_position_lines(start)) s.push_back(l);
    for (const char* l : {"END Position", "END Game_Summary"}) s.push_back(l);
    for (const std::string& l : s) line(20, l);
    line(30, "START:g1");
  }
  static SessionConfig config() {
    SessionConfig c;
    c.name = "tester";
    c.password = "g,trip";
    return c;
  }
  static CsaConfig csa_config() {
    CsaConfig c;
    c.name = "tester";
    c.password = "g,trip";
    return c;
  }
  void line(int64_t now, const std::string& text) { handle(now, event::LineReceived{text}); }
  void handle(int64_t now, const Event& e) {
    for (const Action& a : session.handle(now, e)) {
      if (std::holds_alternative<action::GameStarted>(a)) status.game_started(session);
      if (std::holds_alternative<action::RecordUpdated>(a)) status.record_updated(session);
      if (auto* g = std::get_if<action::GameEnded>(&a)) status.game_ended(session, g->result);
      if (auto* s = std::get_if<action::StartSearch>(&a)) search = s->request;
    }
    status.connection(session.state(), std::nullopt, now);
  }
  StatusBoard board;
  CsaSession session;
  ClientStatus status;
  SearchRequest search;
};

}  // namespace

TEST_CASE("status client: time rules and floodgate comment values") {
  ClockRules black{300000, 0, 10000, 0, 0, 1000, false, false}, white = black;
  CHECK(time_rules_text(GameClock(black, white)) == "300 s + 10 s per move");
  white.increment_ms = 0;
  white.byoyomi_ms = 10500;
  CHECK(time_rules_text(GameClock(black, white)) ==
        "Black 300 s + 10 s per move; White 300 s, 10.5 s byoyomi");
  CHECK(time_rules_text(GameClock()) == "no time limit");
  CHECK(floodgate_comment_value("* 30 -3334FU") == 30);
  CHECK(floodgate_comment_value("** -1200") == -1200);
  CHECK(floodgate_comment_value("* 30x") == std::nullopt);
  CHECK(floodgate_comment_value("book 7g7f") == std::nullopt);
  CHECK(floodgate_comment_value("*") == std::nullopt);
}

TEST_CASE("status client: a game as the session plays it: moves, position, clocks, values") {
  PlayingSession p;
  StatusModel m = p.board.snapshot();
  CHECK(m.kind == "client");
  CHECK(m.name == "tester");
  CHECK(m.connection == "in game");
  REQUIRE(m.has_game);
  CHECK(m.game.game_id == "g1");
  CHECK(m.game.black_name == "opp \"x\"");
  CHECK(m.game.our_color == "white");
  CHECK(m.game.time_rules == "60 s + 2 s per move");
  CHECK(m.game.moves.empty());
  CHECK(m.game.clocks[0].remaining_ms == 60000);
  CHECK(m.game.clocks[0].increment_ms == 2000);
  CHECK(m.game.turn_start_steady_ms == 1000000 + 30);

  // The opponent's move with its floodgate comment and time; then ours.
  p.line(5030, "+7776FU,T5,'* 45 -3334FU");
  m = p.board.snapshot();
  REQUIRE(m.game.moves.size() == 1);
  CHECK(m.game.moves[0].csa == "+7776FU");
  CHECK(m.game.moves[0].usi == "7g7f");
  CHECK(m.game.moves[0].time_ms == 5000);
  CHECK(m.game.moves[0].eval_cp == 45);
  CHECK_FALSE(m.game.moves[0].ours);
  CHECK(m.game.clocks[0].remaining_ms == 57000);  // 60 + 2 - 5
  CHECK(m.game.sfen.starts_with("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w"));
  CHECK(m.game.turn_start_steady_ms == 1000000 + 5030);

  EngineMove em;
  shogi::Position pos;
  REQUIRE(pos.set_sfen(m.game.sfen));
  REQUIRE(shogi::parse_usi_move(pos, "3c3d", em.move));
  em.move = pos.complete_move(em.move);
  em.score = 120;  // White's view: -120 for Black
  shogi::Position after = pos;
  after.do_move(em.move);
  shogi::Move reply;
  REQUIRE(shogi::parse_usi_move(after, "2g2f", reply));
  em.pv = {em.move, after.complete_move(reply)};
  em.nodes = 5000;
  em.nps = 100000;
  p.status.engine_answer(p.session, em);
  m = p.board.snapshot();
  CHECK(m.game.pv == std::vector<std::string>{"+2726FU"});  // after the move being played
  CHECK(m.game.pv_eval_cp == -120);
  CHECK(m.counters.engine_nps == 100000);
  CHECK(m.counters.engine_nodes == 5000);

  p.handle(6000, event::EngineMoveReady{p.search.id, em});
  p.line(6100, "-3334FU,T1");
  m = p.board.snapshot();
  REQUIRE(m.game.moves.size() == 2);
  CHECK(m.game.moves[1].ours);
  CHECK(m.game.moves[1].eval_cp == -120);  // from our floodgate comment, Black's view
  CHECK(m.counters.last_think_ms == 1000);
  CHECK(m.game.clocks[1].remaining_ms == 61000);

  CHECK(m.game.pv == std::vector<std::string>{"+2726FU"});
  p.line(6500, "+2726FU,T0");  // the move the PV expected: the line goes on from there
  CHECK(p.board.snapshot().game.pv.empty());
  p.line(7000, "%TORYO,T1");
  p.line(7000, "#RESIGN");
  p.line(7000, "#WIN");
  m = p.board.snapshot();
  CHECK(m.game.over);
  CHECK(m.game.result == "win");
  CHECK(m.game.reason == "RESIGN");
  CHECK(m.game.turn_start_steady_ms == 0);
  CHECK(m.counters.wins == 1);
  REQUIRE(m.recent.size() == 1);
  CHECK(m.recent[0].game_id == "g1");
  CHECK(m.recent[0].result == "win");
  CHECK(m.recent[0].our_color == "white");
  CHECK(m.recent[0].plies == 3);
}

TEST_CASE("status client: the history from results.txt: newest first, totals, record files") {
  TempDir dir;
  const std::string rec = dir.sub("g2.csa");
  std::ofstream(rec) << "V2.2\n";
  std::ofstream(dir.sub("results.txt"))
      << "2026-12-01T10:00:00\tg1\ta\tb\t+\tWIN\tRESIGN\t80\t" << dir.sub("g1.csa") << "\t0/0\t0\n"
      << "garbage line\n"
      << "2026-12-01T11:00:00\tg2\tb\ta\t-\tLOSE\tTIME_UP\t90\t" << rec << "\t0/0\t0\n"
      << "2026-12-01T12:00:00\tg3\ta\tb\t+\tCUT\t-\t10\t" << dir.sub("g3.csa") << "\t0/0\t0\n"
      << "2026-12-01T12:30:00\tg4\ta\tb\t-\tWIN\tRESIGN\t10\t" << dir.sub("g4.csa")
      << "\t0/0\t0\n";  // b's line, in a directory b shares with us
  StatusBoard board;
  CsaConfig config;
  config.name = "a";
  ClientStatus status(board, config, 0);
  status.load_history(dir.sub("results.txt"));
  status.load_history(dir.sub("missing.txt"));  // no file yet: nothing, no error
  const StatusModel m = board.snapshot();
  REQUIRE(m.recent.size() == 3);
  CHECK(m.recent[0].game_id == "g3");
  CHECK(m.recent[0].result == "cut");
  CHECK(m.recent[0].reason == "");
  CHECK(m.recent[1].game_id == "g2");
  CHECK(m.recent[1].our_color == "white");
  CHECK(m.recent[1].plies == 90);
  CHECK(m.recent[1].has_csa);
  CHECK(m.recent[1].csa_file == rec);
  CHECK_FALSE(m.recent[1].has_kif);
  CHECK_FALSE(m.recent[2].has_csa);  // g1.csa is not there
  CHECK(m.counters.wins == 1);
  CHECK(m.counters.losses == 1);
  CHECK(m.counters.other == 1);
  CHECK(m.counters.time_losses == 1);
}

TEST_CASE("status client: /records/ serves only the files of the games listed") {
  StatusModel m;
  m.has_game = true;
  m.game.game_id = "wdoor+floodgate-300-10F+a+b+20261204120000";
  m.game.csa_file = "/r/now.csa";
  m.game.kif_file = "/r/now.kifu";
  StatusRecentGame r;
  r.game_id = "old_1";
  r.csa_file = "/r/old.csa";
  m.recent.push_back(r);
  CHECK(status_record_file(m, m.game.game_id + ".csa") == "/r/now.csa");
  CHECK(status_record_file(m, m.game.game_id + ".kifu") == "/r/now.kifu");
  CHECK(status_record_file(m, "old_1.csa") == "/r/old.csa");
  CHECK(status_record_file(m, "old_1.kifu") == "");  // not written
  CHECK(status_record_file(m, "old_1.txt") == "");
  CHECK(status_record_file(m, "../old_1.csa") == "");
  CHECK(status_record_file(m, "old_1/../x.csa") == "");
  CHECK(status_record_file(m, "unknown.csa") == "");
  CHECK(status_record_file(m, ".csa") == "");
}

TEST_CASE("status client: the server's games: in progress first, then finished, newest first") {
  StatusBoard board;
  tools::ServerStatus status(board, "127.0.0.1:4081", 500);
  auto config = [](const std::string& t) {
    tools::ServerGameConfig c;
    c.game_name = "test-60-1";
    c.names[0] = "a";
    c.names[1] = "b";
    c.id_time = t;
    return c;
  };
  tools::ServerGame g1(config("20261204000001")), g2(config("20261204000002"));
  status.game_started(g1);
  status.game_started(g2);
  g1.agree(shogi::kBlack, 10);
  g1.agree(shogi::kWhite, 20);
  status.game_changed(g1);
  g1.play(shogi::kBlack, "+7776FU,'* 30", 1020);
  status.game_changed(g1);
  StatusModel m = board.snapshot();
  CHECK(m.kind == "server");
  CHECK(m.connection == "listening");
  REQUIRE(m.server_games.size() == 2);
  CHECK(m.server_games[0].game_id == g1.game_id());
  CHECK(m.server_games[0].time_rules == "60 s, 1 s byoyomi");
  REQUIRE(m.server_games[0].moves.size() == 1);
  CHECK(m.server_games[0].moves[0].eval_cp == 30);  // kept by the server as "** 30"
  CHECK(m.server_games[0].moves[0].time_ms == 1000);
  CHECK(m.server_games[0].turn_start_steady_ms == 500 + 1020);
  g1.play(shogi::kWhite, "%TORYO", 2000);
  status.game_ended(g1, "/r/g1.csa");
  m = board.snapshot();
  REQUIRE(m.server_games.size() == 2);
  CHECK(m.server_games[0].game_id == g2.game_id());  // still in progress
  CHECK(m.server_games[1].game_id == g1.game_id());
  CHECK(m.server_games[1].over);
  CHECK(m.server_games[1].result == "black");
  CHECK(m.server_games[1].reason == "toryo");
  CHECK(m.server_games[1].csa_file == "/r/g1.csa");
  CHECK(m.server_games[1].turn_start_steady_ms == 0);
}

TEST_CASE("status client: the page carries the state it was served with, no tag in it") {
  StatusModel m;
  m.name = "</script><!--<script>";
  const std::string json = render_status_json(m, 0, 0);
  const std::string page = status_page_html_with(json);
  CHECK(page.find("id=\"initial-status\">{") != std::string::npos);
  CHECK(page.find("\\u003c/script>\\u003c!--\\u003cscript>") != std::string::npos);
  CHECK(page.find(m.name) == std::string::npos);
  CHECK(page.size() ==
        status_page_html().size() + json.size() + 3 * 5);  // three "<" became "\\u003c"
}

TEST_CASE("status client: [status] settings and their checks") {
  CsaConfig c;
  REQUIRE(parse_csa_config("[status]\nport = 8080\nbind = \"0.0.0.0\"\ntoken = \"s3cret\"\n",
                           "t.toml", c));
  CHECK(c.status_port == 8080);
  CHECK(c.status_bind == "0.0.0.0");
  CHECK(c.status_token == "s3cret");
  CHECK(validate_status_settings(c));
  c.status_token.clear();
  const base::Status st = validate_status_settings(c);
  REQUIRE_FALSE(st);
  CHECK(st.message().find("status.token") != std::string::npos);
  c.status_bind = "127.0.0.1";
  CHECK(validate_status_settings(c));
  c.status_bind = "::1";
  CHECK(validate_status_settings(c));
  c.status_bind = "192.168.1.2";
  c.status_port = 0;  // off: nothing to check
  CHECK(validate_status_settings(c));
  CsaConfig d;
  const base::Status bad = parse_csa_config("[status]\nport = 70000\n", "t.toml", d);
  REQUIRE_FALSE(bad);
  CHECK(bad.message().find("status.port") != std::string::npos);
  CHECK_FALSE(parse_csa_config("[status]\nhost = \"x\"\n", "t.toml", d));
  CHECK(is_loopback_name("127.0.0.1"));
  CHECK(is_loopback_name("localhost"));
  CHECK(is_loopback_name("[::1]"));
  CHECK_FALSE(is_loopback_name("127.example.com"));
  CHECK_FALSE(is_loopback_name("0.0.0.0"));
}

}  // namespace status_client_test
