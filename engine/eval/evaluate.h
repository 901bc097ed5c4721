// Static evaluation: the value of a position for the side to move, and a readable breakdown.
#pragma once

#include <string>

#include "engine/eval/weights.h"
#include "engine/names.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace engine::eval {

// The value of pos for the side to move, in centipawns, computed from scratch:
//   black = base + ((kProgressOne - p) * opening + p * endgame) / kProgressOne
// over the features of feature_layout.h, p = progress_fixed(pos); the result is black
// (or -black when White is to move) truncated toward zero to whole centipawns and clamped
// inside +-(kValueMateInMaxPly - 1). A position and its colour-flipped image (board turned
// 180 degrees, colours and hands swapped, the other side to move) get the same value.
// Thread-safe: reads pos and w only.
Value evaluate(const Position& pos, const Weights& w);

// A breakdown of evaluate(pos, w) per feature group: progress, then for each group its
// opening and endgame sums and the blended contribution, all from Black's point of view,
// the raw king-safety counts of each king, and the final value. Several lines of text.
std::string describe(const Position& pos, const Weights& w);

}  // namespace engine::eval
