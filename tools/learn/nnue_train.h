// Training the NNUE evaluation on gensfen data: Adam on a mix of teacher value, search value
// and game result, a held-out loss per epoch, checkpoints to resume from, the quantised network
// written out.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "base/status.h"
#include "tools/learn/nnue_model.h"

namespace tools {

struct NnueTrainOptions {
  std::vector<std::string> data;  // gensfen files, or directories of them (*.bin, sorted)
  std::string out;                // the network file: the epoch of the file's lowest held-out loss
  std::string checkpoint;         // "" = out + ".ckpt"
  bool resume = false;            // go on from the checkpoint (same data and settings)
  std::string init;               // "": seeded weights; a network file: start from it
  int threads = 1;                // each batch's positions split among them
  // false: the feature rows of each king bucket stay 0 (or the --init network's) and only
  // the rows shared by every bucket learn: a network with the capacity of one without king
  // buckets, in the same file (for data too small for twelve buckets).
  bool bucket_rows = true;
  int epochs = 20;
  int batch = 1024;
  double learning_rate = 1e-3;
  double learning_rate_decay = 0.95;  // per epoch
  // The target: teacher * sigmoid(teacher's value / scale) + (1 - teacher) * (lambda *
  // sigmoid(search value / scale) + (1 - lambda) * result (1, 0.5, 0)), and the prediction
  // sigmoid(net's centipawns / scale), under cross-entropy. teacher > 0 leaves out the
  // positions osl_label has not labelled.
  double teacher = 0;
  double lambda = 0.7;
  double sigmoid_scale = 600;
  double holdout = 0.05;  // this share of the positions, the last ones read, is held out
  int max_value = 32000;  // positions searched (or labelled) to more than this are left out
  // > 0: labelled positions whose teacher's quiescence value and static value differ by more
  // than this (centipawns: a capture sequence pending) are left out.
  int quiet_margin = 0;
  // Training positions (evenly spread) whose activations the rounding to the file's integers
  // is fitted to (nnue_quantise.h); 0: plain rounding.
  int calibration = 30000;
  uint64_t seed = 1;
  bool progress = false;  // a progress bar on stderr
};

struct NnueEpochReport {
  int epoch = 0;                      // 1-based
  double train_loss = 0;              // cross-entropy less the targets' own entropy (0 is exact)
  double holdout_loss = 0;            // the same, on the held-out positions, float model
  double holdout_loss_quantised = 0;  // with the engine's integer evaluation of the epoch's file
  double learning_rate = 0;
  double seconds = 0;
  double positions_per_second = 0;
  bool written = false;  // its quantised held-out loss is the lowest so far: it is the output
};

struct NnueTrainSummary {
  int64_t positions = 0, train_positions = 0, holdout_positions = 0, left_out = 0;
  int64_t left_out_unlabelled = 0, left_out_not_quiet = 0;  // of left_out
  int64_t left_out_duplicates = 0;  // of left_out: a position already read (the first kept)
  int first_epoch = 1;              // 1, or the epoch after the checkpoint's
  // The scale that best predicts the game results from the search values on the training
  // positions (sigmoid(value / scale)), for choosing sigmoid_scale.
  double fitted_result_scale = 0;
  double fitted_teacher_scale = 0;  // the same of the teacher's values (0: none labelled)
  // The --init network's held-out loss (its file's values, as holdout_loss_quantised), what a
  // warm start has to beat; -1 without --init or held-out positions.
  double init_holdout_loss = -1;
  std::vector<NnueEpochReport> epochs;
};

// Trains; `on_loaded` is called once the data is read and the summary's counts, scales and
// initial loss are known (before the first epoch), `on_epoch` after every epoch (its files are
// then written). Errors: unreadable or damaged data (naming the file and record), no positions, an
// unwritable output, a checkpoint that does not match the data or settings.
base::Status train_nnue(const NnueTrainOptions& options, NnueTrainSummary& summary,
                        const std::function<void(const NnueEpochReport&)>& on_epoch = {},
                        const std::function<void()>& on_loaded = {});

// The float model a checkpoint of train_nnue holds (the parameters only: the checkpoint of any
// trainer version since 2). Errors name the path: unreadable, not a checkpoint, another shape.
base::Status read_nnue_checkpoint(const std::string& path, NnueModel& model);

// `sashite nnue train`: trains, printing on `out` the SIMD in use, the data's counts, a
// tab-separated line per epoch and "wrote FILE".
base::Status run_nnue_train(const NnueTrainOptions& options, std::ostream& out);

}  // namespace tools
