// The book store subcommands: sashite book import | export | stats.
#pragma once

namespace CLI {
class App;
}

// Registers "import", "export" and "stats" under `book` (the `sashite book` subcommand). Each
// runs from its CLI11 callback during parsing; a failure prints the error on standard error
// and throws CLI::RuntimeError(1), which app.exit() turns into exit code 1 silently.
void add_book_store_commands(CLI::App& book);
