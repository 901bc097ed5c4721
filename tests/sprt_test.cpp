// The pentanomial SPRT: its LLR against a reference computed apart (scripts/sprt_reference.py,
// 60-digit bisection with the optimality conditions checked), its bounds, the pair Elo, the
// parsers, and its error rates by simulation against alpha and beta.
#include "tools/match/sprt.h"

#include <doctest/doctest.h>

#include <cmath>

namespace sprt_test {

using namespace tools;

namespace {
Pentanomial bins(int64_t ll, int64_t ld, int64_t dd, int64_t wd, int64_t ww) {
  Pentanomial p;
  p.bins = {ll, ld, dd, wd, ww};
  return p;
}
}  // namespace

TEST_CASE("sprt: the LLR matches the reference computation on fixed tables") {
  // scripts/sprt_reference.py ELO0 ELO1 LL LD DD WD WW
  CHECK(sprt_llr(bins(100, 500, 1200, 520, 110), 0, 5) ==
        doctest::Approx(0.189249220570).epsilon(1e-9));
  CHECK(sprt_llr(bins(0, 3, 10, 5, 2), 0, 5) == doctest::Approx(0.249311995993).epsilon(1e-9));
  CHECK(sprt_llr(bins(40, 210, 600, 190, 35), -3, 1) ==
        doctest::Approx(-0.841855149823).epsilon(1e-9));
  CHECK(sprt_llr(bins(1, 0, 0, 0, 0), 0, 10) == doctest::Approx(-0.029255446370).epsilon(1e-9));
  CHECK(sprt_llr(bins(5000, 20000, 45000, 21000, 5500), 0, 5) ==
        doctest::Approx(20.460613314699).epsilon(1e-9));
  CHECK(sprt_llr(Pentanomial{}, 0, 5) == 0);
}

TEST_CASE("sprt: the LLR agrees with fishtest's normal approximation on a large sample") {
  // LLR ~ N (s1 - s0) (2 m - s0 - s1) / (2 var), m and var the pair scores' mean and variance.
  const Pentanomial p = bins(5000, 20000, 45000, 21000, 5500);
  const double n = double(p.pairs());
  double m = 0, var = 0;
  for (int k = 0; k < 5; ++k) m += double(p.bins[size_t(k)]) * k / 4.0 / n;
  for (int k = 0; k < 5; ++k) var += double(p.bins[size_t(k)]) * (k / 4.0 - m) * (k / 4.0 - m) / n;
  const double s0 = score_from_elo(0), s1 = score_from_elo(5);
  const double approx = n * (s1 - s0) * (2 * m - s0 - s1) / (2 * var);
  CHECK(sprt_llr(p, 0, 5) == doctest::Approx(approx).epsilon(0.02));
}

TEST_CASE("sprt: bounds, decisions and the text") {
  SprtConfig c;
  CHECK(c.lower_bound() == doctest::Approx(-2.944438979));
  CHECK(c.upper_bound() == doctest::Approx(2.944438979));
  c.alpha = 0.01;
  c.beta = 0.1;
  CHECK(c.lower_bound() == doctest::Approx(std::log(0.1 / 0.99)));
  CHECK(c.upper_bound() == doctest::Approx(std::log(0.9 / 0.01)));
  SprtConfig d;
  CHECK(sprt_state(bins(5000, 20000, 45000, 21000, 5500), d).decision == SprtDecision::kAcceptH1);
  CHECK(sprt_state(bins(5500, 21000, 45000, 20000, 5000), d).decision == SprtDecision::kAcceptH0);
  CHECK(sprt_state(bins(100, 500, 1200, 520, 110), d).decision == SprtDecision::kContinue);
  CHECK(format_sprt(sprt_state(bins(5000, 20000, 45000, 21000, 5500), d), d) ==
        "LLR 20.46 (-2.94, 2.94) [0.0, 5.0] H1 accepted");
  CHECK(bins(1, 2, 3, 4, 5).text() == "LL LD DD WD WW = 1 2 3 4 5");
}

TEST_CASE("sprt: the parsers name what is wrong") {
  SprtConfig c;
  CHECK(parse_sprt_bounds("0,5", c).is_ok());
  CHECK(c.elo0 == 0);
  CHECK(c.elo1 == 5);
  CHECK(parse_sprt_bounds("-1.5,2.5", c).is_ok());
  CHECK(c.elo0 == -1.5);
  for (const char* bad : {"5", "5,0", "0,", ",5", "a,b", "0,5x", "3,3", "0,2000"}) {
    CAPTURE(bad);
    const base::Status s = parse_sprt_bounds(bad, c);
    CHECK_FALSE(s.is_ok());
    CHECK(s.message().find(bad) != std::string::npos);
  }
  Pentanomial p;
  CHECK(parse_pentanomial("1,2,3,4,5", p).is_ok());
  CHECK(p.pairs() == 15);
  CHECK(parse_pentanomial("1 2 3 4 5", p).is_ok());
  for (const char* bad : {"1,2,3,4", "1,2,3,4,5,6", "1,2,-3,4,5", "1,2,x,4,5"}) {
    CAPTURE(bad);
    CHECK_FALSE(parse_pentanomial(bad, p).is_ok());
  }
  c = SprtConfig{};
  c.alpha = 0.5;
  CHECK_FALSE(validate_sprt(c).is_ok());
  c.alpha = 0.05;
  c.beta = 0;
  CHECK_FALSE(validate_sprt(c).is_ok());
}

TEST_CASE("sprt: the pair Elo counts what the two games of a pair share") {
  // 50 pairs of 1-1 (one win, one loss): score 0.5 with no spread at all.
  EloEstimate e = estimate_elo_pentanomial(bins(0, 0, 50, 0, 0));
  CHECK(e.games == 100);
  CHECK(e.elo == 0);
  CHECK(e.score_stderr == 0);
  // Pairs of WW and LL only: the same games as single results with no draws.
  e = estimate_elo_pentanomial(bins(30, 0, 0, 0, 70));
  CHECK(e.score == doctest::Approx(0.7));
  CHECK(e.score_stderr == doctest::Approx(std::sqrt(0.21 / 100)));
  CHECK(e.elo == doctest::Approx(elo_from_score(0.7)));
  CHECK(e.lower < e.elo);
  CHECK(e.upper > e.elo);
}

TEST_CASE("sprt: simulated error rates stay within alpha and beta") {
  // Wide bounds keep the runs short; 800 runs each give a standard error of about 0.008 on a
  // rate of 0.05. An LLR off by a constant factor, or the bounds swapped, breaks these.
  SprtConfig c;
  c.elo0 = 0;
  c.elo1 = 30;
  const int runs = 800;
  const SprtSimulation at_h0 = simulate_sprt(c, 0, 0.3, runs, 100000, 1);
  const SprtSimulation at_h1 = simulate_sprt(c, 30, 0.3, runs, 100000, 2);
  const SprtSimulation between = simulate_sprt(c, 15, 0.3, runs, 100000, 3);
  MESSAGE("H0 true: H1 accepted " << at_h0.accepted_h1 << "/" << runs << ", " << at_h0.average_pairs
                                  << " pairs a run");
  MESSAGE("H1 true: H0 accepted " << at_h1.accepted_h0 << "/" << runs << ", " << at_h1.average_pairs
                                  << " pairs a run");
  CHECK(at_h0.undecided == 0);
  CHECK(at_h1.undecided == 0);
  const double false_positive = double(at_h0.accepted_h1) / runs;
  const double false_negative = double(at_h1.accepted_h0) / runs;
  CHECK(false_positive <= c.alpha + 0.025);
  CHECK(false_negative <= c.beta + 0.025);
  // Not trivially conservative either: the test does err at about the rates it promises.
  CHECK(false_positive >= 0.01);
  CHECK(false_negative >= 0.01);
  // Halfway, each hypothesis is accepted about half the time.
  CHECK(between.accepted_h1 > runs / 4);
  CHECK(between.accepted_h0 > runs / 4);
  // Same seed, same stream.
  const SprtSimulation again = simulate_sprt(c, 0, 0.3, 50, 100000, 1);
  const SprtSimulation again2 = simulate_sprt(c, 0, 0.3, 50, 100000, 1);
  CHECK(again.accepted_h1 == again2.accepted_h1);
  CHECK(again.average_pairs == again2.average_pairs);
}

}  // namespace sprt_test
