// Prng: the small deterministic random generator the tests share (splitmix64).
#pragma once

#include <cstdint>

namespace test {

// The same sequence on every platform, so that random playouts are reproducible.
class Prng {
 public:
  explicit Prng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n). REQUIRES: n > 0.
  int below(int n) { return int(next() % uint64_t(n)); }

 private:
  uint64_t state_;
};

}  // namespace test
