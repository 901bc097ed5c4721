// CSA server protocol: every line type, Game_Summary parsing, hostile input, the line splitter.
#include "client/csa_protocol.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "client/transport.h"
#include "shogi/csa_notation.h"
#include "tests/test_prng.h"

namespace csa_protocol_test {

using namespace client;
using shogi::kBlack;
using shogi::kWhite;

namespace {

ServerLine server(const std::string& text) {
  ServerLine l;
  Status st = parse_server_line(text, l);
  REQUIRE_MESSAGE(st.is_ok(), st.message());
  return l;
}

std::string server_error(const std::string& text) {
  ServerLine l;
  Status st = parse_server_line(text, l);
  CHECK_MESSAGE(!st.is_ok(), text);
  return st.message();
}

ClientLine client_line(const std::string& text) {
  ClientLine l;
  Status st = parse_client_line(text, l);
  REQUIRE_MESSAGE(st.is_ok(), st.message());
  return l;
}

// The summary alice received in the csa transcript, with optional replacements.
std::vector<std::string> base_summary() {
  return {"BEGIN Game_Summary",
          "Protocol_Version:1.2",
          "Protocol_Mode:Server",
          "Format:Shogi 1.0",
          "Declaration:Jishogi 1.1",
          "Game_ID:research+demo-60-5+alice+bob+20261125211451",
          "Name+:alice",
          "Name-:bob",
          "Your_Turn:+",
          "Rematch_On_Draw:NO",
          "To_Move:+",
          "Max_Moves:256",
          "BEGIN Time",
          "Time_Unit:1sec",
          "Total_Time:60",
          "Byoyomi:5",
          "Increment:0",
          "Least_Time_Per_Move:0",
          "END Time",
          "BEGIN Position",
          "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY",
          "P2 * -HI *  *  *  *  * -KA * ",
          "P3-FU-FU-FU-FU-FU-FU-FU-FU-FU",
          "P4 *  *  *  *  *  *  *  *  * ",
          "P5 *  *  *  *  *  *  *  *  * ",
          "P6 *  *  *  *  *  *  *  *  * ",
          "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU",
          "P8 * +KA *  *  *  *  * +HI * ",
          "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY",
          "+",
          "END Position",
          "END Game_Summary"};
}

// Replaces the first line starting with `prefix` by `with` (several lines split on '\n'; an
// empty `with` deletes it).
std::vector<std::string> edited(std::vector<std::string> lines, const std::string& prefix,
                                const std::string& with) {
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!lines[i].starts_with(prefix)) continue;
    lines.erase(lines.begin() + i);
    std::vector<std::string> add;
    for (size_t p = 0; p < with.size();) {
      size_t e = std::min(with.find('\n', p), with.size());
      add.push_back(with.substr(p, e - p));
      p = e + 1;
    }
    lines.insert(lines.begin() + i, add.begin(), add.end());
    return lines;
  }
  FAIL("no line starts with " << prefix);
  return lines;
}

struct Parsed {
  SummaryParser::Result result;
  SummaryParser parser;
};

Parsed parse_summary(const std::vector<std::string>& lines) {
  Parsed p{SummaryParser::Result::kNeedMore, {}};
  for (const std::string& l : lines) {
    p.result = p.parser.feed(l);
    if (p.result == SummaryParser::Result::kDone) break;
  }
  return p;
}

GameSummary summary_ok(const std::vector<std::string>& lines) {
  Parsed p = parse_summary(lines);
  REQUIRE_MESSAGE(p.result == SummaryParser::Result::kDone, p.parser.error());
  return p.parser.summary();
}

std::string summary_error(const std::vector<std::string>& lines) {
  Parsed p = parse_summary(lines);
  CHECK(p.result == SummaryParser::Result::kError);
  CHECK(p.parser.finished());
  return p.parser.error();
}

}  // namespace

TEST_CASE("server lines: login, logout, summary start, START, REJECT, keep-alive") {
  CHECK(server("").type == ServerLineType::kKeepAlive);
  CHECK(server("\r").type == ServerLineType::kKeepAlive);
  ServerLine l = server("LOGIN:alice OK");
  CHECK(l.type == ServerLineType::kLoginOk);
  CHECK(l.name == "alice");
  CHECK(server("LOGIN:incorrect").type == ServerLineType::kLoginIncorrect);
  CHECK(server("LOGOUT:completed").type == ServerLineType::kLogoutCompleted);
  CHECK(server("BEGIN Game_Summary").type == ServerLineType::kSummaryBegin);
  l = server("START:research+demo-60-5+alice+bob+20261125211451");
  CHECK(l.type == ServerLineType::kStart);
  CHECK(l.game_id == "research+demo-60-5+alice+bob+20261125211451");
  l = server("REJECT:research+rj-60-5+bob+alice+20261125210541 by bob");
  CHECK(l.type == ServerLineType::kReject);
  CHECK(l.game_id == "research+rj-60-5+bob+alice+20261125210541");
  CHECK(l.name == "bob");
  l = server("REJECT:g1 by the Server (timed out)");
  CHECK(l.name == "the Server (timed out)");
  CHECK(server("something new").type == ServerLineType::kUnknown);
}

TEST_CASE("server lines: moves with times, special moves, every result line") {
  ServerLine l = server("+7776FU,T12");
  CHECK(l.type == ServerLineType::kMove);
  CHECK(l.move.move == "+7776FU");
  CHECK(l.move.t_milli == 12000);
  l = server("-0034KA,T0");
  CHECK(l.move.move == "-0034KA");
  CHECK(l.move.t_milli == 0);
  CHECK(server("+8822UM,T3.5").move.t_milli == 3500);
  CHECK(server("+8822UM,T4.125").move.t_milli == 4125);
  CHECK(server("+8822UM,T1.").move.t_milli == 1000);
  CHECK(!server("+7776FU").move.t_milli);
  l = server("+7776FU,T1,'** 30 -3334FU");
  CHECK(l.move.comment == "** 30 -3334FU");
  for (auto [text, special, t] : {std::tuple{"%TORYO", shogi::CsaSpecialMove::kToryo, -1},
                                  std::tuple{"%TORYO,T3", shogi::CsaSpecialMove::kToryo, 3000},
                                  std::tuple{"%KACHI,T0", shogi::CsaSpecialMove::kKachi, 0},
                                  std::tuple{"%KACHI", shogi::CsaSpecialMove::kKachi, -1}}) {
    l = server(text);
    CHECK(l.type == ServerLineType::kSpecialMove);
    CHECK(l.special == special);
    CHECK(l.move.t_milli.value_or(-1) == t);
  }
  for (GameEndReason r :
       {GameEndReason::kResign, GameEndReason::kSennichite, GameEndReason::kOuteSennichite,
        GameEndReason::kIllegalMove, GameEndReason::kIllegalAction, GameEndReason::kTimeUp,
        GameEndReason::kJishogi, GameEndReason::kMaxMoves}) {
    l = server(game_end_reason_name(r));
    CHECK(l.type == ServerLineType::kEndReason);
    CHECK(l.reason == r);
  }
  for (GameOutcome o : {GameOutcome::kWin, GameOutcome::kLose, GameOutcome::kDraw,
                        GameOutcome::kCensored, GameOutcome::kChudan}) {
    l = server(game_outcome_name(o));
    CHECK(l.type == ServerLineType::kOutcome);
    CHECK(l.outcome == o);
  }
}

TEST_CASE("server lines: x1 replies") {
  ServerLine l = server("##[LOGIN] +OK x1");
  CHECK(l.type == ServerLineType::kX1Reply);
  CHECK(l.x1_tag == "LOGIN");
  CHECK(l.x1_body == "+OK x1");
  l = server("##[WHO] alice+87bf x1 game_waiting floodgate-60-2F *");
  CHECK(l.x1_tag == "WHO");
  CHECK(server("##[WHO] +OK").x1_body == "+OK");
  CHECK(server("##[ERROR] unknown command").x1_tag == "ERROR");
  CHECK(server("##[LIST] research+floodgate-60-2F+alice+bob+20261125211900").x1_tag == "LIST");
}

TEST_CASE("server lines: malformed and hostile input is an error, never a crash") {
  for (const char* bad : {"+77X6FU", "+7776XX", "+7706FU", "+0076", "#WHATEVER", "#",
                          "START:", "START:a b", "REJECT:id", "REJECT: by bob", "LOGIN:bad name OK",
                          "LOGIN:alice", "%FOO", "%FOO,T1", "%TORYOX", "##[", "##[]"}) {
    CAPTURE(bad);
    server_error(bad);
  }
  // A well-formed move with a bad suffix is kept, without its time, and says why.
  for (const char* suffix : {",X", ",T", ",T-1", ",Tabc", ",T99999999999999", ",T1,T2", "x"}) {
    const std::string text = std::string("+7776FU") + suffix;
    CAPTURE(text);
    ServerLine l;
    REQUIRE(parse_server_line(text, l).is_ok());
    CHECK(l.type == ServerLineType::kMove);
    CHECK(l.move.move == "+7776FU");
    CHECK(!l.move.t_milli);
    CHECK(l.warning.find(text) != std::string::npos);
    CHECK(l.warning.find("kept without its time") != std::string::npos);
  }
  CHECK(server("+7776FU,T12").warning.empty());
  // So is a known special move with a bad suffix (the server's '#' lines end the game anyway).
  for (const char* text : {"%TORYO,X", "%TORYO,Tx", "%KACHI,", "%TORYO,T1,T2"}) {
    CAPTURE(text);
    ServerLine l;
    REQUIRE(parse_server_line(text, l).is_ok());
    CHECK(l.type == ServerLineType::kSpecialMove);
    CHECK(!l.move.t_milli);
    CHECK(l.warning.find("special move is kept without its time") != std::string::npos);
  }
  CHECK(server("%TORYO,T3").warning.empty());
  CHECK(server_error(std::string(5000, 'A')).find("5000 bytes") != std::string::npos);
  CHECK(server_error(std::string("+7776FU\0,T1", 11)).find("\\x00") != std::string::npos);
  CHECK(server_error("LOGIN:alice\x01 OK").find("control byte") != std::string::npos);
  // Random bytes and mutations of real lines: parsing must never crash (ASan/UBSan build).
  test::Prng prng(7);
  const std::vector<std::string> seeds = {"+7776FU,T12",   "LOGIN:alice OK",   "%KACHI,T0",
                                          "REJECT:x by y", "##[LOGIN] +OK x1", "#TIME_UP"};
  for (int i = 0; i < 20000; ++i) {
    std::string s = seeds[prng.below(int(seeds.size()))];
    for (int k = prng.below(4); k >= 0; --k) {
      const int pos = prng.below(int(s.size()) + 1);
      switch (prng.below(3)) {
        case 0:
          s.insert(s.begin() + pos, char(prng.below(256)));
          break;
        case 1:
          if (pos < int(s.size())) s.erase(s.begin() + pos);
          break;
        default:
          if (pos < int(s.size())) s[pos] = char(prng.below(256));
          break;
      }
    }
    ServerLine l;
    ClientLine c;
    (void)parse_server_line(s, l);
    (void)parse_client_line(s, c);
  }
}

TEST_CASE("client lines: parse and format round trip") {
  CHECK(format_login("alice", "floodgate-300-10F,trip", false) ==
        "LOGIN alice floodgate-300-10F,trip");
  CHECK(format_login("alice", "trip", true) == "LOGIN alice trip x1");
  ClientLine l = client_line(format_login("alice", "demo-60-5,tripA", false));
  CHECK(l.type == ClientLineType::kLogin);
  CHECK(l.name == "alice");
  CHECK(l.password == "demo-60-5,tripA");
  CHECK(!l.x1);
  CHECK(client_line("LOGIN alice tripA x1").x1);
  CHECK(format_logout() == "LOGOUT");
  CHECK(client_line("LOGOUT").type == ClientLineType::kLogout);
  CHECK(format_agree("g1") == "AGREE g1");
  CHECK(format_agree("") == "AGREE");
  CHECK(format_reject("g1") == "REJECT g1");
  CHECK(format_reject("") == "REJECT");
  CHECK(client_line("AGREE g1").game_id == "g1");
  CHECK(client_line("AGREE").type == ClientLineType::kAgree);
  CHECK(client_line("REJECT").type == ClientLineType::kReject);
  CHECK(client_line("AGREEMENT").type == ClientLineType::kUnknown);
  CHECK(format_keep_alive().empty());
  CHECK(client_line("").type == ClientLineType::kKeepAlive);
  CHECK(client_line(" ").type == ClientLineType::kKeepAlive);
  CHECK(format_special_move(shogi::CsaSpecialMove::kToryo) == "%TORYO");
  CHECK(format_special_move(shogi::CsaSpecialMove::kKachi) == "%KACHI");
  CHECK(format_special_move(shogi::CsaSpecialMove::kChudan) == "%CHUDAN");
  CHECK(client_line("%CHUDAN").special == shogi::CsaSpecialMove::kChudan);
  CHECK(format_x1_game("floodgate-300-10F", '*') == "%%GAME floodgate-300-10F *");
  l = client_line("%%GAME floodgate-60-2F *");
  CHECK(l.type == ClientLineType::kX1Command);
  CHECK(l.command == "GAME");
  CHECK(l.args == "floodgate-60-2F *");
  CHECK(client_line("%%VERSION").command == "VERSION");
  l = client_line("+7776FU,'* 30 -3334FU +2726FU");
  CHECK(l.type == ClientLineType::kMove);
  CHECK(l.move.comment == "* 30 -3334FU +2726FU");
  ClientLine bad;
  CHECK(!parse_client_line("LOGIN alice", bad));
  CHECK(!parse_client_line("LOGIN al ice pass word", bad));
  CHECK(!parse_client_line("%%", bad));
  // Server-side formatters.
  CHECK(format_login_ok("bob") == "LOGIN:bob OK");
  CHECK(format_start("g") == "START:g");
  CHECK(format_reject_by("g", "bob") == "REJECT:g by bob");
  CHECK(format_move_echo("+7776FU", 3) == "+7776FU,T3");
  CHECK(server(format_move_echo("-3334FU", 17)).move.t_milli == 17000);
}

TEST_CASE("names, passwords, game names") {
  CHECK(is_valid_login_name("gps500"));
  CHECK(is_valid_login_name("a.b@c-d_e"));
  CHECK(!is_valid_login_name(""));
  CHECK(!is_valid_login_name(std::string(33, 'a')));
  CHECK(!is_valid_login_name("al ice"));
  CHECK(!is_valid_login_name("alice+"));
  CHECK(is_valid_password("floodgate-300-10F,trip"));
  CHECK(!is_valid_password("has space"));
  CHECK(!is_valid_password(""));
  auto g = parse_game_name_time("floodgate-300-10F");
  REQUIRE(g);
  CHECK(g->total_s == 300);
  CHECK(g->increment_s == 10);
  CHECK(g->byoyomi_s == 0);
  g = parse_game_name_time("floodgate-600-10");
  REQUIRE(g);
  CHECK(g->byoyomi_s == 10);
  CHECK(!g->stop_watch);
  g = parse_game_name_time("sw-600-060");
  REQUIRE(g);
  CHECK(g->stop_watch);
  CHECK(g->byoyomi_s == 60);
  CHECK(!parse_game_name_time("floodgate"));
  CHECK(!parse_game_name_time("-600-10"));
  CHECK(game_name_from_id("research+fi-2-3F+alice+bob+20261125211434") == "fi-2-3F");
  CHECK(game_name_from_id("nonsense").empty());
  CHECK(quote_line("a\x01\xff") == "'a\\x01\\xFF'");
  CHECK(quote_line(std::string(200, 'x')).size() < 100);
}

TEST_CASE("floodgate comment: Black's sign, PV from the reply, length cap") {
  shogi::Position pos;
  shogi::Move m1, m2, m3;
  REQUIRE(shogi::parse_csa_move(pos, "+7776FU", m1));
  pos.do_move(m1);
  REQUIRE(shogi::parse_csa_move(pos, "-3334FU", m2));
  pos.do_move(m2);
  REQUIRE(shogi::parse_csa_move(pos, "+2726FU", m3));
  CHECK(format_floodgate_comment(30, kBlack, m1, {m1, m2, m3}, 16) == "* 30 -3334FU +2726FU");
  CHECK(format_floodgate_comment(30, kWhite, m1, {m1, m2, m3}, 16) == "* -30 -3334FU +2726FU");
  CHECK(format_floodgate_comment(-99, kWhite, m2, {m3}, 16) == "* 99 +2726FU");
  CHECK(format_floodgate_comment(30, kBlack, m1, {m1, m2, m3}, 1) == "* 30 -3334FU");
  CHECK(format_floodgate_comment(0, kBlack, m1, {}, 16) == "* 0");
  CHECK(format_move_line("+7776FU", "* 30 -3334FU") == "+7776FU,'* 30 -3334FU");
  CHECK(format_move_line("+7776FU", "") == "+7776FU");
  CHECK(format_move_line("+7776FU", "a,b\nc") == "+7776FU,'a b c");
  CHECK(format_move_line("+7776FU", std::string(10000, 'x')).size() == kMaxLineLength);
}

TEST_CASE("line splitter: LF and CR LF, overlong lines cut, partial tail") {
  LineSplitter s;
  std::vector<std::string> lines;
  s.append("LOGIN:alice OK\r\nBEGIN Game", lines);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] == "LOGIN:alice OK");
  s.append("_Summary\n\n", lines);
  REQUIRE(lines.size() == 3);
  CHECK(lines[1] == "BEGIN Game_Summary");
  CHECK(lines[2].empty());
  s.append(std::string(100000, 'x') + "\n+7776FU,T1\n", lines);
  REQUIRE(lines.size() == 5);
  CHECK(lines[3].size() == kMaxLineLength + 1);
  ServerLine l;
  CHECK(!parse_server_line(lines[3], l));
  CHECK(lines[4] == "+7776FU,T1");
  s.append("%TOR", lines);
  CHECK(s.has_partial());
  CHECK(s.take_partial() == "%TOR");
}

TEST_CASE("summary: every field of a real floodgate summary") {
  Parsed p = parse_summary(base_summary());
  REQUIRE(p.result == SummaryParser::Result::kDone);
  CHECK(p.parser.warnings().empty());
  const GameSummary& s = p.parser.summary();
  CHECK(s.protocol_version == "1.2");
  CHECK(s.protocol_mode == "Server");
  CHECK(s.format == "Shogi 1.0");
  CHECK(s.declaration == "Jishogi 1.1");
  CHECK(s.game_id == "research+demo-60-5+alice+bob+20261125211451");
  CHECK(s.names[kBlack] == "alice");
  CHECK(s.names[kWhite] == "bob");
  CHECK(s.your_turn == kBlack);
  CHECK(s.to_move == kBlack);
  CHECK(!s.rematch_on_draw);
  CHECK(s.max_moves == 256);
  CHECK(!s.per_side_time);
  for (shogi::Color c : {kBlack, kWhite}) {
    CHECK(s.time[c].unit_ms == 1000);
    CHECK(s.time[c].total_time == 60);
    CHECK(s.time[c].byoyomi == 5);
    CHECK(s.time[c].increment == 0);
    CHECK(s.time[c].least_time_per_move == 0);
    CHECK(!s.time[c].time_roundup);
  }
  CHECK(shogi::same_position_setup(s.initial, shogi::csa_start_setup()));
  CHECK(s.moves.empty());
  CHECK(s.position().sfen(false) == shogi::Position().sfen(false));
  // The formatter writes what the parser reads back.
  const GameSummary again = summary_ok(format_game_summary(s));
  CHECK(again.game_id == s.game_id);
  CHECK(again.time[kWhite].byoyomi == 5);
}

TEST_CASE("summary: Time+/Time- blocks, units, Time_Roundup, Delay, moves played, PI") {
  std::vector<std::string> lines = base_summary();
  const auto tb = std::find(lines.begin(), lines.end(), "BEGIN Time");
  const auto te = std::find(lines.begin(), lines.end(), "END Time");
  lines.erase(tb, te + 1);
  lines = edited(lines, "BEGIN Position",
                 "BEGIN Time+\nTime_Unit:1msec\nTotal_Time:30000\nByoyomi:5000\n"
                 "Delay:200\nTime_Roundup:YES\nEND Time+\nBEGIN Time-\nTime_Unit:2min\n"
                 "Total_Time:5\nIncrement:1\nLeast_Time_Per_Move:1\nEND Time-\nBEGIN Position");
  GameSummary s = summary_ok(edited(lines, "Your_Turn", "Your_Turn:-"));
  CHECK(s.per_side_time);
  CHECK(s.your_turn == kWhite);
  CHECK(s.time[kBlack].unit_ms == 1);
  CHECK(s.time[kBlack].total_time == 30000);
  CHECK(s.time[kBlack].delay == 200);
  CHECK(s.time[kBlack].time_roundup);
  CHECK(s.time[kWhite].unit_ms == 120000);
  CHECK(s.time[kWhite].increment == 1);
  CHECK(s.time[kWhite].least_time_per_move == 1);
  // A buoy game: PI start position, then two moves already played with their times.
  lines = base_summary();
  auto pos_begin = std::find(lines.begin(), lines.end(), "BEGIN Position");
  auto pos_end = std::find(lines.begin(), lines.end(), "END Position");
  lines.erase(pos_begin + 1, pos_end);
  pos_begin = std::find(lines.begin(), lines.end(), "BEGIN Position");
  lines.insert(pos_begin + 1, {"PI", "+", "'a comment", "+7776FU,T1", "-3334FU,T2.5"});
  s = summary_ok(lines);
  REQUIRE(s.moves.size() == 2);
  CHECK(s.moves[1].text == "-3334FU");
  CHECK(s.moves[1].t_milli == 2500);
  CHECK(s.side_to_move() == kBlack);
  CHECK(s.position().side_to_move() == kBlack);
  CHECK(s.position().plies_played() == 2);
  // Unknown fields are kept and warned about; x1 chat inside a summary is skipped.
  lines = edited(base_summary(), "Max_Moves", "Max_Moves:256\nNew_Field:42\n##[CHAT] hi");
  Parsed p = parse_summary(edited(lines, "Byoyomi", "Byoyomi:5\nRemaining_Time+:60"));
  REQUIRE(p.result == SummaryParser::Result::kDone);
  CHECK(p.parser.warnings().size() == 3);
  REQUIRE(p.parser.summary().unknown_fields.size() == 2);
  CHECK(p.parser.summary().unknown_fields[0].first == "New_Field");
  // Blank lines (a keep-alive answer) and comments anywhere are skipped without a warning.
  lines = edited(base_summary(), "Max_Moves", "Max_Moves:256\n\n'a comment");
  lines = edited(lines, "Byoyomi", "Byoyomi:5\n'* 0\n");
  lines = edited(lines, "P1", "'before the board\n\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY");
  p = parse_summary(lines);
  REQUIRE_MESSAGE(p.result == SummaryParser::Result::kDone, p.parser.error());
  CHECK(p.parser.warnings().empty());
  CHECK(p.parser.summary().time[kBlack].byoyomi == 5);
  CHECK(p.parser.summary().max_moves == 256);
}

TEST_CASE("summary: errors name the line; missing END, duplicates, absurd numbers") {
  auto has = [](const std::string& error, const std::string& what) {
    CAPTURE(error);
    CHECK(error.find(what) != std::string::npos);
  };
  has(summary_error(edited(base_summary(), "Total_Time", "Total_Time:abc")),
      "Game_Summary line 15 'Total_Time:abc': Total_Time must be a number");
  has(summary_error(edited(base_summary(), "Total_Time", "Total_Time:-60")), "line 15");
  has(summary_error(edited(base_summary(), "Total_Time", "Total_Time:99999999999")),
      "Total_Time must be a number");
  has(summary_error(edited(edited(base_summary(), "Time_Unit", "Time_Unit:1min"), "Total_Time",
                           "Total_Time:1000000000")),
      "absurd time");
  has(summary_error(edited(base_summary(), "Max_Moves", "Max_Moves:-1")), "Max_Moves");
  has(summary_error(edited(base_summary(), "Time_Unit", "Time_Unit:1hour")), "Time_Unit must");
  has(summary_error(edited(base_summary(), "Time_Unit", "Time_Unit:0sec")), "Time_Unit must");
  has(summary_error(edited(base_summary(), "Time_Unit", "Time_Unit:1sec\nTime_Roundup:maybe")),
      "Time_Roundup");
  has(summary_error(edited(base_summary(), "Name+", "Name+:alice\nName+:carol")),
      "duplicated field Name+");
  has(summary_error(edited(base_summary(), "Byoyomi", "Byoyomi:5\nByoyomi:500")),
      "duplicated field Byoyomi");
  has(summary_error(edited(base_summary(), "Your_Turn", "Your_Turn:x")), "Your_Turn must");
  has(summary_error(edited(base_summary(), "Rematch", "Rematch_On_Draw:MAYBE")), "Rematch");
  has(summary_error(edited(base_summary(), "Max_Moves", "Max_Moves:256\nTotal_Time:9")),
      "time field outside BEGIN Time");
  has(summary_error(edited(base_summary(), "Max_Moves", "Max_Moves:256\nBEGIN Timer")),
      "unknown section");
  has(summary_error(edited(base_summary(), "END Time", "END Time\nBEGIN Time+\nEND Time+")),
      "both BEGIN Time");
  has(summary_error(edited(base_summary(), "Game_ID", "")), "no Game_ID");
  has(summary_error(edited(base_summary(), "To_Move", "To_Move:-")), "To_Move disagrees");
  has(summary_error(edited(base_summary(), "P5", "")), "Game_Summary:");
  has(summary_error(edited(base_summary(), "P9", "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\nP+00FU\nP+00FU")),
      "Game_Summary");
  has(summary_error(edited(base_summary(), "END Position", "+7775FU,T1\nEND Position")),
      "line 31 '+7775FU,T1'");
  has(summary_error(edited(base_summary(), "END Position", "garbage\nEND Position")),
      "expected a move played before");
  has(summary_error(edited(base_summary(), "+", "")), "side-to-move");
  has(summary_error(edited(base_summary(), "BEGIN Game_Summary", "BEGIN Game_Summery")),
      "expected BEGIN Game_Summary");
  has(summary_error(edited(base_summary(), "Format", std::string("Format:\x01\x02"))),
      "control byte");
  has(summary_error(edited(base_summary(), "Format", "Format:" + std::string(9000, 'z'))),
      "9007 bytes");
  // END Game_Summary lost: the next START (or the line limit) ends it with an error.
  auto lines = edited(base_summary(), "END Game_Summary", "START:x");
  has(summary_error(lines), "'START:x': not a summary line: END Game_Summary missing?");
  SummaryParser parser;
  SummaryParser::Result r = parser.feed("BEGIN Game_Summary");
  for (int i = 0; i < 3 * kMaxSummaryLines && r == SummaryParser::Result::kNeedMore; ++i)
    r = parser.feed("Unknown_Field:" + std::to_string(i));
  CHECK(r == SummaryParser::Result::kError);
  CHECK(parser.finished());
  has(parser.error(), "END Game_Summary missing?");
  // After an error the parser swallows lines until END Game_Summary.
  parser.reset();
  CHECK(parser.feed("BEGIN Game_Summary") == SummaryParser::Result::kNeedMore);
  CHECK(parser.feed("Game_ID:a b") == SummaryParser::Result::kError);
  CHECK(!parser.finished());
  CHECK(parser.feed("Name+:x") == SummaryParser::Result::kError);
  CHECK(parser.feed("END Game_Summary") == SummaryParser::Result::kError);
  CHECK(parser.finished());
  has(parser.error(), "line 2 'Game_ID:a b'");
}

TEST_CASE("summary: random mutations never crash the parser") {
  test::Prng prng(11);
  const std::vector<std::string> lines = base_summary();
  for (int round = 0; round < 3000; ++round) {
    SummaryParser parser;
    for (std::string l : lines) {
      if (prng.below(20) == 0) {
        const int pos = prng.below(int(l.size()) + 1);
        if (prng.below(2))
          l.insert(l.begin() + pos, char(prng.below(256)));
        else if (pos < int(l.size()))
          l[pos] = char(prng.below(256));
      }
      if (prng.below(60) == 0) continue;  // drop a line
      if (parser.feed(l) != SummaryParser::Result::kNeedMore && parser.finished()) break;
    }
    if (parser.finished() && parser.error().empty()) (void)parser.summary().position();
  }
}

}  // namespace csa_protocol_test
