// The mate line: read out of the mate table after a proof, and verified by replaying it.
#pragma once

#include <functional>
#include <vector>

#include "base/status.h"
#include "engine/mate/mate_table.h"
#include "engine/names.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace engine::mate {

// Searches pos again (the attacker to move) for a mate of at most `plies` plies, storing the
// proof in the table; returns whether it proved one. The position must be returned unchanged.
using ReproveFn = std::function<bool(Position& pos, int plies)>;

// Follows the proof from pos (proven in `table`; usually the attacker is to move) for at most
// max_plies plies: the stored mating move at attacker nodes, the escape with the longest
// stored mate at defender nodes. A node the table has lost (or holds only with a mate too
// long for the plies left) is searched again with `reprove` when given, and the line goes on.
// Errors: a node missing and not re-proven, an illegal stored move, a line over max_plies.
Status extract_mate_line(const Position& pos, Color attacker, const MateTable& table, int max_plies,
                         std::vector<Move>& line, const ReproveFn& reprove = nullptr);

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
