// ImportGpsTsv: reads GPS Shogi's opening book dumped as TSV (gpsshogi_joseki_dump.tsv).
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"
#include "book/book_builder.h"

namespace book {

// The dump of GPS's joseki.dat (an OSL WeightedBook) as text:
//   line 1: "# joseki.dat version=1 states=58818 moves=73498 start=0"
//   then one line per book move, 7 tab-separated columns:
//     1 state index (the position's index in joseki.dat; lines of a state are adjacent)
//     2 "sfen <SFEN>" of that state (move number always 1)
//     3 the move in USI notation (7g7f, 8h2b+, P*5e)
//     4 its weight (the side to move's preference; 0: in the book but not to be played)
//     5 the state index after the move
//     6 games through the state that Black (先手) won, 7 ... that White (後手) won
//   States without moves (the leaves) have no line, so their win counts are not in the dump.
// Each line becomes a BookMove: count = weight; wins/losses = the win counts of the next
// state seen from the side to move (0/0 when the next state is a leaf); sources kSourceGpsTsv.
// Every move is checked to be legal. Errors read "NAME:LINE: message".
base::Status import_gps_tsv_text(std::string_view text, std::string_view name, BookBuilder& out,
                                 ImportStats& stats);
// Reads the file at path (the errors name it) and imports it.
base::Status import_gps_tsv(const std::string& path, BookBuilder& out, ImportStats& stats);

}  // namespace book
