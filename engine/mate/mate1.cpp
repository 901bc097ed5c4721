// Mate in 1 and in 3 by plain enumeration of checks and evasions (no table).
#include "engine/mate/mate1.h"

#include "engine/mate/mate_moves.h"

namespace engine::mate {

Move mate_in_1(Position& pos) {
  MoveList checks;
  generate_checks(pos, checks);
  for (Move m : checks) {
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
    const bool mated = is_checkmated(pos);
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
