// sashite learn label: records copied with another engine's values. A fake USI engine (a
// shell script whose score tells which position it was sent) checks the placement, the sign
// convention, faults and resuming; our own engine (build/sashite usi, a few thousand nodes a
// position) labels the fixture games of tests/data/learn_fit end to end.
#include "tools/learn/learn_label.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "base/child_process.h"
#include "shogi/csa_record.h"
#include "shogi/notation.h"
#include "tests/file_text.h"
#include "tests/temp_dir.h"
#include "tools/learn/learn_fit.h"

namespace learn_label_test {

using namespace base;
using namespace shogi;
using namespace tools;
namespace fs = std::filesystem;

namespace {

const std::string kFitDir = std::string(SASHITE_TEST_DATA_DIR) + "/learn_fit";
const std::string kLabelDir = std::string(SASHITE_TEST_DATA_DIR) + "/learn_label";
const std::string kSashite = std::string(SASHITE_TEST_DATA_DIR) + "/../../build/sashite";

// A fake USI engine. For "go" after a position with n moves it reports "info depth 3 score
// cp n nodes 10n" (n for the side to move), or "score mate 3" when n % 10 is 0 or 5, then
// "bestmove 5i5h". Modes: crash (exits on its first search of a position with 20 moves when
// the file "failed" beside the script does not exist, creating it), silent (the same, but
// never answers that search), noscore (never sends an info line).
const char* kFakeEngine = R"(#!/bin/sh
set -f
mode=$1
dir=$(dirname "$0")
n=0
while IFS= read -r line; do
  set -- $line
  case "$1" in
    usi) echo "id name fake label"; echo usiok ;;
    isready) echo readyok ;;
    position) if [ "$2" = startpos ]; then n=$(($# - 3)); else n=$(($# - 7)); fi
              [ $n -lt 0 ] && n=0 ;;
    go) if [ $n -eq 20 ] && [ ! -e "$dir/failed" ]; then
          : > "$dir/failed"
          [ "$mode" = crash ] && exit 3
          [ "$mode" = silent ] && continue
        fi
        case $((n % 10)) in 0|5) s="mate 3";; *) s="cp $n";; esac
        [ "$mode" = noscore ] || echo "info depth 3 score $s nodes $((n * 10)) pv 5i5h"
        echo "bestmove 5i5h" ;;
    quit) exit 0 ;;
  esac
done
)";

struct FakeEngine {
  TempDir dir{"sashite-label"};
  std::string script;
  FakeEngine() {
    script = (dir.path / "fake_engine.sh").string();
    std::ofstream(script) << kFakeEngine;
    fs::permissions(script, fs::perms::owner_all);
  }
  LabelOptions options(const std::string& mode, const std::string& out_name = "out") const {
    LabelOptions o;
    o.records = {kFitDir};
    o.out_dir = (dir.path / out_name).string();
    o.engine = "sh '" + script + "' " + mode;
    o.ready_timeout_ms = 2000;
    o.think_timeout_ms = 2000;
    return o;
  }
};

// The comment the fake engine's search of the position after `ply` moves gives, `first` to
// move at the start.
std::string fake_comment(int ply, Color first) {
  const bool black = (ply % 2 == 0 ? first : ~first) == kBlack;
  const std::string depth_nodes = " depth 3 nodes " + std::to_string(10 * ply);
  if (ply % 10 == 0 || ply % 10 == 5)
    return std::string("** ") + (black ? "+M" : "-M") + depth_nodes;
  return "** " + std::to_string(black ? ply : -ply) + depth_nodes;
}

CsaRecord load(const fs::path& path) {
  CsaRecord rec;
  const Status s = load_csa_record_file(path.string(), rec);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  return rec;
}

bool is_value_comment(const std::string& c) { return c.rfind("** ", 0) == 0; }

std::vector<std::string> without_value_comments(std::vector<std::string> comments) {
  std::erase_if(comments, is_value_comment);
  return comments;
}

// `copy` is `source` with its value comments dropped, a value comment first on moves of plies
// [first, last] only, and nothing else changed that the loader reads. `labelled(ply, c)` says
// whether c, the value comment of the move of `ply` ("" when it has none), is right.
void check_copy(const CsaRecord& source, const CsaRecord& copy, int first, int last,
                const std::function<bool(int ply, const std::string& comment)>& labelled) {
  CHECK(copy.black_name == source.black_name);
  CHECK(copy.white_name == source.white_name);
  CHECK(copy.info == source.info);
  CHECK(copy.comments == source.comments);
  CHECK(format_sfen(copy.initial) == format_sfen(source.initial));
  CHECK(copy.result == source.result);
  CHECK(copy.result_time_ms == source.result_time_ms);
  CHECK(copy.result_comments == source.result_comments);
  REQUIRE(copy.moves.size() == source.moves.size());
  for (size_t i = 0; i < copy.moves.size(); ++i) {
    const int ply = int(i) + 1;
    CAPTURE(ply);
    const CsaRecordMove& a = source.moves[i];
    const CsaRecordMove& b = copy.moves[i];
    CHECK(b.move == a.move);
    CHECK(b.time_ms == a.time_ms);
    const bool in_range = ply >= first && ply <= last;
    const auto values = std::count_if(b.comments.begin(), b.comments.end(), is_value_comment);
    const bool first_is_value = !b.comments.empty() && is_value_comment(b.comments[0]);
    CHECK(values == (first_is_value ? 1 : 0));
    if (in_range)
      CHECK(labelled(ply, first_is_value ? b.comments[0] : ""));
    else
      CHECK(values == 0);
    CHECK(without_value_comments(b.comments) == without_value_comments(a.comments));
  }
}

LabelCounts run(const LabelOptions& o, std::string* err_text = nullptr) {
  LabelCounts counts;
  std::ostringstream err;
  const Status s = run_learn_label(o, counts, err);
  INFO(err.str());
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  if (err_text) *err_text = err.str();
  return counts;
}

const char* kFixtures[] = {"black_wins.csa", "repetition.csa", "white_wins.csa"};

}  // namespace

TEST_CASE("learn label: position commands and value comments") {
  CsaRecord rec = load(kFitDir + "/black_wins.csa");
  CHECK(label_position_command(rec, 0) == "position startpos");
  CHECK(label_position_command(rec, 2) == "position startpos moves 7g7f 8c8d");
  rec = load(kLabelDir + "/handicap.csa");
  CHECK(label_position_command(rec, 1) ==
        "position sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d");

  usi::SearchReport r;
  CHECK(label_value_comment(r, kBlack).empty());
  r.depth = 7;
  CHECK(label_value_comment(r, kBlack).empty());  // a depth without a score
  r.nodes = 1234;
  r.score = usi::SearchScore{false, 30, -1, true};
  CHECK(label_value_comment(r, kBlack) == "** 30 depth 7 nodes 1234");
  CHECK(label_value_comment(r, kWhite) == "** -30 depth 7 nodes 1234");
  r.score = usi::SearchScore{true, 0, 5, true};  // the side to move mates in 5
  CHECK(label_value_comment(r, kBlack) == "** +M depth 7 nodes 1234");
  CHECK(label_value_comment(r, kWhite) == "** -M depth 7 nodes 1234");
  r.score = usi::SearchScore{true, 0, 4, false};  // the side to move is mated
  CHECK(label_value_comment(r, kBlack) == "** -M depth 7 nodes 1234");
  CHECK(label_value_comment(r, kWhite) == "** +M depth 7 nodes 1234");

  rec = load(kFitDir + "/black_wins.csa");
  drop_value_comments(rec);
  for (const CsaRecordMove& m : rec.moves)
    CHECK(std::none_of(m.comments.begin(), m.comments.end(), is_value_comment));
  CHECK(rec.result_comments == std::vector<std::string>{"sashite: resign 1-0: White resigned"});
}

TEST_CASE("learn label: option checks") {
  LabelOptions o;
  o.records = {kFitDir};
  o.out_dir = "/tmp/out";
  o.engine = "x";
  CHECK(validate_label_options(o).is_ok());
  o.first_ply = 20, o.last_ply = 19;
  CHECK_FALSE(validate_label_options(o).is_ok());
  o.first_ply = 0, o.last_ply = 19;
  CHECK_FALSE(validate_label_options(o).is_ok());
  o.first_ply = 1;
  o.engine_options = {"Thread"};
  CHECK(validate_label_options(o).message().find("NAME=VALUE") != std::string::npos);
  o.engine_options = {"Thread=1"};
  o.records = {kFitDir, "/elsewhere/learn_fit/"};
  CHECK(validate_label_options(o).message().find("same name") != std::string::npos);
  o.records = {kFitDir};
  o.out_dir = kFitDir + "/labelled";
  CHECK(validate_label_options(o).message().find("inside --records") != std::string::npos);
}

TEST_CASE("learn label: a fake engine's values on exactly the plies asked, Black's view") {
  FakeEngine fake;
  LabelOptions o = fake.options("normal");
  std::string err;
  LabelCounts c = run(o, &err);
  CHECK(err.empty());
  CHECK(c.records == 3);
  CHECK(c.read == 3);
  CHECK(c.written == 3);
  CHECK(c.skipped == 0);
  // Plies 13 .. 63, 13 .. 55 and 13 .. 48; a mate at every ply ending in 0 or 5.
  CHECK(c.positions == 51 + 43 + 36);
  CHECK(c.labelled == c.positions);
  CHECK(c.mates == 10 + 9 + 7);
  CHECK(c.failures == 0);
  CHECK(c.unscored == 0);
  const fs::path out = fs::path(o.out_dir) / "learn_fit";
  for (const char* name : kFixtures) {
    CAPTURE(name);
    const CsaRecord source = load(kFitDir + "/" + name);
    const CsaRecord copy = load(out / name);
    check_copy(source, copy, 13, 90, [](int ply, const std::string& comment) {
      return comment == fake_comment(ply, kBlack);
    });
    CHECK_FALSE(fs::exists(out / (std::string(name) + ".tmp")));
  }

  // learn fit reads the values: the fake engine gives the side to move +n after move n, so
  // every mover's value is -n, n the ply of its move (the game_ply of the position before).
  std::vector<ValueSample> samples;
  ValueSampleCounts counts;
  REQUIRE(collect_value_samples(out.string(), {}, samples, counts).is_ok());
  CHECK(counts.records == 3);
  CHECK(samples.size() == size_t(c.labelled - c.mates));
  for (const ValueSample& s : samples) CHECK(s.value_cp == -s.setup.game_ply);

  // Run again: everything is there already; nothing changes.
  const std::string before = read_text(out / "white_wins.csa");
  c = run(o);
  CHECK(c.records == 3);
  CHECK(c.skipped == 3);
  CHECK(c.read == 0);
  CHECK(c.written == 0);
  CHECK(c.positions == 0);
  CHECK(read_text(out / "white_wins.csa") == before);
  // A removed output is labelled again, the same.
  fs::remove(out / "white_wins.csa");
  c = run(o);
  CHECK(c.skipped == 2);
  CHECK(c.written == 1);
  CHECK(read_text(out / "white_wins.csa") == before);

  // One engine gives the same files as two.
  LabelOptions one = fake.options("normal", "one");
  one.jobs = 1;
  run(one);
  for (const char* name : kFixtures)
    CHECK(read_text(fs::path(one.out_dir) / "learn_fit" / name) == read_text(out / name));
}

TEST_CASE("learn label: other plies, a handicap start with White to move, commas") {
  FakeEngine fake;
  LabelOptions o = fake.options("normal");
  o.records = {kLabelDir, kFitDir};
  o.first_ply = 2;
  o.last_ply = 5;
  const LabelCounts c = run(o);
  CHECK(c.records == 4);
  CHECK(c.positions == 4 * 4);
  const CsaRecord source = load(kLabelDir + "/handicap.csa");
  const CsaRecord copy = load(fs::path(o.out_dir) / "learn_label" / "handicap.csa");
  check_copy(source, copy, 2, 5, [](int ply, const std::string& comment) {
    return comment == fake_comment(ply, kWhite);
  });
  CHECK(copy.moves[0].comments == std::vector<std::string>{"* -50 +7776FU"});  // not "** "
  CHECK(copy.moves[1].comments ==
        std::vector<std::string>{"** -2 depth 3 nodes 20", "a comment after the time"});
  CHECK(copy.moves[4].comments.front() == "** +M depth 3 nodes 50");
  CHECK(copy.moves[5].comments.empty());  // ply 6: its "** 7" dropped, none added
  CHECK(copy.black_name == "Black, with a comma");
  CHECK(copy.result_comments == std::vector<std::string>{"resigned"});
  const CsaRecord fit_copy = load(fs::path(o.out_dir) / "learn_fit" / "black_wins.csa");
  check_copy(
      load(kFitDir + "/black_wins.csa"), fit_copy, 2, 5,
      [](int ply, const std::string& comment) { return comment == fake_comment(ply, kBlack); });
}

TEST_CASE("learn label: an engine that crashes or hangs is restarted, the position left out") {
  for (const char* mode : {"crash", "silent"}) {
    CAPTURE(mode);
    FakeEngine fake;
    LabelOptions o = fake.options(mode);
    o.jobs = 1;  // the first record reaches ply 20 first
    o.think_timeout_ms = 300;
    std::string err;
    const LabelCounts c = run(o, &err);
    CHECK(c.written == 3);
    CHECK(c.positions == 130);
    CHECK(c.failures == 1);
    CHECK(c.labelled == 129);
    CHECK(err.find("black_wins.csa: move 20: ") != std::string::npos);
    const fs::path out = fs::path(o.out_dir) / "learn_fit";
    check_copy(load(kFitDir + "/black_wins.csa"), load(out / "black_wins.csa"), 13, 90,
               [](int ply, const std::string& comment) {
                 return comment == (ply == 20 ? "" : fake_comment(ply, kBlack));
               });
    CHECK(is_value_comment(load(out / "repetition.csa").moves[19].comments.at(0)));
  }

  FakeEngine fake;
  const LabelCounts c = run(fake.options("noscore"));
  CHECK(c.written == 3);
  CHECK(c.labelled == 0);
  CHECK(c.unscored == 130);
}

TEST_CASE("learn label: a bad record or engine is an error; what was written stays") {
  FakeEngine fake;
  const fs::path records = fake.dir.path / "games";
  fs::create_directories(records);
  fs::copy_file(kFitDir + "/black_wins.csa", records / "a.csa");
  LabelOptions o = fake.options("normal");
  o.records = {records.string()};
  CHECK(run(o).written == 1);
  const fs::path written = fs::path(o.out_dir) / "games" / "a.csa";
  const std::string before = read_text(written);

  std::string text = read_text(kFitDir + "/white_wins.csa");
  const size_t at = text.find("+2726FU");
  REQUIRE(at != std::string::npos);
  text.replace(at, 7, "+2725FU");
  std::ofstream(records / "b.csa") << text;
  fs::copy_file(kFitDir + "/repetition.csa", records / "c.csa");
  LabelCounts counts;
  std::ostringstream err;
  Status s = run_learn_label(o, counts, err);
  REQUIRE_FALSE(s.is_ok());
  CHECK(s.message().find("b.csa:") != std::string::npos);
  CHECK(s.message().find("illegal move +2725FU") != std::string::npos);
  CHECK(counts.written == 0);
  CHECK(read_text(written) == before);
  CHECK_FALSE(fs::exists(fs::path(o.out_dir) / "games" / "c.csa"));

  fs::remove(records / "b.csa");
  o.engine = (fake.dir.path / "no_such_engine").string();
  s = run_learn_label(o, counts, err);
  REQUIRE_FALSE(s.is_ok());
  CHECK(s.message().find("no_such_engine") != std::string::npos);
  CHECK(read_text(written) == before);
  CHECK_FALSE(fs::exists(fs::path(o.out_dir) / "games" / "c.csa"));
}

TEST_CASE("learn label: our engine labels the fixture games; the signs agree with theirs") {
  REQUIRE_MESSAGE(::access(kSashite.c_str(), X_OK) == 0, "no executable at " << kSashite);
  TempDir dir("sashite-label");
  LabelOptions o;
  o.records = {kFitDir};
  o.out_dir = (dir.path / "out").string();
  o.engine = kSashite + " usi";
  o.engine_options = {"Threads=1", "USI_Hash=16", "USI_OwnBook=false"};
  o.go = "go nodes 3000";
  const LabelCounts c = run(o);
  CHECK(c.written == 3);
  CHECK(c.positions == 130);
  CHECK(c.failures == 0);
  // black_wins and white_wins end in mate: there the engine, mated, answers "bestmove resign"
  // without a score, and the last move keeps no value.
  CHECK(c.unscored == 2);
  CHECK(c.labelled == 128);
  // The source's values (our engine at 10,000 nodes, Black's view, searched before each move)
  // and the labels (after the move): where the source is sure, the labels' signs agree.
  int sure = 0, agree = 0;
  for (const char* name : kFixtures) {
    const CsaRecord source = load(kFitDir + "/" + name);
    const CsaRecord copy = load(dir.path / "out" / "learn_fit" / name);
    const int moves = int(source.moves.size());
    check_copy(source, copy, 13, 90, [&](int ply, const std::string& comment) {
      const bool mated = ply == moves && name != std::string("repetition.csa");
      return mated ? comment.empty() : comment.find(" depth ") != std::string::npos;
    });
    for (size_t i = 12; i + 1 < source.moves.size(); ++i) {
      const std::string& theirs = source.moves[i].comments.at(0);
      const std::string& ours = copy.moves[i].comments.at(0);
      const bool mate = theirs[3] == '+' || theirs[3] == '-' ? theirs[4] == 'M' : false;
      const int value = mate ? (theirs[3] == '+' ? 100000 : -100000) : std::stoi(theirs.substr(3));
      if (std::abs(value) < 1000) continue;
      ++sure;
      const bool positive = ours[3] == '+' || (ours[3] != '-' && std::stoi(ours.substr(3)) > 0);
      agree += positive == (value > 0);
    }
  }
  CHECK(sure >= 20);
  CHECK(agree == sure);
  std::vector<ValueSample> samples;
  ValueSampleCounts counts;
  REQUIRE(collect_value_samples((dir.path / "out").string(), {}, samples, counts).is_ok());
  CHECK(samples.size() >= 100);
}

TEST_CASE("learn label: the command line") {
  REQUIRE_MESSAGE(::access(kSashite.c_str(), X_OK) == 0, "no executable at " << kSashite);
  FakeEngine fake;
  const std::string out = (fake.dir.path / "out").string();
  const std::vector<std::string> argv = {
      kSashite,   "learn",      "label", "--records", kLabelDir,   "--out", out,
      "--engine", fake.script,  "--opt", "Thread=1",  "--byoyomi", "100",   "--first-ply",
      "3",        "--last-ply", "4",     "--jobs",    "1"};
  base::ChildProcess child;
  REQUIRE(child.start(argv, {}, "").is_ok());
  std::string line, all;
  const auto deadline = base::ChildProcess::Clock::now() + std::chrono::seconds(30);
  while (child.read_line(line, deadline) == base::ChildProcess::ReadResult::kLine)
    all += line + "\n";
  CHECK(child.wait_exit(deadline));
  CHECK(all.rfind("1 records: 0 skipped (already labelled), 1 read, 1 written; 2 positions: 2 "
                  "labelled (0 mates), 0 failures, 0 unscored; ",
                  0) == 0);
  const CsaRecord copy = load(fs::path(out) / "learn_label" / "handicap.csa");
  CHECK(copy.moves[2].comments.front() == "** 3 depth 3 nodes 30");
  CHECK(copy.moves[3].comments.front() == "** -4 depth 3 nodes 40");
}

}  // namespace learn_label_test
