// SPSA (simultaneous perturbation stochastic approximation) over engine parameters, as
// fishtest tunes Stockfish: the parameter file, the gain schedule, the perturbations, the
// update, and the state that makes a run resumable.
#pragma once

// Each iteration perturbs every parameter at once by +-c_k (a random sign each), plays one
// game pair (the same opening, colours swapped) between theta + c_k delta and
// theta - c_k delta, and moves theta by R_k c_k result delta, result = wins - losses of the
// plus side in the pair (-2 .. 2). Gains, with N iterations, A = N / 10, alpha = 0.602,
// gamma = 0.101 (Spall's values, fishtest's):
//   c_k = c_end N^gamma / (k + 1)^gamma
//   R_k = r_end c_end^2 (A + N)^alpha / (A + k + 1)^alpha / c_k^2
// so that at the end c_k = c_end and R_k = r_end. Integer parameters are rounded at random
// (floor(x + u)), so that a theta between two values plays each in proportion.

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace tools {

// One parameter as a file of the fishtest form holds it, one a line:
//   NAME, VALUE, MIN, MAX, C_END, R_END
struct SpsaParam {
  std::string name;  // the engine's USI option
  double value = 0;  // theta: kept real between iterations
  double min = 0, max = 0;
  double c_end = 1, r_end = 0.002;
};

// Reads a parameter file; '#' starts a comment, blank lines are skipped. Errors name the file,
// the line and the field. Names must be distinct, min < max, min <= value <= max, c_end > 0,
// r_end > 0.
base::Status parse_spsa_params(const std::string& text, const std::string& input_name,
                               std::vector<SpsaParam>& out);
base::Status load_spsa_params(const std::string& path, std::vector<SpsaParam>& out);
// The same form, values with up to four decimals, after a comment line `header` (none if "").
std::string format_spsa_params(const std::vector<SpsaParam>& params, const std::string& header);

// The schedule of a run of `iterations` pairs.
struct SpsaSchedule {
  int iterations = 1;
  double alpha = 0.602, gamma = 0.101;
  double a_fraction = 0.1;                    // A = a_fraction * iterations
  double c(const SpsaParam& p, int k) const;  // c_k, k from 0
  double r(const SpsaParam& p, int k) const;  // R_k
};

// The two sides of iteration k: each parameter's sign (+1 or -1) and the values the plus and
// minus engines play, clamped to the range and rounded at random. Deterministic in
// (seed, k), so that a resumed run draws what the first would have.
struct SpsaPerturbation {
  std::vector<int> sign;
  std::vector<int> plus, minus;
};
SpsaPerturbation spsa_perturbation(const std::vector<SpsaParam>& params, const SpsaSchedule& s,
                                   int k, uint64_t seed);

// theta += R_k c_k result sign, clamped to the range. `result` = wins - losses of the plus
// side over the pair.
void spsa_update(std::vector<SpsaParam>& params, const SpsaSchedule& s, int k,
                 const SpsaPerturbation& perturbation, int result);

// What a run has done: the iterations finished, their summed results, and theta. Written
// (atomically) after every finished pair; read back to resume.
struct SpsaState {
  int iterations_done = 0;
  int total_iterations = 0;
  uint64_t seed = 1;
  int64_t plus_wins = 0, plus_losses = 0, draws = 0;  // over games
  std::vector<SpsaParam> params;
};
std::string format_spsa_state(const SpsaState& state);
// Checks that the state's parameters are those of `params` (same names, in order); theta
// comes from the state.
base::Status parse_spsa_state(const std::string& text, const std::string& input_name,
                              SpsaState& out);

// The seed's draw for one purpose of iteration k: a uniform 64-bit value.
uint64_t spsa_random(uint64_t seed, int k, uint64_t purpose);

}  // namespace tools
