// Basic value types of shogi: colours, squares, pieces, moves.
#pragma once

#include <cstdint>

namespace shogi {

// Black (先手, sente) moves first and moves toward rank a; White (後手, gote) toward rank i.
enum Color : int { kBlack = 0, kWhite = 1, kColorNb = 2 };

// "Black" or "White", for messages.
constexpr const char* color_name(Color c) { return c == kBlack ? "Black" : "White"; }

constexpr Color operator~(Color c) { return Color(c ^ 1); }

// Squares, numbered file-major from Black's point of view:
//
//   file: 9  8  7  6  5  4  3  2  1
//        72 63 54 45 36 27 18  9  0   rank a (一)
//        73 64 55 46 37 28 19 10  1   rank b (二)
//        ...
//        80 71 62 53 44 35 26 17  8   rank i (九)
//
// square = file_index * 9 + rank_index, with file_index 0 for file 1 and rank_index 0 for
// rank a. Black's camp is ranks g..i (indices 6..8); White's is a..c (0..2).
using Square = int;
constexpr Square kSquareNb = 81;
constexpr Square kSquareNone = 81;

constexpr int file_of(Square s) { return s / 9; }  // 0 = file 1 .. 8 = file 9
constexpr int rank_of(Square s) { return s % 9; }  // 0 = rank a .. 8 = rank i
constexpr Square make_square(int file, int rank) { return file * 9 + rank; }
constexpr bool is_on_board(int file, int rank) {
  return file >= 0 && file < 9 && rank >= 0 && rank < 9;
}

// Rank index relative to the side: 0 is the far rank (the last rank for c's pawns).
constexpr int relative_rank(Color c, int rank) { return c == kBlack ? rank : 8 - rank; }
// True when the square lies in c's promotion zone (the three ranks nearest the enemy).
constexpr bool in_promotion_zone(Color c, Square s) { return relative_rank(c, rank_of(s)) < 3; }

// Piece kinds. A promoted kind is the base kind | kPromotedFlag.
enum PieceType : int {
  kNoPieceType = 0,
  kPawn = 1,   // 歩
  kLance,      // 香
  kKnight,     // 桂
  kSilver,     // 銀
  kBishop,     // 角
  kRook,       // 飛
  kGold,       // 金
  kKing,       // 玉
  kProPawn,    // と
  kProLance,   // 成香
  kProKnight,  // 成桂
  kProSilver,  // 成銀
  kHorse,      // 馬 (promoted bishop)
  kDragon,     // 龍 (promoted rook)
  kPieceTypeNb
};
constexpr int kPromotedFlag = 8;
constexpr int kHandTypeNb = 8;  // pawn..gold are the kinds that go to hand (indices 1..7)

constexpr bool can_promote(PieceType t) { return t >= kPawn && t <= kRook; }
constexpr bool is_promoted(PieceType t) { return t > kKing; }
constexpr PieceType promote(PieceType t) { return PieceType(t | kPromotedFlag); }
// The kind a piece becomes in hand (or before promotion). REQUIRES: t != kKing.
constexpr PieceType unpromote(PieceType t) {
  return t == kKing ? kKing : PieceType(t & ~kPromotedFlag);
}

// A piece on the board: kind and colour (White pieces have bit 4 set). kNoPiece = empty.
enum Piece : int { kNoPiece = 0, kPieceNb = 32 };
constexpr Piece make_piece(Color c, PieceType t) { return Piece(t | (c << 4)); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 15); }
constexpr Color color_of(Piece p) { return Color(p >> 4); }

// A move in 32 bits:
//   bits 0-6   destination square
//   bits 7-13  origin square, or the dropped PieceType for a drop
//   bit 14     drop
//   bit 15     promotion
//   bits 16-20 the Piece standing on the destination after the move (colour included)
// Two moves compare equal on their low 16 bits; the upper bits are a cache for notation
// and ordering. kMoveNone and kMoveNull are never legal.
class Move {
 public:
  constexpr Move() : data_(0) {}
  constexpr explicit Move(uint32_t raw) : data_(raw) {}

  static constexpr Move board(Square from, Square to, bool promotion, Piece after) {
    return Move(uint32_t(to) | uint32_t(from) << 7 | uint32_t(promotion) << 15 |
                uint32_t(after) << 16);
  }
  static constexpr Move drop(PieceType t, Square to, Color c) {
    return Move(uint32_t(to) | uint32_t(t) << 7 | 1u << 14 | uint32_t(make_piece(c, t)) << 16);
  }

  constexpr Square to() const { return Square(data_ & 127); }
  constexpr Square from() const { return Square((data_ >> 7) & 127); }  // REQUIRES: !is_drop()
  constexpr PieceType dropped_type() const { return PieceType((data_ >> 7) & 127); }
  constexpr bool is_drop() const { return data_ & (1u << 14); }
  constexpr bool is_promotion() const { return data_ & (1u << 15); }
  constexpr Piece piece_after() const { return Piece((data_ >> 16) & 31); }
  constexpr uint16_t key16() const { return uint16_t(data_); }
  constexpr uint32_t raw() const { return data_; }
  constexpr bool is_ok() const { return key16() != 0 && key16() != kNullKey; }

  constexpr bool operator==(const Move& o) const { return key16() == o.key16(); }
  constexpr bool operator!=(const Move& o) const { return key16() != o.key16(); }

  static constexpr uint16_t kNullKey = 81 | 81 << 7;

 private:
  uint32_t data_;
};

constexpr Move kMoveNone = Move(0);
constexpr Move kMoveNull = Move(Move::kNullKey);

// Search and evaluation values, in centipawns (a pawn on the board is about 100), from the
// point of view of the side to move. Mate scores count plies from the root:
// kValueMate - ply is "mate in ply plies".
using Value = int;
constexpr Value kValueZero = 0;
constexpr Value kValueDraw = 0;
constexpr int kMaxPly = 246;
constexpr Value kValueMate = 32000;
constexpr Value kValueInfinite = 32001;
constexpr Value kValueNone = 32002;
constexpr Value kValueMateInMaxPly = kValueMate - kMaxPly;
constexpr Value kValueMatedInMaxPly = -kValueMateInMaxPly;
constexpr Value mate_in(int ply) { return kValueMate - ply; }
constexpr Value mated_in(int ply) { return -kValueMate + ply; }

}  // namespace shogi
