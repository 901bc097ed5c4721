// The linear mate-prediction model: dot product, Platt sigmoid, and its text file.
#include "engine/mate/svm_model.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "base/file_write.h"
#include "base/shipped_file.h"
#include "base/text_lines.h"
#include "base/words.h"
#include "engine/names.h"

namespace engine::mate {

double SvmModel::decision_value(const MateFeatures& x) const {
  // Eight independent partial sums: the additions do not wait on each other.
  float partial[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  constexpr int kBlocked = kMateFeatureCount / 8 * 8;
  for (int i = 0; i < kBlocked; i += 8)
    for (int j = 0; j < 8; ++j) partial[j] += weights[i + j] * x[i + j];
  float sum = bias;
  for (int i = kBlocked; i < kMateFeatureCount; ++i) sum += weights[i] * x[i];
  for (float p : partial) sum += p;
  return sum;
}

double SvmModel::decision_value(const Position& pos) const {
  MateFeatures x;
  compute_mate_features(pos, x);
  return decision_value(x);
}

double SvmModel::probability(double decision) const {
  const double z = platt_a * decision + platt_b;
  // Written both ways so that exp never overflows.
  return z >= 0 ? std::exp(-z) / (1.0 + std::exp(-z)) : 1.0 / (1.0 + std::exp(z));
}

namespace {

bool parse_double(std::string_view w, double& out) {
  const char* end = w.data() + w.size();
  auto [p, ec] = std::from_chars(w.data(), end, out);
  return ec == std::errc() && p == end && std::isfinite(out);
}

bool parse_int(std::string_view w, int& out) {
  const char* end = w.data() + w.size();
  auto [p, ec] = std::from_chars(w.data(), end, out);
  return ec == std::errc() && p == end;
}

}  // namespace

Status parse_svm_model(std::string_view text, std::string_view name, SvmModel& out) {
  SvmModel model;
  bool have_header = false, have_features = false, have_positive = false, have_bias = false;
  bool positive_is_mate = true;
  std::vector<bool> seen(kMateFeatureCount, false);
  int line_number = 0;
  auto fail = [&](const std::string& message) {
    return Status::error(std::string(name) + ":" + std::to_string(line_number) + ": " + message);
  };
  TextLines lines(text);
  for (std::string_view line; lines.next(line);) {
    line_number = lines.number();
    if (const size_t hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    const std::vector<std::string_view> w = split_words(line);
    if (w.empty()) continue;
    if (!have_header) {
      if (w[0] != "sashite-svm-model")
        return fail("expected the header 'sashite-svm-model 1', got '" + std::string(w[0]) + "'");
      if (w.size() != 2 || w[1] != "1")
        return fail("unsupported model version '" + (w.size() > 1 ? std::string(w[1]) : "") +
                    "' (this build reads version 1)");
      have_header = true;
    } else if (w[0] == "features") {
      int n = 0;
      if (w.size() != 2 || !parse_int(w[1], n)) return fail("expected 'features N'");
      if (n != kMateFeatureCount)
        return fail("the model has " + std::to_string(n) + " features, this build computes " +
                    std::to_string(kMateFeatureCount));
      have_features = true;
    } else if (w[0] == "positive") {
      if (w.size() != 2 || (w[1] != "mate" && w[1] != "nomate"))
        return fail("expected 'positive mate' or 'positive nomate'");
      positive_is_mate = w[1] == "mate";
      have_positive = true;
    } else if (w[0] == "bias") {
      double b = 0;
      if (w.size() != 2 || !parse_double(w[1], b)) return fail("expected 'bias NUMBER'");
      model.bias = float(b);
      have_bias = true;
    } else if (w[0] == "platt") {
      if (w.size() != 3 || !parse_double(w[1], model.platt_a) || !parse_double(w[2], model.platt_b))
        return fail("expected 'platt A B'");
    } else if (w[0] == "weight") {
      int i = 0;
      double v = 0;
      if (w.size() != 3 || !parse_int(w[1], i) || !parse_double(w[2], v))
        return fail("expected 'weight INDEX NUMBER'");
      if (i < 0 || i >= kMateFeatureCount)
        return fail("feature index " + std::to_string(i) + " out of range 0.." +
                    std::to_string(kMateFeatureCount - 1));
      if (seen[i]) return fail("feature " + std::to_string(i) + " given twice");
      seen[i] = true;
      model.weights[i] = float(v);
    } else {
      return fail("unknown key '" + std::string(w[0]) + "'");
    }
  }
  if (!have_header) return fail("empty model file (no 'sashite-svm-model 1' header)");
  if (!have_features) return fail("missing 'features 129'");
  if (!have_positive) return fail("missing 'positive mate|nomate'");
  if (!have_bias) return fail("missing 'bias'");
  for (int i = 0; i < kMateFeatureCount; ++i)
    if (!seen[i]) return fail("missing 'weight " + std::to_string(i) + "'");
  if (!positive_is_mate) {
    for (float& x : model.weights) x = -x;
    model.bias = -model.bias;
  }
  out = model;
  return Status::ok();
}

Status load_svm_model(const std::string& path, SvmModel& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::error(path + ": cannot open the model file");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return parse_svm_model(buffer.str(), path, out);
}

std::string format_svm_model(const SvmModel& model, std::string_view comment) {
  std::ostringstream out;
  out.precision(9);
  out << "# sashite mate prediction: a linear model over the features of "
         "engine/mate/mate_features.h\n";
  if (!comment.empty()) {
    std::istringstream lines{std::string(comment)};
    for (std::string line; std::getline(lines, line);) out << "# " << line << "\n";
  }
  out << "sashite-svm-model 1\n";
  out << "features " << kMateFeatureCount << "\n";
  out << "positive mate\n";
  out << "bias " << model.bias << "\n";
  out << "platt " << model.platt_a << " " << model.platt_b << "\n";
  for (int i = 0; i < kMateFeatureCount; ++i)
    out << "weight " << i << " " << model.weights[i] << "  # " << mate_feature_name(i) << "\n";
  return out.str();
}

Status save_svm_model(const std::string& path, const SvmModel& model, std::string_view comment) {
  return replace_file(path, format_svm_model(model, comment));
}

std::string default_svm_model_path() { return shipped_file("data/mate/svm.model"); }

}  // namespace engine::mate
