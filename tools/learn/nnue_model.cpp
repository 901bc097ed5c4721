// The NNUE trainer's float model: initialisation, forward, backward, quantisation.
#include "tools/learn/nnue_model.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace tools {

namespace {

using engine::nnue::kActivationOne;
using engine::nnue::kFeatureNb;

constexpr float kWeightOne = float(1 << engine::nnue::kWeightShift);  // 64
// Half a unit of the int8 layers' shift (>> 6 truncates): added to their biases on export,
// so that the integer layers round rather than floor.
constexpr int32_t kShiftRounding = 1 << (engine::nnue::kWeightShift - 1);

inline float clamp01(float v) { return std::clamp(v, 0.0f, 1.0f); }
inline float clamp_gradient(float z) { return z > 0.0f && z < 1.0f ? 1.0f : 0.0f; }

template <typename T>
T rounded(double v, double lo, double hi) {
  return T(std::llround(std::clamp(v, lo, hi)));
}

// out[o] += sum over i of w[i][o] * in[i], the inputs that are not 0 only.
template <int In, int Out>
void dense_forward(const float* w, const float* in, float* out) {
  for (int i = 0; i < In; ++i) {
    const float x = in[i];
    if (x == 0.0f) continue;
    const float* row = w + size_t(i) * Out;
    for (int o = 0; o < Out; ++o) out[o] += row[o] * x;
  }
}

// grad_w[i][o] += dz[o] * in[i]; d_in[i] = sum over o of w[i][o] * dz[o].
template <int In, int Out>
void dense_backward(const float* w, const float* in, const float* dz, float* grad_w, float* d_in) {
  for (int i = 0; i < In; ++i) {
    const float* row = w + size_t(i) * Out;
    float partial[8] = {};
    for (int o = 0; o < Out; o += 8)
      for (int k = 0; k < 8; ++k) partial[k] += row[o + k] * dz[o + k];
    float sum = 0;
    for (float p : partial) sum += p;
    d_in[i] = sum;
    const float x = in[i];
    if (x == 0.0f) continue;
    float* grow = grad_w + size_t(i) * Out;
    for (int o = 0; o < Out; ++o) grow[o] += dz[o] * x;
  }
}

}  // namespace

void NnueModel::initialise(uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto fill = [&](size_t at, size_t n, float range) {
    std::uniform_real_distribution<float> dist(-range, range);
    for (size_t i = 0; i < n; ++i) params[at + i] = dist(rng);
  };
  // 40 active rows of +-0.05: accumulators about 0.5 +- 0.2, inside the clamp. The virtual
  // rows start at 0.
  fill(kFtWeight, size_t(kFeatureNb) * kHidden, 0.05f);
  std::fill(params.begin() + kFtWeight + size_t(kFeatureNb) * kHidden, params.begin() + kFtBias,
            0.0f);
  std::fill_n(params.begin() + kFtBias, kHidden, 0.5f);
  fill(kL1Weight, size_t(kL1Out) * kL1In, 1.0f / std::sqrt(float(kL1In)));
  std::fill_n(params.begin() + kL1Bias, kL1Out, 0.5f);
  fill(kL2Weight, size_t(kL2Out) * kL1Out, 1.0f / std::sqrt(float(kL1Out)));
  std::fill_n(params.begin() + kL2Bias, kL2Out, 0.5f);
  fill(kOutWeight, kL2Out, 1.0f / std::sqrt(float(kL2Out)));
  params[kOutBias] = 0.0f;
}

float NnueModel::limit(size_t index) {
  if (index < kL1Weight) return kFtWeightMax;  // rows and the bias
  if (index < kL1Bias) return kInt8WeightMax;
  if (index >= kL2Weight && index < kL2Bias) return kInt8WeightMax;
  if (index >= kOutWeight && index < kOutBias) return kInt8WeightMax;
  return 0.0f;
}

engine::nnue::Network NnueModel::quantised() const {
  engine::nnue::Network net;
  const double one = kActivationOne;
  for (int f = 0; f < kFeatureNb; ++f) {
    const float* own = params.data() + kFtWeight + size_t(f) * kHidden;
    const float* shared = params.data() + kFtWeight + size_t(shared_row(f)) * kHidden;
    const float* piece =
        piece_row(f) < 0 ? nullptr : params.data() + kFtWeight + size_t(piece_row(f)) * kHidden;
    int16_t* out = net.ft_weight.data() + size_t(f) * kHidden;
    for (int j = 0; j < kHidden; ++j)
      out[j] =
          rounded<int16_t>((own[j] + shared[j] + (piece ? piece[j] : 0.0f)) * one, -32767, 32767);
  }
  for (int i = 0; i < kHidden; ++i)
    net.ft_bias[i] = rounded<int16_t>(params[kFtBias + i] * one, -32767, 32767);
  for (int o = 0; o < kL1Out; ++o) {
    for (int i = 0; i < kL1In; ++i)
      net.l1_weight[size_t(o) * kL1In + i] =
          rounded<int8_t>(params[kL1Weight + size_t(i) * kL1Out + o] * kWeightOne, -127, 127);
    net.l1_bias[o] =
        rounded<int32_t>(params[kL1Bias + o] * one * kWeightOne, -1e9, 1e9) + kShiftRounding;
  }
  for (int o = 0; o < kL2Out; ++o) {
    for (int i = 0; i < kL1Out; ++i)
      net.l2_weight[size_t(o) * kL1Out + i] =
          rounded<int8_t>(params[kL2Weight + size_t(i) * kL2Out + o] * kWeightOne, -127, 127);
    net.l2_bias[o] =
        rounded<int32_t>(params[kL2Bias + o] * one * kWeightOne, -1e9, 1e9) + kShiftRounding;
  }
  for (int i = 0; i < kL2Out; ++i)
    net.out_weight[i] = rounded<int8_t>(params[kOutWeight + i] * kWeightOne, -127, 127);
  net.out_bias = rounded<int32_t>(params[kOutBias] * one * kWeightOne, -1e9, 1e9);
  return net;
}

void NnueModel::from_network(const engine::nnue::Network& net) {
  const double one = kActivationOne;
  std::fill(params.begin(), params.end(), 0.0f);
  for (size_t i = 0; i < size_t(kFeatureNb) * kHidden; ++i)
    params[kFtWeight + i] = float(net.ft_weight[i] / one);
  for (int i = 0; i < kHidden; ++i) params[kFtBias + i] = float(net.ft_bias[i] / one);
  for (int o = 0; o < kL1Out; ++o) {
    for (int i = 0; i < kL1In; ++i)
      params[kL1Weight + size_t(i) * kL1Out + o] =
          net.l1_weight[size_t(o) * kL1In + i] / kWeightOne;
    params[kL1Bias + o] = float((net.l1_bias[o] - kShiftRounding) / (one * kWeightOne));
  }
  for (int o = 0; o < kL2Out; ++o) {
    for (int i = 0; i < kL1Out; ++i)
      params[kL2Weight + size_t(i) * kL2Out + o] =
          net.l2_weight[size_t(o) * kL1Out + i] / kWeightOne;
    params[kL2Bias + o] = float((net.l2_bias[o] - kShiftRounding) / (one * kWeightOne));
  }
  for (int i = 0; i < kL2Out; ++i) params[kOutWeight + i] = net.out_weight[i] / kWeightOne;
  params[kOutBias] = float(net.out_bias / (one * kWeightOne));
}

NnueSample nnue_sample_of(const shogi::Position& pos) {
  NnueSample sample;
  engine::nnue::active_features(pos, pos.side_to_move(), sample.own);
  engine::nnue::active_features(pos, ~pos.side_to_move(), sample.other);
  return sample;
}

float nnue_forward(const NnueModel& model, const NnueSample& sample, NnueActivations& a) {
  const float* p = model.params.data();
  constexpr int H = NnueModel::kHidden;
  const engine::nnue::FeatureList* lists[2] = {&sample.own, &sample.other};
  for (int side = 0; side < 2; ++side) {
    float* acc = a.acc[side];
    std::copy_n(p + NnueModel::kFtBias, H, acc);
    const engine::nnue::FeatureList& list = *lists[side];
    for (int k = 0; k < list.size; ++k) {
      const int f = list.index[k];
      const float* row = p + NnueModel::kFtWeight + size_t(f) * H;
      const float* shared = p + NnueModel::kFtWeight + size_t(NnueModel::shared_row(f)) * H;
      for (int j = 0; j < H; ++j) acc[j] += row[j] + shared[j];
      if (const int piece = NnueModel::piece_row(f); piece >= 0) {
        const float* prow = p + NnueModel::kFtWeight + size_t(piece) * H;
        for (int j = 0; j < H; ++j) acc[j] += prow[j];
      }
    }
    for (int j = 0; j < H; ++j) a.x[side * H + j] = clamp01(acc[j]);
  }
  std::copy_n(p + NnueModel::kL1Bias, NnueModel::kL1Out, a.z1);
  dense_forward<NnueModel::kL1In, NnueModel::kL1Out>(p + NnueModel::kL1Weight, a.x, a.z1);
  for (int o = 0; o < NnueModel::kL1Out; ++o) a.h1[o] = clamp01(a.z1[o]);
  std::copy_n(p + NnueModel::kL2Bias, NnueModel::kL2Out, a.z2);
  dense_forward<NnueModel::kL1Out, NnueModel::kL2Out>(p + NnueModel::kL2Weight, a.h1, a.z2);
  for (int o = 0; o < NnueModel::kL2Out; ++o) a.h2[o] = clamp01(a.z2[o]);
  float y = p[NnueModel::kOutBias];
  for (int i = 0; i < NnueModel::kL2Out; ++i) y += p[NnueModel::kOutWeight + i] * a.h2[i];
  a.y = y;
  return y;
}

void nnue_backward(const NnueModel& model, const NnueSample& sample, const NnueActivations& a,
                   float dy, std::vector<float>& grad, std::vector<int>& touched_rows) {
  const float* p = model.params.data();
  float* g = grad.data();
  constexpr int H = NnueModel::kHidden;
  float dz2[NnueModel::kL2Out];
  g[NnueModel::kOutBias] += dy;
  for (int i = 0; i < NnueModel::kL2Out; ++i) {
    g[NnueModel::kOutWeight + i] += dy * a.h2[i];
    dz2[i] = dy * p[NnueModel::kOutWeight + i] * clamp_gradient(a.z2[i]);
    g[NnueModel::kL2Bias + i] += dz2[i];
  }
  float dh1[NnueModel::kL1Out];
  dense_backward<NnueModel::kL1Out, NnueModel::kL2Out>(p + NnueModel::kL2Weight, a.h1, dz2,
                                                       g + NnueModel::kL2Weight, dh1);
  float dz1[NnueModel::kL1Out];
  for (int o = 0; o < NnueModel::kL1Out; ++o) {
    dz1[o] = dh1[o] * clamp_gradient(a.z1[o]);
    g[NnueModel::kL1Bias + o] += dz1[o];
  }
  float dx[NnueModel::kL1In];
  dense_backward<NnueModel::kL1In, NnueModel::kL1Out>(p + NnueModel::kL1Weight, a.x, dz1,
                                                      g + NnueModel::kL1Weight, dx);
  const engine::nnue::FeatureList* lists[2] = {&sample.own, &sample.other};
  for (int side = 0; side < 2; ++side) {
    float dacc[H];
    bool any = false;
    for (int j = 0; j < H; ++j) {
      dacc[j] = dx[side * H + j] * clamp_gradient(a.acc[side][j]);
      any |= dacc[j] != 0.0f;
    }
    if (!any) continue;
    for (int j = 0; j < H; ++j) g[NnueModel::kFtBias + j] += dacc[j];
    const engine::nnue::FeatureList& list = *lists[side];
    for (int k = 0; k < list.size; ++k) {
      const int f = list.index[k];
      for (const int row : {f, NnueModel::shared_row(f), NnueModel::piece_row(f)}) {
        if (row < 0) continue;
        float* grow = g + NnueModel::kFtWeight + size_t(row) * H;
        for (int j = 0; j < H; ++j) grow[j] += dacc[j];
        touched_rows.push_back(row);
      }
    }
  }
}

}  // namespace tools
