// The pentanomial GSPRT: constrained maximum likelihood by the secular equation, bounds, Elo.
#include "tools/match/sprt.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "tools/common/splitmix.h"

namespace tools {

using base::Status;

namespace {

constexpr double kEmptyBin = 1e-3;  // what an empty bin counts for the LLR (fishtest's)
constexpr double kSprtZ95 = 1.959963984540054;

// The pair's score per game for bin k.
double bin_score(int k) { return k / 4.0; }

// The root x of f(x) = sum q_k b_k / (1 + x b_k) on the interval where every 1 + x b_k > 0,
// with b_k = a_k - s. REQUIRES: some b_k < 0 < some b_j with q > 0 (s strictly inside).
// f decreases from +inf to -inf there, so Newton steps kept inside a shrinking bracket find it.
double secular_root(const std::array<double, 5>& q, const std::array<double, 5>& b) {
  double b_min = 0, b_max = 0;
  for (int k = 0; k < 5; ++k) {
    b_min = std::min(b_min, b[k]);
    b_max = std::max(b_max, b[k]);
  }
  double lo = -1.0 / b_max, hi = -1.0 / b_min;  // f(lo+) = +inf, f(hi-) = -inf
  double x = 0;
  for (int iteration = 0; iteration < 200; ++iteration) {
    double f = 0, df = 0;
    for (int k = 0; k < 5; ++k) {
      const double d = 1 + x * b[k];
      f += q[k] * b[k] / d;
      df -= q[k] * b[k] * b[k] / (d * d);
    }
    if (f == 0) return x;
    if (f > 0)
      lo = x;
    else
      hi = x;
    double next = df < 0 ? x - f / df : (lo + hi) / 2;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (std::fabs(next - x) <= 1e-15 * std::max(1.0, std::fabs(x))) return next;
    x = next;
  }
  return x;
}

// The log-likelihood per pair of the frequencies q under the MLE with mean score s,
// relative to q itself: sum q_k ln(p_k / q_k) = -sum q_k ln(1 + x b_k).
double constrained_log_likelihood(const std::array<double, 5>& q, double s) {
  std::array<double, 5> b;
  for (int k = 0; k < 5; ++k) b[k] = bin_score(k) - s;
  const double x = secular_root(q, b);
  double sum = 0;
  for (int k = 0; k < 5; ++k) sum -= q[k] * std::log1p(x * b[k]);
  return sum;
}

std::string sprt_number(double v, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v + 0.0);
  return buf;
}

}  // namespace

int64_t Pentanomial::pairs() const {
  int64_t n = 0;
  for (int64_t c : bins) n += c;
  return n;
}

void Pentanomial::add(int half_points) { ++bins[size_t(std::clamp(half_points, 0, 4))]; }

std::string Pentanomial::text() const {
  std::string s = "LL LD DD WD WW =";
  for (int64_t c : bins) s += " " + std::to_string(c);
  return s;
}

Status parse_pentanomial(const std::string& text, Pentanomial& out) {
  std::string t = text;
  std::replace(t.begin(), t.end(), ',', ' ');
  std::istringstream in(t);
  Pentanomial p;
  int n = 0;
  for (std::string word; in >> word; ++n) {
    char* end = nullptr;
    const long long v = std::strtoll(word.c_str(), &end, 10);
    if (n >= 5 || *end != '\0' || v < 0)
      return Status::error("pentanomial '" + text +
                           "': expected five counts of pairs (LL,LD,DD,WD,WW), each >= 0");
    p.bins[size_t(n)] = v;
  }
  if (n != 5)
    return Status::error("pentanomial '" + text +
                         "': expected five counts of pairs (LL,LD,DD,WD,WW), each >= 0");
  out = p;
  return Status::ok();
}

double SprtConfig::lower_bound() const { return std::log(beta / (1 - alpha)); }
double SprtConfig::upper_bound() const { return std::log((1 - beta) / alpha); }

Status parse_sprt_bounds(const std::string& text, SprtConfig& out) {
  const size_t comma = text.find(',');
  auto bad = [&] {
    return Status::error("--sprt '" + text + "': expected ELO0,ELO1 with ELO0 < ELO1 (e.g. 0,5)");
  };
  if (comma == std::string::npos) return bad();
  const std::string a = text.substr(0, comma), b = text.substr(comma + 1);
  char* end_a = nullptr;
  char* end_b = nullptr;
  const double elo0 = std::strtod(a.c_str(), &end_a);
  const double elo1 = std::strtod(b.c_str(), &end_b);
  if (a.empty() || b.empty() || *end_a != '\0' || *end_b != '\0' || !std::isfinite(elo0) ||
      !std::isfinite(elo1) || !(elo0 < elo1) || std::fabs(elo0) > 1000 || std::fabs(elo1) > 1000)
    return bad();
  out.elo0 = elo0;
  out.elo1 = elo1;
  return Status::ok();
}

Status validate_sprt(const SprtConfig& c) {
  if (!(c.elo0 < c.elo1)) return Status::error("SPRT: elo0 must be below elo1");
  if (!(c.alpha > 0 && c.alpha < 0.5)) return Status::error("SPRT: alpha must be in (0, 0.5)");
  if (!(c.beta > 0 && c.beta < 0.5)) return Status::error("SPRT: beta must be in (0, 0.5)");
  return Status::ok();
}

double score_from_elo(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

double sprt_llr(const Pentanomial& pairs, double elo0, double elo1) {
  if (pairs.pairs() == 0) return 0;
  std::array<double, 5> q;
  double n = 0;
  for (int k = 0; k < 5; ++k) {
    q[k] = pairs.bins[size_t(k)] > 0 ? double(pairs.bins[size_t(k)]) : kEmptyBin;
    n += q[k];
  }
  for (double& v : q) v /= n;
  return n * (constrained_log_likelihood(q, score_from_elo(elo1)) -
              constrained_log_likelihood(q, score_from_elo(elo0)));
}

SprtState sprt_state(const Pentanomial& pairs, const SprtConfig& config) {
  SprtState s;
  s.llr = sprt_llr(pairs, config.elo0, config.elo1);
  s.lower = config.lower_bound();
  s.upper = config.upper_bound();
  if (s.llr >= s.upper)
    s.decision = SprtDecision::kAcceptH1;
  else if (s.llr <= s.lower)
    s.decision = SprtDecision::kAcceptH0;
  return s;
}

std::string format_sprt(const SprtState& s, const SprtConfig& c) {
  std::string text = "LLR " + sprt_number(s.llr, 2) + " (" + sprt_number(s.lower, 2) + ", " +
                     sprt_number(s.upper, 2) + ") [" + sprt_number(c.elo0, 1) + ", " +
                     sprt_number(c.elo1, 1) + "]";
  if (s.decision == SprtDecision::kAcceptH1) text += " H1 accepted";
  if (s.decision == SprtDecision::kAcceptH0) text += " H0 accepted";
  return text;
}

EloEstimate estimate_elo_pentanomial(const Pentanomial& pairs) {
  EloEstimate e;
  const int64_t n = pairs.pairs();
  e.games = int(2 * n);
  if (n == 0) return e;
  double mean = 0;
  for (int k = 0; k < 5; ++k) mean += double(pairs.bins[size_t(k)]) * bin_score(k);
  mean /= double(n);
  double var = 0;
  for (int k = 0; k < 5; ++k) {
    const double d = bin_score(k) - mean;
    var += double(pairs.bins[size_t(k)]) * d * d;
  }
  var /= double(n);
  e.score = mean;
  e.score_stderr = std::sqrt(var / double(n));
  e.elo = elo_from_score(mean);
  e.lower = elo_from_score(std::clamp(mean - kSprtZ95 * e.score_stderr, 0.0, 1.0));
  e.upper = elo_from_score(std::clamp(mean + kSprtZ95 * e.score_stderr, 0.0, 1.0));
  return e;
}

SprtSimulation simulate_sprt(const SprtConfig& config, double true_elo, double draw_ratio, int runs,
                             int64_t max_pairs, uint64_t seed) {
  SprtSimulation sim;
  sim.runs = runs;
  const double s = score_from_elo(true_elo);
  const double win = s - draw_ratio / 2, draw = draw_ratio;
  SplitMix64 rng{seed};  // the same stream everywhere: reproducible
  auto game = [&] {      // half points of one game
    const double u = rng.uniform();
    return u < win ? 2 : u < win + draw ? 1 : 0;
  };
  int64_t total_pairs = 0;
  for (int run = 0; run < runs; ++run) {
    Pentanomial p;
    SprtDecision decision = SprtDecision::kContinue;
    while (decision == SprtDecision::kContinue && p.pairs() < max_pairs) {
      p.add(game() + game());
      decision = sprt_state(p, config).decision;
    }
    total_pairs += p.pairs();
    if (decision == SprtDecision::kAcceptH0)
      ++sim.accepted_h0;
    else if (decision == SprtDecision::kAcceptH1)
      ++sim.accepted_h1;
    else
      ++sim.undecided;
  }
  sim.average_pairs = runs ? double(total_pairs) / runs : 0;
  return sim;
}

}  // namespace tools
