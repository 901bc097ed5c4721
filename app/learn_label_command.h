// The `sashite learn label` subcommand: CSA records labelled with another USI engine's search
// values (tools/learn/learn_label.h).
#pragma once

namespace CLI {
class App;
}

// Registers `label` under `learn`. It runs from its callback when parsed; a failure throws
// CLI::RuntimeError with the exit code (1: the run failed, 2: bad options).
void add_learn_label_command(CLI::App& learn);
