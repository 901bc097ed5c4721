// Book retrieval benchmark: grows a book by random playouts and times its probes.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "base/status.h"
#include "book/book.h"
#include "book/book_entry.h"
#include "shogi/position.h"

namespace tools {

struct BookBenchOptions {
  std::string book_directory;
  // Grow the book to this many positions (0: keep its size). Default: 0.
  size_t positions = 0;
  int queries = 1000;        // Default: 1000.
  uint64_t seed = 1;         // Default: 1.
  int k = 4;                 // positions retrieved per probe. Default: 4.
  double max_distance = 12;  // Default: 12.
  int verify = 20;           // probes checked against a scan of the whole book. Default: 20.
  book::RetrievalOptions retrieval;  // relation-number settings. Default: the defaults.
};

// Adds positions until the book has `target` of them: from a random position of the
// original entries, random legal moves (1 to 8 plies); every position met that is not in the
// book yet becomes an entry with one random legal move (count 1..100). Deterministic for a
// seed. Returns entries unchanged when it already has target positions or is empty.
std::vector<book::BookEntry> grow_book(std::vector<book::BookEntry> entries, size_t target,
                                       uint64_t seed);

// `count` query positions: a random position of `from`, then 1 to 6 random legal plies, and
// more until the position is not in `book` (at most 16 plies; then it is kept anyway).
std::vector<shogi::Position> random_queries(const std::vector<book::PackedPosition>& from,
                                            const book::Book& book, int count, uint64_t seed);

// sashite book bench: prints the book size, its build time, and for exact lookups (hits
// and misses), simple and relation-number retrieval: p50, p99, mean and max latency in
// microseconds, then checks the index against full scans. An error for a book that cannot be
// loaded, or an index that answers otherwise than a scan.
base::Status run_book_bench(const BookBenchOptions& options, std::ostream& out);

}  // namespace tools
