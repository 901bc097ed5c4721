// Move generation: legal moves, and the partial pseudo-legal generators search needs.
#pragma once

#include <cstddef>

#include "engine/position.h"
#include "engine/types.h"

namespace engine {

// What a generator produces. All but kLegal give pseudo-legal moves: they obey piece
// movement, promotion rules, nifu and dead-piece drops, but may leave the king in check or
// be a pawn-drop mate; filter them with Position::is_legal.
enum class GenType {
  kCapturesPromotions,  // captures (promoting or not), and non-captures that promote
  kQuiets,              // the rest: non-captures without promotion, and drops
  kNonEvasions,         // both of the above. REQUIRES: not in check
  kEvasions,            // king moves, captures of the checker, interpositions. REQUIRES: in check
  kChecks,              // moves that give check (any kind). REQUIRES: not in check
  kLegal,               // every legal move, non-promotions included
};

// A fixed-capacity list; 593 is the most legal moves any shogi position has.
struct MoveList {
  static constexpr int kCapacity = 600;
  Move moves[kCapacity];
  int count = 0;

  void push(Move m) { moves[count++] = m; }
  int size() const { return count; }
  bool empty() const { return count == 0; }
  void clear() { count = 0; }
  Move* begin() { return moves; }
  Move* end() { return moves + count; }
  const Move* begin() const { return moves; }
  const Move* end() const { return moves + count; }
  Move operator[](int i) const { return moves[i]; }
  bool contains(Move m) const {
    for (int i = 0; i < count; ++i)
      if (moves[i] == m) return true;
    return false;
  }
};

// Appends the moves of the given kind to `list`.
void generate(const Position& pos, GenType type, MoveList& list);

// Convenience: the legal moves.
inline MoveList legal_moves(const Position& pos) {
  MoveList list;
  generate(pos, GenType::kLegal, list);
  return list;
}

}  // namespace engine
