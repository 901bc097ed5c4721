// The `sashite learn curve` subcommand: the evaluation curve of tools/learn/learn_curve.h.
#pragma once

namespace CLI {
class App;
}

// Registers `curve` under `learn` (the "learn" subcommand). It runs from its callback when
// parsed; a failure throws CLI::RuntimeError with the exit code (1: the run failed).
void add_learn_curve_command(CLI::App& learn);
