// SFEN and USI notation: positions and moves as the USI protocol writes them.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace shogi {
using base::Status;

// SFEN: "<board> <b|w> <hands|-> [<move number>]". "startpos" is accepted too.
// Errors say which column (1-based) of the text is wrong. Validation of the rules
// (piece counts, nifu, ...) is Position::set's.
Status parse_sfen(std::string_view sfen, PositionSetup& out);
std::string format_sfen(const PositionSetup& setup, bool with_ply = true);

// USI letters: P L N S G B R K (Black) and lower case for White; '+' before promoted.
char usi_piece_letter(PieceType t);            // the unpromoted letter, upper case
PieceType piece_type_from_usi_letter(char c);  // case-insensitive; kNoPieceType if none

// USI moves: "7g7f", "8h2b+", "P*5e"; "resign", "win" and "pass" are not moves here.
std::string format_usi_move(Move m);
std::string format_usi_square(Square s);
// Reads a USI move and returns it only if it is legal in pos; the error otherwise says why
// ("not a move", "illegal in this position", ...).
Status parse_usi_move(const Position& pos, std::string_view text, Move& out);

}  // namespace shogi
