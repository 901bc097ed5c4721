// The tool behind the hand-set weight file: writes Weights::hand_set() to a path.
#pragma once

#include <string>

#include "engine/names.h"

namespace engine::eval {

// Writes the hand-set weights (data/weights/hand-set.eval is this function's output) to
// `path`. Prints one line to standard output on success or an error to standard error;
// returns the process exit code (0 on success, 1 on error).
int write_hand_set_weights(const std::string& path);

}  // namespace engine::eval
