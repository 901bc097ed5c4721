// The `sashite book think` and `sashite book merge` subcommands.
#pragma once

namespace CLI {
class App;
}

// Registers `think` and `merge` under `book` (the "book" subcommand). Each runs from its
// callback when parsed; a failure throws CLI::RuntimeError with the exit code (1: the run
// failed, 2: bad options), which main's CLI::ParseError handler turns into the exit code.
void add_book_think_commands(CLI::App& book);
