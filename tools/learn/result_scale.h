// The logistic scale that maps an evaluation's values to game results: sigmoid(value / s)
// as the side to move's winning chance, fitted by cross-entropy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tools {

// The scale s in [low, high] minimising the cross-entropy of sigmoid(values[i] / s) against
// (results[i] + 1) / 2 (results: 1 win, 0 draw, -1 loss for the side to move), over the
// first `count` pairs (a golden-section search over log s). Pairs whose |value| is at least
// max_value (mate scores, values clamped at a limit) are left out. 0 when no pair counts.
double fit_result_scale(const std::vector<int16_t>& values, const std::vector<int8_t>& results,
                        size_t count, int max_value = 32000, double low = 50, double high = 5000);
double fit_result_scale(const std::vector<int>& values, const std::vector<int8_t>& results,
                        size_t count, int max_value, double low, double high);

// Cross-entropy of prediction p against target t, less t's own entropy: 0 when p == t.
double relative_entropy(double p, double t);

}  // namespace tools
