// `sashite book import | export | stats`: opening books into and out of the LevelDB store
// (book/book_db.h).
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace tools {

struct BookImportOptions {
  std::string format;              // gps-tsv, joseki-dat, yaneuraou or csa
  std::string book;                // the book directory (LevelDB), created when missing
  std::vector<std::string> paths;  // input files (csa: files or directories, recursive)
  int max_ply = 0;                 // csa: keep moves up to this ply (0: all)
  std::string result = "all";      // csa: all, decisive (games) or winner (moves)
  std::string player;              // csa: only the moves of players whose name holds this
  bool quiet = false;              // no warnings on standard error
};

// Reads the inputs and adds their positions and moves to the book (counts add up), with a
// provenance line; prints the warnings (unless quiet) on standard error and what was read
// and written on standard output. The book is opened first, so that a wrong, foreign or
// locked directory is an error before a long read.
base::Status run_book_import(const BookImportOptions& options);

struct BookExportOptions {
  std::string format = "yaneuraou";  // the only one
  std::string book;                  // the book directory
  std::string out;                   // empty: standard output
};

// Writes the book as a YaneuraOu text book (#YANEURAOU-DB2016 1.00) to standard output, or
// whole to `out` (replaced), then says how many positions it wrote.
base::Status run_book_export(const BookExportOptions& options);

struct BookStatsOptions {
  std::string book;  // the book directory
};

// Prints on standard output the book's positions, moves, their sources, values and results,
// the positions by ply from the start position, its start position key and its provenance.
base::Status run_book_stats(const BookStatsOptions& options);

}  // namespace tools
