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

PackedPosition PackedPosition::from(const shogi::Position& pos) {
  PackedPosition packed;
  for (shogi::Square s = 0; s < shogi::kSquareNb; ++s) packed.board[s] = uint8_t(pos.piece_on(s));
  packed.hands[shogi::kBlack] = pos.hand(shogi::kBlack).raw();
  packed.hands[shogi::kWhite] = pos.hand(shogi::kWhite).raw();
  packed.side_to_move = uint8_t(pos.side_to_move());
  return packed;
}

shogi::PositionSetup PackedPosition::setup() const {
  shogi::PositionSetup setup;
  for (shogi::Square s = 0; s < shogi::kSquareNb; ++s) setup.board[s] = shogi::Piece(board[s]);
  setup.hands[shogi::kBlack] = shogi::Hand(hands[shogi::kBlack]);
  setup.hands[shogi::kWhite] = shogi::Hand(hands[shogi::kWhite]);
  setup.side_to_move = shogi::Color(side_to_move);
  setup.game_ply = 1;
  return setup;
}

void BookEntry::merge_move(const BookMove& m) {
  for (BookMove& existing : moves) {
    if (existing.move != m.move) continue;
    if (existing.move.piece_after() == shogi::kNoPiece) existing.move = m.move;
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
