// A subcommand of build/sashite as main registers it: one row of the table in
// app/command_table.cpp.
#pragma once

#include <functional>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

// Runs a subcommand whose options have been parsed; returns the process exit code.
using CommandRun = std::function<int()>;

// One row of the table: where the subcommand sits, its line of help, and how it takes its
// options.
struct Command {
  std::string_view path;         // its words: "perft", or "book import" under the row "book"
  std::string_view description;  // its line in the help of `sashite` (or of its group)
  // Adds the subcommand's options (and its footer) to `sub`, the CLI11 subcommand main made
  // for it, and returns what runs it; the returned function owns what the options parse
  // into. nullptr: a group, whose members are the rows below it that name it first; one of
  // them must be given.
  CommandRun (*add_options)(CLI::App& sub);
};

// Every subcommand, in the order `sashite --help` lists them, each group before its members.
const std::vector<Command>& command_table();
