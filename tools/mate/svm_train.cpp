// Training the mate-prediction model with LIBLINEAR (Debian liblinear-dev 2.30).
#include "tools/mate/svm_train.h"

#include <linear.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>

namespace tools {

using base::Status;
using engine::mate::kMateFeatureCount;
using engine::mate::MateFeatures;
using engine::mate::SvmModel;

void MateConfusion::add(bool truth_mate, bool predicted_mate) {
  if (truth_mate)
    ++(predicted_mate ? mate_as_mate : mate_as_nomate);
  else
    ++(predicted_mate ? nomate_as_mate : nomate_as_nomate);
}

namespace {
double ratio(int a, int b) { return b == 0 ? 0.0 : double(a) / double(b); }
double f1(double p, double r) { return p + r == 0 ? 0.0 : 2 * p * r / (p + r); }
}  // namespace

double MateConfusion::accuracy() const { return ratio(mate_as_mate + nomate_as_nomate, total()); }
double MateConfusion::mate_precision() const {
  return ratio(mate_as_mate, mate_as_mate + nomate_as_mate);
}
double MateConfusion::mate_recall() const {
  return ratio(mate_as_mate, mate_as_mate + mate_as_nomate);
}
double MateConfusion::nomate_precision() const {
  return ratio(nomate_as_nomate, nomate_as_nomate + mate_as_nomate);
}
double MateConfusion::nomate_recall() const {
  return ratio(nomate_as_nomate, nomate_as_nomate + nomate_as_mate);
}

std::string format_mate_tables(const MateConfusion& c, const std::string& title) {
  char buf[1024];
  std::string s;
  std::snprintf(buf, sizeof buf, "Table 3.1: %s (%d positions)\n", title.c_str(), c.total());
  s += buf;
  std::snprintf(buf, sizeof buf, "%-22s %8s %8s %8s\n", "", "mate", "nomate", "total");
  s += buf;
  std::snprintf(buf, sizeof buf, "%-22s %8d %8d %8d\n", "classified mate", c.mate_as_mate,
                c.nomate_as_mate, c.mate_as_mate + c.nomate_as_mate);
  s += buf;
  std::snprintf(buf, sizeof buf, "%-22s %8d %8d %8d\n", "classified nomate", c.mate_as_nomate,
                c.nomate_as_nomate, c.mate_as_nomate + c.nomate_as_nomate);
  s += buf;
  std::snprintf(buf, sizeof buf, "%-22s %8d %8d %8d\n", "total", c.mate_as_mate + c.mate_as_nomate,
                c.nomate_as_mate + c.nomate_as_nomate, c.total());
  s += buf;
  std::snprintf(buf, sizeof buf, "Table 3.2: accuracy %.3f\n%-8s %9s %7s %7s\n", c.accuracy(), "",
                "precision", "recall", "f1");
  s += buf;
  std::snprintf(buf, sizeof buf, "%-8s %9.3f %7.3f %7.3f\n", "mate", c.mate_precision(),
                c.mate_recall(), f1(c.mate_precision(), c.mate_recall()));
  s += buf;
  std::snprintf(buf, sizeof buf, "%-8s %9.3f %7.3f %7.3f\n", "nomate", c.nomate_precision(),
                c.nomate_recall(), f1(c.nomate_precision(), c.nomate_recall()));
  s += buf;
  return s;
}

namespace {

void quiet_print(const char*) {}

// LIBLINEAR's input: scaled, sparse rows with the bias feature (index n+1) and the -1 end.
class LinearProblem {
 public:
  LinearProblem(const std::vector<MateFeatures>& x, const std::vector<bool>& mate,
                const std::vector<int>& rows, const std::array<double, kMateFeatureCount>& scale) {
    nodes_.reserve(rows.size() * (kMateFeatureCount + 2));
    std::vector<size_t> starts;
    for (int r : rows) {
      starts.push_back(nodes_.size());
      for (int i = 0; i < kMateFeatureCount; ++i)
        if (x[r][i] != 0) nodes_.push_back({i + 1, x[r][i] / scale[i]});
      nodes_.push_back({kMateFeatureCount + 1, 1.0});  // the bias feature
      nodes_.push_back({-1, 0.0});
      y_.push_back(mate[r] ? 1.0 : -1.0);
    }
    for (size_t s : starts) row_ptrs_.push_back(nodes_.data() + s);
    prob_.l = int(rows.size());
    prob_.n = kMateFeatureCount + 1;
    prob_.y = y_.data();
    prob_.x = row_ptrs_.data();
    prob_.bias = 1.0;
  }
  const problem* get() const { return &prob_; }
  const feature_node* row(int i) const { return row_ptrs_[i]; }

 private:
  std::vector<feature_node> nodes_;
  std::vector<feature_node*> row_ptrs_;
  std::vector<double> y_;
  problem prob_{};
};

parameter make_parameter(double c, SvmSolver solver) {
  parameter p{};
  p.solver_type = solver == SvmSolver::kLogistic ? L2R_LR : L2R_L2LOSS_SVC_DUAL;
  p.eps = solver == SvmSolver::kLogistic ? 0.01 : 0.1;  // LIBLINEAR's defaults
  p.C = c;
  p.nr_weight = 0;
  p.weight_label = nullptr;
  p.weight = nullptr;
  p.p = 0.1;
  p.init_sol = nullptr;
  return p;
}

std::array<double, kMateFeatureCount> feature_scale(const std::vector<MateFeatures>& x) {
  std::array<double, kMateFeatureCount> scale{};
  for (const MateFeatures& row : x)
    for (int i = 0; i < kMateFeatureCount; ++i)
      scale[i] = std::max(scale[i], double(std::fabs(row[i])));
  for (double& s : scale)
    if (s == 0) s = 1;
  return scale;
}

// Trains on `rows` and returns the model over raw features, positive = mate.
Status train_rows(const std::vector<MateFeatures>& x, const std::vector<bool>& mate,
                  const std::vector<int>& rows, double c, SvmSolver solver, SvmModel& out) {
  int mates = 0;
  for (int r : rows) mates += mate[r];
  if (mates == 0 || mates == int(rows.size()))
    return Status::error("svm train: the training data needs both mate and nomate examples");
  const auto scale = feature_scale(x);
  LinearProblem problem(x, mate, rows, scale);
  const parameter param = make_parameter(c, solver);
  if (const char* error = check_parameter(problem.get(), &param))
    return Status::error(std::string("svm train: LIBLINEAR: ") + error);
  set_print_string_function(quiet_print);
  model* m = train(problem.get(), &param);
  if (!m) return Status::error("svm train: LIBLINEAR train failed");
  // LIBLINEAR: a positive decision value means model->label[0].
  const double sign = m->label[0] == 1 ? 1.0 : -1.0;
  for (int i = 0; i < kMateFeatureCount; ++i) out.weights[i] = float(sign * m->w[i] / scale[i]);
  out.bias = float(sign * m->w[kMateFeatureCount]);
  free_and_destroy_model(&m);
  return Status::ok();
}

}  // namespace

Status train_mate_model(const std::vector<MateFeatures>& x, const std::vector<bool>& mate, double c,
                        SvmSolver solver, SvmModel& out) {
  if (x.size() != mate.size()) return Status::error("svm train: features and labels differ");
  std::vector<int> rows(x.size());
  std::iota(rows.begin(), rows.end(), 0);
  return train_rows(x, mate, rows, c, solver, out);
}

void fit_platt(const std::vector<double>& dec, const std::vector<bool>& mate, double& a,
               double& b) {
  const int l = int(dec.size());
  double prior1 = 0, prior0 = 0;
  for (bool m : mate) (m ? prior1 : prior0) += 1;
  const int max_iter = 100;
  const double min_step = 1e-10, sigma = 1e-12, eps = 1e-5;
  const double hi_target = (prior1 + 1.0) / (prior1 + 2.0);
  const double lo_target = 1 / (prior0 + 2.0);
  std::vector<double> t(l);
  a = 0.0;
  b = std::log((prior0 + 1.0) / (prior1 + 1.0));
  auto objective = [&](double aa, double bb) {
    double f = 0;
    for (int i = 0; i < l; ++i) {
      const double z = dec[i] * aa + bb;
      f += z >= 0 ? t[i] * z + std::log1p(std::exp(-z)) : (t[i] - 1) * z + std::log1p(std::exp(z));
    }
    return f;
  };
  for (int i = 0; i < l; ++i) t[i] = mate[i] ? hi_target : lo_target;
  double fval = objective(a, b);
  for (int iter = 0; iter < max_iter; ++iter) {
    double h11 = sigma, h22 = sigma, h21 = 0, g1 = 0, g2 = 0;
    for (int i = 0; i < l; ++i) {
      const double z = dec[i] * a + b;
      double p, q;
      if (z >= 0) {
        p = std::exp(-z) / (1.0 + std::exp(-z));
        q = 1.0 / (1.0 + std::exp(-z));
      } else {
        p = 1.0 / (1.0 + std::exp(z));
        q = std::exp(z) / (1.0 + std::exp(z));
      }
      const double d2 = p * q;
      h11 += dec[i] * dec[i] * d2;
      h22 += d2;
      h21 += dec[i] * d2;
      const double d1 = t[i] - p;
      g1 += dec[i] * d1;
      g2 += d1;
    }
    if (std::fabs(g1) < eps && std::fabs(g2) < eps) break;
    const double det = h11 * h22 - h21 * h21;
    const double da = -(h22 * g1 - h21 * g2) / det;
    const double db = -(-h21 * g1 + h11 * g2) / det;
    const double gd = g1 * da + g2 * db;
    double step = 1;
    while (step >= min_step) {
      const double na = a + step * da, nb = b + step * db;
      const double nf = objective(na, nb);
      if (nf < fval + 0.0001 * step * gd) {
        a = na;
        b = nb;
        fval = nf;
        break;
      }
      step /= 2;
    }
    if (step < min_step) break;
  }
}

Status train_mate_model_cv(const std::vector<MateFeatures>& x, const std::vector<bool>& mate,
                           const SvmTrainOptions& options, SvmTrainResult& result) {
  const int n = int(x.size());
  if (n != int(mate.size())) return Status::error("svm train: features and labels differ");
  if (options.folds < 2 || options.folds > n)
    return Status::error("svm train: --folds must be between 2 and the number of examples");
  std::vector<double> grid = options.c_grid;
  if (grid.empty())
    for (int e = -8; e <= 4; ++e) grid.push_back(std::ldexp(1.0, e));

  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(options.seed);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<int> fold_of(n);
  for (int i = 0; i < n; ++i) fold_of[order[i]] = i % options.folds;
  if (options.contiguous_folds)
    for (int i = 0; i < n; ++i) fold_of[i] = int(int64_t(i) * options.folds / n);

  result = SvmTrainResult();
  double best_accuracy = -1;
  std::vector<double> best_decisions;
  for (double c : grid) {
    std::vector<double> decisions(n);
    for (int k = 0; k < options.folds; ++k) {
      std::vector<int> train_rows_k;
      for (int i = 0; i < n; ++i)
        if (fold_of[i] != k) train_rows_k.push_back(i);
      SvmModel m;
      if (Status s = train_rows(x, mate, train_rows_k, c, options.solver, m); !s) return s;
      for (int i = 0; i < n; ++i)
        if (fold_of[i] == k) decisions[i] = m.decision_value(x[i]);
    }
    MateConfusion confusion;
    for (int i = 0; i < n; ++i) confusion.add(mate[i], SvmModel::predicts_mate(decisions[i]));
    result.grid.push_back({c, confusion.accuracy()});
    if (confusion.accuracy() > best_accuracy) {
      best_accuracy = confusion.accuracy();
      result.best_c = c;
      result.cross_validation = confusion;
      best_decisions = decisions;
    }
  }
  if (Status s = train_mate_model(x, mate, result.best_c, options.solver, result.model); !s)
    return s;
  fit_platt(best_decisions, mate, result.model.platt_a, result.model.platt_b);
  result.cross_validation_decisions = std::move(best_decisions);
  for (int i = 0; i < n; ++i)
    result.training.add(mate[i], SvmModel::predicts_mate(result.model.decision_value(x[i])));
  return Status::ok();
}

}  // namespace tools
