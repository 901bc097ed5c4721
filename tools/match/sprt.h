// The sequential probability ratio test on game pairs (pentanomial), as fishtest runs it.
#pragma once

// A match plays each opening twice with colours swapped; the two games are one pair, and
// what engine1 scored in the pair (0, 1/2, 1, 3/2 or 2 points) is one observation. Pairs
// are counted in five bins, LL, LD, LW+DD, DW, WW. This cancels most of what the opening
// itself decides, so the test needs fewer games than on single results.
//
// The test is the generalized SPRT (GSPRT) with logistic Elo bounds, fishtest's
// "logistic" model (LLRcalc.py, LLR_logistic): for a hypothesis of expected score
// s = 1 / (1 + 10^(-elo / 400)) per game, the pair distribution p nearest to the observed
// frequencies q (maximum likelihood subject to mean = s) is p_k = q_k / (1 + x (a_k - s)),
// with a_k = k/4 the pair's score per game and x the root of sum q_k (a_k - s) / (1 + x (a_k - s))
// = 0. LLR = N * sum q_k (ln p1_k - ln p0_k) over N pairs; empty bins count 1e-3 pair (as fishtest
// regularizes), so the LLR is defined from the first pair on. The test stops at
// LLR <= ln(beta / (1 - alpha)) (H0: elo = elo0) or LLR >= ln((1 - beta) / alpha) (H1).

#include <array>
#include <cstdint>
#include <string>

#include "base/status.h"
#include "tools/match/elo.h"

namespace tools {

// Counts of game pairs by engine1's points in the pair, in half points: bins[k] holds the
// pairs where it scored k/2 points (0: LL, 1: LD, 2: LW or DD, 3: DW, 4: WW).
struct Pentanomial {
  std::array<int64_t, 5> bins{};
  int64_t pairs() const;
  // Adds a pair in which engine1 scored `half_points` (0..4) half points.
  void add(int half_points);
  // "LL LD DD WD WW = 1 3 9 4 2".
  std::string text() const;
};

// "1,3,9,4,2" (five counts, commas or spaces) -> bins.
base::Status parse_pentanomial(const std::string& text, Pentanomial& out);

struct SprtConfig {
  double elo0 = 0, elo1 = 5;   // logistic Elo; REQUIRES elo0 < elo1
  double alpha = 0.05;         // the chance of accepting H1 when elo = elo0
  double beta = 0.05;          // the chance of accepting H0 when elo = elo1
  double lower_bound() const;  // ln(beta / (1 - alpha))
  double upper_bound() const;  // ln((1 - beta) / alpha)
};

// "0,5" or "-1.5,3" -> elo0, elo1 (elo0 < elo1, both within +-1000).
base::Status parse_sprt_bounds(const std::string& text, SprtConfig& out);
// Checks 0 < alpha, beta < 0.5 and elo0 < elo1.
base::Status validate_sprt(const SprtConfig& config);

// The expected score of one game at a logistic Elo difference.
double score_from_elo(double elo);

// The log-likelihood ratio of H1 over H0 for the pairs; 0 with no pairs.
double sprt_llr(const Pentanomial& pairs, double elo0, double elo1);

enum class SprtDecision { kContinue, kAcceptH0, kAcceptH1 };

struct SprtState {
  double llr = 0, lower = 0, upper = 0;
  SprtDecision decision = SprtDecision::kContinue;
};
SprtState sprt_state(const Pentanomial& pairs, const SprtConfig& config);

// "LLR 1.23 (-2.94, 2.94) [0, 5]", and " H1 accepted" / " H0 accepted" once decided.
std::string format_sprt(const SprtState& state, const SprtConfig& config);

// The Elo of engine1 from the pairs: score s = mean pair score per game, its standard error
// from the sample variance of the pair scores (which counts what the two games of a pair
// share), the 95% interval as in estimate_elo. `games` is twice the pairs.
EloEstimate estimate_elo_pentanomial(const Pentanomial& pairs);

// A run of SPRTs on synthetic pairs, to check alpha and beta: each game is won with
// probability s - draw_ratio / 2 and drawn with draw_ratio (s = score_from_elo(true_elo)),
// independently; each run adds pairs until the test decides or max_pairs.
struct SprtSimulation {
  int runs = 0;
  int accepted_h0 = 0, accepted_h1 = 0, undecided = 0;
  double average_pairs = 0;  // pairs per run
};
// REQUIRES: validate_sprt(config), 0 <= draw_ratio < 1, and the game probabilities valid.
SprtSimulation simulate_sprt(const SprtConfig& config, double true_elo, double draw_ratio, int runs,
                             int64_t max_pairs, uint64_t seed);

}  // namespace tools
