// sashite nnue: train the NNUE evaluation on gensfen data, and look at a network's values.
#pragma once

namespace CLI {
class App;
}

// Registers `nnue` (train, eval) under `app`; they run from their CLI11 callbacks.
void add_nnue_command(CLI::App& app);
