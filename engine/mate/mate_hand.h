// Proof and disproof pieces (証明駒, 反証駒): the hand arithmetic that lets one mate-table
// result stand for every position that differs only by the attacker's hand.
#pragma once

#include <algorithm>

#include "engine/names.h"
#include "shogi/hand.h"
#include "shogi/types.h"

namespace engine::mate {

// A proof hand P: the position is mated whenever the attacker holds at least P.
// A disproof hand D: the position is not mated whenever the attacker holds at most D.
// Both rest on the conservation of pieces: what the attacker does not hold, the defender
// holds (or it is on the board, which is the same in both positions).

inline Hand hand_min(Hand a, Hand b) {
  Hand r;
  for (int t = kPawn; t <= kGold; ++t)
    r.add(PieceType(t), std::min(a.count(PieceType(t)), b.count(PieceType(t))));
  return r;
}
inline Hand hand_max(Hand a, Hand b) {
  Hand r;
  for (int t = kPawn; t <= kGold; ++t)
    r.add(PieceType(t), std::max(a.count(PieceType(t)), b.count(PieceType(t))));
  return r;
}
// Every kind at its largest count: the disproof hand of a position whatever the attacker holds.
inline Hand hand_full() {
  Hand r;
  for (int t = kPawn; t <= kGold; ++t) r.add(PieceType(t), Hand::kMaxCount[t]);
  return r;
}
inline int clamp_count(PieceType t, int n) { return std::clamp(n, 0, Hand::kMaxCount[t]); }
inline Hand with_count(Hand h, PieceType t, int n) {
  h.remove(t, h.count(t));
  h.add(t, clamp_count(t, n));
  return h;
}

}  // namespace engine::mate
