// CSA notation: piece names, moves and position blocks, as CSA records and the protocol use.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace shogi {
using base::Status;

// CSA piece names: FU KY KE GI KI KA HI OU and the promoted TO NY NK NG UM RY.
// REQUIRES for csa_piece_name: kPawn <= t <= kDragon. Returns "" for any other value.
const char* csa_piece_name(PieceType t);
// The kind named by a two-letter CSA name ("GY" is accepted as the king too);
// kNoPieceType when the text is not a piece name. Case-sensitive, as the format is.
PieceType piece_type_from_csa(std::string_view name);

// A square as two digits, file then rank: "77" for 7g. "00" for kSquareNone (a drop's origin).
std::string format_csa_square(Square s);

// CSA moves: sign, origin ("00" for a drop), destination, and the piece after the move:
// "+7776FU", "-8822UM" (a bishop promoting on 22), "+0055KA" (a drop).
// REQUIRES: m.is_ok() and m carries its piece-after bits (moves from the generator or from
// Position::complete_move do).
std::string format_csa_move(Move m);

// Reads a CSA move and returns it (with its piece-after bits) only if it is legal in pos.
// The sign is required and must be the side to move; a promotion is told by the named piece
// differing from the piece on the origin square. Errors name the text and say what is wrong:
// "CSA move '+77X6FU': column 4: expected a digit 1-9", "CSA move '-3334FU': it is Black's
// turn", "... no piece on 77", "... leaves the king in check".
Status parse_csa_move(const Position& pos, std::string_view text, Move& out);

// What parse_csa_move found wrong, for callers that compose their own message.
struct CsaMoveProblem {
  bool syntax = false;  // the text is not a CSA move at all (else: a move, but not legal here)
  int column = 0;       // 1-based column in the text; 0 when the whole move is at fault
  std::string reason;   // "expected a digit 1-9", "no piece on 77", ...
};
// As above; on failure also fills `problem`. The returned Status is the same.
Status parse_csa_move(const Position& pos, std::string_view text, Move& out,
                      CsaMoveProblem& problem);

// Reads a CSA position block: the lines from the first position line through the side-to-move
// line. Accepted lines:
//   PI[<square><piece>...]  the start position, minus the listed pieces ("PI82HI22KA")
//   P1 .. P9                one rank each, nine cells of 3 characters (" * ", "+FU", "-KY"),
//                           file 9 first. All nine ranks must be given, each once. Leniency:
//                           the trailing spaces of a line may be missing, and " * " cells whose
//                           separating spaces were merged (" * * ", as mail and HTML do) are read.
//   P+ / P-                 pieces of that colour: "55KA" on a square, "00KI" in hand, "00AL"
//                           every piece not placed elsewhere (applied after all other lines)
//   + / -                   the side to move; must be the last line of the block
// Comment lines ('...) and blank lines are skipped. PI and P1..P9 are exclusive; P+/P- may follow
// either or stand alone (they start from an empty board). `first_line_number` is the number of
// lines[0] in the input. Errors read "NAME:LINE:COL: message", NAME being `input_name`.
// The rules (kings, nifu, ...) are Position::set's to check, but piece counts are checked here.
Status parse_csa_position(const std::vector<std::string>& lines, int first_line_number,
                          std::string_view input_name, PositionSetup& out);

// Writes a position block ending in a newline: "PI\n+\n" for the start position (and
// "PI82HI22KA\n-\n" style lines for a start position minus some pieces with empty hands),
// else P1..P9, a P+ / P- line for each non-empty hand, and the side line. game_ply is not
// written (CSA has no move number).
std::string format_csa_position(const PositionSetup& setup);

// The start position (平手) as a setup, Black to move, game_ply 1.
PositionSetup csa_start_setup();
// True when the boards, hands and side to move are equal (game_ply is ignored).
bool same_position_setup(const PositionSetup& a, const PositionSetup& b);

}  // namespace shogi
