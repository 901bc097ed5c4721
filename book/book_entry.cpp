// BookEntry: packing positions and combining the moves of one book position.
#include "book/book_entry.h"

#include <algorithm>
#include <limits>

namespace book {

namespace {

uint32_t saturating_add(uint32_t a, uint32_t b) {
  const uint32_t sum = a + b;
  return sum < a ? std::numeric_limits<uint32_t>::max() : sum;
}

}  // namespace

PackedPosition PackedPosition::from(const engine::Position& pos) {
  PackedPosition packed;
  for (engine::Square s = 0; s < engine::kSquareNb; ++s) packed.board[s] = uint8_t(pos.piece_on(s));
  packed.hands[engine::kBlack] = pos.hand(engine::kBlack).raw();
  packed.hands[engine::kWhite] = pos.hand(engine::kWhite).raw();
  packed.side_to_move = uint8_t(pos.side_to_move());
  return packed;
}

engine::PositionSetup PackedPosition::setup() const {
  engine::PositionSetup setup;
  for (engine::Square s = 0; s < engine::kSquareNb; ++s) setup.board[s] = engine::Piece(board[s]);
  setup.hands[engine::kBlack] = engine::Hand(hands[engine::kBlack]);
  setup.hands[engine::kWhite] = engine::Hand(hands[engine::kWhite]);
  setup.side_to_move = engine::Color(side_to_move);
  setup.game_ply = 1;
  return setup;
}

void BookEntry::merge_move(const BookMove& m) {
  for (BookMove& existing : moves) {
    if (existing.move != m.move) continue;
    if (existing.move.piece_after() == engine::kNoPiece) existing.move = m.move;
    existing.count = saturating_add(existing.count, m.count);
    existing.wins = saturating_add(existing.wins, m.wins);
    existing.losses = saturating_add(existing.losses, m.losses);
    // The deeper value wins; at equal depth the incoming one (the newer search).
    if (m.has_value() && (!existing.has_value() || m.depth >= existing.depth)) {
      existing.value = m.value;
      existing.depth = m.depth;
    }
    existing.sources = uint8_t(existing.sources | m.sources);
    return;
  }
  moves.push_back(m);
}

void BookEntry::sort_moves() {
  std::stable_sort(moves.begin(), moves.end(), [](const BookMove& a, const BookMove& b) {
    if (a.count != b.count) return a.count > b.count;
    return a.value > b.value;
  });
}

}  // namespace book
