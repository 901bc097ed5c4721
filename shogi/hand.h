// Hand: the pieces one side holds in hand (持ち駒), packed in 32 bits.
#pragma once

#include <cstdint>

#include "shogi/types.h"

namespace shogi {

// Counts per kind in bit fields with a spare bit above each, so that comparisons of whole
// hands (superiority: "holds at least as many of every kind") are a single subtraction.
//   pawn 0-4 (max 18), lance 6-8, knight 10-12, silver 14-16, gold 18-20, bishop 22-23,
//   rook 25-26.
// A plain value type.
class Hand {
 public:
  constexpr Hand() = default;
  constexpr explicit Hand(uint32_t raw) : raw_(raw) {}

  // REQUIRES: kPawn <= t <= kGold.
  constexpr int count(PieceType t) const { return (raw_ >> kShift[t]) & kMask[t]; }
  constexpr void add(PieceType t, int n = 1) { raw_ += uint32_t(n) << kShift[t]; }
  constexpr void remove(PieceType t, int n = 1) { raw_ -= uint32_t(n) << kShift[t]; }
  constexpr bool has(PieceType t) const { return raw_ & (kMask[t] << kShift[t]); }
  constexpr bool empty() const { return raw_ == 0; }
  constexpr bool has_except_pawns() const { return raw_ & ~(kMask[kPawn] << kShift[kPawn]); }
  constexpr int total() const {
    int n = 0;
    for (int t = kPawn; t <= kGold; ++t) n += count(PieceType(t));
    return n;
  }
  // True when this hand holds at least as many of every kind as other.
  constexpr bool dominates(Hand other) const { return ((raw_ - other.raw_) & kBorrowMask) == 0; }
  constexpr uint32_t raw() const { return raw_; }
  constexpr bool operator==(const Hand&) const = default;

  static constexpr int kShift[kPieceTypeNb] = {0, 0, 6, 10, 14, 22, 25, 18};
  static constexpr uint32_t kMask[kPieceTypeNb] = {0, 31, 7, 7, 7, 3, 3, 7};
  static constexpr int kMaxCount[kPieceTypeNb] = {0, 18, 4, 4, 4, 2, 2, 4};

 private:
  static constexpr uint32_t kBorrowMask =
      1u << 5 | 1u << 9 | 1u << 13 | 1u << 17 | 1u << 21 | 1u << 24 | 1u << 27;
  uint32_t raw_ = 0;
};

}  // namespace shogi
