// sashite match: Elo math, openings, plans, and whole matches against fake engines (shell
// scripts), with and without --reuse-engines; in the slow suite, short games of our engine
// against gpsusi and fairy-stockfish, and gpsusi against fairy-stockfish. The referee and the
// info-line parsing have their own files (match_referee_test, match_search_info_test).
#include <doctest/doctest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/child_process.h"
#include "shogi/csa_record.h"
#include "tests/file_text.h"
#include "tests/temp_dir.h"
#include "tools/match/elo.h"
#include "tools/match/match_openings.h"
#include "tools/match/match_runner.h"

#ifndef SASHITE_TEST_DATA_DIR
#define SASHITE_TEST_DATA_DIR "tests/data"
#endif

namespace match_test {

using namespace tools;
namespace fs = std::filesystem;

namespace {

// A fake USI engine. Modes: cycle (plays 5i5h 5a5b 5h5i 5b5a in turn), illegal, crash,
// silent (never answers go), noready (never answers isready), resign, win; crashonce (crashes
// on its first go when the file "crashed" beside the script does not exist, creating it,
// then plays as cycle); oneshot (plays as cycle, exits on gameover); noweights (reports an
// error before each readyok, then plays as cycle). Playing as cycle, it
// reports before each bestmove "info depth G score cp 50 nodes O": G the usinewgame lines
// and O the gameover lines its process has read, so the records show which process played.
const char* kFakeEngine = R"(#!/bin/sh
set -f
mode=$1
dir=$(dirname "$0")
n=0
games=0
overs=0
while IFS= read -r line; do
  set -- $line
  case "$1" in
    usi) echo "id name fake $mode"; echo usiok ;;
    isready) [ "$mode" = noweights ] && echo "info string error: isready: w.eval: cannot open"
             [ "$mode" = noready ] || echo readyok ;;
    usinewgame) games=$((games + 1)) ;;
    gameover) overs=$((overs + 1)); [ "$mode" = oneshot ] && exit 0 ;;
    position) n=$(($# - 3)); [ $n -lt 0 ] && n=0 ;;
    go) if [ "$mode" = crashonce ] && [ ! -e "$dir/crashed" ]; then : > "$dir/crashed"; exit 3; fi
        case "$mode" in
          crash) exit 3 ;;
          illegal) echo "bestmove 5e5d" ;;
          resign) echo "bestmove resign" ;;
          win) echo "bestmove win" ;;
          cycle|crashonce|oneshot|noweights)
            case $((n % 4)) in 0) m=5i5h;; 1) m=5a5b;; 2) m=5h5i;; *) m=5b5a;; esac
            echo "info depth $games score cp 50 nodes $overs pv $m"
            echo "info string depth 99 score cp 9"
            echo "bestmove $m ponder 5a5b" ;;
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
    for (const std::vector<std::string>& cols : summary_cells())
      rows.push_back(cols[3] + "\t" + cols[4] + "\t" + cols[5]);
    return rows;
  }
  // The average depths of the summary rows, each as "black_depth\twhite_depth".
  std::vector<std::string> summary_depths() const {
    std::vector<std::string> rows;
    for (const std::vector<std::string>& cols : summary_cells())
      rows.push_back(cols[6] + "\t" + cols[7]);
    return rows;
  }
  std::vector<std::vector<std::string>> summary_cells() const {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(read_text(dir.path / "out" / "summary.tsv"));
    std::string line;
    std::getline(in, line);
    CHECK(line == "game\tblack\twhite\tresult\tplies\treason\tblack_depth\twhite_depth");
    while (std::getline(in, line)) {
      std::vector<std::string> cols;
      std::istringstream cells(line);
      for (std::string c; std::getline(cells, c, '\t');) cols.push_back(c);
      REQUIRE(cols.size() == 8);
      rows.push_back(cols);
    }
    return rows;
  }
  shogi::CsaRecord record(int game) const {
    shogi::CsaRecord rec;
    const fs::path p = dir.path / "out" / ("g000" + std::to_string(game) + ".csa");
    base::Status s = shogi::load_csa_record_file(p.string(), rec);
    REQUIRE_MESSAGE(s.is_ok(), s.message());
    return rec;
  }
};

std::string run(const MatchOptions& o) {
  std::ostringstream out;
  base::Status s = run_match(o, out);
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
  REQUIRE(base::split_command_line("  /usr/games/gpsusi  ", argv).is_ok());
  CHECK(argv == std::vector<std::string>{"/usr/games/gpsusi"});
  REQUIRE(base::split_command_line("sh 'a b.sh' \"x \\\"y\\\"\" c\\ d", argv).is_ok());
  CHECK(argv == std::vector<std::string>{"sh", "a b.sh", "x \"y\"", "c d"});
  CHECK_FALSE(base::split_command_line("sh 'oops", argv).is_ok());
  CHECK_FALSE(base::split_command_line("   ", argv).is_ok());
  CHECK(usi::is_gpsusi_command("/usr/games/gpsusi"));
  CHECK_FALSE(usi::is_gpsusi_command("/usr/games/fairy-stockfish"));
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
  base::Status s = load_openings(file.string(), list);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find(":2: move 2") != std::string::npos);
}

TEST_CASE("match: the shipped opening files load, every move legal") {
  const std::string dir = std::string(SASHITE_TEST_DATA_DIR) + "/../../data/openings/";
  std::vector<Opening> list;
  REQUIRE(load_openings(dir + "taya36.sfen", list).is_ok());
  CHECK(list.size() == 1957);
  for (const Opening& o : list) CHECK(o.moves.size() == 36);
  REQUIRE(load_openings(dir + "wcsc28-200x12ply.txt", list).is_ok());
  CHECK(list.size() == 200);
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
  o.games = 0;  // the default: 2 games, or an SPRT's maximum
  CHECK(plan_games(o, {}).size() == 2);
  o.sprt = "0,5";
  CHECK(planned_games(o) == kSprtDefaultGames);
}

TEST_CASE("match: time controls, their clock and their go commands") {
  int64_t main_ms = -1, inc_ms = -1;
  REQUIRE(parse_time_control("10+0.1", main_ms, inc_ms).is_ok());
  CHECK(main_ms == 10000);
  CHECK(inc_ms == 100);
  REQUIRE(parse_time_control("600", main_ms, inc_ms).is_ok());
  CHECK(main_ms == 600000);
  CHECK(inc_ms == 0);
  REQUIRE(parse_time_control("0+2.25", main_ms, inc_ms).is_ok());
  CHECK(main_ms == 0);
  CHECK(inc_ms == 2250);
  for (const char* bad :
       {"", "+1", "10+", "1.2345", "ten", "10+0.1+1", "0", "0+0", ".5", "5.", "-1"}) {
    CAPTURE(bad);
    const base::Status st = parse_time_control(bad, main_ms, inc_ms);
    CHECK_FALSE(st.is_ok());
    CHECK(st.message().find("--tc '" + std::string(bad) + "'") != std::string::npos);
  }

  MatchOptions o;
  o.engine1 = "a";
  o.engine2 = "b";
  o.time_control = "10+0.1";
  CHECK(validate_match_options(o).is_ok());
  GameSetup g = plan_games(o, {})[0];
  CHECK(g.limits.timed());
  CHECK(go_command(g.limits) == "go btime 10100 wtime 10000 binc 100 winc 100");
  CHECK(move_wait_ms(g.limits) == 10100 + 1000);
  // The increment is credited before every move, floodgate's way; the time left never
  // goes below zero.
  MatchClock clock(g.limits);
  CHECK(clock.available_ms(shogi::kBlack) == 10100);
  clock.charge(shogi::kBlack, 600);
  CHECK(clock.remaining_ms(shogi::kBlack) == 9500);
  CHECK(clock.go_command(shogi::kWhite) == "go btime 9500 wtime 10100 binc 100 winc 100");
  clock.charge(shogi::kWhite, 20000);
  CHECK(clock.remaining_ms(shogi::kWhite) == 0);
  CHECK(clock.available_ms(shogi::kWhite) == 100);

  o.time_control = "600";
  o.byoyomi_ms = 10000;
  CHECK(validate_match_options(o).is_ok());
  g = plan_games(o, {})[0];
  CHECK(go_command(g.limits) == "go btime 600000 wtime 600000 byoyomi 10000");
  MatchClock byoyomi(g.limits);
  byoyomi.charge(shogi::kBlack, 700000);
  CHECK(byoyomi.available_ms(shogi::kBlack) == 10000);
  CHECK(byoyomi.go_command(shogi::kBlack) == "go btime 0 wtime 600000 byoyomi 10000");

  o.time_control = "300+10";
  CHECK_FALSE(validate_match_options(o).is_ok());  // Fischer and byoyomi
  o.byoyomi_ms = 0;
  o.time_control = "1+x";
  CHECK_FALSE(validate_match_options(o).is_ok());
  o.time_control = "10+0.1";
  o.nodes = 100;
  CHECK_FALSE(validate_match_options(o).is_ok());
  o.nodes = 0;
  o.sprt = "5,0";
  CHECK_FALSE(validate_match_options(o).is_ok());
  o.sprt = "0,5";
  o.sprt_alpha = 0.7;
  CHECK_FALSE(validate_match_options(o).is_ok());
}

TEST_CASE("match: game pairs for the SPRT complete in any order") {
  PairTally t(5);
  CHECK_FALSE(t.add(1, 2));
  CHECK_FALSE(t.add(2, 1));
  CHECK(t.add(0, 2));        // pair 0: 2 + 2 half points, WW
  CHECK(t.add(3, 0));        // pair 1: 1 + 0, LD
  CHECK_FALSE(t.add(4, 2));  // game 5 has no twin
  CHECK(t.pentanomial().bins == std::array<int64_t, 5>{0, 1, 0, 0, 1});
}

TEST_CASE("match: fake engines, adjudicated end to end") {
  FakeMatch m;
  SUBCASE("repetition") {
    const std::string out = run(m.options("cycle", "cycle"));
    CHECK(m.summary() ==
          std::vector<std::string>{"1/2-1/2\t12\trepetition", "1/2-1/2\t12\trepetition"});
    CHECK(m.record(1).result == shogi::CsaSpecialMove::kSennichite);
    CHECK(m.record(1).black_name == "fake cycle (engine1)");
    CHECK(out.find("engine1 0-0-2") != std::string::npos);
    // Every move carries its search report, the score from Black's point of view.
    const shogi::CsaRecord rec = m.record(2);
    CHECK(rec.moves[0].comments == std::vector<std::string>{"** 50 depth 1 nodes 0"});
    CHECK(rec.moves[1].comments == std::vector<std::string>{"** -50 depth 1 nodes 0"});
    CHECK(m.summary_depths() == std::vector<std::string>{"1.00\t1.00", "1.00\t1.00"});
    CHECK(out.find("engine1 search: 12 moves, depth 1.00 avg (12 moves), nodes 0 avg (12 moves), "
                   "time losses 0\n") != std::string::npos);
  }
  SUBCASE("illegal move") {
    const std::string out = run(m.options("cycle", "illegal"));
    CHECK(m.summary() == std::vector<std::string>{"1-0\t1\tillegal_move", "0-1\t0\tillegal_move"});
    CHECK(m.record(2).result == shogi::CsaSpecialMove::kIllegalMove);
    CHECK(out.find("engine1 2-0-0") != std::string::npos);
    CHECK(out.find("Elo difference engine1 - engine2: +inf") != std::string::npos);
  }
  SUBCASE("crash") {
    run(m.options("crash", "cycle"));
    CHECK(m.summary() == std::vector<std::string>{"0-1\t0\tcrash", "1-0\t1\tcrash"});
    CHECK(m.record(1).result == shogi::CsaSpecialMove::kChudan);
  }
  SUBCASE("silent: a time loss with byoyomi, a hang with nodes") {
    const std::string out = run(m.options("cycle", "silent"));
    CHECK(m.summary() == std::vector<std::string>{"1-0\t1\ttime_up", "0-1\t0\ttime_up"});
    CHECK(m.summary_depths() == std::vector<std::string>{"1.00\t-", "-\t-"});
    CHECK(m.record(1).result == shogi::CsaSpecialMove::kTimeUp);
    CHECK(out.find("engine2 search: 0 moves, depth - avg (0 moves), nodes - avg (0 moves), "
                   "time losses 2\n") != std::string::npos);
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
    base::Status s = run_match(o, out);
    CHECK_FALSE(s.is_ok());
    CHECK(s.message().find("no-such-engine") != std::string::npos);
  }
}

TEST_CASE("match: a Fischer clock over whole games, and a time loss under it") {
  FakeMatch m;
  MatchOptions o = m.options("cycle", "cycle");
  o.byoyomi_ms = 0;
  o.time_control = "2+0.5";
  o.games = 1;
  o.log = true;
  const std::string out = run(o);
  CHECK(m.summary() == std::vector<std::string>{"1/2-1/2\t12\trepetition"});
  const std::string log = read_text(m.dir.path / "out" / "g0001.log");
  CHECK(log.find("engine1 (black) > go btime 2500 wtime 2000 binc 500 winc 500") !=
        std::string::npos);
  // White's first move: its increment credited, Black's main time charged and credited.
  CHECK(log.find("engine2 (white) > go btime ") != std::string::npos);
  CHECK(log.find(" wtime 2500 binc 500 winc 500") != std::string::npos);
  CHECK(out.find("tc 2+0.5 s (Fischer)") != std::string::npos);
  // CSA V3.0: the clock as $TIME (main+byoyomi+increment) and each move's time in ms.
  const shogi::CsaRecord rec = m.record(1);
  CHECK(rec.version == "V3.0");
  CHECK(std::find(rec.info.begin(), rec.info.end(),
                  std::pair<std::string, std::string>{"TIME", "2+0+0.5"}) != rec.info.end());
  REQUIRE(rec.moves.front().time_ms.has_value());

  // A silent engine loses on time once its main time, increment and margin are gone.
  o = m.options("cycle", "silent");
  o.byoyomi_ms = 0;
  o.time_control = "0.2+0.1";
  o.time_margin_ms = 100;
  o.games = 1;
  run(o);
  CHECK(m.summary() == std::vector<std::string>{"1-0\t1\ttime_up"});
  CHECK(m.record(1).result == shogi::CsaSpecialMove::kTimeUp);
}

TEST_CASE("match: time odds give each engine its own byoyomi, whatever its colour") {
  FakeMatch m;
  MatchOptions o = m.options("cycle", "silent");
  o.byoyomi2_ms = 100;  // engine1 200 ms, engine2 100 ms
  o.time_margin_ms = 100;
  o.log = true;
  const std::string out = run(o);
  CHECK(out.find("byoyomi 200 ms, engine2 100 ms (margin 100 ms)") != std::string::npos);
  // Game 1: engine1 black; game 2: engine2 black; the silent engine2 loses both on time.
  CHECK(m.summary() == std::vector<std::string>{"1-0\t1\ttime_up", "0-1\t0\ttime_up"});
  const std::string log1 = read_text(m.dir.path / "out" / "g0001.log");
  CHECK(log1.find("engine1 (black) > go btime 0 wtime 0 byoyomi 200") != std::string::npos);
  CHECK(log1.find("engine2 (white) > go btime 0 wtime 0 byoyomi 100") != std::string::npos);
  const std::string log2 = read_text(m.dir.path / "out" / "g0002.log");
  CHECK(log2.find("engine2 (black) > go btime 0 wtime 0 byoyomi 100") != std::string::npos);
  // Each side's clock in the record ($TIME+, $TIME-), no $TIME_LIMIT that would hide the odds.
  const shogi::CsaRecord rec = m.record(2);
  const auto has = [&rec](const std::string& key, const std::string& value) {
    return std::find(rec.info.begin(), rec.info.end(),
                     std::pair<std::string, std::string>{key, value}) != rec.info.end();
  };
  CHECK(has("TIME+", "0+0.1+0"));
  CHECK(has("TIME-", "0+0.2+0"));
  for (const auto& [key, value] : rec.info) CHECK(key != "TIME_LIMIT");
  // The record's comments give each side's go command, not Black's alone.
  const auto commented = [&rec](const std::string& line) {
    return std::find(rec.comments.begin(), rec.comments.end(), line) != rec.comments.end();
  };
  CHECK(commented("black: go btime 0 wtime 0 byoyomi 100"));
  CHECK(commented("white: go btime 0 wtime 0 byoyomi 200"));

  o.byoyomi_ms = 0;
  o.nodes = 100;
  const base::Status no_byoyomi = validate_match_options(o);
  CHECK(no_byoyomi.message() == "--byoyomi2 (engine2's byoyomi) needs --byoyomi (engine1's)");
}

TEST_CASE("match: --sprt stops once the test decides and writes its state") {
  FakeMatch m;
  MatchOptions o = m.options("cycle", "illegal");  // engine1 wins every game
  o.games = 0;
  o.sprt = "0,50";
  const std::string out = run(o);
  CHECK(out.find("sprt: LLR ") != std::string::npos);
  CHECK(out.find("H1 accepted") != std::string::npos);
  CHECK(out.find("sprt: H1 (elo = 50.0) accepted after ") != std::string::npos);
  CHECK(out.find("sprt: final LLR ") != std::string::npos);
  // Engine1's wins are pairs WW. The test weighs only the expected score: under either
  // hypothesis the likeliest pairs are WW and LL in proportion s, so each WW pair adds about
  // ln(s1 / s0) = 0.134 at [0, 50] and the test needs about 22 of them, far from the
  // 100000 games it may play.
  std::istringstream in(read_text(m.dir.path / "out" / "summary.tsv"));
  std::string line;
  std::getline(in, line);
  CHECK(line ==
        "game\tblack\twhite\tresult\tplies\treason\tblack_depth\twhite_depth\tpairs\tllr\t"
        "llr_lower\tllr_upper\telo\telo_lower\telo_upper");
  int games = 0;
  double last_llr = 0;
  while (std::getline(in, line)) {
    ++games;
    std::vector<std::string> cols;
    std::istringstream cells(line);
    for (std::string c; std::getline(cells, c, '\t');) cols.push_back(c);
    REQUIRE(cols.size() == 15);
    CHECK(cols[12] == (cols[8] == "0" ? "0.0" : "inf"));
    last_llr = std::max(last_llr, std::stod(cols[9]));
    CHECK(cols[10] == "-2.944");
    CHECK(cols[11] == "2.944");
  }
  CHECK(games >= 2);
  CHECK(games >= 40);
  CHECK(games <= 60);
  CHECK(last_llr >= 2.944);

  // The test also accepts H0: engine1 loses every game.
  o = m.options("illegal", "cycle");
  o.games = 0;
  o.sprt = "0,50";
  CHECK(run(o).find("sprt: H0 (elo = 0.0) accepted after ") != std::string::npos);
}

TEST_CASE("match: --resume counts the games summary.tsv lists and plays the others") {
  FakeMatch m;
  MatchOptions o = m.options("cycle", "illegal");
  o.games = 4;
  run(o);
  CHECK(m.summary().size() == 4);
  // Cut the run after games 1 and 3 (finished out of order), as a kill would leave it.
  const fs::path summary = m.dir.path / "out" / "summary.tsv";
  std::istringstream in(read_text(summary));
  std::string header, g1, g2, g3;
  std::getline(in, header);
  std::getline(in, g1);
  std::getline(in, g2);
  std::getline(in, g3);
  std::ofstream(summary) << header << "\n" << g1 << "\n" << g3 << "\n";
  fs::remove(m.dir.path / "out" / "g0002.csa");
  o.resume = true;
  const std::string out = run(o);
  CHECK(out.find("match: resuming ") != std::string::npos);
  CHECK(out.find("2 of 4 games already played (engine1 2-0-0") != std::string::npos);
  CHECK(out.find("game 2/4 g0002") != std::string::npos);
  CHECK(out.find("game 1/4") == std::string::npos);
  CHECK(out.find("game 3/4") == std::string::npos);
  CHECK(out.find("final: engine1 4-0-0 (100.0%) in 4 games") != std::string::npos);
  CHECK(m.summary().size() == 4);
  CHECK(fs::exists(m.dir.path / "out" / "g0002.csa"));
  // A resumed SPRT that had already decided plays nothing more.
  FakeMatch n;
  MatchOptions p = n.options("cycle", "illegal");
  p.games = 0;
  p.sprt = "0,50";
  run(p);
  const std::string before = read_text(n.dir.path / "out" / "summary.tsv");
  p.resume = true;
  const std::string again = run(p);
  CHECK(again.find("H1 accepted") != std::string::npos);
  CHECK(again.find(" games already played") != std::string::npos);
  CHECK(again.find("\ngame ") == std::string::npos);
  CHECK(read_text(n.dir.path / "out" / "summary.tsv") == before);
  // Not a summary: an error naming it.
  std::ofstream(n.dir.path / "out" / "summary.tsv") << "nonsense\n";
  std::ostringstream bad;
  const base::Status st = run_match(p, bad);
  CHECK_FALSE(st.is_ok());
  CHECK(st.message().find("summary.tsv:1: not a sashite match summary") != std::string::npos);
  p.out_dir.clear();
  CHECK_FALSE(validate_match_options(p).is_ok());
}

TEST_CASE("match: what an engine could not set up at isready is shown, once per engine") {
  FakeMatch m;
  MatchOptions o = m.options("noweights", "cycle");
  o.games = 4;
  o.jobs = 1;
  o.max_plies = 4;
  const std::string shown = "(engine1 at isready: info string error: isready: w.eval: cannot open)";
  SUBCASE("a new process for every game") {
    const std::string out = run(o);
    const size_t at = out.find(
        "game 1/4 g0001: engine1 (black) vs engine2 (white): 1/2-1/2 max_plies after 4 plies; "
        "engine1 0-0-1 (50.0%)\n  " +
        shown + "\n");
    CHECK(at != std::string::npos);
    CHECK(out.find(shown, at + 1) == out.rfind(shown));  // not again for games 2-4
    CHECK(out.find("engine2 at isready") == std::string::npos);
  }
  SUBCASE("kept processes") {
    o.reuse_engines = true;
    const std::string out = run(o);
    CHECK(out.find(shown) != std::string::npos);
    CHECK(out.find(shown) == out.rfind(shown));
  }
  SUBCASE("no errors, nothing shown") {
    o.engine1 = "sh '" + m.script + "' cycle";
    CHECK(run(o).find("at isready") == std::string::npos);
  }
}

TEST_CASE("match: --reuse-engines keeps each engine's process from game to game") {
  // The fake engines report as depth the usinewgame lines their process has read, and as
  // nodes the gameover lines: the comments of game g say which process played it.
  FakeMatch m;
  MatchOptions o = m.options("cycle", "cycle");
  o.games = 4;
  o.jobs = 1;
  o.max_plies = 4;
  o.reuse_engines = true;
  auto comments = [&](int game, int move) {
    return m.record(game).moves.at(size_t(move)).comments;
  };
  auto comment = [](int score, int depth, int nodes) {
    return std::vector<std::string>{"** " + std::to_string(score) + " depth " +
                                    std::to_string(depth) + " nodes " + std::to_string(nodes)};
  };
  SUBCASE("kept: one process per engine for the whole match, colours still alternate") {
    const std::string out = run(o);
    for (int g = 1; g <= 4; ++g) {
      CAPTURE(g);
      CHECK(comments(g, 0) == comment(50, g, g - 1));
      CHECK(comments(g, 3) == comment(-50, g, g - 1));
    }
    CHECK(m.record(2).black_name == "fake cycle (engine2)");
    CHECK(m.summary_depths() ==
          std::vector<std::string>{"1.00\t1.00", "2.00\t2.00", "3.00\t3.00", "4.00\t4.00"});
    CHECK(out.find("engine processes kept between games") != std::string::npos);
    CHECK(out.find("engine1 search: 8 moves, depth 2.50 avg (8 moves), nodes ") !=
          std::string::npos);
    CHECK(out.find("time losses 0, restarts 0\n") != std::string::npos);
    CHECK(out.find("restarted") == std::string::npos);
  }
  SUBCASE("not kept: a new process for every game") {
    o.reuse_engines = false;
    const std::string out = run(o);
    for (int g = 1; g <= 4; ++g) CHECK(comments(g, 1) == comment(-50, 1, 0));
    CHECK(out.find("restarts") == std::string::npos);
  }
  SUBCASE("an engine that crashes is restarted for the next game") {
    o.engine1 = "sh '" + m.script + "' crashonce";
    o.games = 3;
    const std::string out = run(o);
    CHECK(m.summary() == std::vector<std::string>{"0-1\t0\tcrash", "1/2-1/2\t4\tmax_plies",
                                                  "1/2-1/2\t4\tmax_plies"});
    CHECK(comments(2, 0) == comment(50, 2, 1));   // engine2, kept
    CHECK(comments(2, 1) == comment(-50, 1, 0));  // engine1, new
    CHECK(comments(3, 0) == comment(50, 2, 1));   // engine1, kept since
    CHECK(comments(3, 1) == comment(-50, 3, 2));
    CHECK(out.find("game 2/3 g0002: engine2 (black) vs engine1 (white): 1/2-1/2 max_plies after 4 "
                   "plies; engine1 0-1-1 (25.0%)\n  (engine1 was restarted for this game after a "
                   "fault)\n") != std::string::npos);
    CHECK(out.find("engine1 search: 4 moves, depth 1.50 avg (4 moves), nodes 0 avg (4 moves), "
                   "time losses 0, restarts 1\n") != std::string::npos);
    CHECK(out.find("engine2 search: 4 moves, depth 2.50 avg (4 moves), nodes 2 avg (4 moves), "
                   "time losses 0, restarts 0\n") != std::string::npos);
  }
  SUBCASE("an engine that exits between games is restarted, and the game goes on") {
    o.engine2 = m.script + " oneshot";
    o.games = 2;
    const std::string out = run(o);
    CHECK(m.summary() ==
          std::vector<std::string>{"1/2-1/2\t4\tmax_plies", "1/2-1/2\t4\tmax_plies"});
    CHECK(comments(2, 0) == comment(50, 1, 0));   // engine2, new
    CHECK(comments(2, 1) == comment(-50, 2, 1));  // engine1, kept
    CHECK(out.find("(engine2 was restarted for this game after a fault)") != std::string::npos);
    CHECK(out.find("time losses 0, restarts 1\n") != std::string::npos);
  }
  SUBCASE("an engine that loses on time is restarted") {
    o.engine2 = m.script + " silent";
    o.games = 2;
    const std::string out = run(o);
    CHECK(m.summary() == std::vector<std::string>{"1-0\t1\ttime_up", "0-1\t0\ttime_up"});
    CHECK(out.find("engine2 search: 0 moves, depth - avg (0 moves), nodes - avg (0 moves), "
                   "time losses 2, restarts 1\n") != std::string::npos);
  }
}

namespace {

// A short game of our engine (build/sashite usi) against `other` (engine1 when `ours_black`
// is false), `plies` plies: each record must replay legal, end at the ply limit without a
// time loss, and carry a search comment on every move of ours.
void play_ours_against(const std::string& other, const std::vector<std::string>& other_options,
                       bool ours_black, int byoyomi_ms, int plies) {
  const std::string ours = SASHITE_TEST_DATA_DIR "/../../build/sashite";
  REQUIRE_MESSAGE(::access(ours.c_str(), X_OK) == 0, "no executable at " << ours);
  TempDir dir;
  MatchOptions o;
  o.engine1 = ours_black ? ours + " usi" : other;
  o.engine2 = ours_black ? other : ours + " usi";
  (ours_black ? o.options1 : o.options2) = {"USI_Hash=64"};
  (ours_black ? o.options2 : o.options1) = other_options;
  o.games = 1;
  o.byoyomi_ms = byoyomi_ms;
  o.max_plies = plies;
  o.out_dir = (dir.path / "out").string();
  const std::string out = run(o);
  INFO(out);  // shown when a check fails
  shogi::CsaRecord rec;
  const base::Status s =
      shogi::load_csa_record_file((dir.path / "out" / "g0001.csa").string(), rec);
  REQUIRE_MESSAGE(s.is_ok(), s.message());  // every move replayed legal
  CHECK(rec.moves.size() == size_t(plies));
  CHECK(rec.result == shogi::CsaSpecialMove::kMaxMoves);
  CHECK(out.find("engine1 search: ") != std::string::npos);
  CHECK(out.find("time losses 1") == std::string::npos);
  for (size_t i = ours_black ? 0 : 1; i < rec.moves.size(); i += 2) {
    CAPTURE(i);
    REQUIRE(rec.moves[i].comments.size() == 1);
    const std::string& c = rec.moves[i].comments[0];
    CHECK(c.rfind("** ", 0) == 0);
    CHECK(c.find(" depth ") != std::string::npos);
    CHECK(c.find(" nodes ") != std::string::npos);
  }
}

// Fails the test when the reference engine at `path` (Debian `package`) is missing.
void require_installed(const char* path, const char* package) {
  REQUIRE_MESSAGE(::access(path, X_OK) == 0,
                  path << " is missing (Debian " << package << "): make deps installs it");
}

}  // namespace

TEST_SUITE("slow") {
  TEST_CASE("match: our engine against gpsusi, 8 plies") {
    require_installed("/usr/games/gpsusi", "gpsshogi");
    play_ours_against("/usr/games/gpsusi", {}, true, 1000, 8);  // gpsusi needs >= 1000 ms
  }

  TEST_CASE("match: fairy-stockfish against our engine, 8 plies") {
    require_installed("/usr/games/fairy-stockfish", "fairy-stockfish");
    play_ours_against("/usr/games/fairy-stockfish", {"UCI_Variant=shogi"}, false, 300, 8);
  }

  TEST_CASE("match: gpsusi against fairy-stockfish, a few plies") {
    const char* gps = "/usr/games/gpsusi";
    const char* fairy = "/usr/games/fairy-stockfish";
    require_installed(gps, "gpsshogi");
    require_installed(fairy, "fairy-stockfish");
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
      shogi::CsaRecord rec;
      const fs::path p = dir.path / "out" / ("g000" + std::to_string(game) + ".csa");
      base::Status s = shogi::load_csa_record_file(p.string(), rec);
      REQUIRE_MESSAGE(s.is_ok(), s.message());  // every move replayed legal
      CHECK(rec.moves.size() == 6);
      CHECK(rec.result == shogi::CsaSpecialMove::kMaxMoves);
      CHECK(rec.black_name.find(game == 1 ? "gpsshogi" : "Fairy-Stockfish") == 0);
      for (const shogi::CsaRecordMove& m : rec.moves) CHECK(m.time_ms.has_value());
    }
  }
}

}  // namespace match_test
