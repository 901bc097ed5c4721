// YaneuraouBook: YaneuraOu's text opening book ("#YANEURAOU-DB2016 1.00"), read and written.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "book/book_builder.h"
#include "book/book_entry.h"

namespace book {

// The format:
//   #YANEURAOU-DB2016 1.00
//   sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
//   7g7f 3c3d 0 32 2
//   2g2f none 0 32 1
// A "sfen" line starts a position (the move number is ignored); each following line is one
// book move: "<move> <ponder move|none> <value> <depth> <count>", the value in centipawns
// from the side to move's view. Lines starting with '#' or "//" and blank lines are skipped.
//
// Import: count missing -> 1; depth missing -> 0; value and depth 0 both -> no value
// (kNoBookValue), otherwise they are kept (clamped to 16 bits); the ponder move is not kept;
// sources kSourceYaneuraou. A malformed line is an error ("NAME:LINE: message"); a position
// that breaks the rules or a move that is not legal is skipped with a warning in stats.
base::Status import_yaneuraou_book_text(std::string_view text, std::string_view name,
                                        BookBuilder& out, ImportStats& stats);
base::Status import_yaneuraou_book(const std::string& path, BookBuilder& out, ImportStats& stats);

// Export: the header, then the entries sorted by SFEN (without move number, the order
// YaneuraOu's on-the-fly reader searches in), each with its move number when the position is
// reachable from the start position through book moves (book_plies; else 1), its moves best
// first (BookEntry::sort_moves), each move's ponder the best book move of the position after
// it (or "none"), and no value written as "0 0". Wins, losses and sources are not written.
// Returns the number of positions written through `positions` when given.
base::Status write_yaneuraou_book(const std::vector<BookEntry>& entries, std::ostream& out,
                                  size_t* positions = nullptr);

}  // namespace book
