// The evaluation's features: progress of the game and the sparse feature vector of a position.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "engine/eval/feature_layout.h"
#include "engine/names.h"
#include "shogi/position.h"

namespace engine::eval {

class Weights;

// Progress of the game, 0 at the start position and 1 deep in the endgame, as the fixed-
// point integer evaluate() uses (0..kProgressOne) and as a double (progress_fixed / 1024).
// Measured like GPS Shogi's: how far the pieces have advanced and how many are in hand.
//   raw = sum over both colours of
//           for each piece on board (kings included): max(0, 4 - relative rank), i.e. 1
//             for the rank just outside the enemy camp up to 4 on the enemy's last rank
//           + pawns in hand + 3 * other pieces in hand
//   progress = min(1, raw / kProgressFullRaw)
// On the record positions in tests/data the median raw is 0 over plies 0-19, 10 at plies
// 40-59, 24 at 80-99 and 36 at 140-159. Symmetric in the colours.
constexpr int kProgressOne = 1024;
constexpr int kProgressFullRaw = 40;
int progress_fixed(const Position& pos);
int progress_from_points(int raw);  // min(kProgressOne, raw * kProgressOne / kProgressFullRaw)
double progress(const Position& pos);

// One active feature: its index in the weight vector and its value.
using Feature = std::pair<int, float>;
using FeatureVector = std::vector<Feature>;

// Replaces `out` with the sparse feature vector of pos, sorted by index, one entry per
// index, zeros left out. Values are from Black's point of view with the progress blend
// folded in, p = progress(pos):
//   base features (index < kOpeningOffset):        value = count
//   opening features (kOpeningOffset <= index < kEndgameOffset): value = count * (1 - p)
//   endgame features (index >= kEndgameOffset):    value = count * p
// so that dot(w, features) is the evaluation from Black's point of view, and
//   evaluate(pos, w) == (side to move is Black ? 1 : -1) * dot(w, features)
// up to the rounding of the final value to whole centipawns (|difference| < 1).
// The gradient of the Black-view evaluation with respect to w[index] is the value.
void collect_features(const Position& pos, FeatureVector& out);

// The sum of weight * value over the features, in centipawns.
double dot(const Weights& w, const FeatureVector& features);

// A readable name for a feature index: "material[rook]", "opening_own_king[gold][df=1][dr=+1]".
std::string feature_name(int index);

}  // namespace engine::eval
