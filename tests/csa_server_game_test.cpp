// The local CSA server's referee (tools/server/csa_server_game.h): clock, results and records, with
// the lines shogi-server sends in each case (docs/csa-protocol.md section 1.6).
#include "tools/server/csa_server_game.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "shogi/csa_record.h"
#include "tools/server/csa_server_login.h"

namespace csa_server_game_test {

using shogi::kBlack;
using shogi::kWhite;
using tools::ServerGame;
using tools::ServerGameConfig;
using Lines = std::vector<std::string>;

namespace {

ServerGameConfig config(const std::string& game_name, const std::string& sfen = "") {
  ServerGameConfig c;
  c.event = "research";
  c.game_name = game_name;
  c.names[kBlack] = "alice";
  c.names[kWhite] = "bob";
  c.id_time = "20261125211451";
  if (!sfen.empty()) {
    shogi::Position p;
    const base::Status st = p.set_sfen(sfen);
    REQUIRE_MESSAGE(st.is_ok(), st.message());
    c.initial = p.setup();
  }
  return c;
}

// A game past START at time 0.
ServerGame started(const ServerGameConfig& c) {
  ServerGame g(c);
  g.agree(kBlack, 0);
  const auto out = g.agree(kWhite, 0);
  REQUIRE(out[kBlack] == Lines{"START:" + g.game_id()});
  REQUIRE(g.phase() == ServerGame::Phase::kPlaying);
  return g;
}

// Plays alternating moves, each `ms` after the previous one, expecting every one echoed.
void play_all(ServerGame& g, const Lines& moves, int64_t& now, int64_t ms = 0) {
  for (const std::string& m : moves) {
    REQUIRE(!g.over());
    now += ms;
    const auto out = g.play(g.side_to_move(), m, now);
    REQUIRE(!out[kBlack].empty());
    CHECK(out[kBlack][0] == m + ",T" + std::to_string(ms / 1000));
  }
}

// The record must read back with our own reader.
void check_record_reads(const ServerGame& g) {
  shogi::CsaRecord back;
  const std::string text = shogi::write_csa_record(g.record(), shogi::CsaVersion::kV22);
  const base::Status st = shogi::read_csa_record(text, "server.csa", back);
  REQUIRE_MESSAGE(st.is_ok(), st.message() << "\n" << text);
  CHECK(back.moves.size() == g.record().moves.size());
  CHECK(back.result == g.record().result);
}

}  // namespace

TEST_CASE("server game: the summary is shogi-server's") {
  ServerGame g(config("demo-60-5"));
  const Lines s = g.summary(kWhite);
  REQUIRE(s.size() == 32);
  CHECK(s[5] == "Game_ID:research+demo-60-5+alice+bob+20261125211451");
  CHECK(s[8] == "Your_Turn:-");
  CHECK(s[11] == "Max_Moves:256");
  CHECK(s[16] == "Increment:0");
  CHECK(s[21] == "P2 * -HI *  *  *  *  * -KA * ");
  CHECK(s[29] == "+");
  CHECK(s[31] == "END Game_Summary");
  // Hands as shogi-server writes them: sorted by piece name.
  const Lines p = tools::summary_position_lines(
      config("x-1-1", "4k4/9/9/9/9/9/9/9/4K4 b 2PB 1").initial.value());
  CHECK(p[9] == "P+00FU00FU00KA");
}

TEST_CASE("server game: AGREE, REJECT and the server's own reject") {
  ServerGame g(config("demo-60-5"));
  CHECK(g.agree(kBlack, 0)[kBlack].empty());
  const auto out = g.reject(kWhite);
  CHECK(out[kBlack] == Lines{"REJECT:" + g.game_id() + " by bob"});
  CHECK(out[kWhite] == out[kBlack]);
  CHECK(g.over());
  CHECK(g.result().kind == "rejected");

  ServerGame t(config("demo-60-5"));
  CHECK(t.reject(kBlack, true)[kWhite] ==
        Lines{"REJECT:" + t.game_id() + " by the Server (timed out)"});
  ServerGame d(config("demo-60-5"));
  CHECK(d.disconnect(kWhite, 5)[kBlack] == Lines{"REJECT:" + d.game_id() + " by bob"});
}

TEST_CASE("server game: T is the truncated elapsed time; Least_Time_Per_Move; roundup") {
  ServerGame g = started(config("demo-60-5"));
  CHECK(g.play(kBlack, "+7776FU,'* 30 -3334FU", 999)[kWhite] == Lines{"+7776FU,T0"});
  CHECK(g.play(kWhite, "-3334FU", 999 + 1999)[kBlack] == Lines{"-3334FU,T1"});
  CHECK(g.clock().remaining_ms(kWhite) == 59000);
  CHECK(g.record().moves[0].comments == std::vector<std::string>{"** 30 -3334FU"});

  ServerGameConfig c = config("demo-60-5");
  c.least_time_per_move_s = 1;
  ServerGame l = started(c);
  CHECK(l.play(kBlack, "+7776FU", 10)[kBlack] == Lines{"+7776FU,T1"});
  CHECK(l.summary(kBlack)[17] == "Least_Time_Per_Move:1");

  c = config("demo-60-5");
  c.time_roundup = true;
  ServerGame r = started(c);
  CHECK(r.play(kBlack, "+7776FU", 1001)[kBlack] == Lines{"+7776FU,T2"});
  CHECK(r.summary(kBlack)[18] == "Time_Roundup:YES");
}

TEST_CASE("server game: time-up with byoyomi, by the move and by the clock check") {
  ServerGame g = started(config("tu-0-2"));
  CHECK(g.time_up_at_ms() == 2000);
  CHECK(g.check_time(1999)[kBlack].empty());
  CHECK(g.play(kBlack, "+7776FU", 1999)[kBlack] == Lines{"+7776FU,T1"});
  CHECK(g.time_up_at_ms() == 1999 + 2000);
  // [T:timeup]: a late move is not echoed.
  const auto out = g.play(kWhite, "-3334FU", 1999 + 3000);
  CHECK(out[kBlack] == Lines{"#TIME_UP", "#WIN"});
  CHECK(out[kWhite] == Lines{"#TIME_UP", "#LOSE"});
  CHECK(g.record().result == shogi::CsaSpecialMove::kTimeUp);
  check_record_reads(g);

  ServerGame s = started(config("si-0-2"));  // [T:silent]: nothing from the side to move
  const auto silent = s.check_time(2000);
  CHECK(silent[kBlack] == Lines{"#TIME_UP", "#LOSE"});
  CHECK(silent[kWhite] == Lines{"#TIME_UP", "#WIN"});
}

TEST_CASE("server game: Fischer increment credited before every move [T:fischer]") {
  ServerGame g = started(config("fi-2-3F"));
  CHECK(g.play(kBlack, "+7776FU", 4300)[kBlack] == Lines{"+7776FU,T4"});
  CHECK(g.clock().remaining_ms(kBlack) == 1000);
  CHECK(g.play(kWhite, "-3334FU", 4300)[kBlack] == Lines{"-3334FU,T0"});
  CHECK(g.time_up_at_ms() == 4300 + 4000);
  CHECK(g.play(kBlack, "+2726FU", 4300 + 4200)[kBlack] == Lines{"#TIME_UP", "#LOSE"});
}

TEST_CASE("server game: illegal moves, wrong side, %CHUDAN and garbage lose") {
  for (const std::string& bad : Lines{"+7775FU", "-3334FU", "%CHUDAN", "+77X6FU", "+", "%FOO",
                                      std::string("+7776FU\x01\xff", 9)}) {
    CAPTURE(bad);
    ServerGame g = started(config("il-60-5"));
    const auto out = g.play(kBlack, bad, 5);
    CHECK(out[kBlack] == Lines{"#ILLEGAL_MOVE", "#LOSE"});  // [T:illegal], [T:chudan]
    CHECK(out[kWhite] == Lines{"#ILLEGAL_MOVE", "#WIN"});
    CHECK(g.result().winner == kWhite);
    check_record_reads(g);
  }
}

TEST_CASE("server game: pawn-drop mate is illegal, a pawn-drop check is not") {
  const std::string sfen = "k8/2G6/9/1N7/9/9/9/9/8K b P 1";
  ServerGame g = started(config("pd-60-5", sfen));
  CHECK(g.play(kBlack, "+0092FU", 0)[kBlack] == Lines{"#ILLEGAL_MOVE", "#LOSE"});
  ServerGame ok = started(config("pd-60-5", "k8/9/9/1N7/9/9/9/9/8K b P 1"));
  CHECK(ok.play(kBlack, "+0092FU", 0)[kBlack] == Lines{"+0092FU,T0"});
}

TEST_CASE("server game: %TORYO, and a dropped connection") {
  ServerGame g = started(config("demo-60-5"));
  g.play(kBlack, "+7776FU", 0);
  const auto out = g.play(kWhite, "%TORYO", 0);
  CHECK(out[kWhite] == Lines{"%TORYO", "#RESIGN", "#LOSE"});  // [T:csa]
  CHECK(out[kBlack] == Lines{"%TORYO", "#RESIGN", "#WIN"});
  CHECK(g.record().result == shogi::CsaSpecialMove::kToryo);
  check_record_reads(g);

  ServerGame d = started(config("dc-60-5"));  // [T:disconnect]
  d.play(kBlack, "+7776FU", 0);
  const auto dc = d.disconnect(kWhite, 10);
  CHECK(dc[kBlack] == Lines{"%TORYO", "#RESIGN", "#WIN"});
  CHECK(dc[kWhite].empty());
  CHECK(d.result().kind == "abnormal");
  ServerGame n = started(config("dc-60-5"));  // the side not to move leaves
  CHECK(n.disconnect(kWhite, 10)[kBlack] == Lines{"%TORYO", "#RESIGN", "#WIN"});
  check_record_reads(n);
}

TEST_CASE("server game: %KACHI valid and invalid") {
  ServerGame bad = started(config("kc-60-5"));  // [T:kachi]: the start position
  const auto out = bad.play(kBlack, "%KACHI", 0);
  CHECK(out[kBlack] == Lines{"%KACHI,T0", "%KACHI", "#ILLEGAL_MOVE", "#LOSE"});
  CHECK(out[kWhite] == Lines{"%KACHI,T0", "%KACHI", "#ILLEGAL_MOVE", "#WIN"});
  check_record_reads(bad);

  // Black's king in the camp, 10 other pieces there, 26 points there plus 18 in hand.
  ServerGame good = started(config("kc-60-5", "S8/4K4/GGGGRRSBB/9/9/9/9/9/8k b 18P 1"));
  const auto win = good.play(kBlack, "%KACHI", 2500);
  CHECK(win[kBlack] == Lines{"%KACHI,T2", "%KACHI", "#JISHOGI", "#WIN"});
  CHECK(win[kWhite] == Lines{"%KACHI,T2", "%KACHI", "#JISHOGI", "#LOSE"});
  CHECK(good.record().result == shogi::CsaSpecialMove::kKachi);
  check_record_reads(good);
}

TEST_CASE("server game: sennichite is a draw after the fourth occurrence") {
  ServerGame g = started(config("sn-60-5"));
  int64_t now = 0;
  const Lines cycle = {"+5958OU", "-5152OU", "+5859OU", "-5251OU"};
  for (int i = 0; i < 2; ++i) play_all(g, cycle, now);
  play_all(g, {"+5958OU", "-5152OU", "+5859OU"}, now);
  const auto out = g.play(kWhite, "-5251OU", now);
  CHECK(out[kBlack] == Lines{"-5251OU,T0", "#SENNICHITE", "#DRAW"});
  CHECK(out[kWhite] == out[kBlack]);
  CHECK(g.record().result == shogi::CsaSpecialMove::kSennichite);
  check_record_reads(g);
}

TEST_CASE("server game: perpetual check loses for the checking side") {
  ServerGame g = started(config("oc-60-5", "8k/R8/9/9/9/9/9/9/4K4 b - 1"));
  int64_t now = 0;
  const Lines cycle = {"+9291HI", "-1112OU", "+9192HI", "-1211OU"};
  for (int i = 0; i < 2; ++i) play_all(g, cycle, now);
  play_all(g, {"+9291HI", "-1112OU", "+9192HI"}, now);
  const auto out = g.play(kWhite, "-1211OU", now);
  CHECK(out[kBlack] == Lines{"-1211OU,T0", "#OUTE_SENNICHITE", "#LOSE"});
  CHECK(out[kWhite] == Lines{"-1211OU,T0", "#OUTE_SENNICHITE", "#WIN"});
  check_record_reads(g);
}

TEST_CASE("server game: Max_Moves echoes the last move, then #MAX_MOVES #CENSORED") {
  ServerGameConfig c = config("mm-60-5");
  c.max_moves = 4;
  ServerGame g = started(c);
  int64_t now = 0;
  play_all(g, {"+7776FU", "-3334FU", "+2726FU"}, now);
  const auto out = g.play(kWhite, "-8384FU", now);
  CHECK(out[kBlack] == Lines{"-8384FU,T0", "#MAX_MOVES", "#CENSORED"});
  CHECK(g.record().result == shogi::CsaSpecialMove::kMaxMoves);
  check_record_reads(g);
}

TEST_CASE("server game: early moves wait their turn; repeats are ignored [T:early]") {
  ServerGame g = started(config("ea-60-5"));
  CHECK(g.play(kWhite, "-3334FU", 0)[kBlack].empty());
  const auto out = g.play(kBlack, "+7776FU", 1200);
  CHECK(out[kBlack] == Lines{"+7776FU,T1", "-3334FU,T0"});
  CHECK(out[kWhite] == out[kBlack]);
  CHECK(g.play(kWhite, "-3334FU", 1300)[kBlack].empty());  // its own last move again
  CHECK(g.play(kBlack, "+2726FU", 1300)[kBlack] == Lines{"+2726FU,T0"});
}

TEST_CASE("server login: passwords and Game_ID times") {
  auto r = tools::parse_login_password("floodgate-300-10F,trip");
  REQUIRE(r);
  CHECK(r->game_name == "floodgate-300-10F");
  CHECK(r->trip == "trip");
  CHECK(r->color == '*');
  r = tools::parse_login_password("demo-60-5-W");
  REQUIRE(r);
  CHECK(r->game_name == "demo-60-5");
  CHECK(r->color == '-');
  r = tools::parse_login_password("tripA");
  REQUIRE(r);
  CHECK(r->game_name == "default-1500-0");
  CHECK(!tools::parse_login_password("nonsense,trip"));
  CHECK(!tools::parse_login_password("x-99999999-0,trip"));

  tools::GameIdClock ids;
  const std::string a = ids.next(1000000000), b = ids.next(1000000000);
  CHECK(a.size() == 14);
  CHECK(std::stoll(b) == std::stoll(a) + 1);
}

}  // namespace csa_server_game_test
