// The NNUE trainer's float model: forward and backward for one position, and its quantised
// image, the engine's network file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "engine/nnue/features.h"
#include "engine/nnue/network.h"

namespace tools {

// The float network of engine/nnue/network.h: every clamp to [0, 1], y = out . h2 + out_bias,
// the value in centipawns 600 * y (kValueScale). Parameters are stored flat, in the order of
// the offsets below, so that the optimiser and the checkpoint treat them as one vector. The
// dense layers' weights are stored input-major ([input][output]: the loops over outputs
// vectorise), the file's are output-major.
//
// The feature transformer is factorised while training: the row of a feature is the sum of
// its own row, the row of the same piece on the same square in no particular king bucket,
// and for a piece on the board the row of its kind and owner anywhere (its material), all
// "virtual" rows shared by many features, so that what they have in common is learned from
// all the data. The file holds the sums.
struct NnueModel {
  static constexpr int kHidden = engine::nnue::kHidden;
  static constexpr int kL1In = engine::nnue::kL1In;
  static constexpr int kL1Out = engine::nnue::kL1Out;
  static constexpr int kL2Out = engine::nnue::kL2Out;
  // Rows: the kFeatureNb real ones, the kBucketFeatureNb shared ones, then one per owner and
  // kind of piece on the board (2 x 14).
  static constexpr int kSharedRow0 = engine::nnue::kFeatureNb;
  static constexpr int kPieceRow0 = kSharedRow0 + engine::nnue::kBucketFeatureNb;
  static constexpr int kRowNb = kPieceRow0 + 2 * 14;
  // Offsets into params.
  static constexpr size_t kFtWeight = 0;  // kRowNb rows of kHidden
  static constexpr size_t kFtBias = kFtWeight + size_t(kRowNb) * kHidden;
  static constexpr size_t kL1Weight = kFtBias + kHidden;
  static constexpr size_t kL1Bias = kL1Weight + size_t(kL1In) * kL1Out;
  static constexpr size_t kL2Weight = kL1Bias + kL1Out;
  static constexpr size_t kL2Bias = kL2Weight + size_t(kL1Out) * kL2Out;
  static constexpr size_t kOutWeight = kL2Bias + kL2Out;
  static constexpr size_t kOutBias = kOutWeight + kL2Out;
  static constexpr size_t kParamNb = kOutBias + 1;
  // What quantisation can hold: the int8 layers' weights stay inside +-127/64, a feature's
  // own and virtual rows inside +-2 each (40 features of three such rows, 6 * 127 each, and a
  // bias fit an int16 accumulator).
  static constexpr float kInt8WeightMax = 127.0f / 64.0f;
  static constexpr float kFtWeightMax = 2.0f;

  // The virtual rows of a feature: the shared one, and the piece one (-1 for a hand piece).
  static constexpr int shared_row(int feature) {
    return kSharedRow0 + feature % engine::nnue::kBucketFeatureNb;
  }
  static constexpr int piece_row(int feature) {
    const int local = feature % engine::nnue::kBucketFeatureNb;
    return local < engine::nnue::kBoardFeatureNb ? kPieceRow0 + local / 81 : -1;
  }

  std::vector<float> params = std::vector<float>(kParamNb);

  // Seeded initial weights: every hidden unit starts inside its linear range.
  void initialise(uint64_t seed);
  // The range a parameter must stay in (what quantisation can hold); 0: none.
  static float limit(size_t index);
  // The quantised network (rounded, clamped to the integer types).
  engine::nnue::Network quantised() const;
  // The float model of a network file (a warm start): each feature's own row holds the
  // file's row, the virtual rows start at 0. quantised() gives back the same network.
  void from_network(const engine::nnue::Network& net);
};

// One position's features: the side to move's and the other side's.
struct NnueSample {
  engine::nnue::FeatureList own, other;
};

// The position's sample: the side to move's features, then the other side's.
NnueSample nnue_sample_of(const shogi::Position& pos);

// The forward pass's intermediate values, kept for the backward pass.
struct NnueActivations {
  float acc[2][NnueModel::kHidden];  // before the clamp: own, other
  float x[NnueModel::kL1In];
  float z1[NnueModel::kL1Out], h1[NnueModel::kL1Out];
  float z2[NnueModel::kL2Out], h2[NnueModel::kL2Out];
  float y = 0;  // the output; centipawns = 600 * y
};

// y for the sample (fills `a`).
float nnue_forward(const NnueModel& model, const NnueSample& sample, NnueActivations& a);

// Adds d(loss)/d(param) to `grad` (a dense vector of kParamNb) given d(loss)/dy, and lists
// the rows (0 .. kRowNb - 1) it touched; a row may repeat.
void nnue_backward(const NnueModel& model, const NnueSample& sample, const NnueActivations& a,
                   float dy, std::vector<float>& grad, std::vector<int>& touched_rows);

}  // namespace tools
