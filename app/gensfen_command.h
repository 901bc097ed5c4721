// sashite gensfen: self-play training data (tools/learn/gensfen.h).
#pragma once

namespace CLI {
class App;
}

// Registers `gensfen` under `app`; it runs from its CLI11 callback (see add_svm_command).
void add_gensfen_command(CLI::App& app);
