// Scrambled weights: a weight set where every weight differs, for the evaluation's tests.
#pragma once

#include <cstdint>
#include <random>

#include "engine/eval/weights.h"

namespace test {

// The hand-set weights plus a seeded uniform offset in [-50, 50) cp on every weight, so
// that a symmetry or update test sees every table (none left at 0 or equal to another).
inline engine::eval::Weights scrambled_weights(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(-50, 50);
  engine::eval::Weights w = engine::eval::Weights::hand_set();
  for (int i = 0; i < engine::eval::Weights::size(); ++i) w.set(i, w.get(i) + dist(rng));
  return w;
}

}  // namespace test
