// A seeded random NNUE network for the NNUE tests: every layer's activations in range.
#pragma once

#include <cstdint>
#include <random>

#include "engine/nnue/network.h"

namespace test {

// Feature rows in [-24, 24], accumulator biases in [20, 100], int8 layers small enough that
// their sums land inside the clipped range often: the values vary from position to position.
inline engine::nnue::Network random_network(uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto uniform = [&](int lo, int hi) { return lo + int(rng() % uint64_t(hi - lo + 1)); };
  engine::nnue::Network net;
  for (auto& b : net.ft_bias) b = int16_t(uniform(20, 100));
  for (auto& w : net.ft_weight) w = int16_t(uniform(-24, 24));
  for (auto& b : net.l1_bias) b = uniform(-2000, 6000);
  for (auto& w : net.l1_weight) w = int8_t(uniform(-12, 12));
  for (auto& b : net.l2_bias) b = uniform(-2000, 6000);
  for (auto& w : net.l2_weight) w = int8_t(uniform(-40, 40));
  net.out_bias = uniform(-5000, 5000);
  for (auto& w : net.out_weight) w = int8_t(uniform(-127, 127));
  return net;
}

}  // namespace test
