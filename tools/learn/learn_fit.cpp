// Value fitting: engine games' search values and results, cross-entropy, AdaGrad.
#include "tools/learn/learn_fit.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <random>

#include "book/import_records.h"
#include "shogi/csa_files.h"
#include "shogi/csa_record.h"
#include "tools/common/parallel_for.h"
#include "tools/common/progress_bar.h"

namespace tools {

using base::Status;
using shogi::Move;
using shogi::Position;
namespace eval = engine::eval;

namespace {

constexpr int kFeatures = eval::kFeatureCount;

// Cross-entropy H(t, q) less its minimum H(t, t).
double excess_cross_entropy(double t, double q) {
  auto h = [](double t, double q) {
    q = std::clamp(q, 1e-12, 1 - 1e-12);
    return -(t * std::log(q) + (1 - t) * std::log(1 - q));
  };
  return h(t, q) - h(t, t);
}

enum class ValueComment { kNone, kValue, kNoValue };

// Reads a value comment (see collect_value_samples): kValue with *black_cp set, kNoValue for
// a mate or "?", kNone when the comment is not one; an error for a malformed value.
Status read_value_comment(const std::string& comment, ValueComment& kind, double* black_cp) {
  kind = ValueComment::kNone;
  size_t start;
  if (comment.rfind("** ", 0) == 0)
    start = 3;
  else if (comment.rfind("* ", 0) == 0)
    start = 2;
  else
    return Status::ok();
  const size_t end = comment.find(' ', start);
  const std::string word = comment.substr(start, end == std::string::npos ? end : end - start);
  if (word == "?" || word.rfind("+M", 0) == 0 || word.rfind("-M", 0) == 0) {
    kind = ValueComment::kNoValue;
    return Status::ok();
  }
  const char* first = word.data() + (word.rfind('+', 0) == 0 ? 1 : 0);
  const char* last = word.data() + word.size();
  int value = 0;
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (word.empty() || ec != std::errc() || ptr != last)
    return Status::error("value '" + word + "' is not a number");
  kind = ValueComment::kValue;
  *black_cp = value;
  return Status::ok();
}

bool held_out(const FitOptions& o, const ValueSample& s) {
  return o.holdout_every > 0 && s.group % o.holdout_every == o.holdout_every - 1;
}

double target_of(const FitOptions& o, const ValueSample& s) {
  return o.lambda * sigmoid(s.value_cp / o.scale_cp) + (1 - o.lambda) * s.result;
}

// The search phase: every sample's leaf with the current weights, and the measures.
FitStats search_leaves(const FitOptions& o, const std::vector<ValueSample>& samples,
                       const std::vector<double>& w, std::vector<RawFeatures>& leaves,
                       std::vector<char>& usable, int iteration, bool show_progress) {
  const auto start = std::chrono::steady_clock::now();
  const eval::Weights weights = weights_from_doubles(w);
  leaves.assign(samples.size(), RawFeatures());
  usable.assign(samples.size(), 0);
  ProgressBar bar(std::cerr, int64_t(samples.size()), show_progress, "samples");
  parallel_for_with_progress<SearchThread>(
      samples.size(), o.threads, bar, "iteration " + std::to_string(iteration) + " search",
      [&](SearchThread& thread, size_t i) {
        Position& pos = thread.pos;
        if (!pos.set(samples[i].setup)) return;
        const shogi::Color mover = pos.side_to_move();
        const MoveLeaf leaf =
            search_move_leaf(pos, thread.evaluator, weights, samples[i].move, o.quiescence_depth);
        if (leaf.mated) return;
        pos.do_move(leaf.move);
        for (Move m : leaf.pv) pos.do_move(m);
        collect_raw_features(pos, mover, leaves[i]);
        for (size_t k = 0; k <= leaf.pv.size(); ++k) pos.undo_move();
        leaves[i].entries.shrink_to_fit();
        usable[i] = 1;
      });
  bar.finish();

  FitStats s;
  s.iteration = iteration;
  for (size_t i = 0; i < samples.size(); ++i) {
    if (!usable[i]) continue;
    const double q = sigmoid(raw_value(w.data(), leaves[i]) / o.scale_cp);
    const double loss = excess_cross_entropy(target_of(o, samples[i]), q);
    const double brier = (q - samples[i].result) * (q - samples[i].result);
    if (held_out(o, samples[i])) {
      ++s.heldout_samples, s.heldout_loss += loss, s.heldout_brier += brier;
    } else {
      ++s.training_samples, s.loss += loss, s.brier += brier;
    }
  }
  if (s.training_samples) s.loss /= s.training_samples, s.brier /= s.training_samples;
  if (s.heldout_samples) s.heldout_loss /= s.heldout_samples, s.heldout_brier /= s.heldout_samples;
  s.search_s = seconds_since(start);
  return s;
}

void gradient_passes(const FitOptions& o, const std::vector<ValueSample>& samples,
                     const std::vector<RawFeatures>& leaves, const std::vector<char>& usable,
                     int iteration, const std::vector<double>& anchor, std::vector<double>& w,
                     std::vector<double>& sum_squares) {
  std::vector<uint32_t> order;
  std::vector<int> count(kFeatures, 0);
  for (size_t i = 0; i < samples.size(); ++i) {
    if (!usable[i] || held_out(o, samples[i])) continue;
    order.push_back(uint32_t(i));
    for (const RawFeature& e : leaves[i].entries) {
      ++count[e.index];
      if (e.index >= eval::kOpeningOffset) ++count[e.index + eval::kPhaseSize];
    }
  }
  std::vector<double> g(kFeatures);
  const size_t batch = size_t(std::max(1, o.batch));
  for (int pass = 0; pass < o.passes; ++pass) {
    std::mt19937_64 random(o.seed * 1000003u + uint64_t(iteration) * 1009u + uint64_t(pass));
    std::shuffle(order.begin(), order.end(), random);
    for (size_t b = 0; b < order.size(); b += batch) {
      std::fill(g.begin(), g.end(), 0.0);
      const size_t end = std::min(order.size(), b + batch);
      for (size_t k = b; k < end; ++k) {
        const RawFeatures& leaf = leaves[order[k]];
        const double q = sigmoid(raw_value(w.data(), leaf) / o.scale_cp);
        // d H(t, sigmoid(f / s)) / df = (q - t) / s.
        const double d = (q - target_of(o, samples[order[k]])) / o.scale_cp;
        add_raw_gradient(leaf.entries.data(), leaf.entries.size(), leaf.progress_fixed, d,
                         g.data());
      }
      const double inv = 1.0 / double(end - b);
      for (int i = 0; i < kFeatures; ++i) {
        if (g[i] == 0 || count[i] < o.min_count) continue;
        const double gi = g[i] * inv + o.l2 * 2 * (w[i] - anchor[i]) / (100.0 * 100.0);
        sum_squares[i] += gi * gi;
        w[i] -= o.learning_rate * gi / std::sqrt(sum_squares[i]);
        w[i] =
            std::clamp(w[i], -eval::Weights::kMaxAbsCentipawns, eval::Weights::kMaxAbsCentipawns);
      }
    }
  }
}

void log_row(std::ostream* log, const FitStats& s) {
  if (!log) return;
  char line[256];
  std::snprintf(line, sizeof line,
                "iteration %d: loss %.5f (held out %.5f), Brier %.5f (held out %.5f); %d training "
                "/ %d held-out samples; search %.1f s\n",
                s.iteration, s.loss, s.heldout_loss, s.brier, s.heldout_brier, s.training_samples,
                s.heldout_samples, s.search_s);
  *log << line << std::flush;
}

}  // namespace

Status collect_value_samples(const std::string& dir, const ValueSampleOptions& o,
                             std::vector<ValueSample>& out, ValueSampleCounts& counts) {
  counts = {};
  std::vector<std::string> paths;
  if (Status s = shogi::list_csa_files(dir, paths); !s) return s;
  int group = 0;
  for (const std::string& path : paths) {
    shogi::CsaRecord rec;
    if (Status s = shogi::load_csa_record_file(path, rec); !s) return s;
    ++counts.records;
    shogi::Color winner = shogi::kBlack;
    float black_result;
    if (book::record_winner(rec, winner)) {
      ++counts.decided;
      black_result = winner == shogi::kBlack ? 1.0f : 0.0f;
    } else if (rec.result == shogi::CsaSpecialMove::kSennichite ||
               rec.result == shogi::CsaSpecialMove::kJishogi ||
               rec.result == shogi::CsaSpecialMove::kHikiwake ||
               rec.result == shogi::CsaSpecialMove::kMaxMoves) {
      ++counts.drawn;
      black_result = 0.5f;
    } else {
      ++counts.unfinished;
      ++group;
      continue;
    }
    const auto plays = [&o](const std::string& name) {
      return o.player.empty() || name.find(o.player) != std::string::npos;
    };
    const bool black_counts = plays(rec.black_name), white_counts = plays(rec.white_name);
    Position pos;
    if (Status s = pos.set(rec.initial); !s) return Status::error(path + ": " + s.message());
    for (size_t ply = 0; ply < rec.moves.size(); ++ply) {
      const shogi::CsaRecordMove& m = rec.moves[ply];
      for (const std::string& comment : m.comments) {
        ValueComment kind;
        double black_cp = 0;
        if (Status s = read_value_comment(comment, kind, &black_cp); !s)
          return Status::error(path + ": move " + std::to_string(ply + 1) + ": " + s.message());
        if (kind == ValueComment::kNone) continue;
        const bool black = pos.side_to_move() == shogi::kBlack;
        if (kind == ValueComment::kValue && int(ply) >= o.skip_plies &&
            std::abs(black_cp) <= o.max_value_cp && (black ? black_counts : white_counts)) {
          ValueSample sample;
          sample.setup = pos.setup();
          sample.move = m.move;
          sample.value_cp = float(black ? black_cp : -black_cp);
          sample.result = black ? black_result : 1 - black_result;
          sample.group = group;
          out.push_back(sample);
          ++counts.samples;
        }
        break;  // the first value comment only
      }
      pos.do_move(m.move);
    }
    ++group;
  }
  return Status::ok();
}

std::string format_fit_table(const std::vector<FitStats>& stats) {
  std::string table = "iter  loss     heldout_loss  brier    heldout_brier  search_s  passes_s\n";
  for (const FitStats& r : stats) {
    char line[160];
    std::snprintf(line, sizeof line, "%4d  %.5f  %.5f       %.5f  %.5f        %7.1f   %7.1f\n",
                  r.iteration, r.loss, r.heldout_loss, r.brier, r.heldout_brier, r.search_s,
                  r.passes_s);
    table += line;
  }
  return table;
}

Status fit_weights(const FitOptions& o, const std::vector<ValueSample>& samples,
                   const eval::Weights& init, eval::Weights& out, std::vector<FitStats>& stats,
                   std::ostream* log) {
  if (samples.empty()) return Status::error("no samples (moves with value comments)");
  if (o.scale_cp <= 0) return Status::error("the scale must be positive");
  if (o.lambda < 0 || o.lambda > 1) return Status::error("lambda must be within 0 .. 1");
  std::vector<double> w(kFeatures), sum_squares(kFeatures, 0.0), anchor(kFeatures, 0.0);
  for (int i = 0; i < kFeatures; ++i) w[i] = init.get(i);
  if (o.anchor) anchor = w;
  const bool show_progress = o.progress || (log && ProgressBar::stderr_is_terminal());
  std::vector<RawFeatures> leaves;
  std::vector<char> usable;
  stats.clear();
  for (int iteration = 0;; ++iteration) {
    stats.push_back(search_leaves(o, samples, w, leaves, usable, iteration, show_progress));
    log_row(log, stats.back());
    if (iteration >= o.iterations) break;
    const auto start = std::chrono::steady_clock::now();
    gradient_passes(o, samples, leaves, usable, iteration, anchor, w, sum_squares);
    stats.back().passes_s = seconds_since(start);
  }
  out = weights_from_doubles(w);
  return Status::ok();
}

}  // namespace tools
