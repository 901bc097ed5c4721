// Mate in 1 and in 3 by plain enumeration of checks and evasions (no table).
#include "engine/mate/mate1.h"

#include "engine/mate/mate_moves.h"
#include "engine/names.h"
#include "shogi/attacks.h"

namespace engine::mate {
namespace {

// True when the king of the side to move can step to a square no enemy piece attacks (the
// checking piece's line through the king included): the usual answer to a check, found
// without generating evasions.
bool king_can_step_away(const Position& pos) {
  const Color defender = pos.side_to_move();
  const Square king = pos.king_square(defender);
  const Bitboard without_king = pos.pieces() ^ square_bb(king);
  for (Square s : step_attacks(defender, kKing, king) & ~pos.pieces(defender))
    if (pos.attackers_to(~defender, s, without_king).none()) return true;
  return false;
}

// The same test made before the check m, on the board as it stands: the moved piece counts
// on its new square only. Most checks leave an exit: this spares mate_in_1 their do_move,
// which matters since the search calls it at most of its nodes.
bool check_leaves_an_exit(const Position& pos, Move m) {
  const Color us = pos.side_to_move();
  const Square king = pos.king_square(~us);
  const Square to = m.to();
  const Bitboard moved_from = m.is_drop() ? Bitboard() : square_bb(m.from());
  const Bitboard occupied = (pos.pieces() ^ moved_from ^ square_bb(king)) | square_bb(to);
  const Bitboard moved_attacks = piece_attacks(us, type_of(m.piece_after()), to, occupied);
  // The king may take the checker (on `to`) unless another piece defends it.
  const Bitboard exits = step_attacks(~us, kKing, king) & ~pos.pieces(~us).and_not(square_bb(to));
  for (Square s : exits) {
    if (moved_attacks.test(s)) continue;
    if (pos.attackers_to(us, s, occupied).and_not(moved_from).any()) continue;
    return true;
  }
  return false;
}

}  // namespace

Move mate_in_1(Position& pos) {
  if (pos.king_square(~pos.side_to_move()) == kSquareNone) return kMoveNone;
  MoveList checks;
  if (pos.in_check())
    generate_checks(pos, checks);  // the evasions that check
  else
    generate(pos, GenType::kChecks, checks);  // pseudo-legal: legality is tested last
  for (Move m : checks) {
    if (check_leaves_an_exit(pos, m) || !pos.is_legal(m)) continue;
    pos.do_move(m, true);
    const bool mated = is_checkmated(pos);
    pos.undo_move();
    if (mated) return m;
  }
  return kMoveNone;
}

bool mate_in_3(Position& pos, Move* first) {
  MoveList checks;
  generate_checks(pos, checks);
  // Mates in 1 first: they are the common case and need no evasion loop.
  for (Move m : checks) {
    pos.do_move(m, true);
    const bool mated = !king_can_step_away(pos) && is_checkmated(pos);
    pos.undo_move();
    if (mated) {
      if (first) *first = m;
      return true;
    }
  }
  for (Move m : checks) {
    pos.do_move(m, true);
    MoveList evasions;
    generate_evasions(pos, evasions);
    bool all_mated = true;
    for (Move e : evasions) {
      pos.do_move(e);
      const bool mated = mate_in_1(pos) != kMoveNone;
      pos.undo_move();
      if (!mated) {
        all_mated = false;
        break;
      }
    }
    pos.undo_move();
    if (all_mated) {
      if (first) *first = m;
      return true;
    }
  }
  return false;
}

}  // namespace engine::mate
