// Similarity of book positions (docs/techniques.md §3): the move filters, the simple difference
// and the relation-number (関係数) weighted difference with its dynamic weight table.
#pragma once

#include <emmintrin.h>

#include <array>
#include <cstdint>

#include "book/book_entry.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace book {

// A board as compared by the similarity measures: one byte per square (shogi::Piece),
// padded with zeros to six 16-byte lanes so that SSE2 compares whole lanes.
constexpr int kBoardRowBytes = 96;
struct alignas(16) BoardRow {
  uint8_t squares[kBoardRowBytes] = {};
};

BoardRow board_row(const shogi::Position& pos);
BoardRow board_row(const PackedPosition& packed);

// The squares whose content differs, as a bit set (bit s of word s / 64).
struct SquareSet {
  uint64_t words[2] = {0, 0};
  int count() const;
  bool test(shogi::Square s) const { return (words[s >> 6] >> (s & 63)) & 1; }
};

// The number of squares whose content differs (SSE2, baseline x86-64).
// REQUIRES: a and b point to kBoardRowBytes bytes, 16-byte aligned, with zero padding.
inline int board_difference(const uint8_t* a, const uint8_t* b) {
  // Counts the equal bytes without popcount (baseline x86-64 has no POPCNT instruction):
  // each lane adds 1 per equal byte, and _mm_sad_epu8 sums the bytes.
  const __m128i one = _mm_set1_epi8(1);
  __m128i equal = _mm_setzero_si128();
  for (int lane = 0; lane < kBoardRowBytes; lane += 16) {
    const __m128i x = _mm_load_si128(reinterpret_cast<const __m128i*>(a + lane));
    const __m128i y = _mm_load_si128(reinterpret_cast<const __m128i*>(b + lane));
    equal = _mm_add_epi8(equal, _mm_and_si128(_mm_cmpeq_epi8(x, y), one));
  }
  const __m128i sums = _mm_sad_epu8(equal, _mm_setzero_si128());
  const int equal_bytes = _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
  return kBoardRowBytes - equal_bytes;
}
// A board summary for a cheap lower bound: a one-byte hash of each block of three squares
// of a file (ranks a-c, d-f, g-i; 27 blocks). Blocks whose hashes differ differ in at least
// one square, so block_difference(summary(a), summary(b)) <= board_difference(a, b): a
// lower bound read from a third of the bytes. The 5 spare bytes fill the record to 32
// bytes for whoever stores summaries (the index keeps hand totals there);
// block_difference ignores them. (Half-byte hashes in a 16-byte record were tried: the
// bound got weaker, twice the boards were compared, and the search was no faster.)
struct alignas(16) BoardSummary {
  static constexpr int kBlocks = 27;
  uint8_t blocks[kBlocks] = {};
  uint8_t spare[5] = {};
  int block(int b) const { return blocks[b]; }
};
static_assert(sizeof(BoardSummary) == 32);
BoardSummary board_summary(const BoardRow& row);

// The number of non-zero bytes among the 27 block bytes of x (SSE2).
inline int nonzero_blocks(__m128i first16, __m128i next16) {
  const __m128i one = _mm_set1_epi8(1);
  const __m128i first11 = _mm_setr_epi8(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0);
  const __m128i zero = _mm_setzero_si128();
  const __m128i equal = _mm_add_epi8(_mm_and_si128(_mm_cmpeq_epi8(first16, zero), one),
                                     _mm_and_si128(_mm_cmpeq_epi8(next16, zero), first11));
  const __m128i sums = _mm_sad_epu8(equal, zero);
  return BoardSummary::kBlocks -
         (_mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_srli_si128(sums, 8)));
}

inline int block_difference(const BoardSummary& a, const BoardSummary& b) {
  const __m128i* x = reinterpret_cast<const __m128i*>(a.blocks);
  const __m128i* y = reinterpret_cast<const __m128i*>(b.blocks);
  return nonzero_blocks(_mm_xor_si128(_mm_load_si128(x), _mm_load_si128(y)),
                        _mm_xor_si128(_mm_load_si128(x + 1), _mm_load_si128(y + 1)));
}

// The differing squares themselves. Same REQUIRES.
SquareSet differing_squares(const uint8_t* a, const uint8_t* b);

// Sum over both sides and the seven kinds of |count difference| (hands as Hand::raw()).
int hand_difference(const uint32_t a[shogi::kColorNb], const uint32_t b[shogi::kColorNb]);

// The simple difference (単純な差分): the number of squares whose content differs plus the
// hand difference. It is a metric (Hamming distance plus L1 distance).
int simple_difference(const PackedPosition& a, const PackedPosition& b);

// ---------------------------------------------------------------------------------------
// Filters (i) and (ii) of the simple method, applied per book move.

// A book move as the query position reads it: the same from/to/promotion or drop, completed
// for `pos`; kMoveNone when it is not legal there.
shogi::Move translate_move(const shogi::Position& pos, shogi::Move book_move);

// The attackers (both colours, Position::attackers_to) on a move's destination and, for a
// board move, its origin, counted in the position the move is played from. "Own" is the
// side to move's.
struct MoveAttackers {
  uint8_t own_to = 0, enemy_to = 0, own_from = 0, enemy_from = 0;
};
MoveAttackers count_move_attackers(const shogi::Position& pos, shogi::Move m);

// The attacker-count filter (効きの数). A difference is relevant, and the book position is
// "another position" for this move, when on the destination, or on the origin of a board
// move:
//   - the enemy attacks the square in one position and not in the other (the square turned
//     from safe to contested or back), or
//   - the side to move's own attacker count differs by more than one.
inline bool attackers_compatible(const MoveAttackers& book, const MoveAttackers& query,
                                 bool is_drop) {
  auto square_ok = [](int own_book, int enemy_book, int own_query, int enemy_query) {
    if ((enemy_book > 0) != (enemy_query > 0)) return false;
    return own_book - own_query <= 1 && own_query - own_book <= 1;
  };
  if (!square_ok(book.own_to, book.enemy_to, query.own_to, query.enemy_to)) return false;
  if (is_drop) return true;
  return square_ok(book.own_from, book.enemy_from, query.own_from, query.enemy_from);
}

// ---------------------------------------------------------------------------------------
// The relation-number method's dynamic weight table (加重表).

// How often the book moves of the near positions touch each square: a move adds its vote
// to its destination and, for a board move, its origin. Book gives each passing move of a
// near position its share of that position's counts (see Book), so that every position
// has one vote at most and its popular moves dominate.
struct SquareTouches {
  std::array<double, shogi::kSquareNb> count{};
  void add_move(shogi::Move m, double vote);
};

// w[s] = 1 + alpha * touches[s] / max_s touches[s] (all 1 when nothing was touched). Every
// weight is at least 1, so the weighted difference is never below the simple one's board
// part, which the index relies on.
struct WeightTable {
  std::array<double, shogi::kSquareNb> weight{};
  static WeightTable from_touches(const SquareTouches& touches, double alpha);
};

// The relation-number difference: the sum of the weights of the differing squares plus the
// hand difference (each piece of hand difference weighs 1).
double weighted_difference(const uint8_t* a_row, const uint32_t a_hands[shogi::kColorNb],
                           const uint8_t* b_row, const uint32_t b_hands[shogi::kColorNb],
                           const WeightTable& table);

}  // namespace book
