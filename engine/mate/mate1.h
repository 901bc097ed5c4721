// Fast mate-in-1 and mate-in-3 detection, for use inside the main search.
#pragma once

#include "engine/names.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace engine::mate {

// A checking move after which the opponent is checkmated, or kMoveNone. The position is
// restored before returning. Pawn-drop mate is not a mate (it is illegal).
Move mate_in_1(Position& pos);

// True when the side to move mates in at most 3 plies; *first (if given) receives the first
// move. The position is restored before returning.
bool mate_in_3(Position& pos, Move* first = nullptr);

}  // namespace engine::mate
