// `sashite learn curve`: the evaluation curve of docs/techniques.md §5 (win rate of the side
// to move per evaluation bucket over the positions of decided games), its summary numbers, the
// agreement rate with the record moves, and the gnuplot plot.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "base/status.h"

namespace tools {

// What `sashite learn curve` is asked to do. Defaults are those of the command line.
struct CurveOptions {
  std::string records_dir;  // CSA records under it, recursively (sorted by path)
  // A weight file, an NNUE network (*.nnue), "default" or "linear" (as the engine's EvalFile
  // takes them: the shipped network, the shipped linear weights) or "hand-set"
  // (eval::Weights::hand_set()). Default: "default".
  std::string weights = "default";
  std::string png_path;     // "": no plot
  int bucket_cp = 100;      // bucket width
  int max_value_cp = 2000;  // values beyond +-this go to two open-ended end buckets
  int min_ply = 0;          // positions before ply N of a record are left out
  // N > 0: only the records that `learn train --holdout-every N` holds out when given the
  // same directory (the N-th, 2N-th, ... by sorted path); 0: all the records.
  int held_out_every = 0;
  // 0: the static evaluation; D > 0: the value of our engine's search to depth D.
  int depth = 0;
  bool agreement = true;            // also measure the agreement rate
  int agreement_depth = 2;          // our engine's search depth for the agreement rate
  int min_bucket_positions = 30;    // buckets with fewer positions are not compared
  int hash_mb = 16;                 // the engine's table for the searches (per thread)
  int threads = 1;                  // records measured side by side, one engine each
  std::string gnuplot = "gnuplot";  // the program run for --png
  bool progress = false;            // draw the progress bar even when stderr is not a terminal
};

// One row of the curve: the positions whose value v is in [low_cp, high_cp). The two end
// buckets are open: low_cp = kOpenLow or high_cp = kOpenHigh.
struct CurveBucket {
  static constexpr int kOpenLow = -1000000;
  static constexpr int kOpenHigh = 1000000;
  int low_cp = 0;
  int high_cp = 0;
  int64_t positions = 0;
  int64_t wins = 0;  // positions whose side to move won the game
  double win_rate() const { return positions > 0 ? double(wins) / double(positions) : 0.0; }
  bool bounded() const { return low_cp != kOpenLow && high_cp != kOpenHigh; }
};

// The Wilson score interval of a proportion wins/n (95% with z = 1.96); [0, 1] when n = 0.
struct Interval {
  double low = 0, high = 1;
};
Interval wilson_interval(int64_t wins, int64_t n, double z = 1.96);

// The win counts per evaluation bucket, and the values seen (for the logistic fit).
// Buckets: (-inf, lo), [lo, lo + w), ..., [hi - w, hi), [hi, +inf) where w = bucket_cp,
// lo = -max_value_cp rounded down and hi = max_value_cp rounded up to multiples of w.
// A plain value type.
class EvaluationCurve {
 public:
  // REQUIRES: bucket_cp >= 1, max_value_cp >= 1.
  EvaluationCurve(int bucket_cp, int max_value_cp);

  void add(int value_cp, bool side_to_move_won);

  // Every bucket, the empty ones included, from the lowest values up.
  const std::vector<CurveBucket>& buckets() const { return buckets_; }
  int64_t positions() const { return positions_; }

  // Monotonicity: among the bounded buckets with at least min_positions positions, in
  // order, the adjacent pairs whose win rate goes down. `pairs` receives how many pairs
  // were compared.
  int inversions(int64_t min_positions, int& pairs) const;

  // The scale s (cp) of the logistic 1 / (1 + exp(-v / s)) that fits the positions best
  // (maximum likelihood, values clamped to +-max_value_cp); 0 when there are no positions.
  // The smaller s, the steeper the curve.
  double logistic_scale() const;

 private:
  int bucket_cp_, max_value_cp_, low_edge_, high_edge_;
  std::vector<CurveBucket> buckets_;
  int64_t positions_ = 0;
  // Per clamped value v + max_value_cp: positions and wins (the fit's sufficient data).
  std::vector<int64_t> value_positions_, value_wins_;
};

// The table: one line per non-empty bucket ("range  positions  wins  win rate  95% interval").
std::string format_curve_table(const EvaluationCurve& curve);

// The gnuplot script that draws the curve to `png_path` (pngcairo when the gnuplot has it,
// else png): the bounded non-empty buckets' win rates with their 95% intervals at the bucket
// centres, and the fitted logistic. Ends with "exit".
std::string curve_gnuplot_script(const EvaluationCurve& curve, const std::string& png_path,
                                 const std::string& title);

// Runs `gnuplot_program` with `script` on its standard input and waits for it (60 s at most).
// Errors say when the program is missing (Debian: gnuplot-nox), or give its exit status and
// what it wrote on stderr.
base::Status run_gnuplot(const std::string& gnuplot_program, const std::string& script);

// What a run counted.
struct CurveStats {
  int records = 0;             // files read
  int records_listed = 0;      // .csa files under the directory (before --held-out-every)
  int records_unreadable = 0;  // files that could not be read or replayed (skipped)
  int records_undecided = 0;   // draws and unfinished games (skipped)
  int64_t positions = 0;       // positions in the curve
  int64_t wins = 0;            // of which the side to move won the game
  int64_t agreement_positions = 0;
  int64_t agreement_matches = 0;  // our engine's move = the record move
  double seconds = 0;             // wall time
};

// Runs `sashite learn curve`: reads the records, evaluates every position of every decided
// game (past min_ply; the positions from which a record move was played), prints the table
// and the summary on `out`, warnings about unreadable records ("learn curve: PATH:LINE:COL:
// ... (skipped)") and the progress bar on `err`, and writes the plot when png_path is set.
// The records are measured on o.threads threads and merged in record order: every number but
// the times is the same for any number of threads.
// Errors: no records directory, weights that cannot be loaded, a failed plot.
base::Status run_learn_curve(const CurveOptions& o, std::ostream& out, std::ostream& err,
                             CurveStats& stats);

}  // namespace tools
