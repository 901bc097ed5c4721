// `sashite svm predict | data | train | test | bench`: mate prediction with a linear SVM.
#include "tools/mate/svm_command.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string_view>

#include "engine/mate/mate_features.h"
#include "engine/mate/svm_model.h"
#include "shogi/csa_files.h"
#include "shogi/position.h"
#include "tools/mate/svm_train.h"

namespace tools {

namespace {

using base::Status;
using engine::mate::MateFeatures;
using engine::mate::SvmModel;
using shogi::Position;

// The model of `path`, or of the shipped file when it is empty.
Status load_model(std::string path, SvmModel& model) {
  if (path.empty()) path = engine::mate::default_svm_model_path();
  return engine::mate::load_svm_model(path, model);
}

// One SFEN per line ('#' starts a comment, "sfen " prefix optional); errors name the line.
Status read_positions(std::istream& in, const std::string& name, std::vector<Position>& positions) {
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
      line.pop_back();
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos) continue;
    std::string_view sfen = std::string_view(line).substr(start);
    if (sfen.substr(0, 5) == "sfen ") sfen.remove_prefix(5);
    Position pos;
    if (Status s = pos.set_sfen(sfen); !s)
      return Status::error(name + ":" + std::to_string(line_number) + ": " + s.message());
    positions.push_back(pos);
  }
  return Status::ok();
}

// The features of a dataset's positions, and their labels.
void dataset_features(const std::vector<SvmExample>& examples, std::vector<MateFeatures>& x,
                      std::vector<bool>& mate) {
  x.resize(examples.size());
  mate.resize(examples.size());
  for (size_t i = 0; i < examples.size(); ++i) {
    Position pos;
    pos.set_sfen(examples[i].sfen);  // checked when read
    engine::mate::compute_mate_features(pos, x[i]);
    mate[i] = examples[i].mate;
  }
}

// Accuracy, precision and recall of the predictions (decision values), for every source of
// the dataset apart ("record", "search", "insearch") when it has more than one.
void print_by_source(const std::vector<SvmExample>& examples, const std::vector<double>& decisions,
                     const std::vector<bool>& mate) {
  std::vector<std::string> sources;
  for (const SvmExample& e : examples)
    if (std::find(sources.begin(), sources.end(), e.source) == sources.end())
      sources.push_back(e.source);
  if (sources.size() < 2) return;
  for (const std::string& source : sources) {
    MateConfusion c;
    for (size_t i = 0; i < examples.size(); ++i)
      if (examples[i].source == source) c.add(mate[i], SvmModel::predicts_mate(decisions[i]));
    std::printf(
        "  source %-9s %6d positions (%5.1f%% mate): accuracy %.4f; mate precision %.3f recall "
        "%.3f; nomate precision %.3f recall %.3f\n",
        source.c_str(), c.total(),
        100.0 * (c.mate_as_mate + c.mate_as_nomate) / std::max(1, c.total()), c.accuracy(),
        c.mate_precision(), c.mate_recall(), c.nomate_precision(), c.nomate_recall());
  }
}

}  // namespace

Status run_svm_predict(const SvmPredictOptions& o, std::istream& in) {
  SvmModel model;
  if (Status s = load_model(o.model, model); !s) return s;
  std::vector<Position> positions;
  if (Status s = read_positions(in, "<stdin>", positions); !s) return s;
  for (const Position& pos : positions) {
    const double d = model.decision_value(pos);
    std::printf("%s %.4f\n", SvmModel::predicts_mate(d) ? "mate" : "nomate", model.probability(d));
  }
  std::fflush(stdout);
  return Status::ok();
}

Status run_svm_data(SvmDataCommandOptions o) {
  Status s;
  if (o.labeller.empty()) {
    const std::string names = mate_labeller_names();
    o.labeller = names.substr(0, names.find(','));
  }
  const MateLabeller label = find_mate_labeller(o.labeller, s);
  if (!s) return s;
  o.data.records_dir = o.records;
  // Checked before --out is truncated: a mistyped directory, or one without records, must
  // not empty a dataset.
  if (std::error_code ec; !std::filesystem::is_directory(o.records, ec))
    return Status::error(o.records + ": not a directory");
  std::vector<std::string> files;
  if (s = shogi::list_csa_files(o.records, files); !s) return s;
  if (files.empty()) return Status::error(o.records + ": no .csa files under it");
  std::ofstream out(o.out, std::ios::binary | std::ios::trunc);
  if (!out) return Status::error(o.out + ": cannot write");
  SvmDataStats stats;
  const auto start = std::chrono::steady_clock::now();
  s = make_svm_data(o.data, label, out, stats, &std::cerr);
  if (!s) return s;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "records %d (unreadable %d), positions %d (record %d, search %d, insearch %d): mate %d, "
      "nomate %d; dropped unknown %d, duplicates %d; solver %s at %llu nodes; %.1f s\n",
      stats.records, stats.records_unreadable,
      stats.record_positions + stats.search_positions + stats.insearch_positions,
      stats.record_positions, stats.search_positions, stats.insearch_positions, stats.mate,
      stats.nomate, stats.unknown, stats.duplicates,
      o.data.sfen_only ? "none (unlabelled)" : o.labeller.c_str(),
      static_cast<unsigned long long>(o.data.sfen_only ? 0 : o.data.nodes), seconds);
  return Status::ok();
}

Status run_svm_test(const SvmTestOptions& o) {
  SvmModel model;
  if (Status s = load_model(o.model, model); !s) return s;
  std::vector<SvmExample> examples;
  if (Status s = read_svm_data(o.data, examples); !s) return s;
  if (examples.empty()) return Status::error(o.data + ": no positions");
  std::vector<MateFeatures> x;
  std::vector<bool> mate;
  dataset_features(examples, x, mate);
  MateConfusion all;
  std::vector<double> decisions(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    decisions[i] = model.decision_value(x[i]);
    all.add(mate[i], SvmModel::predicts_mate(decisions[i]));
  }
  const std::string title =
      "model " + (o.model.empty() ? std::string("(shipped)") : o.model) + " on " + o.data;
  std::fputs(format_mate_tables(all, title).c_str(), stdout);
  print_by_source(examples, decisions, mate);
  return Status::ok();
}

Status run_svm_train(const SvmTrainCommandOptions& o) {
  std::vector<SvmExample> examples;
  if (Status s = read_svm_data(o.data, examples); !s) return s;
  std::vector<MateFeatures> x;
  std::vector<bool> mate;
  dataset_features(examples, x, mate);
  int mates = 0, records = 0;
  for (size_t i = 0; i < examples.size(); ++i) {
    mates += mate[i];
    records += examples[i].source == "record";
  }
  SvmTrainOptions options;
  options.folds = o.folds;
  options.seed = o.seed;
  options.c_grid = o.c_grid;
  options.contiguous_folds = o.by_game;
  options.solver = o.solver == "lr" ? SvmSolver::kLogistic : SvmSolver::kL2LossDual;
  SvmTrainResult result;
  const auto start = std::chrono::steady_clock::now();
  if (Status s = train_mate_model_cv(x, mate, options, result); !s) return s;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("data %s: %zu positions (%d from records, %zu from searches): mate %d, nomate %zu\n",
              o.data.c_str(), examples.size(), records, examples.size() - records, mates,
              examples.size() - mates);
  std::printf("solver %s, %d-fold cross-validation (%s) over C:\n",
              o.solver == "lr" ? "L2R_LR" : "L2R_L2LOSS_SVC_DUAL", o.folds,
              o.by_game ? "contiguous folds: games kept whole" : "shuffled folds");
  for (const auto& [c, accuracy] : result.grid)
    std::printf("  C=%-10g accuracy %.4f%s\n", c, accuracy, c == result.best_c ? "  (best)" : "");
  char title[128];
  std::snprintf(title, sizeof title, "%d-fold cross-validation at C=%g", o.folds, result.best_c);
  std::fputs(format_mate_tables(result.cross_validation, title).c_str(), stdout);
  print_by_source(examples, result.cross_validation_decisions, mate);
  std::printf("training accuracy of the final model %.4f; Platt A=%.4f B=%.4f; %.1f s\n",
              result.training.accuracy(), result.model.platt_a, result.model.platt_b, seconds);
  std::ostringstream comment;
  comment << "trained by: sashite svm train --data " << o.data << " --folds " << o.folds
          << " --solver " << o.solver << (o.by_game ? " --by-game" : "") << "\n"
          << examples.size() << " positions, " << mates << " mate; C=" << result.best_c << "; "
          << o.folds << "-fold cross-validated accuracy " << result.cross_validation.accuracy();
  if (Status s = engine::mate::save_svm_model(o.out, result.model, comment.str()); !s) return s;
  std::printf("wrote %s\n", o.out.c_str());
  return Status::ok();
}

Status run_svm_bench(const SvmBenchOptions& o) {
  SvmModel model;
  if (Status s = load_model(o.model, model); !s) return s;
  std::ifstream in(o.sfens);
  if (!in) return Status::error(o.sfens + ": cannot open");
  std::vector<Position> positions;
  if (Status s = read_positions(in, o.sfens, positions); !s) return s;
  if (positions.empty()) return Status::error(o.sfens + ": no positions");
  MateFeatures x;
  double sink = 0;
  // Process CPU time, not wall time: the figure stays meaningful on a loaded machine.
  auto cpu_ns = [] {
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e9 + double(t.tv_nsec);
  };
  auto pass = [&](bool predict) {
    for (const Position& pos : positions) {
      engine::mate::compute_mate_features(pos, x);
      sink += predict ? model.decision_value(x) : x[1];
    }
  };
  pass(true);  // warm-up
  double t0 = cpu_ns();
  for (int r = 0; r < o.repeat; ++r) pass(true);
  const double features_and_prediction = cpu_ns() - t0;
  t0 = cpu_ns();
  for (int r = 0; r < o.repeat; ++r) pass(false);
  const double features_only = cpu_ns() - t0;
  std::vector<MateFeatures> all(positions.size());
  for (size_t i = 0; i < positions.size(); ++i)
    engine::mate::compute_mate_features(positions[i], all[i]);
  t0 = cpu_ns();
  for (int r = 0; r < o.repeat; ++r)
    for (const MateFeatures& row : all) sink += model.decision_value(row);
  const double prediction_only = cpu_ns() - t0;
  const double n = double(positions.size()) * o.repeat;
  std::printf(
      "%zu positions x %d (CPU time): features + prediction %.1f ns per position; "
      "features %.1f ns; prediction (dot product) %.1f ns (checksum %g)\n",
      positions.size(), o.repeat, features_and_prediction / n, features_only / n,
      prediction_only / n, sink);
  return Status::ok();
}

}  // namespace tools
