// Similarity of book positions: SSE2 board compares, the filters and the weight table.
#include "book/similarity.h"

#include <emmintrin.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>

#include "shogi/hand.h"

namespace book {

using shogi::Color;
using shogi::Move;
using shogi::Square;

BoardRow board_row(const shogi::Position& pos) {
  BoardRow row;
  for (Square s = 0; s < shogi::kSquareNb; ++s) row.squares[s] = uint8_t(pos.piece_on(s));
  return row;
}

BoardRow board_row(const PackedPosition& packed) {
  BoardRow row;
  std::memcpy(row.squares, packed.board.data(), shogi::kSquareNb);
  return row;
}

BoardSummary board_summary(const BoardRow& row) {
  BoardSummary summary;
  for (int block = 0; block < BoardSummary::kBlocks; ++block) {
    const uint8_t* p = row.squares + block * 3;
    // Pieces are 0..30; a collision (two contents, one hash) only weakens the bound.
    const uint32_t h = (p[0] * 0x9E3779B1u) ^ (p[1] * 0x85EBCA77u) ^ (p[2] * 0xC2B2AE3Du);
    summary.blocks[block] = uint8_t((h ^ (h >> 15)) >> 24);
  }
  return summary;
}

int SquareSet::count() const { return std::popcount(words[0]) + std::popcount(words[1]); }

namespace {

// Bit i set when byte i of the 16-byte lanes at a and b differ.
inline uint32_t lane_differences(const uint8_t* a, const uint8_t* b) {
  const __m128i x = _mm_load_si128(reinterpret_cast<const __m128i*>(a));
  const __m128i y = _mm_load_si128(reinterpret_cast<const __m128i*>(b));
  return ~uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y))) & 0xFFFFu;
}

}  // namespace

SquareSet differing_squares(const uint8_t* a, const uint8_t* b) {
  SquareSet set;
  uint64_t bits[2] = {0, 0};
  // Lanes 0..3 are squares 0..63, lanes 4..5 squares 64..95 (padding is equal).
  for (int lane = 0; lane < 4; ++lane)
    bits[0] |= uint64_t(lane_differences(a + lane * 16, b + lane * 16)) << (lane * 16);
  for (int lane = 4; lane < 6; ++lane)
    bits[1] |= uint64_t(lane_differences(a + lane * 16, b + lane * 16)) << ((lane - 4) * 16);
  set.words[0] = bits[0];
  set.words[1] = bits[1];
  return set;
}

int hand_difference(const uint32_t a[shogi::kColorNb], const uint32_t b[shogi::kColorNb]) {
  int n = 0;
  for (int c = 0; c < shogi::kColorNb; ++c) {
    if (a[c] == b[c]) continue;
    const shogi::Hand x(a[c]), y(b[c]);
    for (int t = shogi::kPawn; t <= shogi::kGold; ++t)
      n += std::abs(x.count(shogi::PieceType(t)) - y.count(shogi::PieceType(t)));
  }
  return n;
}

int simple_difference(const PackedPosition& a, const PackedPosition& b) {
  const BoardRow x = board_row(a), y = board_row(b);
  return board_difference(x.squares, y.squares) + hand_difference(a.hands, b.hands);
}

Move translate_move(const shogi::Position& pos, Move book_move) {
  const Move m = pos.complete_move(Move(book_move.key16()));
  if (!pos.is_pseudo_legal(m) || !pos.is_legal(m)) return shogi::kMoveNone;
  return m;
}

MoveAttackers count_move_attackers(const shogi::Position& pos, Move m) {
  const Color us = pos.side_to_move();
  MoveAttackers a;
  a.own_to = uint8_t(pos.attackers_to(us, m.to()).count());
  a.enemy_to = uint8_t(pos.attackers_to(~us, m.to()).count());
  if (!m.is_drop() && m.from() < shogi::kSquareNb) {
    a.own_from = uint8_t(pos.attackers_to(us, m.from()).count());
    a.enemy_from = uint8_t(pos.attackers_to(~us, m.from()).count());
  }
  return a;
}

void SquareTouches::add_move(Move m, double vote) {
  count[m.to()] += vote;
  if (!m.is_drop()) count[m.from()] += vote;
}

WeightTable WeightTable::from_touches(const SquareTouches& touches, double alpha) {
  WeightTable table;
  const double most = *std::max_element(touches.count.begin(), touches.count.end());
  for (Square s = 0; s < shogi::kSquareNb; ++s)
    table.weight[s] = most > 0 ? 1.0 + alpha * touches.count[s] / most : 1.0;
  return table;
}

double weighted_difference(const uint8_t* a_row, const uint32_t a_hands[shogi::kColorNb],
                           const uint8_t* b_row, const uint32_t b_hands[shogi::kColorNb],
                           const WeightTable& table) {
  const SquareSet differ = differing_squares(a_row, b_row);
  double sum = hand_difference(a_hands, b_hands);
  for (int w = 0; w < 2; ++w)
    for (uint64_t bits = differ.words[w]; bits; bits &= bits - 1)
      sum += table.weight[w * 64 + std::countr_zero(bits)];
  return sum;
}

}  // namespace book
