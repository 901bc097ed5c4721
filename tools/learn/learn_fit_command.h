// `sashite learn fit`: value fitting of the evaluation weights on engine games
// (tools/learn/learn_fit.h), from the records read to the weight file written.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "tools/learn/learn_fit.h"

namespace tools {

// The command line's options.
struct LearnFitCommandOptions {
  std::vector<std::string> records;
  std::string out;
  std::string init = "default";
  ValueSampleOptions samples;
  FitOptions fit;
};

// The command as run, every option with its effective value, for the weight file's header.
std::string learn_fit_command_line(const LearnFitCommandOptions& o);

// Collects the value samples of every records directory, fits the weights from the initial
// ones ("default": the shipped file; "hand-set"; or a weight file) and writes the weight file
// (its header: the command line, the data, the table of iterations); a line per directory and
// the fitting's progress go to standard error, the table and "wrote FILE" to standard output.
base::Status run_learn_fit(const LearnFitCommandOptions& o);

}  // namespace tools
