// sashite book query (retrieve similar positions and candidate moves) and sashite book bench.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "app/command_error.h"
#include "app/commands.h"
#include "book/book.h"
#include "book/book_db.h"
#include "shogi/notation.h"
#include "shogi/position.h"
#include "tools/book/book_bench.h"

namespace {

struct QueryOptions {
  std::string book_directory;
  std::string sfen;
  std::string mode = "relation";
  int k = 4;
  double max_distance = 12;
  double alpha = 4.0;
  int support = 32;
};

base::Status run_query(const QueryOptions& options) {
  book::BookMode mode;
  if (!book::parse_book_mode(options.mode, mode) || mode == book::BookMode::kOff)
    return base::Status::error("--mode '" + options.mode + "': expected exact, simple or relation");
  shogi::Position pos;
  base::Status status = pos.set_sfen(options.sfen);
  if (!status) return base::Status::error("--sfen: " + status.message());
  std::vector<book::BookEntry> entries;
  status = book::load_book(options.book_directory, entries, book::kBookLockWaitMs);
  if (!status) return status;
  const book::Book book(std::move(entries));
  book::RetrievalOptions retrieval;
  retrieval.relation_alpha = options.alpha;
  retrieval.relation_support = options.support;
  const book::ProbeResult result =
      book.probe(pos, mode, options.k, options.max_distance, retrieval);

  std::printf("book %s: %zu positions; mode %s, k %d, max distance %g\n",
              options.book_directory.c_str(), book.size(), book::book_mode_name(mode), options.k,
              options.max_distance);
  std::printf("positions (%zu):\n", result.positions.size());
  for (const book::SimilarPosition& p : result.positions) {
    shogi::Position found;
    const bool ok = found.set(p.entry->position.setup()).is_ok();
    std::printf("  distance %7.3f  %s\n", p.distance,
                ok ? found.sfen(false).c_str() : "(invalid position)");
  }
  if (mode == book::BookMode::kRelation && !result.positions.empty()) {
    std::printf("weight table (squares above 1):");
    for (shogi::Square s = 0; s < shogi::kSquareNb; ++s)
      if (result.weights.weight[s] > 1.0)
        std::printf(" %s=%.2f", shogi::format_usi_square(s).c_str(), result.weights.weight[s]);
    std::printf("\n");
  }
  std::printf("moves (%zu):\n", result.moves.size());
  for (const book::Candidate& c : result.moves) {
    std::string value = c.value == book::kNoBookValue ? "-" : std::to_string(c.value);
    std::printf("  %-6s weight %.4f  count %u  value %s  depth %d\n",
                shogi::format_usi_move(c.move).c_str(), c.weight, c.count, value.c_str(),
                int(c.depth));
  }
  return base::Status::ok();
}

}  // namespace

CommandRun add_book_query_options(CLI::App& sub) {
  auto query_options = std::make_shared<QueryOptions>();
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
    if (const base::Status s = run_query(*query_options); !s)
      return command_failed("book query", s.message(), 2);
    return 0;
  };
}

// Its exit code is run_book_bench's (2: bad input or book).
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
  return [bench_options] { return tools::run_book_bench(*bench_options, std::cout); };
}
