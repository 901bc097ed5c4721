// sashite tune: SPSA tuning of engine parameters (tools/match/tune_runner.h).
#pragma once

namespace CLI {
class App;
}

// Registers `tune` under `app`; it runs from its CLI11 callback (see add_svm_command).
void add_tune_command(CLI::App& app);
