// Attack tables: the squares each kind of piece attacks, for step pieces and sliders.
#pragma once

#include "shogi/bitboard.h"

namespace shogi {

namespace attacks_detail {

// Magic-bitboard entry for one square: index = ((occ & mask).merge() * magic) >> shift.
struct Magic {
  Bitboard mask;
  uint64_t magic;
  int shift;
  const Bitboard* table;
  uint32_t index(Bitboard occupied) const {
    return uint32_t(((occupied & mask).merge() * magic) >> shift);
  }
};

extern Bitboard step_table[kColorNb][kPieceTypeNb][kSquareNb];
extern Bitboard lance_masks[kColorNb][kSquareNb];  // the lance's empty-board ray
extern Magic bishop_magics[kSquareNb];
extern Magic rank_magics[kSquareNb];
extern Bitboard between[kSquareNb][kSquareNb];  // strictly between two aligned squares
extern Bitboard line[kSquareNb][kSquareNb];     // the whole line through two aligned squares
extern uint8_t first_bit_in_file[kSquareNb];    // bit index of rank a of the square's file

}  // namespace attacks_detail

// Builds every table. Idempotent and thread-safe; called from Position's constructor, so
// users rarely need to call it themselves.
void init_attacks();

// Squares a step piece of kind t and colour c attacks from s (t not a slider; the king
// and promoted minors included). For bishop/rook/horse/dragon this is the one-step part.
inline Bitboard step_attacks(Color c, PieceType t, Square s) {
  return attacks_detail::step_table[c][t][s];
}

// The lance of colour c on s, with the given occupancy.
inline Bitboard lance_attacks(Color c, Square s, Bitboard occupied) {
  using namespace attacks_detail;
  const int base = first_bit_in_file[s];
  if (s < 63) {
    const int b = s;
    if (c == kBlack) {
      uint64_t below = ((1ULL << b) - 1) & ~((1ULL << base) - 1);
      uint64_t o = (occupied.lo & below) | (1ULL << base);
      return Bitboard(below & ~((1ULL << (63 - std::countl_zero(o))) - 1), 0);
    }
    uint64_t above = ((1ULL << (base + 9)) - 1) & ~((2ULL << b) - 1);
    uint64_t o = (occupied.lo & above) | (1ULL << (base + 8));
    return Bitboard(above & ((2ULL << std::countr_zero(o)) - 1), 0);
  }
  const int b = s - 63;
  if (c == kBlack) {
    uint64_t below = ((1ULL << b) - 1) & ~((1ULL << base) - 1);
    uint64_t o = (occupied.hi & below) | (1ULL << base);
    return Bitboard(0, below & ~((1ULL << (63 - std::countl_zero(o))) - 1));
  }
  uint64_t above = ((1ULL << (base + 9)) - 1) & ~((2ULL << b) - 1);
  uint64_t o = (occupied.hi & above) | (1ULL << (base + 8));
  return Bitboard(0, above & ((2ULL << std::countr_zero(o)) - 1));
}

inline Bitboard file_attacks(Square s, Bitboard occupied) {
  return lance_attacks(kBlack, s, occupied) | lance_attacks(kWhite, s, occupied);
}

inline Bitboard rank_attacks(Square s, Bitboard occupied) {
  const attacks_detail::Magic& m = attacks_detail::rank_magics[s];
  return m.table[m.index(occupied)];
}

inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
  const attacks_detail::Magic& m = attacks_detail::bishop_magics[s];
  return m.table[m.index(occupied)];
}

inline Bitboard rook_attacks(Square s, Bitboard occupied) {
  return file_attacks(s, occupied) | rank_attacks(s, occupied);
}

inline Bitboard horse_attacks(Square s, Bitboard occupied) {
  return bishop_attacks(s, occupied) | attacks_detail::step_table[kBlack][kKing][s];
}

inline Bitboard dragon_attacks(Square s, Bitboard occupied) {
  return rook_attacks(s, occupied) | attacks_detail::step_table[kBlack][kKing][s];
}

// Squares a piece of kind t and colour c on s attacks, for any kind.
inline Bitboard piece_attacks(Color c, PieceType t, Square s, Bitboard occupied) {
  switch (t) {
    case kLance:
      return lance_attacks(c, s, occupied);
    case kBishop:
      return bishop_attacks(s, occupied);
    case kRook:
      return rook_attacks(s, occupied);
    case kHorse:
      return horse_attacks(s, occupied);
    case kDragon:
      return dragon_attacks(s, occupied);
    default:
      return attacks_detail::step_table[c][t][s];
  }
}

// Squares strictly between a and b when they share a rank, file or diagonal; else empty.
inline Bitboard between_bb(Square a, Square b) { return attacks_detail::between[a][b]; }
// The full line through a and b when aligned (both included); else empty.
inline Bitboard line_bb(Square a, Square b) { return attacks_detail::line[a][b]; }
inline bool aligned(Square a, Square b, Square c) { return line_bb(a, b).test(c); }

}  // namespace shogi
