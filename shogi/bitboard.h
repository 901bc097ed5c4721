// Bitboard: a set of the 81 squares in two 64-bit words.
#pragma once

#include <bit>
#include <cstdint>

#include "shogi/types.h"

namespace shogi {

// Squares 0..62 (files 1-7) live in word 0, squares 63..80 (files 8-9) in bits 0..17 of
// word 1, so that every file lies wholly in one word (the lance and rook file attacks rely
// on that). Bits outside the 81 squares are always zero. A plain value type.
struct Bitboard {
  uint64_t lo = 0;  // squares 0..62
  uint64_t hi = 0;  // squares 63..80 as bits 0..17

  static constexpr uint64_t kLoMask = (1ULL << 63) - 1;
  static constexpr uint64_t kHiMask = (1ULL << 18) - 1;

  constexpr Bitboard() = default;
  constexpr Bitboard(uint64_t l, uint64_t h) : lo(l), hi(h) {}

  static constexpr Bitboard square(Square s) {
    return s < 63 ? Bitboard(1ULL << s, 0) : Bitboard(0, 1ULL << (s - 63));
  }
  static constexpr Bitboard all() { return Bitboard(kLoMask, kHiMask); }

  constexpr bool test(Square s) const { return s < 63 ? (lo >> s) & 1 : (hi >> (s - 63)) & 1; }
  constexpr void set(Square s) { *this |= square(s); }
  constexpr void clear(Square s) { *this &= ~square(s); }
  constexpr void toggle(Square s) { *this ^= square(s); }

  constexpr bool any() const { return (lo | hi) != 0; }
  constexpr bool none() const { return (lo | hi) == 0; }
  explicit constexpr operator bool() const { return any(); }
  constexpr int count() const { return std::popcount(lo) + std::popcount(hi); }
  constexpr bool more_than_one() const { return (lo & (lo - 1)) || (hi & (hi - 1)) || (lo && hi); }

  // REQUIRES: any(). The lowest-numbered square.
  constexpr Square lsb() const {
    return lo ? Square(std::countr_zero(lo)) : Square(63 + std::countr_zero(hi));
  }
  // REQUIRES: any(). Removes and returns the lowest-numbered square.
  constexpr Square pop() {
    if (lo) {
      Square s = std::countr_zero(lo);
      lo &= lo - 1;
      return s;
    }
    Square s = 63 + std::countr_zero(hi);
    hi &= hi - 1;
    return s;
  }
  // Both words OR'ed: used as a magic-multiplication input where the masks never collide.
  constexpr uint64_t merge() const { return lo | hi; }

  constexpr Bitboard operator&(Bitboard b) const { return {lo & b.lo, hi & b.hi}; }
  constexpr Bitboard operator|(Bitboard b) const { return {lo | b.lo, hi | b.hi}; }
  constexpr Bitboard operator^(Bitboard b) const { return {lo ^ b.lo, hi ^ b.hi}; }
  constexpr Bitboard operator~() const { return {~lo & kLoMask, ~hi & kHiMask}; }
  constexpr Bitboard& operator&=(Bitboard b) {
    lo &= b.lo;
    hi &= b.hi;
    return *this;
  }
  constexpr Bitboard& operator|=(Bitboard b) {
    lo |= b.lo;
    hi |= b.hi;
    return *this;
  }
  constexpr Bitboard& operator^=(Bitboard b) {
    lo ^= b.lo;
    hi ^= b.hi;
    return *this;
  }
  constexpr bool operator==(const Bitboard&) const = default;
  // a & ~b without materialising ~b.
  constexpr Bitboard and_not(Bitboard b) const { return {lo & ~b.lo, hi & ~b.hi}; }

  // Range-for over the squares: for (Square s : bb) ...
  struct Iterator;
  constexpr Iterator begin() const;
  constexpr Iterator end() const;
};

struct Bitboard::Iterator {
  Bitboard b;
  constexpr Square operator*() const { return b.lsb(); }
  constexpr Iterator& operator++() {
    b.pop();
    return *this;
  }
  constexpr bool operator!=(const Iterator& o) const { return b != o.b; }
};
constexpr Bitboard::Iterator Bitboard::begin() const { return Iterator{*this}; }
constexpr Bitboard::Iterator Bitboard::end() const { return Iterator{Bitboard()}; }

constexpr Bitboard square_bb(Square s) { return Bitboard::square(s); }

// Rank and file masks.
constexpr Bitboard file_bb(int file) {
  Bitboard b;
  for (int r = 0; r < 9; ++r) b.set(make_square(file, r));
  return b;
}
constexpr Bitboard rank_bb(int rank) {
  Bitboard b;
  for (int f = 0; f < 9; ++f) b.set(make_square(f, rank));
  return b;
}
// Ranks whose relative rank for c is below n: n=1 is c's last rank, n=3 its promotion zone.
constexpr Bitboard far_ranks_bb(Color c, int n) {
  Bitboard b;
  for (int r = 0; r < n; ++r) b |= rank_bb(c == kBlack ? r : 8 - r);
  return b;
}

}  // namespace shogi
