// `sashite book query`: the book positions similar to a position, and the candidate moves.
#include "tools/book/book_query.h"

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "book/book.h"
#include "book/book_db.h"
#include "shogi/notation.h"
#include "shogi/position.h"

namespace tools {

namespace {

base::Status parse_query(const BookQueryOptions& options, book::BookMode& mode,
                         shogi::Position& pos) {
  if (!book::parse_book_mode(options.mode, mode) || mode == book::BookMode::kOff)
    return base::Status::error("--mode '" + options.mode + "': expected exact, simple or relation");
  if (base::Status status = pos.set_sfen(options.sfen); !status)
    return base::Status::error("--sfen: " + status.message());
  return base::Status::ok();
}

}  // namespace

base::Status validate_book_query_options(const BookQueryOptions& options) {
  book::BookMode mode;
  shogi::Position pos;
  return parse_query(options, mode, pos);
}

base::Status run_book_query(const BookQueryOptions& options) {
  book::BookMode mode;
  shogi::Position pos;
  base::Status status = parse_query(options, mode, pos);
  if (!status) return status;
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

}  // namespace tools
