// Value fitting: the samples of match records (tests/data/learn_fit: three games of
// `sashite match` at 10,000 nodes, a Black win, a White win and a repetition) and the fit.
#include "tools/learn/learn_fit.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/eval/weights.h"
#include "shogi/position.h"
#include "tests/file_text.h"
#include "tests/temp_dir.h"

namespace learn_fit_test {

using namespace engine;
using namespace tools;

namespace {

const std::string kFitDir = std::string(SASHITE_TEST_DATA_DIR) + "/learn_fit";

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
}

std::vector<ValueSample> fixture_samples(ValueSampleCounts& counts, ValueSampleOptions o = {}) {
  std::vector<ValueSample> samples;
  const Status s = collect_value_samples(kFitDir, o, samples, counts);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  return samples;
}

}  // namespace

TEST_CASE("learn fit: the samples of match records, values and results for the mover") {
  ValueSampleCounts counts;
  const std::vector<ValueSample> samples = fixture_samples(counts);
  CHECK(counts.records == 3);
  CHECK(counts.decided == 2);
  CHECK(counts.drawn == 1);
  CHECK(counts.unfinished == 0);
  // Moves with a centipawn value within 3000: 48 (black_wins), 43 (repetition), 19
  // (white_wins: 11 more are beyond 3000 cp and 6 are mates).
  CHECK(counts.samples == 110);
  REQUIRE(samples.size() == 110);
  // Groups by path order: black_wins 0, repetition 1, white_wins 2.
  CHECK(std::count_if(samples.begin(), samples.end(), [](auto& s) { return s.group == 0; }) == 48);
  CHECK(std::count_if(samples.begin(), samples.end(), [](auto& s) { return s.group == 1; }) == 43);
  // black_wins: the opening's 12 moves have no comment; move 13 (Black's) says "** 46", move
  // 14 (White's) "** -46": 46 for each mover, and Black won.
  CHECK(samples[0].setup.side_to_move == kBlack);
  CHECK(samples[0].setup.game_ply == 13);
  CHECK(samples[0].value_cp == 46);
  CHECK(samples[0].result == 1.0f);
  CHECK(samples[1].setup.side_to_move == kWhite);
  CHECK(samples[1].value_cp == 46);
  CHECK(samples[1].result == 0.0f);
  Position pos;
  REQUIRE(pos.set(samples[0].setup).is_ok());
  CHECK(pos.is_legal(samples[0].move));
  for (const ValueSample& s : samples)
    if (s.group == 1) CHECK(s.result == 0.5f);
  // white_wins: every value is -1842 or below from Black's side, so Black's moves have
  // negative values and White's positive ones; White won.
  for (const ValueSample& s : samples) {
    if (s.group != 2) continue;
    const bool black = s.setup.side_to_move == kBlack;
    CHECK((black ? s.value_cp < 0 : s.value_cp > 0));
    CHECK(s.result == (black ? 0.0f : 1.0f));
  }
}

TEST_CASE("learn fit: --skip-plies and --max-value leave moves out") {
  ValueSampleCounts counts;
  ValueSampleOptions o;
  o.skip_plies = 40;
  const std::vector<ValueSample> late = fixture_samples(counts, o);
  CHECK(late.size() == 35);  // 20 (black_wins) + 15 (repetition)
  for (const ValueSample& s : late) CHECK(s.setup.game_ply > 40);
  o = {};
  o.max_value_cp = 100000;
  CHECK(fixture_samples(counts, o).size() == 121);  // white_wins' 11 large values too
}

TEST_CASE("learn fit: --player keeps the values of one side's moves") {
  ValueSampleCounts counts;
  ValueSampleOptions o;
  o.player = "engine1";  // White in black_wins, Black in repetition and white_wins
  const std::vector<ValueSample> one = fixture_samples(counts, o);
  CHECK(counts.records == 3);
  CHECK(counts.samples == one.size());
  for (const ValueSample& s : one) CHECK(s.setup.side_to_move == (s.group == 0 ? kWhite : kBlack));
  o.player = "engine2";
  const std::vector<ValueSample> two = fixture_samples(counts, o);
  for (const ValueSample& s : two) CHECK(s.setup.side_to_move == (s.group == 0 ? kBlack : kWhite));
  CHECK(!one.empty());
  CHECK(!two.empty());
  CHECK(one.size() + two.size() == 110);
  o.player = "gpsshogi";  // plays in none of them
  CHECK(fixture_samples(counts, o).empty());
  CHECK(counts.records == 3);
}

TEST_CASE("learn fit: a malformed value names the record and the move; unfinished games") {
  TempDir dir("sashite-fit");
  std::string text = read_text(kFitDir + "/black_wins.csa");
  const size_t at = text.find("'** 143 ");
  REQUIRE(at != std::string::npos);
  text.replace(at, 8, "'** 14x3 ");
  write_text(dir.path / "bad.csa", text);
  std::vector<ValueSample> samples;
  ValueSampleCounts counts;
  Status s = collect_value_samples(dir.path.string(), {}, samples, counts);
  REQUIRE_FALSE(s.is_ok());
  CHECK(s.message().find("bad.csa: move 15: value '14x3' is not a number") != std::string::npos);

  // Without its %TORYO the game has no result: read, counted, not used.
  std::string unfinished = read_text(kFitDir + "/black_wins.csa");
  unfinished.erase(unfinished.find("%TORYO"));
  std::filesystem::remove(dir.path / "bad.csa");
  write_text(dir.path / "unfinished.csa", unfinished);
  samples.clear();
  s = collect_value_samples(dir.path.string(), {}, samples, counts);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  CHECK(counts.records == 1);
  CHECK(counts.unfinished == 1);
  CHECK(samples.empty());

  CHECK_FALSE(collect_value_samples((dir.path / "none").string(), {}, samples, counts).is_ok());
  eval::Weights out;
  std::vector<FitStats> stats;
  const Status empty = fit_weights({}, samples, eval::Weights::hand_set(), out, stats, nullptr);
  REQUIRE_FALSE(empty.is_ok());
  CHECK(empty.message().find("no samples") != std::string::npos);
}

TEST_CASE("learn fit: fitting lowers the training loss, the same with one or two threads") {
  ValueSampleCounts counts;
  const std::vector<ValueSample> samples = fixture_samples(counts);
  FitOptions o;
  o.iterations = 2;
  o.min_count = 1;
  o.holdout_every = 3;  // the third game (white_wins) held out
  o.learning_rate = 4;
  eval::Weights one, two;
  std::vector<FitStats> stats_one, stats_two;
  o.threads = 1;
  REQUIRE(fit_weights(o, samples, eval::Weights::hand_set(), one, stats_one, nullptr).is_ok());
  o.threads = 2;
  REQUIRE(fit_weights(o, samples, eval::Weights::hand_set(), two, stats_two, nullptr).is_ok());
  REQUIRE(stats_one.size() == 3);
  CHECK(stats_one[0].training_samples == 91);
  CHECK(stats_one[0].heldout_samples == 19);
  CHECK(stats_one[2].loss < stats_one[0].loss);
  CHECK(stats_one[2].loss >= 0);
  const eval::Weights hand_set = eval::Weights::hand_set();
  bool same = true, changed = false;
  for (int i = 0; i < eval::Weights::size(); ++i) {
    same = same && one.units()[i] == two.units()[i];
    changed = changed || one.units()[i] != hand_set.units()[i];
  }
  CHECK(same);
  CHECK(changed);
  CHECK(stats_one[2].loss == doctest::Approx(stats_two[2].loss));
  const std::string table = format_fit_table(stats_one);
  CHECK(table.rfind("iter  loss", 0) == 0);
  CHECK(std::count(table.begin(), table.end(), '\n') == 4);
}

TEST_CASE("learn fit: --anchor pulls the penalty toward the initial weights") {
  ValueSampleCounts counts;
  const std::vector<ValueSample> samples = fixture_samples(counts);
  FitOptions o;
  o.iterations = 1;
  o.min_count = 1;
  o.learning_rate = 4;
  o.l2 = 1e4;     // the penalty outweighs the data
  o.passes = 20;  // one batch a pass: 20 AdaGrad steps
  const eval::Weights init = eval::Weights::hand_set();
  eval::Weights anchored, to_zero;
  std::vector<FitStats> stats;
  o.anchor = true;
  REQUIRE(fit_weights(o, samples, init, anchored, stats, nullptr).is_ok());
  o.anchor = false;
  REQUIRE(fit_weights(o, samples, init, to_zero, stats, nullptr).is_ok());
  double anchored_drift = 0;
  for (int i = 0; i < eval::Weights::size(); ++i)
    anchored_drift = std::max(anchored_drift, std::abs(anchored.get(i) - init.get(i)));
  CHECK(anchored_drift < 10);  // AdaGrad steps of about 4 cp around the initial weights
  // Toward 0: the pawn's material value (index 0) shrinks step after step.
  CHECK(to_zero.get(0) < init.get(0) - 20);  // about 28 cp after the 20 steps
}

}  // namespace learn_fit_test
