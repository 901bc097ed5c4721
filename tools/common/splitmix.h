// SplitMix64: the small random generator the tools share, the same stream on every platform.
#pragma once

#include <cstdint>

namespace tools {

// The finalizer of splitmix64: a 64-bit value mixed into another.
inline uint64_t splitmix64_mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The generator: a state advanced by the golden-ratio step, each value mixed.
struct SplitMix64 {
  uint64_t state;
  uint64_t next() { return splitmix64_mix(state += 0x9E3779B97F4A7C15ull); }
  // Uniform in [0, 1), 53 bits.
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }
  // In [0, n). REQUIRES: n > 0.
  uint64_t below(uint64_t n) { return next() % n; }
};

}  // namespace tools
