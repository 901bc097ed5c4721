// sashite perft and sashite bench: the command lines of engine/benchmark.h,
// engine/search_bench.h and tools/mate/mate_finding_bench.h.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "app/command_error.h"
#include "app/commands.h"
#include "engine/benchmark.h"
#include "engine/search_bench.h"
#include "tools/mate/mate_finding_bench.h"

namespace {

struct BenchOptions {
  int depth = 9;
  std::vector<std::string> options;  // NAME=VALUE engine options
  bool perft = false;
  std::string perft_file;    // with --perft: every count of this reference file instead
  std::string mate_file;     // the main search on these mate problems instead
  uint64_t nodes = 1000000;  // with --mate-file: the node limit per problem
};

// sashite bench [--depth D] [--option NAME=VALUE]... [--perft [--perft-file FILE]]
// [--mate-file FILE [--nodes N]]: the search benchmark (or the perft suite, or every count of a
// perft reference file, or how soon the search proves each mate of a problem file); ends with
// "Nodes searched: N".
int run_bench(const BenchOptions& options) {
  if (options.perft && !options.perft_file.empty()) {
    std::vector<engine::PerftBenchCase> cases;
    if (const base::Status status = engine::load_perft_cases(options.perft_file, cases); !status)
      return command_failed("bench", status.message());
    return engine::run_perft_bench(std::cout, cases) ? 0 : kExitFailed;
  }
  if (options.perft) return engine::run_perft_bench(std::cout) ? 0 : kExitFailed;
  if (!options.mate_file.empty()) {
    const tools::MateFindingTotals totals = tools::run_mate_finding_bench(
        {.path = options.mate_file, .nodes = options.nodes, .options = options.options}, std::cout);
    if (!totals.option_error.empty())
      return command_failed("bench", totals.option_error, kExitCommandLine);
    if (!totals.error.empty()) return command_failed("bench", totals.error);
    return 0;
  }
  const engine::SearchBenchResult result =
      engine::run_search_bench(std::cout, options.depth, options.options);
  if (!result.error.empty()) return command_failed("bench", result.error, kExitCommandLine);
  if (!result.load_error.empty()) return command_failed("bench", result.load_error);
  return 0;
}

}  // namespace

CommandRun add_perft_options(CLI::App& perft) {
  auto o = std::make_shared<engine::PerftOptions>();
  perft.add_option("depth", o->depth, "depth in plies")->required()->check(CLI::Range(0, 20));
  perft.add_option("--sfen", o->sfen, "start from this position (default: the start position)");
  perft.add_flag("--divide", o->divide, "print the count under each root move");
  return [o] {
    if (const base::Status s = engine::run_perft(*o, std::cout, std::cerr); !s)
      return command_failed("perft", s.message(), kExitCommandLine);
    return 0;
  };
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
  CLI::Option* mate_file =
      bench
          .add_option("--mate-file", o->mate_file,
                      "search each problem of this file (one SFEN a line, the side to move "
                      "attacks) and print when the score first proves its mate")
          ->excludes(bench_perft);
  bench
      .add_option("--nodes", o->nodes,
                  "with --mate-file: node limit per problem (default: 1000000)")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 40))
      ->needs(mate_file);
  return [o] { return run_bench(*o); };
}
