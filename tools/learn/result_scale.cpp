// Fitting the logistic scale of an evaluation to game results.
#include "tools/learn/result_scale.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace tools {

double relative_entropy(double p, double t) {
  p = std::clamp(p, 1e-12, 1.0 - 1e-12);
  double loss = -(t * std::log(p) + (1 - t) * std::log(1 - p));
  if (t > 0 && t < 1) loss += t * std::log(t) + (1 - t) * std::log(1 - t);
  return loss;
}

namespace {

template <class V>
double fit_scale(const std::vector<V>& values, const std::vector<int8_t>& results, size_t count,
                 int max_value, double low, double high) {
  count = std::min({count, values.size(), results.size()});
  bool any = false;
  for (size_t i = 0; i < count && !any; ++i) any = std::abs(int(values[i])) < max_value;
  if (!any) return 0;
  auto loss = [&](double log_s) {
    const double s = std::exp(log_s);
    double sum = 0;
    for (size_t i = 0; i < count; ++i) {
      if (std::abs(int(values[i])) >= max_value) continue;
      sum +=
          relative_entropy(1.0 / (1.0 + std::exp(-double(values[i]) / s)), (results[i] + 1) / 2.0);
    }
    return sum;
  };
  double lo = std::log(low), hi = std::log(high);
  const double g = (std::sqrt(5.0) - 1) / 2;
  double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
  double la = loss(a), lb = loss(b);
  for (int i = 0; i < 60; ++i) {
    if (la < lb) {
      hi = b, b = a, lb = la, a = hi - g * (hi - lo), la = loss(a);
    } else {
      lo = a, a = b, la = lb, b = lo + g * (hi - lo), lb = loss(b);
    }
  }
  return std::exp((lo + hi) / 2);
}

}  // namespace

double fit_result_scale(const std::vector<int16_t>& values, const std::vector<int8_t>& results,
                        size_t count, int max_value, double low, double high) {
  return fit_scale(values, results, count, max_value, low, high);
}

double fit_result_scale(const std::vector<int>& values, const std::vector<int8_t>& results,
                        size_t count, int max_value, double low, double high) {
  return fit_scale(values, results, count, max_value, low, high);
}

}  // namespace tools
