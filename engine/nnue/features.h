// The NNUE evaluation's input features: every piece and hand piece, relative to one side's
// king bucket (a bucketed HalfKA with horizontal mirroring).
#pragma once

#include <array>
#include <cstdint>

#include "engine/names.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace engine::nnue {

// Features of one perspective (Black's or White's), the board seen from that side (White's
// turned 180 degrees) and mirrored left-right when that side's king stands on files 6-9 as it
// sees them, so that every king is on files 1-5:
//   index = bucket * kBucketFeatureNb + local
//   bucket: the king's mirrored file {1-2, 3-4, 5} x its rank from the back {1st, 2nd, 3rd,
//           4th-9th}: 12 buckets
//   local:  a piece on the board: (owner: own 0 / enemy 1, PieceType - 1 (pawn .. dragon, the
//           kings included), square) -> 2 x 14 x 81 = 2268 indices
//           a piece in hand: the n-th piece of a kind that a side holds (n = 0 for the first),
//           own then enemy, pawn 18, lance 4, knight 4, silver 4, bishop 2, rook 2, gold 4:
//           2 x 38 = 76 indices, one active per piece held
// Every piece of the set is on the board or in a hand, so a position with all 40 pieces has
// exactly 40 active features per perspective. Why buckets rather than HalfKP's 81 king
// squares: the data this engine makes (millions of positions, not billions) and a shipped
// file under 20 MB; the own king's exact square is itself a feature, as in HalfKA.
constexpr int kKingBucketNb = 12;
constexpr int kBoardFeatureNb = 2 * 14 * 81;
constexpr int kHandFeaturesPerSide = 38;
constexpr int kBucketFeatureNb = kBoardFeatureNb + 2 * kHandFeaturesPerSide;  // 2344
constexpr int kFeatureNb = kKingBucketNb * kBucketFeatureNb;                  // 28128
constexpr int kMaxActiveFeatures = 40;

// Where a perspective's features are anchored: its king's bucket and whether the board is
// mirrored. A position without that side's king (a mate problem) uses the 5i square.
struct KingFrame {
  int bucket = 0;
  bool mirrored = false;
  bool operator==(const KingFrame&) const = default;
};
KingFrame king_frame(Color perspective, Square king);
inline KingFrame king_frame(const Position& pos, Color perspective) {
  return king_frame(perspective, pos.king_square(perspective));
}

// The feature of a piece on the board, and of the n-th piece (0-based) of kind t held.
int board_feature(Color perspective, KingFrame frame, Piece piece, Square square);
int hand_feature(Color perspective, KingFrame frame, Color owner, PieceType t, int n);

struct FeatureList {
  std::array<uint16_t, kMaxActiveFeatures> index{};
  int size = 0;
  void push(int f) { index[size++] = uint16_t(f); }
};

// Every active feature of pos for a perspective (any order).
void active_features(const Position& pos, Color perspective, FeatureList& out);

// The features a move removes and adds for one perspective whose frame the move leaves
// unchanged. `state` is the state after the move (its move and captured piece), `mover` the
// side that made it, `hand_before` the mover's count of the captured kind before the move
// (for a capture) or of the dropped kind (for a drop).
struct FeatureChange {
  std::array<uint16_t, 2> removed{};
  std::array<uint16_t, 2> added{};
  int removed_nb = 0, added_nb = 0;
};
FeatureChange move_features(Color perspective, KingFrame frame, const StateInfo& state, Color mover,
                            int hand_before);

}  // namespace engine::nnue
