// Mate-search move generation: the attacker's checks and the defender's evasions, legal only.
#pragma once

#include "engine/names.h"
#include "shogi/movegen.h"
#include "shogi/position.h"

namespace engine::mate {

// Appends the legal moves of the side to move that give check (non-promotions included, so
// that a "no mate" answer never rests on a missing move; pawn-drop mates excluded). Works
// when the side to move is itself in check too (then only evasions that check).
void generate_checks(const Position& pos, MoveList& list);

// Appends the legal replies of the side to move. REQUIRES: pos.in_check().
void generate_evasions(const Position& pos, MoveList& list);

// True when the side to move is in check and has no legal move.
bool is_checkmated(const Position& pos);

}  // namespace engine::mate
