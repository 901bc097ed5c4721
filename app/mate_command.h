// sashite mate: solves mate problems (one SFEN per line on standard input).
#pragma once

#include <CLI/CLI.hpp>

// Adds the `mate` subcommand to app; it runs when parsed (from a parse-complete callback).
void add_mate_command(CLI::App& app);
