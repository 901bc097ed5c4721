// The index layout of the evaluation's sparse linear model: every feature group's offset.
#pragma once

#include "engine/names.h"
#include "shogi/types.h"

namespace engine::eval {

// The evaluation is a sparse linear model over kFeatureCount features:
//
//   black_value = base + (1 - p) * opening + p * endgame
//   base    = sum over base features i of     w[i] * count_i
//   opening = sum over phase features j of    w[kOpeningOffset + j] * count_j
//   endgame = sum over phase features j of    w[kEndgameOffset + j] * count_j
//
// with p = progress(pos) in [0, 1] and counts taken from Black's point of view (a Black
// feature counts +1, the same feature of White's -1). The side to move gets black_value
// or -black_value. Every table is shared by both colours: White's pieces are looked at
// from White's side of the board (see kp_index), so a position and its colour-flipped
// image have opposite counts.
//
// Base features (one set, not blended):
//   material [14]        PieceType - 1 (pawn .. dragon; the king's entry stays 0)
//   hand     [7][18]     hand[PieceType - 1][n] counts 1 when the side holds more than n
//                        pieces of the kind: the n-th piece's worth. Entries beyond the
//                        kind's maximum (lance, knight, silver, gold 4; bishop, rook 2)
//                        are never active.
//   pin      [13]        pieces pinned to their own king, by kind_index
//   tempo    [1]         +1 when Black is to move, -1 when White is
// Phase features (two sets, opening then endgame, same layout):
//   own_king   [13][9][17]  a non-king piece by (kind_index, |df|, dr + 8) relative to its
//                           own king; dr > 0: the piece is dr ranks in front of the king,
//                           "front" meaning toward the enemy camp of the piece's owner
//   enemy_king [13][9][17]  the same relative to the enemy king (same orientation: from the
//                           piece owner's side, dr > 0 when the piece is beyond that king)
//   king_attacks    [24]    per king: enemy attacks into its 5x5 box, summed over squares
//                           (a square attacked by two pieces counts 2), capped at 23
//   king_defences   [24]    per king: its own side's attacks into the box (king excluded)
//   king_controlled [26]    per king: box squares with more enemy attackers than defenders
//   king_escapes    [9]     per king: adjacent squares neither occupied by its own pieces
//                           nor attacked by the enemy
//   king_drops      [7][9]  per king and per kind the enemy holds in hand: (PieceType - 1,
//                           number of empty squares adjacent to the king)
//   piece_square [13][5][9] a non-king piece by (kind_index, folded file, rank) seen from its
//                           owner's side: folded file min(f, 8 - f) (0 = file 1 or 9, 4 =
//                           file 5), rank 0 = the enemy's back rank (see square_index)
//   safety      [13][4][4]  a non-king piece by (kind_index, enemy attackers of its square,
//                           own defenders of it), both capped at 3; kings count here
//   threat          [13]    a non-king piece attacked by an enemy piece of a lower value
//                           class (value_class), by the attacked piece's kind_index
//   mobility      [5][17]   a slider by (slider_index, squares it attacks that are not
//                           occupied by its own side, capped at 16)
//   threatened   [2][4][5]  per side: (1 if it is to move else 0, number of its non-king
//                           pieces attacked by a cheaper enemy piece or attacked and not
//                           defended, capped at 3, the highest value_class among them or 0)
// The king-safety counts ignore the kings as attackers and defenders, except that an
// escape square may not be attacked by the enemy king; attacks are those of the board as it
// stands (a king still blocks the slider that checks it). The 5x5 box is clipped at the edge
// and includes the king's own square. Count features of a king count +1 for Black's king
// and -1 for White's: the weights are from the king owner's point of view. The safety
// counts are those of the king box (one per piece whose attacks reach the square) plus the
// kings'. piece_square folds the files like own_king's |df|, so that the evaluation of a
// position and of its left-right mirror image stay equal.

// The 13 kinds other than the king, in PieceType order: pawn, lance, knight, silver,
// bishop, rook, gold, +pawn, +lance, +knight, +silver, horse, dragon.
constexpr int kKindNb = 13;
constexpr int kind_index(PieceType t) { return t < kKing ? t - 1 : t - 2; }
constexpr PieceType kind_of_index(int k) { return PieceType(k < 7 ? k + 1 : k + 2); }

// Names for files and messages: by kind_index, and by PieceType - 1 (the king included).
inline constexpr const char* kKindNames[kKindNb] = {
    "pawn",  "lance",  "knight",  "silver",  "bishop", "rook",  "gold",
    "+pawn", "+lance", "+knight", "+silver", "horse",  "dragon"};
inline constexpr const char* kPieceNames[14] = {"pawn",    "lance",   "knight", "silver", "bishop",
                                                "rook",    "gold",    "king",   "+pawn",  "+lance",
                                                "+knight", "+silver", "horse",  "dragon"};

constexpr int kDfNb = 9;   // |file difference| 0..8
constexpr int kDrNb = 17;  // rank difference -8..8, stored as dr + 8
constexpr int kKingRelativeSize = kKindNb * kDfNb * kDrNb;

constexpr int kHandKindNb = 7;  // pawn .. gold, PieceType - 1
constexpr int kHandCountNb = 18;
constexpr int kAttackBuckets = 24;
constexpr int kDefenceBuckets = 24;
constexpr int kControlledBuckets = 26;
constexpr int kEscapeBuckets = 9;
constexpr int kDropBuckets = 9;
constexpr int kFoldedFileNb = 5;  // min(file, 8 - file): files 1|9, 2|8, 3|7, 4|6, 5
constexpr int kRankNb = 9;
constexpr int kSafetyBuckets = 4;  // 0, 1, 2, 3 or more attackers (defenders)
constexpr int kSliderNb = 5;       // lance, bishop, rook, horse, dragon
constexpr int kMobilityBuckets = 17;
constexpr int kValueClassNb = 5;  // see value_class

// Base features.
constexpr int kMaterialOffset = 0;
constexpr int kHandOffset = kMaterialOffset + 14;
constexpr int kPinOffset = kHandOffset + kHandKindNb * kHandCountNb;
constexpr int kTempoOffset = kPinOffset + kKindNb;
constexpr int kBaseSize = kTempoOffset + 1;

// Phase features, relative to the start of a phase set.
constexpr int kOwnKingOffset = 0;
constexpr int kEnemyKingOffset = kOwnKingOffset + kKingRelativeSize;
constexpr int kKingAttacksOffset = kEnemyKingOffset + kKingRelativeSize;
constexpr int kKingDefencesOffset = kKingAttacksOffset + kAttackBuckets;
constexpr int kKingControlledOffset = kKingDefencesOffset + kDefenceBuckets;
constexpr int kKingEscapesOffset = kKingControlledOffset + kControlledBuckets;
constexpr int kKingDropsOffset = kKingEscapesOffset + kEscapeBuckets;
constexpr int kPieceSquareOffset = kKingDropsOffset + kHandKindNb * kDropBuckets;
constexpr int kSafetyOffset = kPieceSquareOffset + kKindNb * kFoldedFileNb * kRankNb;
constexpr int kThreatOffset = kSafetyOffset + kKindNb * kSafetyBuckets * kSafetyBuckets;
constexpr int kMobilityOffset = kThreatOffset + kKindNb;
constexpr int kThreatenedCountNb = 4;  // 0, 1, 2, 3 or more pieces
constexpr int kThreatenedOffset = kMobilityOffset + kSliderNb * kMobilityBuckets;
constexpr int kPhaseSize = kThreatenedOffset + 2 * kThreatenedCountNb * kValueClassNb;

constexpr int kOpeningOffset = kBaseSize;
constexpr int kEndgameOffset = kOpeningOffset + kPhaseSize;
constexpr int kFeatureCount = kEndgameOffset + kPhaseSize;

// Index (within a king-relative table) of a piece of colour `owner` and kind index `kind`
// on square s, relative to the king on square k. REQUIRES: both squares on the board.
constexpr int kp_index(Color owner, int kind, Square k, Square s) {
  const int df = file_of(s) - file_of(k);
  const int dr = owner == kBlack ? rank_of(k) - rank_of(s) : rank_of(s) - rank_of(k);
  return (kind * kDfNb + (df < 0 ? -df : df)) * kDrNb + dr + 8;
}

// Index (within a piece_square table, kind 0) of a piece of colour `owner` on square s:
// folded file * 9 + rank, both seen from the owner's side.
constexpr int square_index(Color owner, Square s) {
  const int f = file_of(s), r = relative_rank(owner, rank_of(s));
  return (f < 8 - f ? f : 8 - f) * kRankNb + r;
}

// Value classes for threat: pawn 0; lance, knight 1; silver, gold and the promoted small
// pieces 2; bishop, rook 3; horse, dragon 4. By PieceType - 1 (the king's entry unused).
inline constexpr int kValueClass[14] = {0, 1, 1, 2, 3, 3, 2, 0, 2, 2, 2, 2, 4, 4};
constexpr int value_class(PieceType t) { return kValueClass[t - 1]; }

// slider_index for lance, bishop, rook, horse, dragon; -1 for the other kinds.
constexpr int slider_index(PieceType t) {
  return t == kLance    ? 0
         : t == kBishop ? 1
         : t == kRook   ? 2
         : t == kHorse  ? 3
         : t == kDragon ? 4
                        : -1;
}
inline constexpr const char* kSliderNames[kSliderNb] = {"lance", "bishop", "rook", "horse",
                                                        "dragon"};

// A named block of the weight vector, as the weight file and describe() show it.
struct Section {
  const char* name;  // "material", "opening_own_king", ...
  int offset;
  int dims[3];  // unused dimensions are 1
  int rank;     // number of dimensions used
  constexpr int size() const { return dims[0] * dims[1] * dims[2]; }
};

// Every section in file order: the base ones, then the opening and endgame sets.
inline constexpr Section kSections[] = {
    {"material", kMaterialOffset, {14, 1, 1}, 1},
    {"hand", kHandOffset, {kHandKindNb, kHandCountNb, 1}, 2},
    {"pin", kPinOffset, {kKindNb, 1, 1}, 1},
    {"tempo", kTempoOffset, {1, 1, 1}, 1},
    {"opening_own_king", kOpeningOffset + kOwnKingOffset, {kKindNb, kDfNb, kDrNb}, 3},
    {"opening_enemy_king", kOpeningOffset + kEnemyKingOffset, {kKindNb, kDfNb, kDrNb}, 3},
    {"opening_king_attacks", kOpeningOffset + kKingAttacksOffset, {kAttackBuckets, 1, 1}, 1},
    {"opening_king_defences", kOpeningOffset + kKingDefencesOffset, {kDefenceBuckets, 1, 1}, 1},
    {"opening_king_controlled",
     kOpeningOffset + kKingControlledOffset,
     {kControlledBuckets, 1, 1},
     1},
    {"opening_king_escapes", kOpeningOffset + kKingEscapesOffset, {kEscapeBuckets, 1, 1}, 1},
    {"opening_king_drops", kOpeningOffset + kKingDropsOffset, {kHandKindNb, kDropBuckets, 1}, 2},
    {"opening_piece_square",
     kOpeningOffset + kPieceSquareOffset,
     {kKindNb, kFoldedFileNb, kRankNb},
     3},
    {"opening_safety",
     kOpeningOffset + kSafetyOffset,
     {kKindNb, kSafetyBuckets, kSafetyBuckets},
     3},
    {"opening_threat", kOpeningOffset + kThreatOffset, {kKindNb, 1, 1}, 1},
    {"opening_mobility", kOpeningOffset + kMobilityOffset, {kSliderNb, kMobilityBuckets, 1}, 2},
    {"opening_threatened",
     kOpeningOffset + kThreatenedOffset,
     {2, kThreatenedCountNb, kValueClassNb},
     3},
    {"endgame_own_king", kEndgameOffset + kOwnKingOffset, {kKindNb, kDfNb, kDrNb}, 3},
    {"endgame_enemy_king", kEndgameOffset + kEnemyKingOffset, {kKindNb, kDfNb, kDrNb}, 3},
    {"endgame_king_attacks", kEndgameOffset + kKingAttacksOffset, {kAttackBuckets, 1, 1}, 1},
    {"endgame_king_defences", kEndgameOffset + kKingDefencesOffset, {kDefenceBuckets, 1, 1}, 1},
    {"endgame_king_controlled",
     kEndgameOffset + kKingControlledOffset,
     {kControlledBuckets, 1, 1},
     1},
    {"endgame_king_escapes", kEndgameOffset + kKingEscapesOffset, {kEscapeBuckets, 1, 1}, 1},
    {"endgame_king_drops", kEndgameOffset + kKingDropsOffset, {kHandKindNb, kDropBuckets, 1}, 2},
    {"endgame_piece_square",
     kEndgameOffset + kPieceSquareOffset,
     {kKindNb, kFoldedFileNb, kRankNb},
     3},
    {"endgame_safety",
     kEndgameOffset + kSafetyOffset,
     {kKindNb, kSafetyBuckets, kSafetyBuckets},
     3},
    {"endgame_threat", kEndgameOffset + kThreatOffset, {kKindNb, 1, 1}, 1},
    {"endgame_mobility", kEndgameOffset + kMobilityOffset, {kSliderNb, kMobilityBuckets, 1}, 2},
    {"endgame_threatened",
     kEndgameOffset + kThreatenedOffset,
     {2, kThreatenedCountNb, kValueClassNb},
     3},
};
constexpr int kSectionNb = int(sizeof(kSections) / sizeof(kSections[0]));
constexpr int kPhaseSectionNb = 12;  // sections per phase set

constexpr bool sections_tile_the_vector() {
  int next = 0;
  for (const Section& s : kSections) {
    if (s.offset != next) return false;
    next += s.size();
  }
  return next == kFeatureCount && kSections[4].offset == kOpeningOffset &&
         kSections[4 + kPhaseSectionNb].offset == kEndgameOffset;
}
static_assert(sections_tile_the_vector(), "kSections must cover the features in order");

}  // namespace engine::eval
