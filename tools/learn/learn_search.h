// The learning's shallow search: one ply plus a depth-limited quiescence search, to the PV leaf.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "engine/eval/incremental_evaluator.h"
#include "engine/eval/weights.h"
#include "shogi/movegen.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace tools {

// The raw features of a position: what the evaluation's feature walk reports before the
// progress-of-game blend, from one side's point of view (the root mover's in learning).
//   value = sum over entries of w[index] * count                        (base features)
//         + sum over entries of ((1 - p) * w[index] + p * w[index + kPhaseSize]) * count
//                                                                       (phase features)
// where phase entries carry their opening index (kOpeningOffset <= index < kEndgameOffset)
// and p = progress_fixed / kProgressOne. Entries are sorted by index, one per index, counts
// nonzero. Stored compactly (4 bytes an entry) because training keeps millions of leaves.
static_assert(engine::eval::kFeatureCount <= 65536, "RawFeature::index is 16 bits");
struct RawFeature {
  uint16_t index;
  int16_t count;
};
struct RawFeatures {
  std::vector<RawFeature> entries;
  int progress_fixed = 0;  // 0..kProgressOne
};

// Fills `out` with pos's raw features seen by `view` (counts negated for White's view), so
// that raw_value(w, out) == evaluate(pos, w) when view is the side to move (up to evaluate's
// rounding to whole centipawns).
void collect_raw_features(const shogi::Position& pos, shogi::Color view, RawFeatures& out);

// The value of raw features under weights given as doubles (centipawns), and its gradient:
// adds scale * d(value)/d(w[i]) to gradient[i] for every weight the features touch.
// REQUIRES: w and gradient hold kFeatureCount entries.
double raw_value(const double* w, const RawFeature* entries, size_t count, int progress_fixed);
inline double raw_value(const double* w, const RawFeatures& f) {
  return raw_value(w, f.entries.data(), f.entries.size(), f.progress_fixed);
}
void add_raw_gradient(const RawFeature* entries, size_t count, int progress_fixed, double scale,
                      double* gradient);

// Weights from the doubles (centipawns) training works on, rounded as Weights::set does.
// REQUIRES: w holds kFeatureCount entries.
engine::eval::Weights weights_from_doubles(const std::vector<double>& w);

// The logistic function 1 / (1 + e^-z): a value in [0, 1] from a scaled evaluation.
inline double sigmoid(double z) { return 1 / (1 + std::exp(-z)); }

// Quiescence depth in plies below the root move. Default: 4.
constexpr int kDefaultQuiescenceDepth = 4;

// The result of the shallow search of one root move.
struct MoveLeaf {
  shogi::Move move;
  shogi::Value value;           // for the root mover; mate values when a side is mated
  std::vector<shogi::Move> pv;  // the quiescence PV after the move (the move excluded)
  bool mated = false;           // the leaf is a mate (no features to learn from)
  // A constant the leaf's value adds to its evaluation, for the root mover: the threatmate
  // penalty below when it applies at the leaf (0 without it).
  shogi::Value bonus = 0;
};

// Searches one root move: makes it, runs the quiescence search with a full window and
// returns the value for the root mover and the PV. The quiescence search: stand pat with
// evaluate() when not in check; captures and promotions whose static exchange does not lose
// (see_ge 0); every evasion when in check (a mate scores mated); at depth 0 the static value
// even in check. The PV leaf's evaluate(), negated when the leaf's side to move is not the
// root mover, equals `value` (unless mated).
// Evaluations come from `evaluator` (exactly evaluate(), from sums it keeps of the positions
// it saw: searching a position's moves one after another reuses the position's and the
// leaves' sums); give each thread its own, and reset() it before w's values change.
// With threatmate_penalty > 0 the search also sees mates in one, as GPS Shogi's quiescence
// search does (OpenShogiLib's QuiescenceSearch2): a side to move (not in check) that mates
// in one wins there, and a side that stands pat while the enemy would mate in one if it
// were to move (a threatmate, 詰めろ) gets its evaluation minus threatmate_penalty. The
// leaf's value is then its evaluation plus `bonus`. 0 (the default): neither.
// With threat_stand_pat a side that stands pat (not in check, not threatened with mate) gets
// its evaluation less what the enemy's captures threaten, as GPS Shogi's does: the larger
// of a sixth of the largest gain and the second largest gain (halved below the first ply),
// the gains estimated by SEE (capture_gain values, not the evaluation's). Also in `bonus`.
// REQUIRES: m is legal in pos. pos is restored on return.
MoveLeaf search_move_leaf(shogi::Position& pos, engine::eval::IncrementalEvaluator& evaluator,
                          const engine::eval::Weights& w, shogi::Move m,
                          int quiescence_depth = kDefaultQuiescenceDepth,
                          int threatmate_penalty = 0, bool threat_stand_pat = false);

// What each thread of the learning's parallel loops keeps from one position to the next.
struct SearchThread {
  shogi::Position pos;
  engine::eval::IncrementalEvaluator evaluator;
};

// The position at the end of a leaf: pos after leaf.move and leaf.pv. REQUIRES: as above.
shogi::Position leaf_position(const shogi::Position& pos, const MoveLeaf& leaf);

}  // namespace tools
