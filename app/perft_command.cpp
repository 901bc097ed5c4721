// sashite perft and sashite bench.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "app/commands.h"
#include "engine/benchmark.h"
#include "engine/search_bench.h"
#include "shogi/notation.h"
#include "shogi/perft.h"
#include "shogi/position.h"

int run_perft(const PerftOptions& options) {
  shogi::Position pos;
  if (!options.sfen.empty()) {
    base::Status status = pos.set_sfen(options.sfen);
    if (!status) {
      std::cerr << "sashite perft: " << status.message() << "\n";
      return 2;
    }
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

int run_bench(const BenchOptions& options) {
  if (options.perft && !options.perft_file.empty()) {
    std::ifstream in(options.perft_file);
    if (!in) {
      std::cerr << "sashite bench: cannot read " << options.perft_file << "\n";
      return 2;
    }
    std::vector<engine::PerftBenchCase> cases;
    if (const base::Status status = engine::read_perft_cases(in, options.perft_file, cases);
        !status) {
      std::cerr << "sashite bench: " << status.message() << "\n";
      return 2;
    }
    return engine::run_perft_bench(std::cout, cases) ? 0 : 1;
  }
  if (options.perft) return engine::run_perft_bench(std::cout) ? 0 : 1;
  return engine::run_search_bench(std::cout, options.depth, options.options).failed ? 2 : 0;
}
