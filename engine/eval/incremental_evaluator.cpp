// The search's evaluation with the board's placement sums updated move by move.
#include "engine/eval/incremental_evaluator.h"

#include <algorithm>

#include "engine/eval/feature_visitor.h"
#include "engine/names.h"

namespace engine::eval {

namespace {

// A move that changes king-relative features of every piece of a side.
bool moves_or_takes_king(const StateInfo& state) {
  const Move m = state.move;
  if (m == kMoveNull || m.is_drop()) return false;
  return type_of(m.piece_after()) == kKing ||
         (state.captured != kNoPiece && type_of(state.captured) == kKing);
}

}  // namespace

IncrementalEvaluator::IncrementalEvaluator() { reset(); }

void IncrementalEvaluator::reset() {
  for (Entry& e : entries_) e.valid = false;
  weights_ = nullptr;
}

Value IncrementalEvaluator::evaluate(const Position& pos, const Weights& w) {
  if (&w != weights_) {
    reset();
    weights_ = &w;
    for (int i = 0; i < kPhaseSize; ++i) {
      phase_pairs_[2 * i] = w.units()[kOpeningOffset + i];
      phase_pairs_[2 * i + 1] = w.units()[kEndgameOffset + i];
    }
    for (int t = kPawn; t <= kGold; ++t) {
      int32_t sum = 0;
      for (int n = 0; n <= kHandCountNb; ++n) {
        hand_sums_[t - 1][n] = sum;
        if (n < kHandCountNb) sum += w.units()[detail::hand_feature(PieceType(t), n)];
      }
    }
  }
  const Board& placed = board(pos);
  ValueSums sums = placed.sums;
  int progress_points = placed.progress_points;
  for (Color c : {kBlack, kWhite}) {
    const Hand hand = pos.hand(c);
    progress_points += detail::hand_progress_points(hand);
    int32_t held = 0;
    for (int t = kPawn; t <= kGold; ++t) held += hand_sums_[t - 1][hand.count(PieceType(t))];
    sums.base += c == kBlack ? held : -held;
  }
  PairSink sink{w.units(), phase_pairs_.data(), sums};
  detail::visit_relations(pos, sink);
  return value_of(sums, progress_points, pos.side_to_move());
}

const IncrementalEvaluator::Board& IncrementalEvaluator::board(const Position& pos) {
  const int ply = pos.plies_played();
  Entry& entry = entries_[ply % kEntryNb];
  if (entry.valid && entry.key == pos.key()) return entry.board;

  // The nearest evaluated ancestor reachable without a king move.
  int found = 0;
  const int limit = std::min(ply, kMaxChain);
  for (int back = 1; back <= limit; ++back) {
    if (moves_or_takes_king(pos.state_before(back - 1))) break;
    const Entry& e = entries_[(ply - back) % kEntryNb];
    if (e.valid && e.key == pos.state_before(back).key()) {
      found = back;
      break;
    }
  }
  if (found == 0) {
    ValueSums sums;
    PairSink sink{weights_->units(), phase_pairs_.data(), sums};
    entry.board.progress_points = detail::visit_board(pos, sink);
    entry.board.sums = sums;
  } else {
    Board board = entries_[(ply - found) % kEntryNb].board;
    for (int back = found - 1; back >= 0; --back) {
      // The position `back` plies ago has the mover of its move not to move.
      const Color mover = (back % 2 == 0) ? ~pos.side_to_move() : pos.side_to_move();
      apply(pos, pos.state_before(back), mover, board);
      Entry& e = entries_[(ply - back) % kEntryNb];
      e.key = pos.state_before(back).key();
      e.valid = true;
      e.board = board;
    }
  }
  entry.key = pos.key();
  entry.valid = true;
  return entry.board;
}

void IncrementalEvaluator::apply(const Position& pos, const StateInfo& state, Color mover,
                                 Board& board) const {
  const Move m = state.move;
  if (m == kMoveNull) return;
  const int sign = mover == kBlack ? 1 : -1;
  const Square own_king = pos.king_square(mover), enemy_king = pos.king_square(~mover);
  const Square to = m.to();
  const PieceType after = type_of(m.piece_after());
  // Summed in a local (which nothing else can point to) and added at the end.
  ValueSums delta;
  PairSink sink{weights_->units(), phase_pairs_.data(), delta};
  if (!m.is_drop()) {
    const PieceType before = m.is_promotion() ? unpromote(after) : after;
    const Square from = m.from();
    detail::visit_piece(sink, mover, before, from, own_king, enemy_king, -sign);
    board.progress_points -= detail::kProgressPoints[mover][from];
    if (state.captured != kNoPiece) {
      detail::visit_piece(sink, ~mover, type_of(state.captured), to, enemy_king, own_king, sign);
      board.progress_points -= detail::kProgressPoints[~mover][to];
    }
  }
  detail::visit_piece(sink, mover, after, to, own_king, enemy_king, sign);
  board.progress_points += detail::kProgressPoints[mover][to];
  board.sums.base += delta.base;
  board.sums.opening += delta.opening;
  board.sums.endgame += delta.endgame;
}

}  // namespace engine::eval
