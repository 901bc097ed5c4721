// `sashite book query`: the book positions similar to a position, and the candidate moves.
#pragma once

#include <string>

#include "base/status.h"

namespace tools {

struct BookQueryOptions {
  std::string book_directory;
  std::string sfen;               // the position (SFEN or startpos)
  std::string mode = "relation";  // exact, simple or relation
  int k = 4;                      // positions to retrieve (ties kept)
  double max_distance = 12;       // largest simple difference (relation: of the first pass)
  double alpha = 4.0;             // relation: weight-table gain
  int support = 32;               // relation: most first-pass positions (0: all)
};

// An error for a bad --mode or --sfen (the command line; run_book_query checks them too).
base::Status validate_book_query_options(const BookQueryOptions& options);

// Loads the book, probes it for the position and prints on standard output the similar
// positions with their distances, the weight table (relation) and the candidate moves. An
// error for a bad mode, SFEN or book.
base::Status run_book_query(const BookQueryOptions& options);

}  // namespace tools
