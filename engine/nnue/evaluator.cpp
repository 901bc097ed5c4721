// The NNUE evaluation from scratch and with accumulators updated move by move.
#include "engine/nnue/evaluator.h"

#include <algorithm>
#include <cstring>

#include "engine/names.h"

namespace engine::nnue {

void refresh_accumulator(const Position& pos, Color perspective, const Network& net, int16_t* out) {
  std::memcpy(out, net.ft_bias.data(), sizeof(int16_t) * kHidden);
  FeatureList features;
  active_features(pos, perspective, features);
  for (int i = 0; i < features.size; ++i) add_row(out, net.ft_row(features.index[i]));
}

Value evaluate(const Position& pos, const Network& net) {
  alignas(32) int16_t acc[kColorNb][kHidden];
  const Color us = pos.side_to_move();
  refresh_accumulator(pos, us, net, acc[0]);
  refresh_accumulator(pos, ~us, net, acc[1]);
  return net.propagate(acc[0], acc[1]);
}

void Evaluator::reset() {
  for (Entry& e : entries_) e.valid[kBlack] = e.valid[kWhite] = false;
  net_ = nullptr;
}

Value Evaluator::evaluate(const Position& pos, const Network& net) {
  if (&net != net_) {
    reset();
    net_ = &net;
  }
  const Color us = pos.side_to_move();
  update(pos, us);
  update(pos, ~us);
  const Entry& entry = entries_[pos.plies_played() % kEntryNb];
  return net.propagate(entry.acc[us], entry.acc[~us]);
}

void Evaluator::update(const Position& pos, Color perspective) {
  const int ply = pos.plies_played();
  Entry& entry = entries_[ply % kEntryNb];
  if (entry.key != pos.key()) {
    entry.key = pos.key();
    entry.valid[kBlack] = entry.valid[kWhite] = false;
  }
  if (entry.valid[perspective]) return;

  // Back through the history to the nearest position whose accumulator is kept, with the
  // hands and this side's king as they were, while the king frame stays the same.
  struct Step {
    Color mover = kBlack;
    int hand_before = 0;
  };
  std::array<Step, kMaxChain> steps;
  const KingFrame frame = king_frame(pos, perspective);
  Hand hands[kColorNb] = {pos.hand(kBlack), pos.hand(kWhite)};
  Square king = pos.king_square(perspective);
  int found = 0;
  const int limit = std::min(ply, kMaxChain);
  for (int back = 1; back <= limit; ++back) {
    const StateInfo& state = pos.state_before(back - 1);  // the move from `back` to `back - 1`
    const Color mover = back % 2 == 1 ? ~pos.side_to_move() : pos.side_to_move();
    const Move m = state.move;
    Step& step = steps[back - 1];
    step.mover = mover;
    if (m != kMoveNull) {
      if (m.is_drop()) {
        const PieceType t = type_of(m.piece_after());
        hands[mover].add(t);
        step.hand_before = hands[mover].count(t);
      } else {
        if (state.captured != kNoPiece) {
          const PieceType t = unpromote(type_of(state.captured));
          hands[mover].remove(t);
          step.hand_before = hands[mover].count(t);
        }
        if (mover == perspective && type_of(m.piece_after()) == kKing) king = m.from();
      }
    }
    if (!(king_frame(perspective, king) == frame)) break;
    const Entry& e = entries_[(ply - back) % kEntryNb];
    if (e.valid[perspective] && e.key == pos.state_before(back).key()) {
      found = back;
      break;
    }
  }
  if (found == 0) {
    refresh_accumulator(pos, perspective, *net_, entry.acc[perspective]);
    entry.valid[perspective] = true;
    return;
  }
  alignas(32) int16_t acc[kHidden];
  std::memcpy(acc, entries_[(ply - found) % kEntryNb].acc[perspective], sizeof acc);
  for (int back = found - 1; back >= 0; --back) {
    const StateInfo& state = pos.state_before(back);  // the move from `back + 1` to `back`
    if (state.move != kMoveNull) {
      const FeatureChange change =
          move_features(perspective, frame, state, steps[back].mover, steps[back].hand_before);
      for (int i = 0; i < change.removed_nb; ++i) sub_row(acc, net_->ft_row(change.removed[i]));
      for (int i = 0; i < change.added_nb; ++i) add_row(acc, net_->ft_row(change.added[i]));
    }
    Entry& e = entries_[(ply - back) % kEntryNb];
    const uint64_t key = pos.state_before(back).key();
    if (e.key != key) {
      e.key = key;
      e.valid[kBlack] = e.valid[kWhite] = false;
    }
    std::memcpy(e.acc[perspective], acc, sizeof acc);
    e.valid[perspective] = true;
  }
}

}  // namespace engine::nnue
