// The running sums of an evaluation (base, opening and endgame sets) and how they blend
// into a value: shared by evaluate() and the search's incremental evaluation.
#pragma once

#include <cstdint>

#include "engine/eval/feature_layout.h"
#include "engine/eval/features.h"
#include "engine/eval/weights.h"
#include "engine/names.h"
#include "shogi/types.h"

namespace engine::eval {

// Weight * count sums in fixed-point units, from Black's point of view. 32 bits suffice:
// |weight| <= 30000 cp is 960000 units and the counts of a position add up to a few
// hundred at most.
struct ValueSums {
  int32_t base = 0;
  int32_t opening = 0;
  int32_t endgame = 0;
};

// A feature sink (see feature_visitor.h) adding weight * count to a ValueSums.
struct SumSink {
  const int32_t* w;
  ValueSums& sums;
  void base(int index, int count) { sums.base += w[index] * count; }
  void phase(int index, int count) {
    sums.opening += w[kOpeningOffset + index] * count;
    sums.endgame += w[kEndgameOffset + index] * count;
  }
  void king(Color, int, int, int, int) {}
};

// SumSink reading the phase weights from an interleaved copy, pairs[2 * index] the
// opening and pairs[2 * index + 1] the endgame weight of phase feature `index`: the two
// weights of a feature share a cache line. The same sums as SumSink to the last unit.
struct PairSink {
  const int32_t* w;      // the weights' units(), for the base features
  const int32_t* pairs;  // 2 * kPhaseSize units
  ValueSums& sums;
  void base(int index, int count) { sums.base += w[index] * count; }
  void phase(int index, int count) {
    sums.opening += pairs[2 * index] * count;
    sums.endgame += pairs[2 * index + 1] * count;
  }
  void king(Color, int, int, int, int) {}
};

// The value for the side to move of a position with these sums and raw progress points,
// as evaluate() documents it: blended, truncated to whole centipawns, clamped.
inline Value value_of(const ValueSums& sums, int progress_points, Color side_to_move) {
  const int p = progress_from_points(progress_points);
  const int64_t total = int64_t(sums.base) * kProgressOne +
                        int64_t(sums.opening) * (kProgressOne - p) + int64_t(sums.endgame) * p;
  int64_t black = total / (int64_t(kProgressOne) * Weights::kUnitsPerCentipawn);
  constexpr int64_t kLimit = kValueMateInMaxPly - 1;
  if (black > kLimit) black = kLimit;
  if (black < -kLimit) black = -kLimit;
  return Value(side_to_move == kBlack ? black : -black);
}

}  // namespace engine::eval
