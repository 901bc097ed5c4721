// Move generation: legal moves, and the partial pseudo-legal generators search needs.
#pragma once

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "shogi/position.h"
#include "shogi/types.h"

namespace shogi {

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

// A fixed-capacity list; 593 is the most legal moves any shogi position has. Its storage is
// left uninitialised: zeroing 600 moves at every generation took several per cent of the
// search's time. Only the first size() moves are ever read.
struct MoveList {
  static constexpr int kCapacity = 600;
  int count = 0;

  MoveList() {}
  MoveList(const MoveList& other) : count(other.count) { copy_from(other); }
  MoveList& operator=(const MoveList& other) {
    count = other.count;
    copy_from(other);
    return *this;
  }

  void push(Move m) { data()[count++] = m; }
  int size() const { return count; }
  bool empty() const { return count == 0; }
  void clear() { count = 0; }
  Move* begin() { return data(); }
  Move* end() { return data() + count; }
  const Move* begin() const { return data(); }
  const Move* end() const { return data() + count; }
  Move operator[](int i) const { return data()[i]; }
  Move& operator[](int i) { return data()[i]; }
  bool contains(Move m) const {
    for (Move x : *this)
      if (x == m) return true;
    return false;
  }

 private:
  // Move is trivially copyable, so the byte array provides its objects (implicit lifetime).
  Move* data() { return reinterpret_cast<Move*>(storage_); }
  const Move* data() const { return reinterpret_cast<const Move*>(storage_); }
  void copy_from(const MoveList& other) {
    std::memcpy(storage_, other.storage_, size_t(count) * sizeof(Move));
  }
  alignas(Move) std::byte storage_[kCapacity * sizeof(Move)];
};
static_assert(std::is_trivially_copyable_v<Move>);

// Appends the moves of the given kind to `list`.
void generate(const Position& pos, GenType type, MoveList& list);

// Convenience: the legal moves.
inline MoveList legal_moves(const Position& pos) {
  MoveList list;
  generate(pos, GenType::kLegal, list);
  return list;
}

}  // namespace shogi
