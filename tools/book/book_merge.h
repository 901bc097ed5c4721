// `sashite book merge`: combines books (shards of `book think`, or a think output into a
// copy of the main book) into one book directory.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "base/status.h"

namespace tools {

struct BookMergeStats {
  uint64_t entries_read = 0;    // entries of all the inputs
  uint64_t entries_merged = 0;  // of those, ones whose key was already in the output
};

// Merges every entry of every input, in order, into `out_dir` (created when absent; an
// existing book is merged into). Per position the moves combine by BookEntry::merge_move:
// counts, wins and losses add up, the value with the greater depth wins (on equal depths
// the later input's), sources are or-ed; a move new to the position is added.
// So merging the shards of one `book think` run gives what a single run gives (the shards
// hold disjoint positions, and a think entry's counts are 0), and merging a think output
// into a copy of the main book adds the values without changing the counts. Merging the
// same input twice adds its counts twice.
// Metadata records (think settings, marks of positions without a scored move) are not
// copied.
// Writes in WriteBatches of `batch` entries. Errors name the directory: an input that is not
// a book, an input that is the output.
base::Status merge_books(const std::vector<std::string>& inputs, const std::string& out_dir,
                         BookMergeStats& stats, int batch = 1000);

}  // namespace tools
