// `sashite svm predict | data | train | test | bench`: mate prediction with a linear SVM
// (engine/mate/svm_model.h), its dataset (tools/mate/svm_data.h) and its training
// (tools/mate/svm_train.h). Each prints its report on standard output.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "base/status.h"
#include "tools/mate/svm_data.h"

namespace tools {

struct SvmPredictOptions {
  std::string model;  // "": the shipped data/mate/svm.model
};

// Reads one SFEN a line from `in` ('#' starts a comment, "sfen " optional) and prints
// "mate|nomate PROBABILITY" for each. An error names the line that does not parse.
base::Status run_svm_predict(const SvmPredictOptions& options, std::istream& in);

struct SvmDataCommandOptions {
  std::string records;   // directory of .csa files (recursive)
  std::string out;       // the dataset file to write
  std::string labeller;  // the mate solver for the labels; "": the first of this build's
  SvmDataOptions data;   // records_dir is set from `records`
};

// Builds the labelled dataset from the records (make_svm_data), then prints its counts.
base::Status run_svm_data(SvmDataCommandOptions options);

struct SvmTrainCommandOptions {
  std::string data;  // the dataset (svm data)
  std::string out;   // the model file to write
  int folds = 4;
  std::string solver = "svm";  // svm (L2R_L2LOSS_SVC_DUAL) or lr (L2R_LR)
  uint64_t seed = 1;
  std::vector<double> c_grid;  // empty: 2^-8..2^4
  bool by_game = false;        // contiguous folds: each game in one fold
};

// Trains with C chosen by cross-validation, prints Tables 3.1/3.2 (and by source) and writes
// the model with a comment saying how it was trained.
base::Status run_svm_train(const SvmTrainCommandOptions& options);

struct SvmTestOptions {
  std::string data;   // a labelled dataset (svm data)
  std::string model;  // "": the shipped model
};

// Prints a model's Tables 3.1/3.2 on the dataset, and its accuracy by source.
base::Status run_svm_test(const SvmTestOptions& options);

struct SvmBenchOptions {
  std::string sfens;  // a file of SFEN lines
  std::string model;  // "": the shipped model
  int repeat = 200;   // passes over the file
};

// Times the features plus the prediction, the features alone and the prediction alone, in CPU
// nanoseconds per position.
base::Status run_svm_bench(const SvmBenchOptions& options);

}  // namespace tools
