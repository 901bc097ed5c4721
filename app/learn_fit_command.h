// The `sashite learn fit` subcommand: value fitting of the weights on engine games
// (tools/learn/learn_fit.h).
#pragma once

namespace CLI {
class App;
}

// Registers `fit` under `learn`. It runs from its callback when parsed; a failure throws
// CLI::RuntimeError with the exit code (1: the run failed, 2: bad options).
void add_learn_fit_command(CLI::App& learn);
