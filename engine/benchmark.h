// The move-generation benchmark: a fixed perft suite, or every count of a reference file, timed.
#pragma once

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "base/status.h"
#include "engine/names.h"

namespace engine {

struct PerftBenchCase {
  std::string sfen;
  int depth;
  uint64_t expected;  // the published leaf count, checked on every run
};

// The fixed suite `sashite bench` runs: the start position to depth 6 and four others.
const std::vector<PerftBenchCase>& perft_bench_suite();

// Reads a perft reference file (tests/data/perft.txt): `sfen <SFEN> | <count at depth 1>
// <count at depth 2> ...` a line; `#` comments and blank lines are skipped. Every count is a
// case of its own. A malformed line is an error naming `name` and the line number.
Status read_perft_cases(std::istream& in, const std::string& name,
                        std::vector<PerftBenchCase>& cases);
// The same from the file at `path` ("cannot read PATH" when it cannot be opened).
Status load_perft_cases(const std::string& path, std::vector<PerftBenchCase>& cases);

// Runs the cases on one thread, printing one line per case and the totals
// ("Nodes searched: N", "Nodes/second: R"). Returns false if a count is wrong.
bool run_perft_bench(std::ostream& out,
                     const std::vector<PerftBenchCase>& cases = perft_bench_suite());

// What `sashite perft` is asked to count.
struct PerftOptions {
  int depth = 1;
  std::string sfen;  // empty: the start position
  bool divide = false;
};

// `sashite perft`: counts the leaves under the position to the depth; with divide first one
// "MOVE: COUNT" line per root move on `out`. The last line on `out` is always the total; the
// time and speed go to `err`. An error when the SFEN does not parse.
Status run_perft(const PerftOptions& options, std::ostream& out, std::ostream& err);

}  // namespace engine
