// `sashite sprt`: the match's sequential test (tools/match/sprt.h) on a table of game pairs, or
// its error rates and lengths by simulation.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "base/status.h"

namespace tools {

struct SprtCommandOptions {
  std::string bounds = "0,5";  // ELO0,ELO1
  double alpha = 0.05, beta = 0.05;
  std::string pentanomial;      // LL,LD,DD,WD,WW: the counts of game pairs to test
  double simulate_elo = 0;      // with simulate: the true Elo of the synthetic pairs
  bool simulate = false;        // --simulate given
  int runs = 1000;              // with simulate: tests run
  double draw_ratio = 0.3;      // with simulate: the chance of a draw per game
  int64_t max_pairs = 1000000;  // with simulate: a run stops undecided here
  uint64_t seed = 1;
};

// With a pentanomial, prints its pairs, the test's LLR and decision and the Elo from the
// pairs; with simulate, the share of runs accepting H1 and H0 and their length. An error for
// bounds, rates, counts or a draw ratio that do not make a test, or neither or both of
// pentanomial and simulate.
base::Status run_sprt_command(const SprtCommandOptions& o, std::ostream& out);

}  // namespace tools
