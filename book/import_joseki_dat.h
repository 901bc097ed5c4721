// ImportJosekiDat: reads GPS Shogi's joseki.dat, the big-endian binary of OSL's WeightedBook.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"
#include "book/book_builder.h"

namespace book {

// joseki.dat (Debian gpsshogi-data: /usr/share/gpsshogi-data/data/joseki.dat), every integer
// a 4-byte big-endian two's-complement int (osl/book/openingBook.h, class WeightedBook):
//   header  16 bytes: version, state count N, move count M, start state index
//   states  16 bytes each, N of them: first move index, move count, Black (先手) wins,
//           White (後手) wins (games through the state)
//   moves   12 bytes each, M of them: the move (OMove), the state index after it, weight
//     OMove bits: 0-3 from rank, 4-7 from file (both 0: a drop), 8-11 to rank, 12-15 to
//     file, 19 promotion, 20-23 captured OSL ptype, 24-27 OSL ptype after the move,
//     28-31 player (0 Black, -1 White)
//   boards  164 bytes each, N of them (OSL CompactBoard): 40 pieces, then the side to move
//     (0 Black, -1 White); piece bits: 0-3 rank, 4-7 file (both 0: in hand), 16-19 OSL
//     ptype, 20-31 owner (0 Black, -1 White)
//   OSL ptypes: 2 +P, 3 +L, 4 +N, 5 +S, 6 +B, 7 +R, 8 K, 9 G, 10 P, 11 L, 12 N, 13 S, 14 B,
//   15 R.
// Each move of a state with moves becomes a BookMove: count = weight; wins/losses = the win
// counts of the state after the move from the side to move's view; sources kSourceJosekiDat.
// The same conventions as import_gps_tsv (whose TSV is a dump of this file), except that
// moves into leaf states get their win counts here. Every move is checked to be legal.
// Errors read "NAME: state S: message" or "NAME: byte B: message".
base::Status import_joseki_dat_bytes(std::string_view data, std::string_view name, BookBuilder& out,
                                     ImportStats& stats);
base::Status import_joseki_dat(const std::string& path, BookBuilder& out, ImportStats& stats);

}  // namespace book
