// GPTQ rounding of the NNUE model's int8 layers (Frantar et al., 2022), for one output at a
// time of layers small enough for dense matrices (at most 513 inputs with the bias).
#include "tools/learn/nnue_quantise.h"

#include <algorithm>
#include <cmath>

namespace tools {

namespace {

using Matrix = std::vector<double>;  // d x d, row-major

constexpr double kInt8Unit = double(1 << engine::nnue::kWeightShift);  // 64
constexpr double kInt8Steps = 127;  // int8 weights: -127 .. 127 steps of 1 / 64
// Added to the diagonal, a share of its mean: inputs that are always 0 (or always equal to
// another) leave the second moments singular.
constexpr double kDampening = 0.01;

// The upper triangular U with U^T U = H^-1, H symmetric positive definite: row i of U is how
// the error of input i, once rounded, spreads over the inputs after it.
Matrix inverse_upper_cholesky(const Matrix& h, int d) {
  Matrix l(size_t(d) * d, 0.0);  // L L^T = H
  for (int i = 0; i < d; ++i)
    for (int j = 0; j <= i; ++j) {
      double s = h[size_t(i) * d + j];
      for (int k = 0; k < j; ++k) s -= l[size_t(i) * d + k] * l[size_t(j) * d + k];
      l[size_t(i) * d + j] = i == j ? std::sqrt(std::max(s, 1e-300)) : s / l[size_t(j) * d + j];
    }
  Matrix li(size_t(d) * d, 0.0);  // L^-1, lower triangular
  for (int i = 0; i < d; ++i) {
    li[size_t(i) * d + i] = 1 / l[size_t(i) * d + i];
    for (int j = 0; j < i; ++j) {
      double s = 0;
      for (int k = j; k < i; ++k) s -= l[size_t(i) * d + k] * li[size_t(k) * d + j];
      li[size_t(i) * d + j] = s / l[size_t(i) * d + i];
    }
  }
  Matrix inv(size_t(d) * d, 0.0);  // H^-1 = L^-T L^-1
  for (int i = 0; i < d; ++i)
    for (int j = i; j < d; ++j) {
      double s = 0;
      for (int k = j; k < d; ++k) s += li[size_t(k) * d + i] * li[size_t(k) * d + j];
      inv[size_t(i) * d + j] = inv[size_t(j) * d + i] = s;
    }
  Matrix u(size_t(d) * d, 0.0);
  for (int i = 0; i < d; ++i) {
    double s = inv[size_t(i) * d + i];
    for (int k = 0; k < i; ++k) s -= u[size_t(k) * d + i] * u[size_t(k) * d + i];
    u[size_t(i) * d + i] = std::sqrt(std::max(s, 1e-300));
    for (int j = i + 1; j < d; ++j) {
      double t = inv[size_t(i) * d + j];
      for (int k = 0; k < i; ++k) t -= u[size_t(k) * d + i] * u[size_t(k) * d + j];
      u[size_t(i) * d + j] = t / u[size_t(i) * d + i];
    }
  }
  return u;
}

// One dense layer of `model`: `inputs` inputs to `outputs` units, weights at `weight`
// (input-major) and biases at `bias`; `input_of` copies the layer's inputs out of the
// forward pass's activations. Rounds the weights in place (to multiples of 1 / 64) and moves
// the compensation into the weights after each and into the bias.
template <typename InputOf>
void round_layer(NnueModel& model, size_t weight, size_t bias, int inputs, int outputs,
                 const std::vector<NnueSample>& calibration, InputOf input_of) {
  const int d = inputs + 1;  // the bias as an input always 1, never rounded
  Matrix h(size_t(d) * d, 0.0);
  std::vector<double> x(d);
  std::vector<int> nonzero;
  NnueActivations a;
  for (const NnueSample& sample : calibration) {
    nnue_forward(model, sample, a);
    input_of(a, x.data());
    x[inputs] = 1.0;
    nonzero.clear();
    for (int i = 0; i < d; ++i)
      if (x[i] != 0.0) nonzero.push_back(i);
    for (int i : nonzero)
      for (int j : nonzero)
        if (j >= i) h[size_t(i) * d + j] += x[i] * x[j];
  }
  double trace = 0;
  for (int i = 0; i < d; ++i) {
    for (int j = 0; j < i; ++j) h[size_t(i) * d + j] = h[size_t(j) * d + i];
    trace += h[size_t(i) * d + i];
  }
  for (int i = 0; i < d; ++i) h[size_t(i) * d + i] += kDampening * trace / d + 1e-12;
  const Matrix u = inverse_upper_cholesky(h, d);

  std::vector<double> w(d);
  for (int o = 0; o < outputs; ++o) {
    for (int i = 0; i < inputs; ++i) w[i] = model.params[weight + size_t(i) * outputs + o];
    w[inputs] = model.params[bias + o];
    for (int i = 0; i < inputs; ++i) {
      const double rounded =
          std::clamp(std::round(w[i] * kInt8Unit), -kInt8Steps, kInt8Steps) / kInt8Unit;
      const double error = (w[i] - rounded) / u[size_t(i) * d + i];
      for (int j = i + 1; j < d; ++j) w[j] -= error * u[size_t(i) * d + j];
      w[i] = rounded;
    }
    for (int i = 0; i < inputs; ++i) model.params[weight + size_t(i) * outputs + o] = float(w[i]);
    model.params[bias + o] = float(w[inputs]);
  }
}

}  // namespace

engine::nnue::Network calibrated_network(const NnueModel& model,
                                         const std::vector<NnueSample>& calibration) {
  if (calibration.empty()) return model.quantised();
  using M = NnueModel;
  NnueModel rounded = model;
  round_layer(rounded, M::kL1Weight, M::kL1Bias, M::kL1In, M::kL1Out, calibration,
              [](const NnueActivations& a, double* x) { std::copy_n(a.x, M::kL1In, x); });
  round_layer(rounded, M::kL2Weight, M::kL2Bias, M::kL1Out, M::kL2Out, calibration,
              [](const NnueActivations& a, double* x) { std::copy_n(a.h1, M::kL1Out, x); });
  round_layer(rounded, M::kOutWeight, M::kOutBias, M::kL2Out, 1, calibration,
              [](const NnueActivations& a, double* x) { std::copy_n(a.h2, M::kL2Out, x); });
  return rounded.quantised();
}

}  // namespace tools
