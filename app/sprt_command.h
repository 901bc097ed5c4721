// sashite sprt: the match's sequential test on a table of game pairs, or simulated.
#pragma once

namespace CLI {
class App;
}

// Registers `sprt` under `app`; it runs from its CLI11 callback (see add_svm_command).
void add_sprt_command(CLI::App& app);
