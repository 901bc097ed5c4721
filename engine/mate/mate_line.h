// The mate line: read out of the mate table after a proof, and verified by replaying it.
#pragma once

#include <functional>
#include <vector>

#include "engine/mate/mate_table.h"
#include "engine/position.h"
#include "engine/status.h"
#include "engine/types.h"

namespace engine::mate {

// Follows the proof from pos (proven in `table`; usually the attacker is to move): the stored mating
// move at attacker nodes, the escape with the longest stored mate at defender nodes.
// Errors: a node missing from the table, an illegal stored move, a line over max_plies.
Status extract_mate_line(const Position& pos, Color attacker, const MateTable& table, int max_plies,
                         std::vector<Move>& line);

// Whether the attacker, to move in pos, is proven to mate (used for the defender's
// alternatives). The position must be returned unchanged.
using ProvenFn = std::function<bool(Position& pos)>;

// Replays `line` from pos and checks that it is a mate: every attacker move is legal and
// gives check, every defender move is a legal escape, no position repeats, the line ends
// with the defender checkmated (not by a pawn drop), and, when `proven` is given, every
// other escape of the defender along the line is proven too (no better escape).
Status verify_mate_line(const Position& pos, Color attacker, const std::vector<Move>& line,
                        const ProvenFn& proven = nullptr);

}  // namespace engine::mate
