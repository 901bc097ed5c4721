// Training the mate-prediction model with LIBLINEAR: feature scaling, C by k-fold
// cross-validation, Platt's sigmoid, and the document's Tables 3.1 and 3.2.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "engine/mate/mate_features.h"
#include "engine/mate/svm_model.h"

namespace tools {

// Predicted class against true class, as in the document's Table 3.1.
struct MateConfusion {
  int mate_as_mate = 0;      // true mate, classified mate
  int nomate_as_mate = 0;    // true nomate, classified mate (false positive)
  int mate_as_nomate = 0;    // true mate, classified nomate
  int nomate_as_nomate = 0;  // true nomate, classified nomate

  void add(bool truth_mate, bool predicted_mate);
  int total() const { return mate_as_mate + nomate_as_mate + mate_as_nomate + nomate_as_nomate; }
  double accuracy() const;
  double mate_precision() const;
  double mate_recall() const;
  double nomate_precision() const;
  double nomate_recall() const;
};

// Tables 3.1 (counts) and 3.2 (precision, recall, f1) as text.
std::string format_mate_tables(const MateConfusion& c, const std::string& title);

enum class SvmSolver {
  kL2LossDual,  // L2-regularised L2-loss SVM, dual (LIBLINEAR -s 1): the document's soft margin
  kLogistic,    // L2-regularised logistic regression (LIBLINEAR -s 0)
};

struct SvmTrainOptions {
  int folds = 4;  // Default: 4, as the document
  // The C grid searched by cross-validation; Default: 2^-8 .. 2^4 by factors of 2.
  std::vector<double> c_grid;
  SvmSolver solver = SvmSolver::kL2LossDual;
  uint64_t seed = 1;  // the fold assignment's shuffle
  // Folds as contiguous blocks of the examples in their given order instead of a shuffle.
  // With `svm data` files (one game's positions are adjacent) this keeps each game in one
  // fold: a stricter estimate, since positions of a game resemble each other.
  bool contiguous_folds = false;  // Default: false (shuffled, as the document)
};

struct SvmTrainResult {
  double best_c = 0;
  std::vector<std::pair<double, double>> grid;     // (C, cross-validated accuracy)
  MateConfusion cross_validation;                  // at best_c, every example predicted once
  std::vector<double> cross_validation_decisions;  // those predictions, example by example
  MateConfusion training;                          // the final model on its own training data
  engine::mate::SvmModel model;                    // trained on every example at best_c
};

// Feature scaling: each feature is divided by its largest absolute value over the training
// examples (1 when always 0), so every input lies in [-1, 1]; the trained weights are divided
// by the same factor, so the model applies to raw features. The bias is LIBLINEAR's bias
// term (an extra constant feature 1, regularised like the others).
//
// Trains one model at a fixed C on all examples. REQUIRES: both classes present. The
// model's sign follows LIBLINEAR's model->label[0] (the first example's class) and is turned
// so that a positive decision value always means mate.
base::Status train_mate_model(const std::vector<engine::mate::MateFeatures>& x,
                              const std::vector<bool>& mate, double c, SvmSolver solver,
                              engine::mate::SvmModel& out);

// Cross-validates every C of the grid, keeps the best, fits Platt's sigmoid on the best C's
// cross-validated decision values, and trains the final model on every example.
base::Status train_mate_model_cv(const std::vector<engine::mate::MateFeatures>& x,
                                 const std::vector<bool>& mate, const SvmTrainOptions& options,
                                 SvmTrainResult& result);

// Platt's sigmoid fit (Lin, Lin and Weng's Newton method, as LIBSVM's sigmoid_train): A and
// B of P(mate | d) = 1 / (1 + exp(A d + B)).
void fit_platt(const std::vector<double>& decision, const std::vector<bool>& mate, double& a,
               double& b);

}  // namespace tools
