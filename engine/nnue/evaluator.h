// The search's NNUE evaluation: accumulators kept per ply and updated move by move.
#pragma once

#include <array>
#include <cstdint>

#include "engine/names.h"
#include "engine/nnue/network.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace engine::nnue {

// The value of pos for the side to move with every accumulator computed from scratch.
Value evaluate(const Position& pos, const Network& net);
// The accumulator of one perspective from scratch.
void refresh_accumulator(const Position& pos, Color perspective, const Network& net, int16_t* out);

// Gives exactly evaluate(pos, net), faster inside a search. Each perspective's accumulator
// is kept per ply; when one of the last kMaxChain positions of pos's history has it and that
// side's king frame (features.h) is the same, it is updated with the moves made since (a few
// rows each) instead of adding every piece's row again. Entries are matched by the
// position's key at its ply, so any sequence of do/undo moves between calls is safe.
// One per search thread; not thread-safe.
class Evaluator {
 public:
  Evaluator() { reset(); }
  // Forgets every saved accumulator.
  void reset();
  // evaluate(pos, net). Switching to another Network object resets.
  Value evaluate(const Position& pos, const Network& net);

 private:
  struct Entry {
    uint64_t key = 0;
    bool valid[kColorNb] = {false, false};
    alignas(32) int16_t acc[kColorNb][kHidden];
  };
  static constexpr int kEntryNb = 256;  // by plies_played() modulo kEntryNb
  static constexpr int kMaxChain = 8;

  // The entry of pos with its perspective's accumulator filled in.
  void update(const Position& pos, Color perspective);

  std::array<Entry, kEntryNb> entries_;
  const Network* net_ = nullptr;
};

}  // namespace engine::nnue
