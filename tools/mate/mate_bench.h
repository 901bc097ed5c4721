// Mate problem files and runs: reading one SFEN per line, solving each, and the totals that
// `sashite mate` prints and the OSL comparison (tests/mate_osl_bench_test.cpp) reuses.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "base/status.h"
#include "engine/mate/solver.h"
#include "engine/mate/svm_control.h"

namespace tools {

// One line of a problem file: an SFEN (an optional "sfen " prefix is dropped) with its
// trailing "# comment" removed; blank and comment-only lines are not problems.
struct MateProblem {
  int line_number = 0;  // 1-based
  std::string sfen;
};

// Splits a problem file's text into problems (no validation of the SFEN itself).
std::vector<MateProblem> read_mate_problems(std::istream& in);

struct MateTotals {
  int mate = 0, nomate = 0, unknown = 0, errors = 0;
  uint64_t nodes = 0;
  int64_t ms = 0;
  void add(const engine::mate::MateResult& r);
};

// "mate 2b3a+ 4a3a G*4b nodes 123 ms 4", "nomate nodes 88 ms 1", "unknown nodes N ms T".
std::string format_mate_result(const engine::mate::MateResult& result);
// "total mate M nomate N unknown U errors E nodes X ms T nps R".
std::string format_mate_totals(const MateTotals& totals);

// Solves every problem of `in` and writes one line per problem, then the total line, to
// `out`; a bad SFEN gets "line N: ..." on `err` and counts as an error. Returns the totals.
// With `limit`, each problem's node limit is limit->node_limit(position, options.node_limit)
// (application 1).
MateTotals run_mate_problems(std::istream& in, const engine::mate::MateOptions& options,
                             std::ostream& out, std::ostream& err,
                             engine::mate::MateNodeLimitControl* limit = nullptr);

}  // namespace tools
