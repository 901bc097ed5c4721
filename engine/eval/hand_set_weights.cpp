// Weights::hand_set(): weights set by formula, the starting point before any learning.
#include "engine/eval/hand_set_weights.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "engine/eval/weights.h"
#include "engine/names.h"
#include "shogi/hand.h"

namespace engine::eval {

namespace {

// Piece values on the board, by PieceType - 1 (Bonanza-like, pawn 90).
constexpr double kMaterial[14] = {90, 315, 405, 495, 855, 990, 540,
                                  0,  540, 540, 540, 540, 945, 1395};
// A piece in hand is worth its board value times this (hand kinds, PieceType - 1).
constexpr double kHandFactor[kHandKindNb] = {1.10, 1.10, 1.10, 1.10, 1.00, 1.00, 1.05};
// Bonus for a piece of each kind (kind_index) standing next to its own king, and next to
// the enemy king; farther pieces get a fraction of it (closeness).
constexpr double kDefender[kKindNb] = {0, 0, 0, 30, 0, 0, 40, 25, 25, 25, 25, 30, 10};
constexpr double kAttacker[kKindNb] = {5, 10, 20, 30, 20, 25, 30, 35, 35, 35, 35, 40, 50};
// Per enemy hand kind (PieceType - 1): penalty per empty square next to the king.
constexpr double kDropThreat[kHandKindNb] = {2, 4, 6, 8, 6, 10, 10};
constexpr double kEndgameEscapes[kEscapeBuckets] = {-60, -30, -12, -4, 0, 0, 0, 0, 0};

// Hand-set weights are whole centipawns, to keep the file readable.
void set_whole(Weights& w, int index, double centipawns) { w.set(index, std::round(centipawns)); }

// d is the king distance max(|df|, |dr|).
double defender_closeness(int d) { return d == 1 ? 1.0 : d == 2 ? 0.6 : d == 3 ? 0.25 : 0.0; }
double attacker_closeness(int d) {
  return d <= 1 ? 1.0 : d == 2 ? 0.7 : d == 3 ? 0.4 : d == 4 ? 0.15 : 0.0;
}

// The n-th piece held (0-based) is worth this fraction of the first.
double hand_diminishing(int hand_kind, int n) {
  if (hand_kind == 0) return n < 3 ? 1.0 : std::max(0.7, 1.0 - 0.05 * (n - 2));
  return 1.0 - 0.03 * n;
}

void set_phase(Weights& w, int phase_offset, bool endgame) {
  for (int kind = 0; kind < kKindNb; ++kind)
    for (int df = 0; df < kDfNb; ++df)
      for (int dr = -8; dr <= 8; ++dr) {
        const int i = (kind * kDfNb + df) * kDrNb + dr + 8;
        const int d = std::max(df, std::abs(dr));
        double own = kDefender[kind] * defender_closeness(d);
        if (dr < 0) own *= 0.6;  // behind the king defends less
        if (kind == kind_index(kPawn) && df <= 1 && (dr == 1 || dr == 2)) own = 10;  // shield
        const double enemy = kAttacker[kind] * attacker_closeness(d) * (endgame ? 1.5 : 1.0);
        set_whole(w, phase_offset + kOwnKingOffset + i, own);
        set_whole(w, phase_offset + kEnemyKingOffset + i, enemy);
      }
  const double danger = endgame ? 1.5 : 1.0;
  for (int n = 0; n < kAttackBuckets; ++n)
    set_whole(w, phase_offset + kKingAttacksOffset + n, -danger * (6 * n + 0.6 * n * n));
  for (int n = 0; n < kDefenceBuckets; ++n)
    set_whole(w, phase_offset + kKingDefencesOffset + n, 12 * std::sqrt(double(n)));
  for (int n = 0; n < kControlledBuckets; ++n)
    set_whole(w, phase_offset + kKingControlledOffset + n,
              -danger * (12 * n + 2 * std::min(n, 8) * std::min(n, 8)));
  for (int n = 0; n < kEscapeBuckets; ++n)
    set_whole(w, phase_offset + kKingEscapesOffset + n, endgame ? kEndgameEscapes[n] : 0);
  for (int t = 0; t < kHandKindNb; ++t)
    for (int e = 0; e < kDropBuckets; ++e)
      set_whole(w, phase_offset + kKingDropsOffset + t * kDropBuckets + e,
                -kDropThreat[t] * e * (endgame ? 2 : 1));
}

}  // namespace

Weights Weights::hand_set() {
  Weights w;
  w.set_header(
      "hand-set weights (not learned): Bonanza-like piece values (pawn 90 .. dragon 1395),\n"
      "pieces in hand worth a little more, golds and silvers near their own king and pieces\n"
      "near the enemy king a bonus, king-safety penalties growing with the attackers.\n"
      "Formulas in engine/eval/hand_set_weights.cpp; regenerate with write_hand_set_weights.");
  for (int t = 0; t < 14; ++t) set_whole(w, kMaterialOffset + t, kMaterial[t]);
  for (int t = 0; t < kHandKindNb; ++t) {
    const int max_count = Hand::kMaxCount[t + 1];
    for (int n = 0; n < max_count; ++n)
      set_whole(w, kHandOffset + t * kHandCountNb + n,
                kMaterial[t] * kHandFactor[t] * hand_diminishing(t, n));
  }
  for (int k = 0; k < kKindNb; ++k)
    set_whole(w, kPinOffset + k, -0.1 * kMaterial[kind_of_index(k) - 1]);
  set_whole(w, kTempoOffset, 20);
  set_phase(w, kOpeningOffset, false);
  set_phase(w, kEndgameOffset, true);
  // piece_square, safety, threat and mobility stay 0: they are for learning, and keeping
  // them 0 keeps the hand-set evaluation (and the bench signature) what it was before them.
  return w;
}

int write_hand_set_weights(const std::string& path) {
  const Status status = Weights::hand_set().save(path);
  if (!status) {
    std::fprintf(stderr, "%s\n", status.message().c_str());
    return 1;
  }
  std::printf("wrote %d hand-set weights to %s\n", Weights::size(), path.c_str());
  return 0;
}

}  // namespace engine::eval
