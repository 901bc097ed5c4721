// The NNUE input features: king frames, board and hand feature indices, a move's changes.
#include "engine/nnue/features.h"

#include "engine/names.h"

namespace engine::nnue {

namespace {

// The first hand feature of each kind, by PieceType (pawn .. gold).
constexpr int kHandOffset[kHandTypeNb] = {0, 0, 18, 22, 26, 30, 32, 34};

constexpr Square kDefaultKing = make_square(4, 8);  // 5i, Black's start square

// The square as the perspective sees it: White's view is the board turned 180 degrees.
constexpr Square oriented(Color perspective, Square s) {
  return perspective == kBlack ? s : 80 - s;
}

}  // namespace

KingFrame king_frame(Color perspective, Square king) {
  if (king == kSquareNone) king = perspective == kBlack ? kDefaultKing : 80 - kDefaultKing;
  const Square s = oriented(perspective, king);
  int file = file_of(s);
  const bool mirrored = file > 4;
  if (mirrored) file = 8 - file;
  const int file_group = file < 2 ? 0 : file < 4 ? 1 : 2;
  const int from_back = 8 - rank_of(s);
  const int rank_group = from_back < 3 ? from_back : 3;
  return {file_group * 4 + rank_group, mirrored};
}

int board_feature(Color perspective, KingFrame frame, Piece piece, Square square) {
  Square s = oriented(perspective, square);
  if (frame.mirrored) s = make_square(8 - file_of(s), rank_of(s));
  const int owner = color_of(piece) == perspective ? 0 : 1;
  const int kind = type_of(piece) - 1;
  return frame.bucket * kBucketFeatureNb + (owner * 14 + kind) * 81 + s;
}

int hand_feature(Color perspective, KingFrame frame, Color owner, PieceType t, int n) {
  const int side = owner == perspective ? 0 : 1;
  return frame.bucket * kBucketFeatureNb + kBoardFeatureNb + side * kHandFeaturesPerSide +
         kHandOffset[t] + n;
}

void active_features(const Position& pos, Color perspective, FeatureList& out) {
  out.size = 0;
  const KingFrame frame = king_frame(pos, perspective);
  Bitboard occupied = pos.pieces();
  while (occupied) {
    const Square s = occupied.pop();
    out.push(board_feature(perspective, frame, pos.piece_on(s), s));
  }
  for (Color c : {kBlack, kWhite}) {
    const Hand hand = pos.hand(c);
    for (int t = kPawn; t <= kGold; ++t)
      for (int n = 0; n < hand.count(PieceType(t)); ++n)
        out.push(hand_feature(perspective, frame, c, PieceType(t), n));
  }
}

FeatureChange move_features(Color perspective, KingFrame frame, const StateInfo& state, Color mover,
                            int hand_before) {
  FeatureChange change;
  const Move m = state.move;
  const Square to = m.to();
  const Piece after = m.piece_after();
  if (m.is_drop()) {
    change.removed[change.removed_nb++] =
        uint16_t(hand_feature(perspective, frame, mover, type_of(after), hand_before - 1));
  } else {
    const PieceType moved = m.is_promotion() ? unpromote(type_of(after)) : type_of(after);
    change.removed[change.removed_nb++] =
        uint16_t(board_feature(perspective, frame, make_piece(mover, moved), m.from()));
    if (state.captured != kNoPiece) {
      change.removed[change.removed_nb++] =
          uint16_t(board_feature(perspective, frame, state.captured, to));
      change.added[change.added_nb++] = uint16_t(
          hand_feature(perspective, frame, mover, unpromote(type_of(state.captured)), hand_before));
    }
  }
  change.added[change.added_nb++] = uint16_t(board_feature(perspective, frame, after, to));
  return change;
}

}  // namespace engine::nnue
