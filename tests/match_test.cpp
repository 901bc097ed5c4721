// sashite match: Elo math, openings, the referee's adjudication, and whole matches against
// fake engines (shell scripts) and, in the slow suite, gpsusi against fairy-stockfish.
#include <doctest/doctest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/csa_record.h"
#include "tools/child_process.h"
#include "tools/elo.h"
#include "tools/match_openings.h"
#include "tools/match_referee.h"
#include "tools/match_runner.h"

using namespace tools;
namespace fs = std::filesystem;

namespace {

// A fresh temporary directory, removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "sashite-match-test-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Plays `replies` in turn from `opening`; returns the referee (over or not).
Referee play(const std::vector<std::string>& replies, const std::string& opening_line = "startpos",
             int max_plies = 256) {
  Opening opening;
  REQUIRE(parse_opening_line(opening_line, opening).is_ok());
  Referee referee;
  REQUIRE(referee.start(opening, max_plies).is_ok());
  for (const std::string& r : replies) {
    REQUIRE_FALSE(referee.over());
    referee.on_reply(r, 100);
  }
  return referee;
}

// The record written as CSA V2.2 must read back, with the same moves and result.
void check_record_round_trip(const Referee& referee) {
  engine::CsaRecord back;
  const std::string text = engine::write_csa_record(referee.record(), engine::CsaVersion::kV22);
  engine::Status s = engine::read_csa_record(text, "game.csa", back);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  CHECK(back.moves.size() == referee.record().moves.size());
  CHECK(back.result == referee.record().result);
}

// A fake USI engine. Modes: cycle (plays 5i5h 5a5b 5h5i 5b5a in turn), illegal, crash,
// silent (never answers go), noready (never answers isready), resign, win.
const char* kFakeEngine = R"(#!/bin/sh
set -f
mode=$1
n=0
while IFS= read -r line; do
  set -- $line
  case "$1" in
    usi) echo "id name fake $mode"; echo usiok ;;
    isready) [ "$mode" = noready ] || echo readyok ;;
    position) n=$(($# - 3)); [ $n -lt 0 ] && n=0 ;;
    go) case "$mode" in
          crash) exit 3 ;;
          illegal) echo "bestmove 5e5d" ;;
          resign) echo "bestmove resign" ;;
          win) echo "bestmove win" ;;
          cycle) case $((n % 4)) in 0) m=5i5h;; 1) m=5a5b;; 2) m=5h5i;; *) m=5b5a;; esac
                 echo "info depth 1 score cp 0"; echo "bestmove $m ponder 5a5b" ;;
        esac ;;
    quit) exit 0 ;;
  esac
done
)";

struct FakeMatch {
  TempDir dir;
  std::string script;
  FakeMatch() {
    script = (dir.path / "fake_engine.sh").string();
    std::ofstream(script) << kFakeEngine;
    fs::permissions(script, fs::perms::owner_all);
  }
  MatchOptions options(const std::string& mode1, const std::string& mode2) const {
    MatchOptions o;
    o.engine1 = "sh '" + script + "' " + mode1;  // quoted, to exercise the splitting
    o.engine2 = script + " " + mode2;
    o.games = 2;
    o.jobs = 2;
    o.byoyomi_ms = 200;
    o.time_margin_ms = 200;
    o.ready_timeout_ms = 500;
    o.out_dir = (dir.path / "out").string();
    return o;
  }
  // The summary rows after the header, each as "result\tplies\treason".
  std::vector<std::string> summary() const {
    std::vector<std::string> rows;
    std::istringstream in(read_text(dir.path / "out" / "summary.tsv"));
    std::string line;
    std::getline(in, line);
    CHECK(line == "game\tblack\twhite\tresult\tplies\treason");
    while (std::getline(in, line)) {
      std::vector<std::string> cols;
      std::istringstream cells(line);
      for (std::string c; std::getline(cells, c, '\t');) cols.push_back(c);
      REQUIRE(cols.size() == 6);
      rows.push_back(cols[3] + "\t" + cols[4] + "\t" + cols[5]);
    }
    return rows;
  }
  engine::CsaRecord record(int game) const {
    engine::CsaRecord rec;
    const fs::path p = dir.path / "out" / ("g000" + std::to_string(game) + ".csa");
    engine::Status s = engine::load_csa_record_file(p.string(), rec);
    REQUIRE_MESSAGE(s.is_ok(), s.message());
    return rec;
  }
};

std::string run(const MatchOptions& o) {
  std::ostringstream out;
  engine::Status s = run_match(o, out);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  return out.str();
}

}  // namespace

TEST_CASE("elo: the logistic model and the normal interval on known scores") {
  CHECK(elo_from_score(0.5) == doctest::Approx(0.0));
  CHECK(elo_from_score(0.75) == doctest::Approx(190.848).epsilon(1e-5));
  CHECK(std::isinf(elo_from_score(1.0)));
  CHECK(elo_from_score(0.0) < 0);

  EloEstimate e = estimate_elo(6, 3, 1);  // s = 0.65
  CHECK(e.score == doctest::Approx(0.65));
  CHECK(e.elo == doctest::Approx(107.538).epsilon(1e-5));
  CHECK(e.score_stderr == doctest::Approx(0.142302).epsilon(1e-5));
  CHECK(e.lower == doctest::Approx(-91.642).epsilon(1e-5));
  CHECK(e.upper == doctest::Approx(446.460).epsilon(1e-5));
  CHECK(format_elo(e) == "+107.5 (95%: -91.6 .. +446.5)");

  e = estimate_elo(30, 20, 50);  // s = 0.55, draws shrink the variance
  CHECK(e.elo == doctest::Approx(34.860).epsilon(1e-5));
  CHECK(e.lower == doctest::Approx(-12.930).epsilon(1e-4));
  CHECK(e.upper == doctest::Approx(84.011).epsilon(1e-5));

  e = estimate_elo(5, 5, 0);
  CHECK(e.elo == doctest::Approx(0.0));
  CHECK(e.lower == doctest::Approx(-e.upper));
  CHECK(format_elo(estimate_elo(0, 0, 2)) == "+0.0 (95%: +0.0 .. +0.0)");
  CHECK(format_elo(estimate_elo(3, 0, 0)) == "+inf (95%: +inf .. +inf)");
  CHECK(estimate_elo(0, 0, 0).games == 0);
}

TEST_CASE("match: command lines split like a shell") {
  std::vector<std::string> argv;
  REQUIRE(split_command_line("  /usr/games/gpsusi  ", argv).is_ok());
  CHECK(argv == std::vector<std::string>{"/usr/games/gpsusi"});
  REQUIRE(split_command_line("sh 'a b.sh' \"x \\\"y\\\"\" c\\ d", argv).is_ok());
  CHECK(argv == std::vector<std::string>{"sh", "a b.sh", "x \"y\"", "c d"});
  CHECK_FALSE(split_command_line("sh 'oops", argv).is_ok());
  CHECK_FALSE(split_command_line("   ", argv).is_ok());
  CHECK(is_gpsusi_command("/usr/games/gpsusi"));
  CHECK_FALSE(is_gpsusi_command("/usr/games/fairy-stockfish"));
}

TEST_CASE("match: opening lines") {
  Opening o;
  REQUIRE(parse_opening_line("startpos moves 7g7f 3c3d", o).is_ok());
  CHECK(o.sfen == "startpos");
  CHECK(o.moves == std::vector<std::string>{"7g7f", "3c3d"});
  REQUIRE(parse_opening_line("7g7f 3c3d 2g2f", o).is_ok());
  CHECK(o.sfen == "startpos");
  CHECK(o.moves.size() == 3);
  REQUIRE(parse_opening_line("position sfen 4k4/8R/9/9/9/9/9/9/4K4 b - 1 moves 1b1a", o).is_ok());
  CHECK(o.sfen == "4k4/8R/9/9/9/9/9/9/4K4 b - 1");
  REQUIRE(parse_opening_line("4k4/8R/9/9/9/9/9/9/4K4 b - 1", o).is_ok());
  CHECK(o.moves.empty());
  CHECK_FALSE(parse_opening_line("startpos moves 7g7f 7g7f", o).is_ok());
  CHECK_FALSE(parse_opening_line("nonsense", o).is_ok());

  TempDir dir;
  const fs::path file = dir.path / "openings.txt";
  std::ofstream(file) << "# a comment\n\nstartpos moves 7g7f  # trailing comment\n2g2f 8c8d\n";
  std::vector<Opening> list;
  REQUIRE(load_openings(file.string(), list).is_ok());
  REQUIRE(list.size() == 2);
  CHECK(list[0].source == file.string() + ":3");
  std::ofstream(file) << "startpos moves 7g7f\n7g7f 5e5d\n";
  engine::Status s = load_openings(file.string(), list);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find(":2: move 2") != std::string::npos);
}

TEST_CASE("referee: sennichite is a draw on the fourth occurrence") {
  std::vector<std::string> cycle;
  for (int i = 0; i < 3; ++i) cycle.insert(cycle.end(), {"5i5h", "5a5b", "5h5i", "5b5a"});
  cycle.pop_back();
  Referee r = play(cycle);
  CHECK_FALSE(r.over());  // the start position has occurred three times only
  r.on_reply("5b5a", 100);
  REQUIRE(r.over());
  CHECK(r.end().winner == GameWinner::kDraw);
  CHECK(r.end().reason == EndReason::kRepetition);
  CHECK(r.record().result == engine::CsaSpecialMove::kSennichite);
  CHECK(r.plies() == 12);
  check_record_round_trip(r);
}

TEST_CASE("referee: perpetual check loses for the checking side") {
  std::vector<std::string> cycle;  // Black's rook checks on every move
  for (int i = 0; i < 3; ++i) cycle.insert(cycle.end(), {"1b1a", "5a5b", "1a1b", "5b5a"});
  Referee r = play(cycle, "4k4/8R/9/9/9/9/9/9/4K4 b - 1");
  REQUIRE(r.over());
  CHECK(r.end().winner == GameWinner::kWhite);
  CHECK(r.end().reason == EndReason::kPerpetualCheck);
  CHECK(r.record().result == engine::CsaSpecialMove::kOuteSennichite);
  check_record_round_trip(r);

  // White checks; the cycle completes with Black's escape, White to move.
  cycle.clear();
  for (int i = 0; i < 3; ++i) cycle.insert(cycle.end(), {"9h9i", "5i5h", "9i9h", "5h5i"});
  Referee w = play(cycle, "4k4/9/9/9/9/9/9/r8/4K4 w - 1");
  REQUIRE(w.over());
  CHECK(w.end().reason == EndReason::kPerpetualCheck);
  CHECK(w.end().winner == GameWinner::kBlack);
}

TEST_CASE("referee: entering-king declaration, valid and invalid") {
  // Black: king on 5b, ten pieces in White's camp (4 major: 20 + 6 small: 6), 2 pawns in hand.
  Referee valid = play({"win"}, "RRBB1GGGG/4K4/SS7/9/9/9/9/9/4k4 b 2P 1");
  REQUIRE(valid.over());
  CHECK(valid.end().winner == GameWinner::kBlack);
  CHECK(valid.end().reason == EndReason::kDeclaration);
  CHECK(valid.record().result == engine::CsaSpecialMove::kKachi);
  check_record_round_trip(valid);

  Referee short_of_points = play({"win"}, "RRBB1GGGG/4K4/SS7/9/9/9/9/9/4k4 b P 1");  // 27 < 28
  REQUIRE(short_of_points.over());
  CHECK(short_of_points.end().winner == GameWinner::kWhite);
  CHECK(short_of_points.end().reason == EndReason::kBadDeclaration);
  CHECK(short_of_points.record().result == engine::CsaSpecialMove::kIllegalMove);

  Referee at_start = play({"7g7f", "win"});
  CHECK(at_start.end().winner == GameWinner::kBlack);
  CHECK(at_start.end().reason == EndReason::kBadDeclaration);
  check_record_round_trip(at_start);
}

TEST_CASE("referee: illegal moves and resignation lose") {
  for (const char* bad : {"5e5d", "7g7e", "xyz", "", "pass", "8h2b+"}) {
    Referee r = play({bad});
    REQUIRE(r.over());
    CHECK(r.end().winner == GameWinner::kWhite);
    CHECK(r.end().reason == EndReason::kIllegalMove);
    CHECK(r.record().result == engine::CsaSpecialMove::kIllegalMove);
    CHECK(r.plies() == 0);
    check_record_round_trip(r);
  }
  Referee r = play({"7g7f", "3c3d", "8h2b+", "3a2b", "resign"});
  CHECK(r.end().winner == GameWinner::kWhite);
  CHECK(r.end().reason == EndReason::kResign);
  CHECK(r.record().result == engine::CsaSpecialMove::kToryo);
  CHECK(r.position_command() == "position startpos moves 7g7f 3c3d 8h2b+ 3a2b");
  check_record_round_trip(r);
}

TEST_CASE("referee: the ply limit draws, unless the side to move is mated") {
  Referee r = play({"7g7f", "3c3d"}, "startpos", 2);
  CHECK(r.check_ply_limit());
  CHECK(r.end().winner == GameWinner::kDraw);
  CHECK(r.end().reason == EndReason::kMaxPlies);
  CHECK(r.record().result == engine::CsaSpecialMove::kMaxMoves);
  check_record_round_trip(r);

  Referee opening_counts = play({}, "startpos moves 7g7f 3c3d 2g2f", 3);
  CHECK(opening_counts.check_ply_limit());

  Referee mated = play({}, "8k/9/9/9/9/9/4p4/4g4/4K4 b - 1", 0);
  CHECK_FALSE(mated.check_ply_limit());
  mated.on_reply("resign", 5);
  CHECK(mated.end().winner == GameWinner::kWhite);
}

TEST_CASE("referee: time loss and engine faults") {
  Referee r = play({"7g7f"});
  r.on_time_up(2500);
  CHECK(r.end().winner == GameWinner::kBlack);
  CHECK(r.end().reason == EndReason::kTimeUp);
  CHECK(r.record().result == engine::CsaSpecialMove::kTimeUp);
  check_record_round_trip(r);

  Referee c = play({"7g7f"});
  c.on_engine_fault(engine::kBlack, EndReason::kCrash, "exited with status 3");
  CHECK(c.end().winner == GameWinner::kWhite);
  CHECK(c.record().result == engine::CsaSpecialMove::kChudan);
  CHECK(c.record().result_comments.back().find("exited with status 3") != std::string::npos);
}

TEST_CASE("match: plan alternates colours and plays each opening twice") {
  MatchOptions o;
  o.engine1 = "a";
  o.engine2 = "b";
  o.games = 5;
  o.byoyomi_ms = 1000;
  std::vector<Opening> openings(2);
  openings[1].source = "second";
  std::vector<GameSetup> plan = plan_games(o, openings);
  REQUIRE(plan.size() == 5);
  CHECK(plan[0].black.command == "a");
  CHECK(plan[1].black.command == "b");
  CHECK(plan[1].black_label == "engine2");
  CHECK(plan[2].opening.source == "second");
  CHECK(plan[3].opening.source == "second");
  CHECK(plan[4].opening.source == "start position");
  CHECK(go_command(plan[0].limits) == "go btime 0 wtime 0 byoyomi 1000");
  o.byoyomi_ms = 0;
  o.nodes = 5000;
  CHECK(go_command(plan_games(o, {})[0].limits) == "go nodes 5000");
  CHECK(validate_match_options(o).is_ok());
  o.byoyomi_ms = 10;
  CHECK_FALSE(validate_match_options(o).is_ok());
}

TEST_CASE("match: fake engines, adjudicated end to end") {
  FakeMatch m;
  SUBCASE("repetition") {
    const std::string out = run(m.options("cycle", "cycle"));
    CHECK(m.summary() == std::vector<std::string>{"1/2-1/2\t12\trepetition", "1/2-1/2\t12\trepetition"});
    CHECK(m.record(1).result == engine::CsaSpecialMove::kSennichite);
    CHECK(m.record(1).black_name == "fake cycle (engine1)");
    CHECK(out.find("engine1 0-0-2") != std::string::npos);
  }
  SUBCASE("illegal move") {
    const std::string out = run(m.options("cycle", "illegal"));
    CHECK(m.summary() == std::vector<std::string>{"1-0\t1\tillegal_move", "0-1\t0\tillegal_move"});
    CHECK(m.record(2).result == engine::CsaSpecialMove::kIllegalMove);
    CHECK(out.find("engine1 2-0-0") != std::string::npos);
    CHECK(out.find("Elo difference engine1 - engine2: +inf") != std::string::npos);
  }
  SUBCASE("crash") {
    run(m.options("crash", "cycle"));
    CHECK(m.summary() == std::vector<std::string>{"0-1\t0\tcrash", "1-0\t1\tcrash"});
    CHECK(m.record(1).result == engine::CsaSpecialMove::kChudan);
  }
  SUBCASE("silent: a time loss with byoyomi, a hang with nodes") {
    run(m.options("cycle", "silent"));
    CHECK(m.summary() == std::vector<std::string>{"1-0\t1\ttime_up", "0-1\t0\ttime_up"});
    CHECK(m.record(1).result == engine::CsaSpecialMove::kTimeUp);
    MatchOptions o = m.options("cycle", "silent");
    o.byoyomi_ms = 0;
    o.nodes = 100;
    o.move_timeout_ms = 300;
    o.games = 1;
    run(o);
    CHECK(m.summary() == std::vector<std::string>{"1-0\t1\tno_response"});
  }
  SUBCASE("no readyok") {
    run(m.options("noready", "cycle"));
    CHECK(m.summary() == std::vector<std::string>{"0-1\t0\tno_response", "1-0\t0\tno_response"});
  }
  SUBCASE("resignation and a bad declaration") {
    run(m.options("resign", "win"));
    CHECK(m.summary() == std::vector<std::string>{"0-1\t0\tresign", "0-1\t0\tbad_declaration"});
  }
  SUBCASE("an engine that cannot be run stops the match") {
    MatchOptions o = m.options("cycle", "cycle");
    o.engine2 = (m.dir.path / "no-such-engine").string();
    std::ostringstream out;
    engine::Status s = run_match(o, out);
    CHECK_FALSE(s.is_ok());
    CHECK(s.message().find("no-such-engine") != std::string::npos);
  }
}

TEST_SUITE("slow") {
  TEST_CASE("match: gpsusi against fairy-stockfish, a few plies") {
    const char* gps = "/usr/games/gpsusi";
    const char* fairy = "/usr/games/fairy-stockfish";
    if (::access(gps, X_OK) != 0 || ::access(fairy, X_OK) != 0) {
      MESSAGE("gpsusi or fairy-stockfish is not installed: skipped");
      return;
    }
    TempDir dir;
    MatchOptions o;
    o.engine1 = gps;
    o.engine2 = fairy;
    o.options2 = {"UCI_Variant=shogi"};
    o.games = 2;
    o.jobs = 2;
    o.byoyomi_ms = 500;  // gpsusi thinks ~0.8 s anyway; the margin covers it
    o.max_plies = 6;
    o.out_dir = (dir.path / "out").string();
    run(o);
    for (int game = 1; game <= 2; ++game) {
      engine::CsaRecord rec;
      const fs::path p = dir.path / "out" / ("g000" + std::to_string(game) + ".csa");
      engine::Status s = engine::load_csa_record_file(p.string(), rec);
      REQUIRE_MESSAGE(s.is_ok(), s.message());  // every move replayed legal
      CHECK(rec.moves.size() == 6);
      CHECK(rec.result == engine::CsaSpecialMove::kMaxMoves);
      CHECK(rec.black_name.find(game == 1 ? "gpsshogi" : "Fairy-Stockfish") == 0);
      for (const engine::CsaRecordMove& m : rec.moves) CHECK(m.time_ms.has_value());
    }
  }
}
