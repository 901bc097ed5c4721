// The subcommands of build/sashite: each returns the process exit code.
#pragma once

#include <string>
#include <vector>

// sashite usi: the engine over USI on standard input and output; list_options: print its
// options as the README's Markdown table instead.
int run_usi_command(bool list_options = false);

struct PerftOptions {
  int depth = 1;
  std::string sfen;  // empty: the start position
  bool divide = false;
};

// sashite perft DEPTH [--sfen SFEN] [--divide]: with --divide one "MOVE: COUNT" line per
// root move; the last line of standard output is always the total leaf count.
int run_perft(const PerftOptions& options);

struct BenchOptions {
  int depth = 9;
  std::vector<std::string> options;  // NAME=VALUE engine options
  bool perft = false;
  std::string perft_file;  // with --perft: every count of this reference file instead
};

// sashite bench [--depth D] [--option NAME=VALUE]... [--perft [--perft-file FILE]]: the search
// benchmark (or the perft suite, or every count of a perft reference file); ends with
// "Nodes searched: N" and "Nodes/second: R".
int run_bench(const BenchOptions& options);

// sashite records check PATH...: parses and replays every .csa record.
int run_records_check(const std::vector<std::string>& paths);
