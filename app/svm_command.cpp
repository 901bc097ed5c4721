// sashite svm predict | data | train | test | bench: mate prediction with a linear SVM.
#include "app/svm_command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "app/command_error.h"
#include "engine/mate/mate_features.h"
#include "engine/mate/svm_model.h"
#include "shogi/position.h"
#include "tools/mate/svm_data.h"
#include "tools/mate/svm_train.h"

namespace {

using base::Status;
using engine::mate::MateFeatures;
using engine::mate::SvmModel;
using shogi::Position;

SvmModel load_model_or_fail(const std::string& command, std::string path) {
  if (path.empty()) path = engine::mate::default_svm_model_path();
  SvmModel model;
  if (Status s = engine::mate::load_svm_model(path, model); !s)
    fail_command("svm " + command, s.message());
  return model;
}

// One SFEN per line ('#' starts a comment, "sfen " prefix optional); errors name the line.
std::vector<Position> read_positions(const std::string& command, std::istream& in,
                                     const std::string& name) {
  std::vector<Position> positions;
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
      fail_command("svm " + command, name + ":" + std::to_string(line_number) + ": " + s.message());
    positions.push_back(pos);
  }
  return positions;
}

struct PredictOptions {
  std::string model;
};

void run_predict(const PredictOptions& o) {
  const SvmModel model = load_model_or_fail("predict", o.model);
  const std::vector<Position> positions = read_positions("predict", std::cin, "<stdin>");
  for (const Position& pos : positions) {
    const double d = model.decision_value(pos);
    std::printf("%s %.4f\n", SvmModel::predicts_mate(d) ? "mate" : "nomate", model.probability(d));
  }
  std::fflush(stdout);
}

struct DataOptions {
  std::string records;
  std::string out;
  std::string labeller;
  tools::SvmDataOptions data;
};

void run_data(DataOptions o) {
  Status s;
  if (o.labeller.empty()) {
    const std::string names = tools::mate_labeller_names();
    o.labeller = names.substr(0, names.find(','));
  }
  const tools::MateLabeller label = tools::find_mate_labeller(o.labeller, s);
  if (!s) fail_command("svm data", s.message());
  o.data.records_dir = o.records;
  // Checked before --out is truncated: a mistyped directory must not empty a dataset.
  if (std::error_code ec; !std::filesystem::is_directory(o.records, ec))
    fail_command("svm data", o.records + ": not a directory");
  std::ofstream out(o.out, std::ios::binary | std::ios::trunc);
  if (!out) fail_command("svm data", o.out + ": cannot write");
  tools::SvmDataStats stats;
  const auto start = std::chrono::steady_clock::now();
  s = tools::make_svm_data(o.data, label, out, stats, &std::cerr);
  if (!s) fail_command("svm data", s.message());
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
}

// The features of a dataset's positions, and their labels.
void dataset_features(const std::vector<tools::SvmExample>& examples, std::vector<MateFeatures>& x,
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
void print_by_source(const std::vector<tools::SvmExample>& examples,
                     const std::vector<double>& decisions, const std::vector<bool>& mate) {
  std::vector<std::string> sources;
  for (const tools::SvmExample& e : examples)
    if (std::find(sources.begin(), sources.end(), e.source) == sources.end())
      sources.push_back(e.source);
  if (sources.size() < 2) return;
  for (const std::string& source : sources) {
    tools::MateConfusion c;
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

struct TestOptions {
  std::string data;
  std::string model;
};

void run_test(const TestOptions& o) {
  const SvmModel model = load_model_or_fail("test", o.model);
  std::vector<tools::SvmExample> examples;
  if (Status s = tools::read_svm_data(o.data, examples); !s) fail_command("svm test", s.message());
  if (examples.empty()) fail_command("svm test", o.data + ": no positions");
  std::vector<MateFeatures> x;
  std::vector<bool> mate;
  dataset_features(examples, x, mate);
  tools::MateConfusion all;
  std::vector<double> decisions(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    decisions[i] = model.decision_value(x[i]);
    all.add(mate[i], SvmModel::predicts_mate(decisions[i]));
  }
  const std::string title =
      "model " + (o.model.empty() ? std::string("(shipped)") : o.model) + " on " + o.data;
  std::fputs(tools::format_mate_tables(all, title).c_str(), stdout);
  print_by_source(examples, decisions, mate);
}

struct TrainOptions {
  std::string data;
  std::string out;
  int folds = 4;
  std::string solver = "svm";
  uint64_t seed = 1;
  std::vector<double> c_grid;
  bool by_game = false;
};

void run_train(const TrainOptions& o) {
  std::vector<tools::SvmExample> examples;
  if (Status s = tools::read_svm_data(o.data, examples); !s) fail_command("svm train", s.message());
  std::vector<MateFeatures> x;
  std::vector<bool> mate;
  dataset_features(examples, x, mate);
  int mates = 0, records = 0;
  for (size_t i = 0; i < examples.size(); ++i) {
    mates += mate[i];
    records += examples[i].source == "record";
  }
  tools::SvmTrainOptions options;
  options.folds = o.folds;
  options.seed = o.seed;
  options.c_grid = o.c_grid;
  options.contiguous_folds = o.by_game;
  options.solver = o.solver == "lr" ? tools::SvmSolver::kLogistic : tools::SvmSolver::kL2LossDual;
  tools::SvmTrainResult result;
  const auto start = std::chrono::steady_clock::now();
  if (Status s = tools::train_mate_model_cv(x, mate, options, result); !s)
    fail_command("svm train", s.message());
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
  std::fputs(tools::format_mate_tables(result.cross_validation, title).c_str(), stdout);
  print_by_source(examples, result.cross_validation_decisions, mate);
  std::printf("training accuracy of the final model %.4f; Platt A=%.4f B=%.4f; %.1f s\n",
              result.training.accuracy(), result.model.platt_a, result.model.platt_b, seconds);
  std::ostringstream comment;
  comment << "trained by: sashite svm train --data " << o.data << " --folds " << o.folds
          << " --solver " << o.solver << (o.by_game ? " --by-game" : "") << "\n"
          << examples.size() << " positions, " << mates << " mate; C=" << result.best_c << "; "
          << o.folds << "-fold cross-validated accuracy " << result.cross_validation.accuracy();
  if (Status s = engine::mate::save_svm_model(o.out, result.model, comment.str()); !s)
    fail_command("svm train", s.message());
  std::printf("wrote %s\n", o.out.c_str());
}

struct SvmBenchOptions {
  std::string sfens;
  std::string model;
  int repeat = 200;
};

void run_svm_bench(const SvmBenchOptions& o) {
  const SvmModel model = load_model_or_fail("bench", o.model);
  std::ifstream in(o.sfens);
  if (!in) fail_command("svm bench", o.sfens + ": cannot open");
  const std::vector<Position> positions = read_positions("bench", in, o.sfens);
  if (positions.empty()) fail_command("svm bench", o.sfens + ": no positions");
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
}

}  // namespace

void add_svm_command(CLI::App& app) {
  CLI::App* svm = app.add_subcommand(
      "svm", "mate prediction with a linear SVM: predict, data, train, test, bench");
  svm->require_subcommand(1);

  auto predict_options = std::make_shared<PredictOptions>();
  CLI::App* predict = svm->add_subcommand(
      "predict", "read one SFEN per line on standard input; print 'mate|nomate PROBABILITY'");
  predict->add_option("--model", predict_options->model,
                      "model file (default: the shipped data/mate/svm.model)");
  predict->callback([predict_options] { run_predict(*predict_options); });

  auto data_options = std::make_shared<DataOptions>();
  CLI::App* data = svm->add_subcommand(
      "data",
      "build the labelled dataset from CSA records (last positions + a random shallow node)");
  data->add_option("--records", data_options->records, "directory of .csa files (recursive)")
      ->required();
  data->add_option("--out", data_options->out, "dataset file to write")->required();
  data->add_option("--nodes", data_options->data.nodes, "mate solver node budget per position");
  data->add_option("--positions-per-game", data_options->data.positions_per_game,
                   "last N positions of each record")
      ->check(CLI::Range(1, 1000));
  data->add_option("--search-plies", data_options->data.max_search_plies,
                   "random line length 1..N below each record position")
      ->check(CLI::Range(1, 20));
  data->add_option("--seed", data_options->data.seed, "random seed");
  data->add_flag("--sfen-only", data_options->data.sfen_only,
                 "write the positions only, one SFEN per line, unlabelled (input for "
                 "`sashite mate --compare`)");
  data->add_option("--max-games", data_options->data.max_games, "use at most N records (0: all)");
  data->add_option("--skip-games", data_options->data.skip_games,
                   "skip the first N records (sorted by path), to resume a run");
  data->add_option("--insearch-nodes", data_options->data.insearch_nodes,
                   "also search each record position this many nodes (MateSearch on) and take "
                   "positions where the search called the mate solver (0: none)");
  data->add_option("--insearch-samples", data_options->data.insearch_samples,
                   "with --insearch-nodes: mate-call positions drawn from each search")
      ->check(CLI::Range(1, 1000));
  data->add_option("--insearch-every", data_options->data.insearch_every,
                   "with --insearch-nodes: search also from every Nth position of each whole "
                   "record (0: only from its last positions)")
      ->check(CLI::Range(0, 1000));
  data->add_option("--labeller", data_options->labeller,
                   "mate solver for the labels (" + tools::mate_labeller_names() + ")");
  data->callback([data_options] { run_data(*data_options); });

  auto train_options = std::make_shared<TrainOptions>();
  CLI::App* train = svm->add_subcommand(
      "train",
      "train with LIBLINEAR, C by cross-validation; print Tables 3.1/3.2; write the model");
  train->add_option("--data", train_options->data, "dataset from `svm data`")->required();
  train->add_option("--out", train_options->out, "model file to write")->required();
  train->add_option("--folds", train_options->folds, "cross-validation folds")
      ->check(CLI::Range(2, 100));
  train->add_option("--solver", train_options->solver, "svm (L2R_L2LOSS_SVC_DUAL) or lr (L2R_LR)")
      ->check(CLI::IsMember({"svm", "lr"}));
  train->add_option("--seed", train_options->seed, "fold shuffle seed");
  train->add_flag("--by-game", train_options->by_game,
                  "folds as contiguous blocks of the file (keeps each game in one fold)");
  train->add_option("--c", train_options->c_grid, "C values to try (default 2^-8..2^4)");
  train->callback([train_options] { run_train(*train_options); });

  auto test_options = std::make_shared<TestOptions>();
  CLI::App* test = svm->add_subcommand(
      "test", "a model's Tables 3.1/3.2 on a labelled dataset, and its accuracy by source");
  test->add_option("--data", test_options->data, "dataset from `svm data`")->required();
  test->add_option("--model", test_options->model,
                   "model file (default: the shipped data/mate/svm.model)");
  test->callback([test_options] { run_test(*test_options); });

  auto bench_options = std::make_shared<SvmBenchOptions>();
  CLI::App* bench =
      svm->add_subcommand("bench", "time features plus prediction: nanoseconds per position");
  bench->add_option("--sfens", bench_options->sfens, "file of SFEN lines")->required();
  bench->add_option("--model", bench_options->model, "model file (default: the shipped one)");
  bench->add_option("--repeat", bench_options->repeat, "passes over the file")
      ->check(CLI::Range(1, 1000000));
  bench->callback([bench_options] { run_svm_bench(*bench_options); });
}
