// The evaluation-learning subcommands: sashite learn train | curve | teach.
#pragma once

namespace CLI {
class App;
}

// Registers `learn` under `app` with its subcommands train, curve (app/learn_curve_command.h)
// and teach (app/learn_teach_command.h).
// Each runs from its CLI11 callback during parsing; a failure prints the error on standard
// error and throws CLI::RuntimeError(1), which app.exit() turns into exit code 1 silently.
void add_learn_command(CLI::App& app);

// Registers `train` under `learn`: comparison training of the evaluation weights.
void add_learn_train_command(CLI::App& learn);
