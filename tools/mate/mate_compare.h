// The mate-prediction applications compared on one problem set: every position solved under
// each control, then the document's three tables (docs/techniques.md §1; the seed's 4.7-4.9 and
// 4.15-4.17): totals of nodes and time, the same over positions no run left unknown, and
// the mate / nomate / unknown counts.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <vector>

#include "engine/mate/solver.h"
#include "engine/mate/svm_control.h"
#include "engine/mate/svm_model.h"
#include "tools/mate/mate_bench.h"

namespace tools {

struct MateCompareOptions {
  engine::mate::MateOptions solver;                 // node limit, algorithm, table size...
  std::vector<engine::mate::MateControl> controls;  // the runs, in order (the first is the base)
  std::shared_ptr<const engine::mate::SvmModel>
      model;  // REQUIRES: non-null when a control needs it
  int init_a = engine::mate::SvmMateHooks::kDefaultInitA;
  int threshold_a = engine::mate::SvmMateHooks::kDefaultThresholdA;
  double limit_multiplier = 1.0;     // application 1's multiplier
  std::ostream* details = nullptr;   // per position: line, then status nodes ms per control (TSV)
  std::ostream* progress = nullptr;  // a line every 500 positions
};

struct MateCompareRow {
  MateTotals all;          // every position
  MateTotals both_solved;  // positions that no run left unknown
  double all_seconds = 0;  // wall time of the solves (microsecond clock; MateTotals has ms)
  double both_solved_seconds = 0;
};

// Solves every problem under every control (a fresh table for each solve) and writes the
// tables to `out`. Bad SFENs are reported on `err` and skipped. Returns one row per control.
std::vector<MateCompareRow> run_mate_comparison(const std::vector<MateProblem>& problems,
                                                const MateCompareOptions& options,
                                                std::ostream& out, std::ostream& err);

}  // namespace tools
