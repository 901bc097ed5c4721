// Static exchange evaluation by the swap algorithm.
#include "engine/see.h"

#include "engine/names.h"

namespace engine {

Value exchange_value(PieceType t) {
  static constexpr Value kValues[kPieceTypeNb] = {
      0,                     // none
      90,                    // pawn
      315,                   // lance
      405,                   // knight
      495,                   // silver
      855,                   // bishop
      990,                   // rook
      540,                   // gold
      15000,                 // king
      540,   540, 540, 540,  // promoted pawn, lance, knight, silver
      945,                   // horse
      1395,                  // dragon
  };
  return kValues[t];
}

namespace {

// The least valuable attacker among `attackers`; kNoPieceType if none.
Square least_valuable(const Position& pos, Bitboard attackers, PieceType& type) {
  Square best = kSquareNone;
  Value best_value = 1 << 30;
  for (Square s : attackers) {
    const Value v = exchange_value(type_of(pos.piece_on(s)));
    if (v < best_value) {
      best_value = v;
      best = s;
    }
  }
  type = best == kSquareNone ? kNoPieceType : type_of(pos.piece_on(best));
  return best;
}

}  // namespace

bool see_ge(const Position& pos, Move m, Value threshold) {
  // With g[d] the material balance of the side making capture d if the exchange stopped
  // right after it (capture 0 is m), and each side free to stop, the outcome for us is
  //   min(g[0], max(-g[1], min(g[2], max(-g[3], ...)))),
  // the innermost term being the last capture's own balance. So it reaches `threshold`
  // exactly when g[0] does and then either -g[1] does or g[2] does and then either -g[3]
  // does or ...: each capture settles the answer or passes it on, and the exchange is
  // followed only until it is settled.
  const Square to = m.to();
  const Color us = pos.side_to_move();
  Bitboard occupied = pos.pieces();
  Value balance;        // g[d] of the last capture d
  PieceType on_square;  // what stands on `to` after the move, to be captured next
  if (m.is_drop()) {
    balance = 0;
    on_square = m.dropped_type();
    occupied.set(to);
  } else {
    const PieceType captured = type_of(pos.piece_on(to));
    const PieceType mover = type_of(pos.piece_on(m.from()));
    balance = capture_gain(captured);
    if (m.is_promotion()) balance += exchange_value(promote(mover)) - exchange_value(mover);
    on_square = type_of(m.piece_after());
    occupied.clear(m.from());
  }
  if (balance < threshold) return false;
  Color side = ~us;
  int d = 0;
  while (d < 38) {
    const Bitboard attackers = pos.attackers_to(side, to, occupied) & occupied;
    if (attackers.none()) break;
    PieceType type;
    const Square from = least_valuable(pos, attackers, type);
    // The king may recapture only when the other side has nothing left to recapture with.
    if (type == kKing && (pos.attackers_to(~side, to, occupied ^ square_bb(from)) & occupied).any())
      break;
    ++d;
    Value promotion_bonus = 0;
    PieceType after = type;
    if (can_promote(type) && (in_promotion_zone(side, to) || in_promotion_zone(side, from))) {
      after = promote(type);
      promotion_bonus = exchange_value(after) - exchange_value(type);
    }
    balance = capture_gain(on_square) + promotion_bonus - balance;
    if (d % 2 == 1 ? -balance >= threshold : balance < threshold) return d % 2 == 1;
    on_square = after;
    occupied.clear(from);
    side = ~side;
  }
  // Unsettled: the last capture's balance decides, and it was checked against the
  // threshold above (passed by an even capture, failed by an odd one).
  return d % 2 == 0;
}

}  // namespace engine
