// `sashite mate`: mate problems solved one by one, or compared under several SVM controls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <ostream>
#include <string>

#include "base/status.h"

namespace tools {

// The command line's options, with its defaults.
struct MateCommandOptions {
  std::string algo = "pds";
  uint64_t nodes = 1'000'000;
  std::string svm;
  std::string control = "none";
  size_t table_mb = 1024;
  int64_t time_ms = -1;
  int max_ply = 4000;
  double epsilon = 0.25;
  bool shortest = false;
  int a = 0;                // 0: the control's default (init 5, threshold 7)
  double multiplier = 1.0;  // --control limit
  std::string compare;      // "none,init,threshold": the comparison tables instead
  std::string details;      // --compare: per-position TSV
};

// An error for an unknown control, or threshold with df-pn (the command line;
// run_mate_command checks them too).
base::Status validate_mate_options(const MateCommandOptions& o);

// Reads the problems (one SFEN a line) from `in` and solves them under `o.control`, printing
// a line per problem and the totals on `out` (tools/mate/mate_bench.h), or with `o.compare`
// solves each under every control of the list and prints the comparison tables
// (tools/mate/mate_compare.h). every_problem_read: false when a line could not be read (each
// such line named in the output). An error for bad options, or a model or details file that
// cannot be opened.
base::Status run_mate_command(const MateCommandOptions& o, std::istream& in, std::ostream& out,
                              std::ostream& err, bool& every_problem_read);

}  // namespace tools
