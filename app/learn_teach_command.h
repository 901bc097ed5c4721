// The `sashite learn teach` subcommand: teacher moves by the multi-program search
// (tools/learn/learn_teach.h).
#pragma once

namespace CLI {
class App;
}

// Registers `teach` under `learn` (the "learn" subcommand). It runs from its callback when
// parsed; a failure throws CLI::RuntimeError with the exit code (1: the run failed, 2: bad
// options).
void add_learn_teach_command(CLI::App& learn);
