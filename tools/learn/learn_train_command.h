// `sashite learn train`: comparison training of the evaluation weights on teacher moves
// (tools/learn/learn_train.h), from the sources gathered (tools/learn/learn_data.h) to the
// weight file written.
#pragma once

#include <string>

#include "base/status.h"
#include "tools/learn/learn_data.h"
#include "tools/learn/learn_train.h"

namespace tools {

// The command line's options: where the positions come from, the files, and the training's
// own (LearnOptions).
struct LearnTrainCommandOptions {
  TrainingSources sources;
  std::string out;
  std::string init = "hand-set";
  int max_positions = 0;
  LearnOptions learn;
};

// The command as run, every option spelled out with its effective value (defaults too), so
// that the header of the weight file tells exactly how to make them again.
std::string learn_train_command_line(const LearnTrainCommandOptions& o);

// An error for options that are missing or do not go together (the command line;
// run_learn_train checks them too).
base::Status validate_learn_train_options(const LearnTrainCommandOptions& o);

// Gathers the training positions, trains from the initial weights and writes the weight file
// (its header: the command line, the data, the table of iterations); the counts and the
// training's progress go to standard error, the table and "wrote FILE" to standard output. An
// error for options that do not fit together, data or weights that cannot be read, or a
// failed training or write.
base::Status run_learn_train(const LearnTrainCommandOptions& o);

}  // namespace tools
