// The linear mate-prediction model: weights over the mate features, a bias, and the sigmoid
// that turns the signed distance to the hyperplane into a probability of mate.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "base/status.h"
#include "engine/mate/mate_features.h"
#include "engine/names.h"
#include "shogi/position.h"

namespace engine::mate {

// decision(x) = bias + sum_i weights[i] * x[i], over the raw features of mate_features.h
// (any feature scaling used in training is folded into the weights). A positive decision
// value predicts mate. probability(d) = 1 / (1 + exp(platt_a * d + platt_b)), Platt's
// sigmoid fitted on cross-validated decision values; with the defaults (-1, 0) it is the
// document's plain 1 / (1 + exp(-d)). A plain value type.
struct SvmModel {
  std::array<float, kMateFeatureCount> weights{};
  float bias = 0;
  double platt_a = -1.0;  // Default: -1 (the plain logistic sigmoid of the decision value)
  double platt_b = 0.0;   // Default: 0

  double decision_value(const MateFeatures& x) const;
  // Features plus decision value for pos (the side to move attacking).
  double decision_value(const Position& pos) const;
  double probability(double decision) const;
  static bool predicts_mate(double decision) { return decision > 0; }
};

// The model file (text, UTF-8, LF or CRLF):
//   sashite-svm-model 1           header and format version; the first line that is not a
//                                 comment ('#') or blank
//   features 129                  must equal kMateFeatureCount
//   positive mate                 which class a positive decision value means: "mate", or
//                                 "nomate" (then weights and bias are negated when read)
//   bias B
//   platt A B                     optional; Default: -1 0
//   weight I W                    one line per feature I = 0..128 (each exactly once)
// Anything after '#' on a line is a comment. Errors read "PATH:LINE: message".
Status parse_svm_model(std::string_view text, std::string_view name, SvmModel& out);
Status load_svm_model(const std::string& path, SvmModel& out);
// Writes the format above with "positive mate", one comment naming each feature.
std::string format_svm_model(const SvmModel& model, std::string_view comment = {});
Status save_svm_model(const std::string& path, const SvmModel& model,
                      std::string_view comment = {});

// The shipped model: <exe dir>/../data/mate/svm.model, then <exe dir>/data/mate/svm.model,
// then ./data/mate/svm.model; the first that exists (else the first candidate).
std::string default_svm_model_path();

}  // namespace engine::mate
