// The mate-prediction subcommands: sashite svm predict | data | train | bench.
#pragma once

namespace CLI {
class App;
}

// Registers `svm` with its subcommands under `app`. Each runs from its CLI11 callback during
// parsing; a failure prints the error on standard error and throws CLI::RuntimeError(1),
// which app.exit() turns into exit code 1 silently.
void add_svm_command(CLI::App& app);
