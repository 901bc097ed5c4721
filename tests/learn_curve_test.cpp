// Tests of `sashite learn curve`: buckets, the interval, the logistic fit, the run over a tiny
// set of records, and the gnuplot script, drawn by gnuplot (a test failure when it is missing).
#include "tools/learn/learn_curve.h"

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "temp_dir.h"

namespace learn_curve_test {

using namespace tools;
namespace fs = std::filesystem;

namespace {

const char* kRecords = SASHITE_TEST_DATA_DIR "/learn_curve";

bool gnuplot_installed() {
  for (const char* dir : {"/usr/bin", "/usr/local/bin", "/bin"})
    if (fs::exists(fs::path(dir) / "gnuplot")) return true;
  return false;
}

}  // namespace

TEST_CASE("learn curve: values fall in [low, high) buckets, beyond +-max in the end buckets") {
  EvaluationCurve curve(100, 250);  // edges rounded out to -300 .. 300
  const std::vector<CurveBucket>& b = curve.buckets();
  REQUIRE(b.size() == 8);
  CHECK(b.front().low_cp == CurveBucket::kOpenLow);
  CHECK(b.front().high_cp == -300);
  CHECK(b[1].low_cp == -300);
  CHECK(b[6].high_cp == 300);
  CHECK(b.back().low_cp == 300);
  for (int v : {-301, -300, -1, 0, 99, 100, 299, 300, 30000}) curve.add(v, v > 0);
  CHECK(b[0].positions == 1);  // -301
  CHECK(b[1].positions == 1);  // -300
  CHECK(b[3].positions == 1);  // -1 in [-100, 0)
  CHECK(b[4].positions == 2);  // 0 and 99
  CHECK(b[4].wins == 1);
  CHECK(b[5].positions == 1);  // 100
  CHECK(b[6].positions == 1);  // 299
  CHECK(b[7].positions == 2);  // 300 and 30000
  CHECK(curve.positions() == 9);
}

TEST_CASE("learn curve: Wilson interval and monotonicity") {
  const Interval half = wilson_interval(50, 100);
  CHECK(half.low == doctest::Approx(0.4038).epsilon(0.001));
  CHECK(half.high == doctest::Approx(0.5962).epsilon(0.001));
  const Interval none = wilson_interval(0, 0);
  CHECK(none.low == 0.0);
  CHECK(none.high == 1.0);

  EvaluationCurve curve(100, 300);
  // Win rates 0.2, 0.6, 0.4 (an inversion), 0.8 in [-200, -100) .. [100, 200); one sparse
  // bucket that does not count.
  const auto fill = [&](int v, int n, int wins) {
    for (int i = 0; i < n; ++i) curve.add(v, i < wins);
  };
  fill(-150, 10, 2);
  fill(-50, 10, 6);
  fill(50, 10, 4);
  fill(150, 10, 8);
  fill(250, 2, 0);
  int pairs = 0;
  CHECK(curve.inversions(10, pairs) == 1);
  CHECK(pairs == 3);
  CHECK(curve.inversions(1, pairs) == 2);
  CHECK(pairs == 4);
}

TEST_CASE("learn curve: the logistic fit finds the scale the data were drawn with") {
  EvaluationCurve curve(100, 3000);
  const double scale = 400;
  for (int v = -2000; v <= 2000; v += 10) {
    const int wins = int(std::lround(1000 / (1 + std::exp(-v / scale))));
    for (int i = 0; i < 1000; ++i) curve.add(v, i < wins);
  }
  CHECK(curve.logistic_scale() == doctest::Approx(scale).epsilon(0.02));
}

TEST_CASE("learn curve: the fixture records give the expected counts") {
  // a: 6 plies, White wins (Black to move resigned): Black's 3 positions lost, White's 3 won.
  // b: 3 plies, Black wins (White to move lost on time): 2 won, 1 lost. c: a draw, left out.
  // d: an illegal move on line 8: reported and skipped.
  CurveOptions o;
  o.records_dir = kRecords;
  o.weights = "hand-set";
  o.bucket_cp = 100000;  // one bucket holds every position
  o.max_value_cp = 100000;
  o.agreement = false;
  std::ostringstream out, err;
  CurveStats stats;
  const base::Status s = run_learn_curve(o, out, err, stats);
  INFO(out.str());
  INFO(err.str());
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  CHECK(stats.records == 4);
  CHECK(stats.records_undecided == 1);
  CHECK(stats.records_unreadable == 1);
  CHECK(stats.positions == 9);
  CHECK(err.str().find("d_broken.csa:8:") != std::string::npos);
  CHECK(stats.wins == 5);
  CHECK(out.str().find("positions: 9 (from ply 0)") != std::string::npos);
  o.bucket_cp = 100;
  o.max_value_cp = 2000;
  o.min_ply = 2;  // leaves 4 + 1 positions
  std::ostringstream out2, err2;
  REQUIRE(run_learn_curve(o, out2, err2, stats).is_ok());
  CHECK(stats.positions == 5);
}

TEST_CASE("learn curve: --held-out-every keeps the records learn train holds out") {
  // Sorted by path the fixtures are a, b, c, d: every 2nd is b (3 plies, Black won: 2
  // positions won, 1 lost) and d (unreadable); every 5th is none of the 4.
  CurveOptions o;
  o.records_dir = kRecords;
  o.weights = "hand-set";
  o.agreement = false;
  o.held_out_every = 2;
  std::ostringstream out, err;
  CurveStats stats;
  const base::Status s = run_learn_curve(o, out, err, stats);
  INFO(out.str());
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  CHECK(stats.records_listed == 4);
  CHECK(stats.records == 2);
  CHECK(stats.records_unreadable == 1);
  CHECK(stats.records_undecided == 0);
  CHECK(stats.positions == 3);
  CHECK(stats.wins == 2);
  CHECK(out.str().find("; held out: the last of every 2 of the 4, by sorted path") !=
        std::string::npos);

  // Every 4th is d alone, which is unreadable: nothing to value is an error, not a curve.
  o.held_out_every = 4;
  std::ostringstream out3, err3;
  const base::Status unreadable = run_learn_curve(o, out3, err3, stats);
  CHECK_FALSE(unreadable.is_ok());
  CHECK(unreadable.message() ==
        std::string(kRecords) +
            ": no positions to value (records: 1 read, 1 unreadable, 0 drawn or unfinished; "
            "positions from ply 0)");
  CHECK(out3.str().empty());

  o.held_out_every = 5;
  std::ostringstream out2, err2;
  const base::Status none = run_learn_curve(o, out2, err2, stats);
  CHECK_FALSE(none.is_ok());
  CHECK(none.message() ==
        std::string(kRecords) + ": no held-out records (4 records, fewer than 5)");
}

TEST_CASE("learn curve: agreement and searched values with our engine at depth 1") {
  CurveOptions o;
  o.records_dir = kRecords;
  o.weights = "hand-set";
  o.depth = 1;
  o.agreement_depth = 1;
  o.hash_mb = 1;
  std::ostringstream out, err;
  CurveStats stats;
  const base::Status s = run_learn_curve(o, out, err, stats);
  INFO(out.str());
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  CHECK(stats.positions == 9);
  CHECK(stats.agreement_positions == 9);
  CHECK(stats.agreement_matches <= 9);
  CHECK(out.str().find("agreement: ") != std::string::npos);
}

TEST_CASE("learn curve: --threads gives the same curve and agreement as one thread") {
  // Four real records, searched to depth 2: each record starts from a new game on its
  // thread's engine and the results merge in record order, so only the time line differs.
  auto without_time = [](const std::string& text) {
    const size_t at = text.find("time: ");
    REQUIRE(at != std::string::npos);
    return text.substr(0, at) + text.substr(text.find('\n', at) + 1);
  };
  CurveOptions o;
  o.records_dir = SASHITE_TEST_DATA_DIR "/learn";
  o.weights = "hand-set";
  o.depth = 2;
  o.agreement_depth = 2;
  o.hash_mb = 1;
  std::ostringstream out1, out3, err;
  CurveStats one, three;
  REQUIRE(run_learn_curve(o, out1, err, one).is_ok());
  o.threads = 3;
  REQUIRE(run_learn_curve(o, out3, err, three).is_ok());
  CHECK(one.records == 4);
  CHECK(one.positions > 200);
  CHECK(one.agreement_matches > 0);
  CHECK(three.positions == one.positions);
  CHECK(three.wins == one.wins);
  CHECK(three.agreement_matches == one.agreement_matches);
  CHECK(without_time(out3.str()) == without_time(out1.str()));
  CHECK(out3.str().find("on 3 threads)") != std::string::npos);

  o.threads = 0;
  CHECK_FALSE(run_learn_curve(o, out3, err, three).is_ok());
}

TEST_CASE("learn curve: a missing records directory and missing weights are errors") {
  CurveOptions o;
  o.records_dir = SASHITE_TEST_DATA_DIR "/no-such-directory";
  std::ostringstream out, err;
  CurveStats stats;
  base::Status s = run_learn_curve(o, out, err, stats);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find("no-such-directory") != std::string::npos);
  o.records_dir = kRecords;
  o.weights = SASHITE_TEST_DATA_DIR "/no-such.eval";
  s = run_learn_curve(o, out, err, stats);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find("no-such.eval") != std::string::npos);
}

TEST_CASE("learn curve: the gnuplot script") {
  EvaluationCurve curve(100, 200);
  for (int i = 0; i < 4; ++i) curve.add(-150, i == 0);
  for (int i = 0; i < 4; ++i) curve.add(150, i != 0);
  curve.add(5000, true);  // an end bucket: not plotted
  const std::string script = curve_gnuplot_script(curve, "/tmp/it's.png", "a title");
  CHECK(script.find("set terminal pngcairo") != std::string::npos);
  CHECK(script.find("set terminal png size") != std::string::npos);
  CHECK(script.find("set output '/tmp/it''s.png'") != std::string::npos);
  CHECK(script.find("set title 'a title'") != std::string::npos);
  CHECK(script.find("$curve << EOD\n-150 0.2500 ") != std::string::npos);
  CHECK(script.find("\n150 0.7500 ") != std::string::npos);
  CHECK(script.find("5000") == std::string::npos);
  CHECK(script.find("with yerrorbars") != std::string::npos);
  CHECK(script.find("1 / (1 + exp(-x / ") != std::string::npos);
  CHECK(script.substr(script.size() - 5) == "exit\n");

  TempDir dir("sashite-curve-test");
  const std::string png = dir.sub("curve.png");
  const base::Status missing = run_gnuplot("/nonexistent/gnuplot", script);
  CHECK_FALSE(missing.is_ok());
  CHECK(missing.message().find("gnuplot-nox") != std::string::npos);
  REQUIRE_MESSAGE(gnuplot_installed(),
                  "gnuplot is missing (Debian gnuplot-nox): make deps installs it");
  const base::Status s = run_gnuplot("gnuplot", curve_gnuplot_script(curve, png, "test"));
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  std::ifstream in(png, std::ios::binary);
  char magic[8] = {};
  in.read(magic, 8);
  CHECK(std::string(magic + 1, 3) == "PNG");
  // A script error comes back with gnuplot's message.
  const base::Status bad = run_gnuplot("gnuplot", "plot $nothing using 1:2\nexit\n");
  CHECK_FALSE(bad.is_ok());
}

}  // namespace learn_curve_test
