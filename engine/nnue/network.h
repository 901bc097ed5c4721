// The NNUE network: quantised weights, their file, and the forward pass from accumulators.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "engine/names.h"
#include "engine/nnue/features.h"
#include "shogi/types.h"

namespace engine::nnue {

// Layers (the classic 256x2-32-32-1 shape over features.h's inputs):
//   accumulator[p] = ft_bias + sum of ft_weight rows of p's active features   (int16 x 256)
//   x  = clamp(accumulator[side to move], 0, 127) ++ clamp(accumulator[other], 0, 127)  (512)
//   h1 = clamp((l1_bias + l1_weight . x) >> 6, 0, 127)                         (32)
//   h2 = clamp((l2_bias + l2_weight . h1) >> 6, 0, 127)                        (32)
//   out = out_bias + out_weight . h2;  value = out * kValueScale / (127 * 64)  (centipawns)
// In the float model the trainer fits, every clamp is to [0, 1] and a weight w is stored as
// round(w * 127) (ft), round(w * 64) (the others, int8); biases as round(b * 127) (ft) and
// round(b * 127 * 64) (the others, int32).
constexpr int kHidden = 256;
constexpr int kL1In = 2 * kHidden;
constexpr int kL1Out = 32;
constexpr int kL2Out = 32;
constexpr int kValueScale = 600;
constexpr int kWeightShift = 6;  // the int8 layers' weights are w * 64
constexpr int kActivationOne = 127;

// File (little-endian), version 1:
//   0  16  magic "SASHITE-NNUE\0\0\0\0"
//  16   4  version, 1
//  20   4  features (kFeatureNb), 24 hidden (kHidden), 28 l1 out (kL1Out), 32 l2 out (kL2Out)
//  36   4  value scale (kValueScale)
//  40   4  FNV-1a 32 of every byte after the header
//  44  20  zero
//  then ft_bias int16[kHidden], ft_weight int16[kFeatureNb][kHidden],
//       l1_bias int32[kL1Out], l1_weight int8[kL1Out][kL1In],
//       l2_bias int32[kL2Out], l2_weight int8[kL2Out][kL1Out],
//       out_bias int32, out_weight int8[kL2Out]
constexpr size_t kNetworkHeaderSize = 64;

struct Network {
  std::vector<int16_t> ft_bias = std::vector<int16_t>(kHidden);
  std::vector<int16_t> ft_weight = std::vector<int16_t>(size_t(kFeatureNb) * kHidden);
  std::array<int32_t, kL1Out> l1_bias{};
  std::vector<int8_t> l1_weight = std::vector<int8_t>(size_t(kL1Out) * kL1In);
  std::array<int32_t, kL2Out> l2_bias{};
  std::vector<int8_t> l2_weight = std::vector<int8_t>(size_t(kL2Out) * kL1Out);
  int32_t out_bias = 0;
  std::array<int8_t, kL2Out> out_weight{};

  const int16_t* ft_row(int feature) const { return ft_weight.data() + size_t(feature) * kHidden; }

  // The file's bytes, and a network read from them. Errors name the path and what is wrong
  // (magic, version, shape, size, checksum).
  std::string file_bytes() const;
  Status load(const std::string& path);
  Status parse(const std::string& bytes, const std::string& name);
  Status save(const std::string& path) const;

  // The value in centipawns for the side whose accumulator is `own`, clamped inside the
  // mate bounds. Integer arithmetic: the same on every CPU and with or without AVX2.
  Value propagate(const int16_t* own, const int16_t* other) const;
};

// Whether the forward pass and the accumulator use AVX2 (chosen at start-up from the CPU);
// set_simd(false) forces the plain code (for tests and comparisons). Returns the name used.
const char* simd_name();
void set_simd(bool allowed);

// Accumulator arithmetic over kHidden int16 lanes, AVX2 where allowed.
void add_row(int16_t* acc, const int16_t* row);
void sub_row(int16_t* acc, const int16_t* row);

}  // namespace engine::nnue
