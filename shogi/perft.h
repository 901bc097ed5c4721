// perft: counts the leaves of the legal move tree, to check and time move generation.
#pragma once

#include <cstdint>
#include <vector>

#include "shogi/position.h"

namespace shogi {

// Leaves at `depth` plies over every legal move (non-promotions included). The last ply is
// counted without making the moves. depth 0 gives 1.
uint64_t perft(Position& pos, int depth);

// Per root move: the move and its subtree's leaf count (perft --divide).
std::vector<std::pair<Move, uint64_t>> perft_divide(Position& pos, int depth);

}  // namespace shogi
