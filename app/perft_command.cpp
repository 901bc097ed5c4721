// sashite perft and sashite bench.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

#include "app/command_error.h"
#include "app/commands.h"
#include "engine/benchmark.h"
#include "engine/search_bench.h"
#include "shogi/notation.h"
#include "shogi/perft.h"
#include "shogi/position.h"

namespace {

struct PerftOptions {
  int depth = 1;
  std::string sfen;  // empty: the start position
  bool divide = false;
};

// sashite perft DEPTH [--sfen SFEN] [--divide]: with --divide one "MOVE: COUNT" line per
// root move; the last line of standard output is always the total leaf count.
int run_perft(const PerftOptions& options) {
  shogi::Position pos;
  if (!options.sfen.empty()) {
    base::Status status = pos.set_sfen(options.sfen);
    if (!status) return command_failed("perft", status.message(), 2);
  }
  const auto start = std::chrono::steady_clock::now();
  uint64_t total = 0;
  if (options.divide) {
    for (const auto& [move, count] : shogi::perft_divide(pos, options.depth)) {
      std::cout << shogi::format_usi_move(move) << ": " << count << "\n";
      total += count;
    }
    if (options.depth == 0) total = 1;
  } else {
    total = shogi::perft(pos, options.depth);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << total << std::endl;
  std::fprintf(stderr, "perft %d: %llu leaves in %.3f s (%.1f M leaves/s)\n", options.depth,
               (unsigned long long)total, seconds, seconds > 0 ? total / seconds / 1e6 : 0.0);
  return 0;
}

struct BenchOptions {
  int depth = 9;
  std::vector<std::string> options;  // NAME=VALUE engine options
  bool perft = false;
  std::string perft_file;  // with --perft: every count of this reference file instead
};

// sashite bench [--depth D] [--option NAME=VALUE]... [--perft [--perft-file FILE]]: the search
// benchmark (or the perft suite, or every count of a perft reference file); ends with
// "Nodes searched: N" and "Nodes/second: R".
int run_bench(const BenchOptions& options) {
  if (options.perft && !options.perft_file.empty()) {
    std::ifstream in(options.perft_file);
    if (!in) return command_failed("bench", "cannot read " + options.perft_file, 2);
    std::vector<engine::PerftBenchCase> cases;
    if (const base::Status status = engine::read_perft_cases(in, options.perft_file, cases);
        !status)
      return command_failed("bench", status.message(), 2);
    return engine::run_perft_bench(std::cout, cases) ? 0 : 1;
  }
  if (options.perft) return engine::run_perft_bench(std::cout) ? 0 : 1;
  return engine::run_search_bench(std::cout, options.depth, options.options).failed ? 2 : 0;
}

}  // namespace

CommandRun add_perft_options(CLI::App& perft) {
  auto o = std::make_shared<PerftOptions>();
  perft.add_option("depth", o->depth, "depth in plies")->required()->check(CLI::Range(0, 20));
  perft.add_option("--sfen", o->sfen, "start from this position (default: the start position)");
  perft.add_flag("--divide", o->divide, "print the count under each root move");
  return [o] { return run_perft(*o); };
}

CommandRun add_bench_options(CLI::App& bench) {
  auto o = std::make_shared<BenchOptions>();
  bench.add_option("--depth", o->depth, "search depth per position")->check(CLI::Range(1, 64));
  bench.add_option("--option", o->options, "engine option NAME=VALUE (repeatable)");
  CLI::Option* bench_perft =
      bench.add_flag("--perft", o->perft, "run the perft suite instead (move generation speed)");
  bench
      .add_option("--perft-file", o->perft_file,
                  "with --perft: check and time every count of this reference file "
                  "(`sfen <SFEN> | <depth 1> <depth 2> ...` a line; tests/data/perft.txt)")
      ->needs(bench_perft);
  return [o] { return run_bench(*o); };
}
