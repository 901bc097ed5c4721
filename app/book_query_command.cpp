// sashite book query and sashite book bench: the command lines of tools/book/book_query.h and
// tools/book/book_bench.h.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "app/command_error.h"
#include "app/commands.h"
#include "tools/book/book_bench.h"
#include "tools/book/book_query.h"

CommandRun add_book_query_options(CLI::App& sub) {
  auto query_options = std::make_shared<tools::BookQueryOptions>();
  sub.add_option("--book", query_options->book_directory, "the book directory")->required();
  sub.add_option("--sfen", query_options->sfen, "the position (SFEN or startpos)")->required();
  sub.add_option("--mode", query_options->mode, "exact, simple or relation")->capture_default_str();
  sub.add_option("-k", query_options->k, "positions to retrieve (ties kept)")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  sub.add_option("--max-distance", query_options->max_distance,
                 "largest simple difference retrieved (relation: of the first pass)")
      ->capture_default_str();
  sub.add_option("--alpha", query_options->alpha,
                 "relation: weight-table gain, w = 1 + alpha * touches / max")
      ->capture_default_str();
  sub.add_option("--support", query_options->support,
                 "relation: most first-pass positions (0: all within the distance)")
      ->capture_default_str();
  return [query_options] {
    if (const base::Status s = tools::validate_book_query_options(*query_options); !s)
      return command_failed("book query", s.message(), kExitCommandLine);
    if (const base::Status s = tools::run_book_query(*query_options); !s)
      return command_failed("book query", s.message());
    return 0;
  };
}

CommandRun add_book_bench_options(CLI::App& sub) {
  auto bench_options = std::make_shared<tools::BookBenchOptions>();
  sub.add_option("--book", bench_options->book_directory, "the book directory")->required();
  sub.add_option("--positions", bench_options->positions,
                 "grow the book to this many positions by random playouts");
  sub.add_option("--queries", bench_options->queries, "query positions")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000000));
  sub.add_option("--seed", bench_options->seed, "random seed")->capture_default_str();
  sub.add_option("-k", bench_options->k, "positions to retrieve")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  sub.add_option("--max-distance", bench_options->max_distance, "largest simple difference")
      ->capture_default_str();
  sub.add_option("--verify", bench_options->verify, "probes checked against a full scan")
      ->capture_default_str();
  sub.add_option("--alpha", bench_options->retrieval.relation_alpha, "relation: weight-table gain")
      ->capture_default_str();
  sub.add_option("--support", bench_options->retrieval.relation_support,
                 "relation: most first-pass positions (0: all within the distance)")
      ->capture_default_str();
  return [bench_options] {
    if (const base::Status s = tools::run_book_bench(*bench_options, std::cout); !s)
      return command_failed("book bench", s.message());
    return 0;
  };
}
