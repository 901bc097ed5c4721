// Comparison training of the evaluation weights from teacher moves (docs/techniques.md §5).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "base/status.h"
#include "engine/eval/weights.h"
#include "tools/learn/learn_data.h"
#include "tools/learn/learn_search.h"

namespace tools {

// How to train. The objective, over the training positions, is
//   J(w) = (1/P) sum over pairs (a, b) of log(1 + exp(-(f(a) - f(b)) / scale_cp))
//          + l1 * sum_i |w_i| / 100 + l2 * sum_i (w_i / 100)^2
// where a is the PV leaf of the teacher move, b the PV leaf of another legal move (1 ply +
// quiescence), f the evaluation from the root mover's point of view (weights in
// centipawns, so the penalties are per pawn) and P the number of pairs. Leaves that are
// mates give no pairs; a position whose teacher leaf is a mate gives none.
// One iteration = search every position with the current weights (PV leaves change with the
// weights), then `passes` passes of mini-batch AdaGrad over the training positions:
//   w_i -= learning_rate * g_i / sqrt(sum of g_i^2 so far)
// with g the batch's mean pair gradient plus the penalties' gradient (applied, lazily, to
// the weights the batch touches). Weights of features active in the kept leaves of fewer
// than min_count training positions (counted anew each iteration) are not changed. Pairs whose
// value difference exceeds window_cp (f(a) - f(b) > window_cp: their loss is below
// exp(-window/scale)) are not kept for the passes; they still count in the reported loss.
// The loss of one position: pairs (docs/techniques.md §5, the default) sums the pair losses
// above; softmax is -log of the teacher leaf's share of exp(f / scale_cp) over all the
// position's leaves (the teacher move's probability of being chosen), one term a position:
// a position counts once however many moves it has, and the gradient goes to the moves
// valued near or above the teacher's (those that take its place as the best). The window
// applies to it too: a leaf window_cp below the teacher's keeps a share of exp(-window/scale)
// that the passes then ignore (700 cp: 1e-5 at scale 60, 0.05 at 240).
enum class LossKind { kPairs, kSoftmax };

struct LearnOptions {
  LossKind loss = LossKind::kPairs;
  int iterations = 10;         // Default: 10
  int passes = 8;              // gradient passes per iteration. Default: 8
  double learning_rate = 4.0;  // AdaGrad step scale, centipawns. Default: 4
  double scale_cp = 60;        // the loss's scale s, centipawns. Default: 60
  double l1 = 0;               // Default: 0
  double l2 = 1e-4;            // Default: 1e-4
  int min_count = 10;          // Default: 10 positions
  int holdout_every = 10;      // group % holdout_every == holdout_every - 1 held out; 0: none
  int batch_positions = 128;   // positions per AdaGrad step. Default: 128
  double window_cp = 700;      // Default: 700
  int quiescence_depth = kDefaultQuiescenceDepth;
  int threatmate_penalty = 0;     // see search_move_leaf; 0 (the default): mates in one unseen
  bool threat_stand_pat = false;  // see search_move_leaf
  int threads = 2;                // searching threads. Default: 2
  uint64_t seed = 1;              // the passes' shuffling
  // Sections that keep their initial weights: a name matches the section of that name and
  // the opening_ and endgame_ sections named after it ("mobility": opening_mobility and
  // endgame_mobility). To measure a new feature group against the evaluation without it
  // (its weights 0 and frozen: the same values as before the group existed).
  std::vector<std::string> frozen;
  std::string checkpoint_dir;  // "" = no checkpoints
  bool resume = false;         // continue from checkpoint_dir's state
  bool progress = false;       // a progress bar on stderr (also when stderr is a terminal)
};

// Checks that every name in o.frozen matches a section; the error names the first that
// does not.
base::Status check_frozen_sections(const LearnOptions& o);

// The measures of one iteration, taken by the search with the weights at its start
// (iteration 0: the initial weights).
struct IterationStats {
  int iteration = 0;
  double loss = 0;          // mean pair loss, training positions
  double heldout_loss = 0;  // the same on held-out positions
  double agreement = 0;     // training positions whose best move is the teacher's
  double heldout_agreement = 0;
  // Per held-out position: (1/n) sum over the n other moves of T(f(b) - f(a)),
  // T(x) = 1 / (1 + exp(-3x/100)), averaged over the positions (0 = always agrees by far).
  double heldout_disagreement = 0;
  // Held-out agreement and positions by the kind of the teacher move (MoveKind): the
  // agreement is the mean over the held-out positions of that kind.
  double heldout_agreement_by_kind[3] = {0, 0, 0};
  int heldout_positions_by_kind[3] = {0, 0, 0};
  int64_t pairs = 0;  // training pairs (all) and those kept for the passes
  int64_t kept_pairs = 0;
  int training_positions = 0;
  int heldout_positions = 0;
  double search_s = 0;  // wall seconds of the search and of the passes that followed
  double passes_s = 0;
};

// The raw features of a position's leaves stored flat (training keeps millions of them):
// leaf i is entries[begins[i], begins[i + 1]) with progress[i] and the constant bonus[i]
// (MoveLeaf::bonus). Leaf 0 is the teacher's.
struct LeafSet {
  std::vector<RawFeature> entries;
  std::vector<uint32_t> begins{0};
  std::vector<uint16_t> progress;
  std::vector<int16_t> bonus;

  size_t size() const { return progress.size(); }
  void add(const RawFeatures& f, shogi::Value leaf_bonus);
  double value(const double* w, size_t i) const {
    return raw_value(w, entries.data() + begins[i], begins[i + 1] - begins[i], progress[i]) +
           bonus[i];
  }
  void clear() { *this = LeafSet(); }
};

// The kinds of teacher moves the statistics tell apart: a board move that captures, a
// board move that does not (promotions included), a drop.
enum MoveKind { kCaptureMove = 0, kQuietMove = 1, kDropMove = 2 };
inline constexpr const char* kMoveKindNames[3] = {"capture", "quiet", "drop"};
MoveKind move_kind(const shogi::Position& pos, shogi::Move m);

// A position's outcome under the shallow search: what the statistics need.
struct PositionMeasure {
  double loss = 0;  // summed over the position's pairs (softmax: the position's one term)
  int pairs = 0;
  int terms = 0;               // loss terms: pairs, or 1 for softmax
  double agreement = 0;        // 1 / (number of moves tied at the best) when the teacher's is best
  double disagreement = 0;     // mean over the other moves of T(f(b) - f(a))
  bool counted = false;        // false when the teacher move is not legal or the only move
  MoveKind kind = kQuietMove;  // the teacher move's
};

// The per-kind part of a row's log line: "held-out agreement by teacher move: capture
// 65.01% (1166 positions, 28.4%), quiet 17.83% (2092 positions, 50.9%), drop 19.19% (851
// positions, 20.7%)" (the percentages in parentheses: shares of the held-out positions).
std::string format_kind_agreement(const IterationStats& s);

// The table `learn train` prints and keeps in the weight file's header: one line per row
// (iteration, losses, agreements, held-out disagreement, seconds, then the held-out
// agreement of capture, quiet and drop teacher moves), and a last line with the kinds'
// shares of the held-out positions.
std::string format_stats_table(const std::vector<IterationStats>& stats);

// Searches every legal move of `pos` (1 ply + quiescence with `w`, evaluated by `evaluator`
// as search_move_leaf says), measures the position against `teacher` with values from `wd`
// (doubles, the training weights), and, when `leaves` is not null, appends the raw features
// of the teacher's leaf then of the other moves' leaves inside the window (none when the
// teacher leaf is a mate).
PositionMeasure measure_position(shogi::Position& pos,
                                 engine::eval::IncrementalEvaluator& evaluator, shogi::Move teacher,
                                 const engine::eval::Weights& w, const double* wd,
                                 const LearnOptions& o, LeafSet* leaves);

// The loss of one position whose teacher leaf is valued va and whose other leaves are valued
// `others` (centipawns, the mover's view); with d, also d[i] = scale_cp * dL/d(others[i])
// (the teacher leaf's is minus their sum).
double position_loss(double va, const std::vector<double>& others, double scale_cp, LossKind kind,
                     std::vector<double>* d);

// The gradient of the loss of one position with respect to the weights, added into
// `gradient` scaled by `scale`; leaves[0] is the teacher's. Returns the position's loss
// (pairs: summed over its pairs).
double add_position_gradient(const LeafSet& leaves, const double* w, double scale_cp, double scale,
                             double* gradient, LossKind loss = LossKind::kPairs);
// The number of loss terms of a position with these leaves (pairs, or 1 for softmax).
inline int64_t loss_terms(const LeafSet& leaves, LossKind loss) {
  return leaves.size() < 2 ? 0 : loss == LossKind::kSoftmax ? 1 : int64_t(leaves.size()) - 1;
}

// Trains from `init` over `positions` (held-out groups by o.holdout_every) and writes the
// result to `out` (its header left empty: the caller writes what was run). One row per
// search in `stats` (iteration 0 = the initial weights, then one per iteration). With a
// checkpoint directory, after every iteration writes `state.bin` (exact training state) and
// `weights.eval` there; with o.resume continues from state.bin, giving the same result as
// an uninterrupted run (the searches are deterministic and the passes single-threaded in a
// seeded order). Progress lines go to `log` (may be null).
base::Status train_weights(const LearnOptions& o, const std::vector<TrainingPosition>& positions,
                           const engine::eval::Weights& init, engine::eval::Weights& out,
                           std::vector<IterationStats>& stats, std::ostream* log);

}  // namespace tools
