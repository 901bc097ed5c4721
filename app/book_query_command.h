// sashite book query and sashite book bench: the retrieval commands of the book tool.
#pragma once

#include <CLI/CLI.hpp>

// Registers `query` and `bench` under the `book` subcommand. Each runs from its CLI11
// callback; a failure throws CLI::RuntimeError with the exit code (2: bad input or book).
void add_book_query_commands(CLI::App& book);
