// Elo difference and its 95% interval from wins, losses and draws.
#include "tools/match/elo.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace tools {

namespace {
constexpr double kZ95 = 1.959963984540054;  // two-sided 95% quantile of the normal law
}

double elo_from_score(double score) {
  if (score <= 0) return -std::numeric_limits<double>::infinity();
  if (score >= 1) return std::numeric_limits<double>::infinity();
  return -400.0 * std::log10(1.0 / score - 1.0);
}

EloEstimate estimate_elo(int wins, int losses, int draws) {
  EloEstimate e;
  e.games = wins + losses + draws;
  if (e.games == 0) return e;
  const double n = e.games;
  const double s = (wins + 0.5 * draws) / n;
  const double var =
      (wins * (1 - s) * (1 - s) + draws * (0.5 - s) * (0.5 - s) + losses * s * s) / n;
  e.score = s;
  e.score_stderr = std::sqrt(var / n);
  e.elo = elo_from_score(s);
  e.lower = elo_from_score(std::clamp(s - kZ95 * e.score_stderr, 0.0, 1.0));
  e.upper = elo_from_score(std::clamp(s + kZ95 * e.score_stderr, 0.0, 1.0));
  return e;
}

namespace {
std::string format_value(double v) {
  if (std::isinf(v)) return v > 0 ? "+inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f", v + 0.0);  // + 0.0: no "-0.0"
  return buf;
}
}  // namespace

std::string format_elo(const EloEstimate& e) {
  return format_value(e.elo) + " (95%: " + format_value(e.lower) + " .. " + format_value(e.upper) +
         ")";
}

}  // namespace tools
