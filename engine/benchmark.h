// The move-generation benchmark: a fixed perft suite, timed.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace engine {

struct PerftBenchCase {
  std::string sfen;
  int depth;
  uint64_t expected;  // the published leaf count, checked on every run
};

// The fixed suite `sashite bench` runs: the start position to depth 6 and four others.
const std::vector<PerftBenchCase>& perft_bench_suite();

// Runs the suite on one thread, printing one line per position and the totals
// ("Nodes searched: N", "Nodes/second: R"). Returns false if a count is wrong.
bool run_perft_bench(std::ostream& out);

}  // namespace engine
