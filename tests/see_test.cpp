// Static exchange evaluation: see_ge's early answers agree with the whole swap list.
#include "engine/see.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "shogi/movegen.h"
#include "shogi/notation.h"
#include "shogi/position.h"

namespace see_test {

using namespace engine;

namespace {

// The exchange's value by the plain swap algorithm: every capture of the sequence is
// listed (least valuable attacker first, the king last), then the list is folded back
// with each side free to stop. The rules are see_ge's own, written out the long way.
Value swap_list_value(const Position& pos, Move m) {
  const Square to = m.to();
  Bitboard occupied = pos.pieces();
  Value gain[40];
  int d = 0;
  PieceType on_square;
  if (m.is_drop()) {
    gain[0] = 0;
    on_square = m.dropped_type();
    occupied.set(to);
  } else {
    const PieceType mover = type_of(pos.piece_on(m.from()));
    gain[0] = capture_gain(type_of(pos.piece_on(to)));
    if (m.is_promotion()) gain[0] += exchange_value(promote(mover)) - exchange_value(mover);
    on_square = type_of(m.piece_after());
    occupied.clear(m.from());
  }
  Color side = ~pos.side_to_move();
  while (d < 38) {
    const Bitboard attackers = pos.attackers_to(side, to, occupied) & occupied;
    if (attackers.none()) break;
    Square from = kSquareNone;
    for (Square s : attackers)
      if (from == kSquareNone ||
          exchange_value(type_of(pos.piece_on(s))) < exchange_value(type_of(pos.piece_on(from))))
        from = s;
    const PieceType type = type_of(pos.piece_on(from));
    if (type == kKing && (pos.attackers_to(~side, to, occupied ^ square_bb(from)) & occupied).any())
      break;
    ++d;
    PieceType after = type;
    Value bonus = 0;
    if (can_promote(type) && (in_promotion_zone(side, to) || in_promotion_zone(side, from))) {
      after = promote(type);
      bonus = exchange_value(after) - exchange_value(type);
    }
    gain[d] = capture_gain(on_square) + bonus - gain[d - 1];
    on_square = after;
    occupied.clear(from);
    side = ~side;
  }
  for (; d > 0; --d) gain[d - 1] = std::min(gain[d - 1], -gain[d]);
  return gain[0];
}

}  // namespace

TEST_CASE("see_ge answers as the whole swap list does, at every threshold around the value") {
  std::ifstream in(std::string(SASHITE_TEST_DATA_DIR) + "/record_positions.sfen");
  REQUIRE(in);
  std::string sfen;
  int positions = 0, moves = 0, exchanges = 0;
  while (std::getline(in, sfen)) {
    if (sfen.empty()) continue;
    Position pos;
    REQUIRE(pos.set_sfen(sfen).is_ok());
    if (++positions % 3 != 0) continue;  // a third of the 2,931 positions is plenty
    MoveList list;
    generate(pos, pos.in_check() ? GenType::kEvasions : GenType::kCapturesPromotions, list);
    if (!pos.in_check()) generate(pos, GenType::kQuiets, list);
    for (Move m : list) {
      const Value value = swap_list_value(pos, m);
      ++moves;
      if (pos.is_capture(m) && (pos.attackers_to(~pos.side_to_move(), m.to())).any()) ++exchanges;
      for (Value threshold : {value - 1, value, value + 1, Value(0), Value(-90), Value(90)}) {
        CAPTURE(sfen);
        const std::string usi = format_usi_move(m);
        CAPTURE(usi);
        CAPTURE(threshold);
        REQUIRE(see_ge(pos, m, threshold) == (value >= threshold));
      }
    }
  }
  MESSAGE(moves << " moves, " << exchanges << " contested captures");
  CHECK(moves > 50000);
  CHECK(exchanges > 1000);
}

}  // namespace see_test
