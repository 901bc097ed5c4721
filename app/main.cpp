// sashite: the one binary; each subcommand is a tool of the system.
#include <CLI/CLI.hpp>
#include <iostream>

#include "app/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"sashite: a computer-shogi system (engine, CSA client, book and tools)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "sashite 0.1");

  PerftOptions perft_options;
  CLI::App* perft = app.add_subcommand("perft", "count the leaves of the legal move tree");
  perft->add_option("depth", perft_options.depth, "depth in plies")->required()->check(CLI::Range(0, 20));
  perft->add_option("--sfen", perft_options.sfen, "start from this position (default: the start position)");
  perft->add_flag("--divide", perft_options.divide, "print the count under each root move");

  CLI::App* bench = app.add_subcommand("bench", "move-generation benchmark: a fixed perft suite, one thread");


  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (perft->parsed()) return run_perft(perft_options);
  if (bench->parsed()) return run_bench();
  return 0;
}
