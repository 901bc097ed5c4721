// EvalNoise: small random numbers added to the static evaluation, so that copies of one engine
// with different seeds play as different players (the voters of a council of engines).
#pragma once

#include <cstdint>

#include "engine/names.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace engine {

// The noise of the consultation algorithm (Obata, Sugiyama, Hoki and Ito, "Consultation
// Algorithm for Computer Shogi: Move Decisions by Majority", CG 2010): each static evaluation
// gets an integer in [-amplitude_cp, amplitude_cp] added. The integer is a pure function of the
// seed and the position's key without its side-to-move bit, and counts for Black: the same
// position gets the same noise wherever and whenever the search meets it (the transposition
// table's stored evaluations stay valid), both sides to move see the same value of it (one
// the other's negation), and the same seed gives the same search after a new game.
// A plain value type; thread-safe to read.
struct EvalNoise {
  static constexpr int kMaxAmplitudeCp = 500;  // the EvalNoise option's maximum

  int amplitude_cp = 0;  // Default: 0 (off: the evaluation as it is)
  uint64_t seed = 0;     // Default: 0

  bool on() const { return amplitude_cp > 0; }

  // The noise of the positions whose key (either side to move) is `key`, from Black's view,
  // uniform in [-amplitude_cp, amplitude_cp]. REQUIRES: 0 <= amplitude_cp.
  Value black_view(uint64_t key) const {
    const uint64_t h = mix(mix(seed) ^ (key & ~zobrist::kSide));
    // The top 32 bits scaled onto the 2A + 1 integers: uniform to within 2^-22.
    const uint64_t span = uint64_t(2 * amplitude_cp + 1);
    return Value(int64_t(((h >> 32) * span) >> 32) - amplitude_cp);
  }

  // The noise seen by the side to move of pos: black_view(pos.key()), negated for White.
  Value for_side_to_move(const Position& pos) const {
    const Value v = black_view(pos.key());
    return pos.side_to_move() == kBlack ? v : Value(-v);
  }

  bool operator==(const EvalNoise&) const = default;

 private:
  // splitmix64's finaliser: every input bit flips about half the output bits.
  static uint64_t mix(uint64_t z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

}  // namespace engine
