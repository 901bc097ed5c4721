// `sashite nnue quantise`: a trained checkpoint's float model rounded anew to a network file,
// the rounding fitted to positions of gensfen data (nnue_quantise.h).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "base/status.h"

namespace tools {

struct NnueQuantiseOptions {
  std::string checkpoint;         // a checkpoint of `nnue train` (its float model)
  std::vector<std::string> data;  // gensfen files, or directories of them
  std::string out;                // the network file written
  int calibration = 30000;        // positions the rounding is fitted to; 0: plain rounding
};

// How far the file's values are from the float model's, on as many positions of the data
// again, none of them calibrated on.
struct NnueQuantiseReport {
  int64_t calibrated_on = 0, measured_on = 0;
  double plain_mean_cp = 0;       // mean |file - float model|, plain rounding
  double calibrated_mean_cp = 0;  // the same, the file written
};

// Errors: the checkpoint's or the data's (naming the file), no positions, an unwritable output.
base::Status quantise_nnue(const NnueQuantiseOptions& options, NnueQuantiseReport& report);

// Quantises and prints the report and "wrote FILE" on `out`.
base::Status run_nnue_quantise(const NnueQuantiseOptions& options, std::ostream& out);

}  // namespace tools
