// Value fitting of the evaluation weights: the search values and results of engine games.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "base/status.h"
#include "engine/eval/weights.h"
#include "shogi/position.h"
#include "shogi/types.h"
#include "tools/learn/learn_search.h"

namespace tools {

// A move of an engine game with what the engine said of it: the position before the move,
// the move, the engine's search value (centipawns, for the side that moved) and how the game
// ended for that side. `group` numbers the game: held-out sets are whole games.
struct ValueSample {
  shogi::PositionSetup setup;
  shogi::Move move = shogi::kMoveNone;
  float value_cp = 0;
  float result = 0.5f;  // 1 the mover won, 0 it lost, 0.5 a draw
  int group = 0;
};

// Which record moves become samples.
struct ValueSampleOptions {
  int skip_plies = 0;       // moves before this ply are left out
  int max_value_cp = 3000;  // moves whose value is beyond +-this (or a mate) are left out
  // Non-empty: only the moves of a side whose name (N+ or N-) contains this, e.g. a stronger
  // program's values in games against ours (distillation). Default: every side.
  std::string player;
};

struct ValueSampleCounts {
  int records = 0;     // .csa files read (also those where `player` plays neither side)
  int decided = 0;     // with a winner
  int drawn = 0;       // repetition, impasse, agreed draw or the move limit
  int unfinished = 0;  // no result (suspended, error, none): not used
  size_t samples = 0;
};

// Every move with a value comment of every finished .csa record under `dir` (a directory,
// searched recursively, paths sorted; or one file), each record one group, numbered from 0
// in path order. A value comment is the first comment after the move that starts "** "
// (sashite match) or "* " (floodgate), then the value from Black's point of view:
// "** 30 depth 7 nodes 10134", "* -120 -3334FU". Mates ("+M5", "-M"), "?" and moves without
// such a comment give no sample. Unreadable records and malformed values are errors naming
// the file and the move ("g0001.csa: move 14: value '3x' is not a number").
base::Status collect_value_samples(const std::string& dir, const ValueSampleOptions& o,
                                   std::vector<ValueSample>& out, ValueSampleCounts& counts);

// How to fit. The objective, over the training samples, is the cross-entropy
//   J(w) = (1/N) sum over samples of H(t, q) + l2 * sum_i (w_i / 100)^2   (see `anchor`)
//   q = sigmoid(f / scale_cp),  t = lambda * sigmoid(v / scale_cp) + (1 - lambda) * r
// where f is the evaluation, from the mover's point of view, of the PV leaf of the sample's
// move (the move plus a quiescence search: tools/learn/learn_search.h), v the engine's search value
// and r the result for the mover. One iteration = search every sample's leaf with the current
// weights, then `passes` passes of mini-batch AdaGrad (as in learn_train.h). Weights of
// features active in fewer than min_count training leaves are not changed.
struct FitOptions {
  int iterations = 2;          // Default: 2
  int passes = 3;              // Default: 3
  double learning_rate = 0.5;  // AdaGrad step scale, centipawns. Default: 0.5
  double scale_cp = 600;       // Default: 600
  double lambda = 0.5;         // the search value's share of the target. Default: 0.5
  double l2 = 1e-4;            // Default: 1e-4
  // The L2 penalty pulls toward the initial weights, (w_i - init_i)^2, instead of toward 0:
  // a fit that stays near weights learned otherwise (comparison training). Default: false.
  bool anchor = false;
  int min_count = 10;      // Default: 10
  int holdout_every = 10;  // group % holdout_every == holdout_every - 1 held out; 0: none
  int batch = 256;         // samples per AdaGrad step. Default: 256
  int quiescence_depth = kDefaultQuiescenceDepth;
  int threads = 2;
  uint64_t seed = 1;
  bool progress = false;  // a progress bar on stderr (also when stderr is a terminal)
};

// The measures of one iteration with the weights at its start. The losses are the mean
// cross-entropy less its minimum (the target's own entropy): 0 for a perfect fit. The Brier
// score is the mean of (q - r)^2: how well the evaluation alone predicts the results.
struct FitStats {
  int iteration = 0;
  double loss = 0, heldout_loss = 0;
  double brier = 0, heldout_brier = 0;
  int training_samples = 0, heldout_samples = 0;
  double search_s = 0, passes_s = 0;
};

// The table `learn fit` prints and keeps in the weight file's header, one line per row.
std::string format_fit_table(const std::vector<FitStats>& stats);

// Fits from `init` over `samples` and writes the result to `out` (its header left empty).
// One row per search in `stats` (iteration 0 = the initial weights). Deterministic: the
// searches do not depend on the thread count, the passes are single-threaded in a seeded
// order. Progress lines go to `log` (may be null).
base::Status fit_weights(const FitOptions& o, const std::vector<ValueSample>& samples,
                         const engine::eval::Weights& init, engine::eval::Weights& out,
                         std::vector<FitStats>& stats, std::ostream* log);

}  // namespace tools
