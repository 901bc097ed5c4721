// Elo difference from a match score, with a 95% confidence interval.
#pragma once

#include <string>

namespace tools {

// The Elo difference for an expected score s (0..1) under the logistic model
// s = 1 / (1 + 10^(-d/400)), i.e. d = -400 log10(1/s - 1). +infinity at s = 1, -infinity at 0.
double elo_from_score(double score);

// A match result seen from one side and what it says about the Elo difference.
// With n = wins + losses + draws games and score s = (wins + draws/2) / n, each game scores
// x in {1, 1/2, 0} and the per-game variance is the sample one,
//   var = (wins (1-s)^2 + draws (1/2-s)^2 + losses s^2) / n,
// so the score's standard error is sqrt(var / n) (the normal approximation, draws counted
// as half points). The interval is [elo(s - 1.96 se), elo(s + 1.96 se)], the score bounds
// clamped to [0, 1]; elo(.) is monotonic so this is the Elo interval of the score interval.
struct EloEstimate {
  int games = 0;
  double score = 0.5;           // s; 0.5 when there are no games
  double elo = 0;               // elo_from_score(s); may be infinite
  double lower = 0, upper = 0;  // the 95% interval; may be infinite
  double score_stderr = 0;      // se
};

// REQUIRES: wins, losses, draws >= 0.
EloEstimate estimate_elo(int wins, int losses, int draws);

// "+107.5 (95%: -91.6 .. +446.4)", with "inf" for infinite values.
std::string format_elo(const EloEstimate& e);

}  // namespace tools
