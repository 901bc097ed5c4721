// The one walk over a position that finds its active features, shared by evaluate() and
// collect_features() so that the two can never disagree.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "engine/eval/feature_layout.h"
#include "engine/names.h"
#include "shogi/attacks.h"
#include "shogi/bitboard.h"
#include "shogi/hand.h"
#include "shogi/position.h"

namespace engine::eval::detail {

// The 5x5 box around each square, clipped at the edges, the square itself included.
inline constexpr std::array<Bitboard, kSquareNb> kKingBox = [] {
  std::array<Bitboard, kSquareNb> boxes{};
  for (Square s = 0; s < kSquareNb; ++s)
    for (int df = -2; df <= 2; ++df)
      for (int dr = -2; dr <= 2; ++dr)
        if (is_on_board(file_of(s) + df, rank_of(s) + dr))
          boxes[s].set(make_square(file_of(s) + df, rank_of(s) + dr));
  return boxes;
}();

// square_index(c, s) for every colour and square.
inline constexpr auto kSquareIndex = [] {
  std::array<std::array<uint8_t, kSquareNb>, kColorNb> table{};
  for (Color c : {kBlack, kWhite})
    for (Square s = 0; s < kSquareNb; ++s) table[c][s] = uint8_t(square_index(c, s));
  return table;
}();

// kp_index(c, 0, k, s) for every colour, king square and square.
inline constexpr auto kRelative = [] {
  std::array<std::array<std::array<uint8_t, kSquareNb>, kSquareNb>, kColorNb> table{};
  for (Color c : {kBlack, kWhite})
    for (Square k = 0; k < kSquareNb; ++k)
      for (Square s = 0; s < kSquareNb; ++s) table[c][k][s] = uint8_t(kp_index(c, 0, k, s));
  return table;
}();

// Progress points of a piece of colour c on square s (see progress_fixed in features.h):
// 1 on the rank just outside the enemy camp, up to 4 on the enemy's last rank.
inline constexpr std::array<std::array<uint8_t, kSquareNb>, kColorNb> kProgressPoints = [] {
  std::array<std::array<uint8_t, kSquareNb>, kColorNb> points{};
  for (Color c : {kBlack, kWhite})
    for (Square s = 0; s < kSquareNb; ++s) {
      const int r = relative_rank(c, rank_of(s));
      points[c][s] = uint8_t(r < 4 ? 4 - r : 0);
    }
  return points;
}();

// Progress points of the pieces in a hand: 1 per pawn, 3 per other piece.
constexpr int hand_progress_points(Hand h) {
  return h.count(kPawn) + 3 * (h.total() - h.count(kPawn));
}

// Number of squares of b inside `area`, where area is a king box or a king's neighbourhood:
// such an area's squares in the low word are never among the first 18 bits when it has any
// in the high word, so the two words can be merged and counted at once.
inline int count_in_area(Bitboard b, Bitboard area) { return std::popcount((b & area).merge()); }
constexpr bool boxes_can_merge() {
  for (const Bitboard& box : kKingBox)
    if (box.hi != 0 && (box.lo & Bitboard::kHiMask) != 0) return false;
  return true;
}
static_assert(boxes_can_merge());

// Per-square attacker counts of one colour, bit-sliced: plane i holds bit i of every
// square's count. Counts saturate at 15. A plain value type.
struct AttackCounter {
  Bitboard plane[4];

  void add(Bitboard a) {
    Bitboard carry = a;
    for (Bitboard& p : plane) {
      const Bitboard next = p & carry;
      p ^= carry;
      carry = next;
    }
    if (carry.any())
      for (Bitboard& p : plane) p |= carry;  // overflow past 15: saturate
  }
  // Squares attacked at least once.
  Bitboard any() const { return plane[0] | plane[1] | plane[2] | plane[3]; }
  // The sum of the counts over the squares of `box` (a king box).
  int total_in(Bitboard box) const {
    return count_in_area(plane[0], box) + 2 * count_in_area(plane[1], box) +
           4 * count_in_area(plane[2], box) + 8 * count_in_area(plane[3], box);
  }
  // The counts capped at 3, as two planes: bit 0 and bit 1 of min(count, 3).
  void capped_at_3(Bitboard& bit0, Bitboard& bit1) const {
    const Bitboard high = plane[2] | plane[3];
    bit0 = plane[0] | high;
    bit1 = plane[1] | high;
  }
  // Squares where this count is greater than other's.
  Bitboard greater_than(const AttackCounter& other) const {
    Bitboard gt, eq = Bitboard::all();
    for (int i = 3; i >= 0; --i) {
      gt |= eq & plane[i].and_not(other.plane[i]);
      eq = eq.and_not(plane[i] ^ other.plane[i]);
    }
    return gt;
  }
};

// The squares c's pawns attack. Pawns of one colour stand on different files, so the
// squares are distinct; no pawn stands on its last rank, so the shift stays in the file.
inline Bitboard pawn_attacks(Color c, Bitboard pawns) {
  return c == kBlack
             ? Bitboard(pawns.lo >> 1, pawns.hi >> 1)
             : Bitboard((pawns.lo << 1) & Bitboard::kLoMask, (pawns.hi << 1) & Bitboard::kHiMask);
}

constexpr int cap(int n, int buckets) { return n < buckets ? n : buckets - 1; }

// The placement features of one non-king piece of colour c and type t on s: material,
// king-relative placement (own_king, enemy_king: the kings' squares or kSquareNone) and
// piece-square, each reported with `count` (+1 for a Black piece, -1 for a White one; the
// incremental evaluation passes the opposite to take a piece away).
template <class Sink>
inline void visit_piece(Sink& sink, Color c, PieceType t, Square s, Square own_king,
                        Square enemy_king, int count) {
  const int kind = kind_index(t);
  sink.base(kMaterialOffset + t - 1, count);
  const int base = kind * kDfNb * kDrNb;
  if (own_king != kSquareNone) sink.phase(kOwnKingOffset + base + kRelative[c][own_king][s], count);
  if (enemy_king != kSquareNone)
    sink.phase(kEnemyKingOffset + base + kRelative[c][enemy_king][s], count);
  sink.phase(kPieceSquareOffset + kind * kFoldedFileNb * kRankNb + kSquareIndex[c][s], count);
}

// The base feature of the n-th piece (from 0) of hand kind t: active while the hand holds
// more than n of them.
constexpr int hand_feature(PieceType t, int n) { return kHandOffset + (t - 1) * kHandCountNb + n; }

// The board part of visit_features: every non-king piece's visit_piece features. They
// depend only on where each piece and king stands, so that the search's evaluation can
// update their sums move by move (incremental_evaluator.h). Returns the progress points
// of the pieces on the board (kings included).
template <class Sink>
inline int visit_board(const Position& pos, Sink& sink) {
  const Bitboard kings = pos.pieces(kKing);
  int progress_points = 0;
  for (Color c : {kBlack, kWhite}) {
    const int sign = c == kBlack ? 1 : -1;
    const Square own = pos.king_square(c), enemy = pos.king_square(~c);
    for (Square s : pos.pieces(c).and_not(kings)) {
      visit_piece(sink, c, type_of(pos.piece_on(s)), s, own, enemy, sign);
      progress_points += kProgressPoints[c][s];
    }
    if (own != kSquareNone) progress_points += kProgressPoints[c][own];
  }
  return progress_points;
}

// The hands' features (hand_feature). Returns the hands' progress points.
template <class Sink>
inline int visit_hands(const Position& pos, Sink& sink) {
  int progress_points = 0;
  for (Color c : {kBlack, kWhite}) {
    const int sign = c == kBlack ? 1 : -1;
    const Hand hand = pos.hand(c);
    progress_points += hand_progress_points(hand);
    for (int t = kPawn; t <= kGold; ++t) {
      const int n = hand.count(PieceType(t));
      for (int i = 0; i < n; ++i) sink.base(hand_feature(PieceType(t), i), sign);
    }
  }
  return progress_points;
}

// The rest of visit_features: the features that depend on the attacks (mobility, pins,
// safety, threats, king safety) and the side to move (tempo, threatened).
template <class Sink>
inline void visit_relations(const Position& pos, Sink& sink);

// Calls sink.base(index, count) for each active base feature and sink.phase(index, count)
// for each active phase feature (index within a phase set, see feature_layout.h), counts
// from Black's point of view. A feature may be reported more than once; the counts add up.
// Sink must also provide king(Color, attacks, defences, controlled, escapes) (raw counts,
// for describe()); evaluate's sink ignores it.
// Returns the raw progress points of the position (progress_fixed's raw).
template <class Sink>
inline int visit_features(const Position& pos, Sink& sink) {
  const int progress_points = visit_board(pos, sink) + visit_hands(pos, sink);
  visit_relations(pos, sink);
  return progress_points;
}

template <class Sink>
[[gnu::always_inline]] inline void visit_relations(const Position& pos, Sink& sink) {
  const Bitboard occupied = pos.pieces();
  const Bitboard kings = pos.pieces(kKing);
  const Square king[kColorNb] = {pos.king_square(kBlack), pos.king_square(kWhite)};
  AttackCounter counter[kColorNb];
  Bitboard class_attacks[kColorNb][kValueClassNb] = {};  // by the attacker's value_class

  for (Color c : {kBlack, kWhite}) {
    const int sign = c == kBlack ? 1 : -1;
    const Bitboard pawns = pos.pieces(c, kPawn);
    const Bitboard own_pieces = pos.pieces(c);
    const Bitboard pawn_reach = pawn_attacks(c, pawns);
    counter[c].add(pawn_reach);
    class_attacks[c][0] = pawn_reach;
    for (Square s : own_pieces.and_not(kings | pawns)) {
      const PieceType t = type_of(pos.piece_on(s));
      const Bitboard reach = piece_attacks(c, t, s, occupied);
      counter[c].add(reach);
      class_attacks[c][value_class(t)] |= reach;
      const int slider = slider_index(t);
      if (slider >= 0)
        sink.phase(kMobilityOffset + slider * kMobilityBuckets +
                       cap(reach.and_not(own_pieces).count(), kMobilityBuckets),
                   sign);
    }
    for (Square s : pos.pinned(c))
      sink.base(kPinOffset + kind_index(type_of(pos.piece_on(s))), sign);
  }

  // Safety and threats of every non-king piece; the kings join the attackers and defenders.
  Bitboard king_reach[kColorNb];
  for (Color c : {kBlack, kWhite})
    king_reach[c] = king[c] == kSquareNone ? Bitboard() : step_attacks(c, kKing, king[c]);
  // Each colour's attackers of every square, its king included, capped at 3 (the safety
  // buckets) as two bit planes.
  static_assert(kSafetyBuckets == 4);
  Bitboard capped[kColorNb][2];
  for (Color c : {kBlack, kWhite}) {
    AttackCounter with_king = counter[c];
    with_king.add(king_reach[c]);
    with_king.capped_at_3(capped[c][0], capped[c][1]);
  }
  for (Color c : {kBlack, kWhite}) {
    const int sign = c == kBlack ? 1 : -1;
    // cheaper[v]: squares the enemy attacks with a piece of value class below v.
    Bitboard cheaper[kValueClassNb];
    for (int v = 1; v < kValueClassNb; ++v) cheaper[v] = cheaper[v - 1] | class_attacks[~c][v - 1];
    const Bitboard attacked = capped[~c][0] | capped[~c][1];
    const Bitboard defended = capped[c][0] | capped[c][1];
    int threatened = 0, highest = 0;
    for (Square s : pos.pieces(c).and_not(kings)) {
      const PieceType t = type_of(pos.piece_on(s));
      const int kind = kind_index(t);
      const int attackers = int(capped[~c][0].test(s)) + 2 * int(capped[~c][1].test(s));
      const int defenders = int(capped[c][0].test(s)) + 2 * int(capped[c][1].test(s));
      sink.phase(kSafetyOffset + (kind * kSafetyBuckets + attackers) * kSafetyBuckets + defenders,
                 sign);
      const bool by_cheaper = cheaper[value_class(t)].test(s);
      if (by_cheaper) sink.phase(kThreatOffset + kind, sign);
      if (by_cheaper || (attacked.test(s) && !defended.test(s))) {
        ++threatened;
        if (value_class(t) > highest) highest = value_class(t);
      }
    }
    const int to_move = pos.side_to_move() == c ? 1 : 0;
    sink.phase(
        kThreatenedOffset +
            (to_move * kThreatenedCountNb + cap(threatened, kThreatenedCountNb)) * kValueClassNb +
            highest,
        sign);
  }

  for (Color c : {kBlack, kWhite}) {
    const Square k = king[c];
    if (k == kSquareNone) continue;
    const int sign = c == kBlack ? 1 : -1;
    const AttackCounter& enemy = counter[~c];
    const AttackCounter& own = counter[c];
    const Bitboard box = kKingBox[k];
    const Bitboard neighbours = step_attacks(c, kKing, k);

    const int attacks = enemy.total_in(box);
    const int defences = own.total_in(box);
    const int controlled = count_in_area(enemy.greater_than(own), box);
    Bitboard enemy_reach = enemy.any();
    if (king[~c] != kSquareNone) enemy_reach |= step_attacks(~c, kKing, king[~c]);
    const int escapes = count_in_area(~(pos.pieces(c) | enemy_reach), neighbours);

    sink.phase(kKingAttacksOffset + cap(attacks, kAttackBuckets), sign);
    sink.phase(kKingDefencesOffset + cap(defences, kDefenceBuckets), sign);
    sink.phase(kKingControlledOffset + controlled, sign);
    sink.phase(kKingEscapesOffset + escapes, sign);
    sink.king(c, attacks, defences, controlled, escapes);

    const Hand enemy_hand = pos.hand(~c);
    if (!enemy_hand.empty()) {
      const int empty = count_in_area(~occupied, neighbours);
      for (int t = kPawn; t <= kGold; ++t)
        if (enemy_hand.has(PieceType(t)))
          sink.phase(kKingDropsOffset + (t - 1) * kDropBuckets + empty, sign);
    }
  }

  sink.base(kTempoOffset, pos.side_to_move() == kBlack ? 1 : -1);
}

}  // namespace engine::eval::detail
