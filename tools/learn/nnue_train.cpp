// The NNUE trainer: data, Adam with lazy feature rows, epochs, held-out losses, checkpoints.
#include "tools/learn/nnue_train.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <numeric>
#include <random>
#include <thread>
#include <unordered_set>

#include "base/file_write.h"
#include "engine/nnue/evaluator.h"
#include "shogi/position.h"
#include "tools/common/progress_bar.h"
#include "tools/learn/gensfen_format.h"
#include "tools/learn/nnue_model.h"
#include "tools/learn/nnue_quantise.h"
#include "tools/learn/result_scale.h"

namespace tools {

namespace nnue_train_detail {

using base::Status;
using shogi::Position;

constexpr char kCheckpointMagic[16] = "SASHITE-NNUE-CK";
constexpr uint32_t kCheckpointVersion = 3;  // 3: the best held-out loss is the file's

double logistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }

struct Data {
  std::vector<uint8_t> raw;             // packed records, kGensfenRecordSize bytes each, those kept
  std::vector<float> targets;           // per record
  std::vector<int16_t> values;          // per record (for the scale fit)
  std::vector<int16_t> teacher_values;  // per record, 32000 when not labelled (not fitted)
  std::vector<int8_t> results;
};

// Reads every record, checks that it is a position of the rules, keeps those within
// max_value, and computes the targets.
Status load_data(const NnueTrainOptions& o, Data& data, NnueTrainSummary& summary) {
  std::vector<std::string> files;
  if (Status s = collect_gensfen_files(o.data, files); !s) return s;
  Position pos;
  std::unordered_set<uint64_t> seen;  // position keys kept: a position repeated is left out
  for (const std::string& file : files) {
    std::vector<uint8_t> raw;
    if (Status s = read_gensfen_raw(file, raw); !s) return s;
    const size_t count = raw.size() / kGensfenRecordSize;
    for (size_t i = 0; i < count; ++i) {
      const uint8_t* bytes = raw.data() + i * kGensfenRecordSize;
      GensfenRecord record;
      Status s = unpack_gensfen_record(bytes, record);
      if (s) s = pos.set(record.position);
      if (!s) return Status::error(file + ": record " + std::to_string(i) + ": " + s.message());
      if (std::abs(int(record.value)) > o.max_value ||
          (o.teacher > 0 && record.labelled && std::abs(int(record.teacher_value)) > o.max_value)) {
        ++summary.left_out;
        continue;
      }
      if (o.teacher > 0 && !record.labelled) {
        ++summary.left_out;
        ++summary.left_out_unlabelled;
        continue;
      }
      if (o.quiet_margin > 0 && record.labelled &&
          std::abs(int(record.teacher_value) - int(record.teacher_static)) > o.quiet_margin) {
        ++summary.left_out;
        ++summary.left_out_not_quiet;
        continue;
      }
      if (!seen.insert(pos.key()).second) {
        ++summary.left_out;
        ++summary.left_out_duplicates;
        continue;
      }
      data.raw.insert(data.raw.end(), bytes, bytes + kGensfenRecordSize);
      const double result = (record.result + 1) / 2.0;
      const double own =
          o.lambda * logistic(record.value / o.sigmoid_scale) + (1 - o.lambda) * result;
      const double teacher =
          record.labelled ? logistic(record.teacher_value / o.sigmoid_scale) : 0.0;
      data.targets.push_back(float(o.teacher * teacher + (1 - o.teacher) * own));
      data.values.push_back(record.value);
      data.teacher_values.push_back(record.labelled ? record.teacher_value : int16_t(32000));
      data.results.push_back(record.result);
    }
  }
  if (data.targets.empty()) return Status::error("no positions to train on in the data paths");
  return Status::ok();
}

void sample_of(const uint8_t* bytes, Position& pos, NnueSample& sample) {
  GensfenRecord record;
  (void)unpack_gensfen_record(bytes, record);  // checked when loaded
  (void)pos.set(record.position);
  sample = nnue_sample_of(pos);
}

// The mean loss of the network file's values on the held-out positions (those from train_n).
double quantised_holdout_loss(const engine::nnue::Network& net, const Data& data, size_t train_n,
                              double sigmoid_scale) {
  Position pos;
  NnueSample sample;
  double loss = 0;
  for (size_t i = train_n; i < data.targets.size(); ++i) {
    sample_of(data.raw.data() + i * kGensfenRecordSize, pos, sample);
    loss += relative_entropy(logistic(engine::nnue::evaluate(pos, net) / sigmoid_scale),
                             data.targets[i]);
  }
  return loss / double(data.targets.size() - train_n);
}

// Adam over the flat parameters; the feature rows are updated only when a batch touched
// them (lazy Adam, bias-corrected by the global step).
struct Adam {
  std::vector<float> m = std::vector<float>(NnueModel::kParamNb);
  std::vector<float> v = std::vector<float>(NnueModel::kParamNb);
  int64_t step = 0;
  static constexpr float kBeta1 = 0.9f, kBeta2 = 0.999f, kEpsilon = 1e-8f;

  // Steps params[from, to) and zeroes their gradient; `limit` > 0 keeps them inside
  // +-limit (what quantisation can hold).
  void update(std::vector<float>& params, std::vector<float>& grad, size_t from, size_t to,
              float lr_t, float limit) {
    for (size_t i = from; i < to; ++i) {
      const float g = grad[i];
      m[i] = kBeta1 * m[i] + (1 - kBeta1) * g;
      v[i] = kBeta2 * v[i] + (1 - kBeta2) * g * g;
      float p = params[i] - lr_t * m[i] / (std::sqrt(v[i]) + kEpsilon);
      if (limit > 0) p = std::clamp(p, -limit, limit);
      params[i] = p;
      grad[i] = 0;
    }
  }
  // Every parameter after the feature rows, each range with its limit.
  void update_dense(std::vector<float>& params, std::vector<float>& grad, float lr_t) {
    const size_t bounds[] = {NnueModel::kFtBias,   NnueModel::kL1Weight, NnueModel::kL1Bias,
                             NnueModel::kL2Weight, NnueModel::kL2Bias,   NnueModel::kOutWeight,
                             NnueModel::kOutBias,  NnueModel::kParamNb};
    for (size_t k = 0; k + 1 < std::size(bounds); ++k)
      update(params, grad, bounds[k], bounds[k + 1], lr_t, NnueModel::limit(bounds[k]));
  }
};

struct CheckpointHeader {
  char magic[16];
  uint32_t version;
  uint32_t epochs_done;
  int64_t step;
  uint64_t param_nb;
  uint64_t positions;
  uint64_t seed;
  double lambda, sigmoid_scale, holdout, teacher;
  int32_t batch, max_value, quiet_margin, bucket_rows;
  double best_holdout;  // the lowest quantised held-out loss so far (that network is the output)
};

Status save_checkpoint(const std::string& path, const NnueModel& model, const Adam& adam,
                       int epochs_done, double best_holdout, uint64_t positions,
                       const NnueTrainOptions& o) {
  CheckpointHeader h{};
  std::memcpy(h.magic, kCheckpointMagic, sizeof h.magic);
  h.version = kCheckpointVersion;
  h.epochs_done = uint32_t(epochs_done);
  h.step = adam.step;
  h.param_nb = NnueModel::kParamNb;
  h.positions = positions;
  h.seed = o.seed;
  h.lambda = o.lambda, h.sigmoid_scale = o.sigmoid_scale, h.holdout = o.holdout;
  h.teacher = o.teacher;
  h.batch = o.batch, h.max_value = o.max_value, h.quiet_margin = o.quiet_margin;
  h.bucket_rows = o.bucket_rows ? 1 : 0;
  h.best_holdout = best_holdout;
  std::string bytes(reinterpret_cast<const char*>(&h), sizeof h);
  for (const std::vector<float>* vec : {&model.params, &adam.m, &adam.v})
    bytes.append(reinterpret_cast<const char*>(vec->data()), vec->size() * sizeof(float));
  return base::replace_file(path, bytes, base::DirectorySync::kNo);
}

Status load_checkpoint(const std::string& path, NnueModel& model, Adam& adam, int& epochs_done,
                       double& best_holdout, uint64_t positions, const NnueTrainOptions& o) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::error("checkpoint '" + path + "': cannot open it");
  std::string bytes;
  try {  // libstdc++'s filebuf throws on a read error (a directory) under this iterator
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::ios_base::failure& e) {
    return Status::error("checkpoint '" + path + "': cannot read it: " + e.code().message());
  }
  CheckpointHeader h{};
  const size_t expected = sizeof h + 3 * NnueModel::kParamNb * sizeof(float);
  if (bytes.size() < sizeof h) return Status::error("checkpoint '" + path + "': too short");
  std::memcpy(&h, bytes.data(), sizeof h);
  if (std::memcmp(h.magic, kCheckpointMagic, sizeof h.magic) != 0 ||
      h.version != kCheckpointVersion)
    return Status::error("checkpoint '" + path + "': not a version " +
                         std::to_string(kCheckpointVersion) +
                         " NNUE checkpoint (an older trainer's: start afresh without --resume)");
  if (h.param_nb != NnueModel::kParamNb || bytes.size() != expected)
    return Status::error("checkpoint '" + path + "': the network's shape or the size differs");
  if (h.positions != positions || h.seed != o.seed || h.lambda != o.lambda ||
      h.sigmoid_scale != o.sigmoid_scale || h.holdout != o.holdout || h.batch != o.batch ||
      h.max_value != o.max_value || h.teacher != o.teacher || h.quiet_margin != o.quiet_margin ||
      h.bucket_rows != (o.bucket_rows ? 1 : 0))
    return Status::error("checkpoint '" + path + "': made with other data or settings (" +
                         std::to_string(h.positions) + " positions, seed " +
                         std::to_string(h.seed) + ", batch " + std::to_string(h.batch) +
                         "); start afresh without --resume");
  size_t at = sizeof h;
  for (std::vector<float>* vec : {&model.params, &adam.m, &adam.v}) {
    std::memcpy(vec->data(), bytes.data() + at, vec->size() * sizeof(float));
    at += vec->size() * sizeof(float);
  }
  adam.step = h.step;
  epochs_done = int(h.epochs_done);
  best_holdout = h.best_holdout;
  return Status::ok();
}

}  // namespace nnue_train_detail

base::Status read_nnue_checkpoint(const std::string& path, NnueModel& model) {
  using namespace nnue_train_detail;
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::error("checkpoint '" + path + "': cannot open it");
  CheckpointHeader h{};
  if (!in.read(reinterpret_cast<char*>(&h), sizeof h))
    return Status::error("checkpoint '" + path + "': too short");
  if (std::memcmp(h.magic, kCheckpointMagic, sizeof h.magic) != 0 || h.version < 2 ||
      h.version > kCheckpointVersion)
    return Status::error("checkpoint '" + path + "': not an NNUE checkpoint");
  if (h.param_nb != NnueModel::kParamNb)
    return Status::error("checkpoint '" + path + "': the network's shape differs");
  if (!in.read(reinterpret_cast<char*>(model.params.data()),
               std::streamsize(model.params.size() * sizeof(float))))
    return Status::error("checkpoint '" + path + "': too short");
  return Status::ok();
}

base::Status train_nnue(const NnueTrainOptions& o, NnueTrainSummary& summary,
                        const std::function<void(const NnueEpochReport&)>& on_epoch,
                        const std::function<void()>& on_loaded) {
  using namespace nnue_train_detail;
  if (o.out.empty()) return Status::error("no output file (--out)");
  if (o.batch < 1 || o.epochs < 1 || !(o.holdout >= 0 && o.holdout < 1) ||
      !(o.lambda >= 0 && o.lambda <= 1) || !(o.teacher >= 0 && o.teacher <= 1) ||
      !(o.sigmoid_scale > 0) || !(o.learning_rate > 0) || o.threads < 1 || o.quiet_margin < 0 ||
      o.calibration < 0)
    return Status::error("training settings out of range");
  NnueModel model;
  engine::nnue::Network start;
  if (o.init.empty()) {
    model.initialise(o.seed);
    if (!o.bucket_rows)  // every king bucket's row the shared one: a net without buckets
      std::fill_n(model.params.begin() + NnueModel::kFtWeight,
                  size_t(NnueModel::kSharedRow0) * NnueModel::kHidden, 0.0f);
  } else {
    if (Status s = start.load(o.init); !s) return s;
    model.from_network(start);
  }
  Data data;
  if (Status s = load_data(o, data, summary); !s) return s;
  const size_t n = data.targets.size();
  const size_t holdout_n = std::min(n - 1, size_t(std::ceil(double(n) * o.holdout)));
  const size_t train_n = n - holdout_n;
  summary.positions = int64_t(n);
  summary.train_positions = int64_t(train_n);
  summary.holdout_positions = int64_t(holdout_n);
  summary.fitted_result_scale = fit_result_scale(data.values, data.results, train_n);
  summary.fitted_teacher_scale = fit_result_scale(data.teacher_values, data.results, train_n);
  if (!o.init.empty() && holdout_n > 0)
    summary.init_holdout_loss = quantised_holdout_loss(start, data, train_n, o.sigmoid_scale);

  Adam adam;
  int epochs_done = 0;
  double best_holdout = std::numeric_limits<double>::infinity();
  const std::string checkpoint = o.checkpoint.empty() ? o.out + ".ckpt" : o.checkpoint;
  if (o.resume)
    if (Status s = load_checkpoint(checkpoint, model, adam, epochs_done, best_holdout, n, o); !s)
      return s;
  summary.first_epoch = epochs_done + 1;
  if (on_loaded) on_loaded();

  // The positions the rounding is fitted to: training positions, evenly spread.
  std::vector<NnueSample> calibration(std::min(size_t(o.calibration), train_n));
  {
    Position pos;
    for (size_t k = 0; k < calibration.size(); ++k)
      sample_of(data.raw.data() + (k * train_n / calibration.size()) * kGensfenRecordSize, pos,
                calibration[k]);
  }

  // Each thread's gradient and the feature rows it touched; thread 0's takes the others' sums
  // before each step.
  struct Worker {
    std::vector<float> grad = std::vector<float>(NnueModel::kParamNb, 0.0f);
    std::vector<int> touched;
    Position pos;
    NnueSample sample;
    NnueActivations act;
    double loss = 0;
  };
  std::vector<Worker> workers(size_t(o.threads));
  std::vector<float>& grad = workers[0].grad;
  std::vector<int>& touched = workers[0].touched;
  std::vector<uint8_t> row_marked(NnueModel::kRowNb, 0);
  std::vector<int> rows;
  std::vector<uint32_t> order(train_n);
  Position pos;
  NnueSample sample;
  NnueActivations act;
  const double out_scale = engine::nnue::kValueScale / o.sigmoid_scale;  // dlogit/dy

  for (int epoch = epochs_done + 1; epoch <= o.epochs; ++epoch) {
    const auto start = std::chrono::steady_clock::now();
    const double lr = o.learning_rate * std::pow(o.learning_rate_decay, epoch - 1);
    std::iota(order.begin(), order.end(), 0u);
    std::mt19937_64 rng(o.seed * 1000003u + uint64_t(epoch));
    std::shuffle(order.begin(), order.end(), rng);
    ProgressBar bar(std::cerr, int64_t(train_n), o.progress, "positions");
    for (Worker& w : workers) w.loss = 0;
    for (size_t begin = 0; begin < train_n; begin += size_t(o.batch)) {
      const size_t end = std::min(train_n, begin + size_t(o.batch));
      const float inv_batch = 1.0f / float(end - begin);
      // The batch's positions in o.threads consecutive slices, one a thread.
      auto slice = [&](size_t t) {
        Worker& w = workers[t];
        const size_t count = end - begin, from = begin + count * t / workers.size(),
                     to = begin + count * (t + 1) / workers.size();
        for (size_t k = from; k < to; ++k) {
          const uint32_t i = order[k];
          sample_of(data.raw.data() + size_t(i) * kGensfenRecordSize, w.pos, w.sample);
          const float y = nnue_forward(model, w.sample, w.act);
          const double p = logistic(y * out_scale);
          w.loss += relative_entropy(p, data.targets[i]);
          nnue_backward(model, w.sample, w.act,
                        float((p - data.targets[i]) * out_scale) * inv_batch, w.grad, w.touched);
        }
        if (t > 0) {  // each row once, for the merge below
          std::sort(w.touched.begin(), w.touched.end());
          w.touched.erase(std::unique(w.touched.begin(), w.touched.end()), w.touched.end());
        }
      };
      touched.clear();
      std::vector<std::thread> helpers;
      for (size_t t = 1; t < workers.size(); ++t) {
        workers[t].touched.clear();
        helpers.emplace_back(slice, t);
      }
      slice(0);
      for (std::thread& h : helpers) h.join();
      // The other threads' gradients into thread 0's.
      for (size_t t = 1; t < workers.size(); ++t) {
        std::vector<float>& other = workers[t].grad;
        for (size_t i = NnueModel::kFtBias; i < NnueModel::kParamNb; ++i)
          grad[i] += other[i], other[i] = 0.0f;
        for (int r : workers[t].touched) {
          const size_t at = NnueModel::kFtWeight + size_t(r) * NnueModel::kHidden;
          for (size_t j = at; j < at + NnueModel::kHidden; ++j)
            grad[j] += other[j], other[j] = 0.0f;
          touched.push_back(r);
        }
      }
      ++adam.step;
      const float lr_t =
          float(lr * std::sqrt(1 - std::pow(double(Adam::kBeta2), double(adam.step))) /
                (1 - std::pow(double(Adam::kBeta1), double(adam.step))));
      adam.update_dense(model.params, grad, lr_t);
      rows.clear();
      for (int r : touched)
        if (!row_marked[r]) row_marked[r] = 1, rows.push_back(r);
      for (int r : rows) {
        const size_t at = NnueModel::kFtWeight + size_t(r) * NnueModel::kHidden;
        row_marked[r] = 0;
        if (!o.bucket_rows && r < NnueModel::kSharedRow0) {  // frozen: only the shared rows learn
          std::fill_n(grad.begin() + ptrdiff_t(at), NnueModel::kHidden, 0.0f);
          continue;
        }
        adam.update(model.params, grad, at, at + NnueModel::kHidden, lr_t, NnueModel::kFtWeightMax);
      }
      bar.update(int64_t(end));
    }
    bar.finish();

    NnueEpochReport report;
    report.epoch = epoch;
    report.learning_rate = lr;
    double train_loss = 0;
    for (const Worker& w : workers) train_loss += w.loss;
    report.train_loss = train_loss / double(train_n);
    const engine::nnue::Network net = calibrated_network(model, calibration);
    double holdout_loss = 0;
    for (size_t i = train_n; i < n; ++i) {
      sample_of(data.raw.data() + i * kGensfenRecordSize, pos, sample);
      const float y = nnue_forward(model, sample, act);
      holdout_loss += relative_entropy(logistic(y * out_scale), data.targets[i]);
    }
    report.holdout_loss = holdout_n ? holdout_loss / double(holdout_n) : 0;
    report.holdout_loss_quantised =
        holdout_n ? quantised_holdout_loss(net, data, train_n, o.sigmoid_scale) : 0;
    report.seconds = seconds_since(start);
    report.positions_per_second = double(train_n) / std::max(report.seconds, 1e-9);
    // The output is the network of the lowest held-out loss of the file's own values (every
    // epoch's without a holdout).
    report.written = holdout_n == 0 || report.holdout_loss_quantised < best_holdout;
    if (report.written) {
      best_holdout = holdout_n ? report.holdout_loss_quantised : best_holdout;
      if (Status s = net.save(o.out); !s) return s;
    }
    if (Status s = save_checkpoint(checkpoint, model, adam, epoch, best_holdout, n, o); !s)
      return s;
    summary.epochs.push_back(report);
    if (on_epoch) on_epoch(report);
  }
  return Status::ok();
}

base::Status run_nnue_train(const NnueTrainOptions& o, std::ostream& out) {
  NnueTrainSummary summary;
  out << "nnue train: SIMD " << engine::nnue::simd_name() << '\n' << std::flush;
  const auto header = [&] {
    out << "positions " << summary.positions << " (train " << summary.train_positions
        << ", held out " << summary.holdout_positions << ", left out " << summary.left_out << ": "
        << summary.left_out_unlabelled << " not labelled, " << summary.left_out_not_quiet
        << " not quiet, " << summary.left_out_duplicates
        << " repeated); the results fit sigmoid(value / " << int(summary.fitted_result_scale + 0.5)
        << ")";
    if (summary.fitted_teacher_scale > 0)
      out << ", the teacher's values sigmoid(value / " << int(summary.fitted_teacher_scale + 0.5)
          << ")";
    out << "\n";
    if (summary.init_holdout_loss >= 0) {
      char line[120];
      std::snprintf(line, sizeof line, "the initial network's held-out loss (its file): %.6f\n",
                    summary.init_holdout_loss);
      out << line;
    }
    out << "epoch\tlr\ttrain_loss\tholdout_loss\tholdout_loss_"
           "quantised\tseconds\tpositions/s\twritten\n"
        << std::flush;
  };
  const auto epoch_line = [&](const NnueEpochReport& r) {
    char line[200];
    std::snprintf(line, sizeof line, "%d\t%.3g\t%.6f\t%.6f\t%.6f\t%.1f\t%.0f\t%s", r.epoch,
                  r.learning_rate, r.train_loss, r.holdout_loss, r.holdout_loss_quantised,
                  r.seconds, r.positions_per_second, r.written ? "yes" : "-");
    out << line << '\n' << std::flush;
  };
  const base::Status s = train_nnue(o, summary, epoch_line, header);
  if (!s) return s;
  if (summary.epochs.empty())
    out << "nnue train: the checkpoint has every epoch already (--epochs " << o.epochs << ")\n";
  out << "wrote " << o.out << '\n';
  return base::Status::ok();
}

}  // namespace tools
