// `sashite learn curve`: buckets, the Wilson interval, the logistic fit, the table, the gnuplot
// script, and the run over the records.
#include "tools/learn/learn_curve.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "base/child_process.h"
#include "base/shipped_file.h"
#include "book/import_records.h"
#include "engine/engine.h"
#include "engine/eval/evaluate.h"
#include "engine/eval/weights.h"
#include "engine/nnue/evaluator.h"
#include "engine/nnue/network.h"
#include "shogi/csa_files.h"
#include "shogi/csa_record.h"
#include "shogi/notation.h"
#include "shogi/position.h"
#include "tools/common/parallel_for.h"
#include "tools/common/progress_bar.h"
#include "tools/learn/learn_data.h"

namespace tools {

using base::Status;
namespace fs = std::filesystem;

Interval wilson_interval(int64_t wins, int64_t n, double z) {
  if (n <= 0) return {0.0, 1.0};
  const double p = double(wins) / double(n), nn = double(n), z2 = z * z;
  const double centre = (p + z2 / (2 * nn)) / (1 + z2 / nn);
  const double half = z / (1 + z2 / nn) * std::sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

namespace {

int floor_div(int a, int b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

}  // namespace

EvaluationCurve::EvaluationCurve(int bucket_cp, int max_value_cp)
    : bucket_cp_(std::max(1, bucket_cp)), max_value_cp_(std::max(1, max_value_cp)) {
  low_edge_ = floor_div(-max_value_cp_, bucket_cp_) * bucket_cp_;
  high_edge_ = -floor_div(-max_value_cp_, bucket_cp_) * bucket_cp_;
  buckets_.push_back({CurveBucket::kOpenLow, low_edge_});
  for (int low = low_edge_; low < high_edge_; low += bucket_cp_)
    buckets_.push_back({low, low + bucket_cp_});
  buckets_.push_back({high_edge_, CurveBucket::kOpenHigh});
  value_positions_.assign(size_t(2 * max_value_cp_ + 1), 0);
  value_wins_.assign(size_t(2 * max_value_cp_ + 1), 0);
}

void EvaluationCurve::add(int value_cp, bool side_to_move_won) {
  size_t index;
  if (value_cp < low_edge_)
    index = 0;
  else if (value_cp >= high_edge_)
    index = buckets_.size() - 1;
  else
    index = size_t(1 + (value_cp - low_edge_) / bucket_cp_);
  CurveBucket& b = buckets_[index];
  ++b.positions;
  b.wins += side_to_move_won;
  ++positions_;
  const int clamped = std::clamp(value_cp, -max_value_cp_, max_value_cp_);
  ++value_positions_[size_t(clamped + max_value_cp_)];
  value_wins_[size_t(clamped + max_value_cp_)] += side_to_move_won;
}

int EvaluationCurve::inversions(int64_t min_positions, int& pairs) const {
  pairs = 0;
  int inverted = 0;
  const CurveBucket* previous = nullptr;
  for (const CurveBucket& b : buckets_) {
    if (!b.bounded() || b.positions < std::max<int64_t>(1, min_positions)) continue;
    if (previous) {
      ++pairs;
      inverted += b.win_rate() < previous->win_rate();
    }
    previous = &b;
  }
  return inverted;
}

double EvaluationCurve::logistic_scale() const {
  if (positions_ == 0) return 0;
  // The log-likelihood is concave in beta = 1/s (a logistic regression without intercept):
  // a golden-section search over beta finds its maximum.
  const auto log_likelihood = [&](double beta) {
    double sum = 0;
    for (size_t i = 0; i < value_positions_.size(); ++i) {
      if (value_positions_[i] == 0) continue;
      const double x = beta * (double(i) - max_value_cp_);
      // log sigmoid(x) = -log(1 + e^-x), computed stably.
      const double log_p = -(std::max(0.0, -x) + std::log1p(std::exp(-std::fabs(x))));
      const double log_q = -(std::max(0.0, x) + std::log1p(std::exp(-std::fabs(x))));
      sum += double(value_wins_[i]) * log_p + double(value_positions_[i] - value_wins_[i]) * log_q;
    }
    return sum;
  };
  double a = 1e-6, b = 0.1;
  const double g = (std::sqrt(5.0) - 1) / 2;
  double c = b - g * (b - a), d = a + g * (b - a);
  double fc = log_likelihood(c), fd = log_likelihood(d);
  for (int i = 0; i < 100; ++i) {
    if (fc > fd) {
      b = d, d = c, fd = fc;
      c = b - g * (b - a), fc = log_likelihood(c);
    } else {
      a = c, c = d, fc = fd;
      d = a + g * (b - a), fd = log_likelihood(d);
    }
  }
  return 1.0 / ((a + b) / 2);
}

namespace {

std::string bucket_range(const CurveBucket& b) {
  char text[64];
  if (b.low_cp == CurveBucket::kOpenLow)
    std::snprintf(text, sizeof text, "< %d", b.high_cp);
  else if (b.high_cp == CurveBucket::kOpenHigh)
    std::snprintf(text, sizeof text, ">= %d", b.low_cp);
  else
    std::snprintf(text, sizeof text, "[%d, %d)", b.low_cp, b.high_cp);
  return text;
}

}  // namespace

std::string format_curve_table(const EvaluationCurve& curve) {
  std::string table;
  char line[160];
  std::snprintf(line, sizeof line, "%-16s %10s %10s %9s  %s\n", "eval (cp)", "positions", "wins",
                "win rate", "95% interval");
  table += line;
  for (const CurveBucket& b : curve.buckets()) {
    if (b.positions == 0) continue;
    const Interval ci = wilson_interval(b.wins, b.positions);
    std::snprintf(line, sizeof line, "%-16s %10lld %10lld %9.3f  [%.3f, %.3f]\n",
                  bucket_range(b).c_str(), (long long)b.positions, (long long)b.wins, b.win_rate(),
                  ci.low, ci.high);
    table += line;
  }
  return table;
}

namespace {

// A gnuplot single-quoted string: ' is written ''.
std::string gnuplot_quote(const std::string& text) {
  std::string q = "'";
  for (char c : text) q += c == '\'' ? std::string("''") : std::string(1, c);
  return q + "'";
}

}  // namespace

std::string curve_gnuplot_script(const EvaluationCurve& curve, const std::string& png_path,
                                 const std::string& title) {
  std::ostringstream s;
  const double scale = curve.logistic_scale();
  s << "# sashite learn curve: win rate of the side to move per evaluation bucket\n"
       "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
       "  set terminal pngcairo size 960,640 font 'sans,10'\n"
       "} else {\n"
       "  set terminal png size 960,640\n"
       "}\n";
  s << "set output " << gnuplot_quote(png_path) << "\n";
  s << "set title " << gnuplot_quote(title) << "\n";
  s << "set xlabel 'evaluation for the side to move (cp, bucket centre)'\n"
       "set ylabel 'win rate of the side to move'\n"
       "set yrange [0:1]\n"
       "set grid\n"
       "set key left top\n";
  s << "$curve << EOD\n";
  char line[128];
  for (const CurveBucket& b : curve.buckets()) {
    if (!b.bounded() || b.positions == 0) continue;
    const Interval ci = wilson_interval(b.wins, b.positions);
    std::snprintf(line, sizeof line, "%g %.4f %.4f %.4f %lld\n", (b.low_cp + b.high_cp) / 2.0,
                  b.win_rate(), ci.low, ci.high, (long long)b.positions);
    s << line;
  }
  s << "EOD\n";
  s << "plot $curve using 1:2:3:4 with yerrorbars pt 7 ps 0.6 title 'win rate (95% interval)', \\\n"
       "     $curve using 1:2 with lines notitle";
  if (scale > 0) {
    std::snprintf(line, sizeof line, "%.1f", scale);
    s << ", \\\n     1 / (1 + exp(-x / " << line << ")) title 'logistic fit, scale " << line
      << " cp'";
  }
  s << "\nunset output\nexit\n";
  return s.str();
}

Status run_gnuplot(const std::string& gnuplot_program, const std::string& script) {
  std::error_code ec;
  const fs::path stderr_path =
      fs::temp_directory_path(ec) / ("sashite-gnuplot-" + std::to_string(::getpid()) + ".err");
  base::ChildProcess gnuplot;
  if (Status s = gnuplot.start({gnuplot_program}, {}, stderr_path.string()); !s)
    return Status::error(s.message() +
                         " (--png needs gnuplot; on Debian: apt-get install gnuplot-nox)");
  std::istringstream lines(script);
  bool written = true;
  for (std::string line; written && std::getline(lines, line);) written = gnuplot.write_line(line);
  const bool exited =
      gnuplot.wait_exit(base::ChildProcess::Clock::now() + std::chrono::seconds(60));
  if (!exited) gnuplot.kill();
  const std::string how = exited ? gnuplot.exit_description() : "did not finish within 60 s";
  std::string messages;
  {
    std::ifstream in(stderr_path);
    std::ostringstream text;
    text << in.rdbuf();
    messages = text.str();
  }
  fs::remove(stderr_path, ec);
  while (!messages.empty() && (messages.back() == '\n' || messages.back() == ' '))
    messages.pop_back();
  if (how != "exited with status 0" || !written)
    return Status::error(gnuplot_program + " " + how + (messages.empty() ? "" : ": " + messages));
  return Status::ok();
}

namespace {

// The evaluation a run values with, and the file our engine loads it from (EvalFile): linear
// weights, or an NNUE network (a *.nnue file, as EvalFile takes it); the hand-set weights go
// through a temporary file, removed by the destructor.
class CurveWeights {
 public:
  ~CurveWeights() {
    std::error_code ec;
    if (!temporary_.empty()) fs::remove(temporary_, ec);
  }
  Status load(const std::string& choice) {
    if (choice == "hand-set") {
      weights_ = engine::eval::Weights::hand_set();
      description_ = "hand-set weights";
      std::error_code ec;
      temporary_ =
          (fs::temp_directory_path(ec) / ("sashite-curve-" + std::to_string(::getpid()) + ".eval"))
              .string();
      eval_file_ = temporary_;
      return weights_.save(temporary_);
    }
    eval_file_ = base::resolve_eval_file(choice);
    if (base::is_network_file(eval_file_)) {
      description_ = "network " + eval_file_;
      network_ = std::make_unique<engine::nnue::Network>();
      return network_->load(eval_file_);
    }
    description_ = "weights " + eval_file_;
    return weights_.load(eval_file_);
  }
  // The static value of pos for its side to move.
  shogi::Value value(const shogi::Position& pos) const {
    return network_ ? engine::nnue::evaluate(pos, *network_)
                    : engine::eval::evaluate(pos, weights_);
  }
  const std::string& eval_file() const { return eval_file_; }
  const std::string& description() const { return description_; }

 private:
  engine::eval::Weights weights_;
  std::unique_ptr<engine::nnue::Network> network_;
  std::string eval_file_, description_, temporary_;
};

// Our engine, searching record positions (with their history: repetitions count) to a depth.
class CurveSearcher {
 public:
  Status start(const CurveOptions& o, const std::string& eval_file) {
    if (Status s = engine_.set_option("Threads", "1"); !s) return s;
    if (Status s = engine_.set_option("USI_Hash", std::to_string(o.hash_mb)); !s) return s;
    if (Status s = engine_.set_option("USI_OwnBook", "false"); !s) return s;
    if (Status s = engine_.set_option("EvalFile", eval_file); !s) return s;
    return engine_.prepare();
  }
  void new_game() { engine_.new_game(); }
  Status search(const std::string& root_sfen, const std::vector<std::string>& moves, int depth,
                engine::SearchResult& result) {
    if (Status s = engine_.set_position(root_sfen, moves); !s) return s;
    engine::SearchLimits limits;
    limits.depth = depth;
    result = engine_.search(limits);
    return Status::ok();
  }

 private:
  engine::Engine engine_;
};

// What one record gave, kept apart so that records can be measured on several threads and
// merged in record order.
struct RecordResult {
  enum class Outcome { kCounted, kUnreadable, kUndecided, kFailed };
  Outcome outcome = Outcome::kCounted;
  std::string message;  // kUnreadable: the reader's error; kFailed: the search's
  std::vector<std::pair<int, bool>> values;  // per position: value, side to move won
  int64_t wins = 0, agreement_positions = 0, agreement_matches = 0;
  double search_seconds = 0;
};

// One thread's searcher, started at its first record (no searcher when nothing is searched).
struct CurveThread {
  std::unique_ptr<CurveSearcher> searcher;
  Status started;
  bool tried = false;
};

// Values (and searches, for the agreement) every position of one record. The searcher starts
// each record from a new game (an empty table and histories), so a record's result does not
// depend on which thread measured it or what that thread measured before.
RecordResult measure_record(const std::string& file, const CurveOptions& o,
                            const CurveWeights& weights, CurveSearcher* searcher) {
  RecordResult r;
  shogi::CsaRecord record;
  base::Status read = shogi::load_csa_record_file(file, record);
  shogi::Position pos;
  if (read) read = pos.set(record.initial);
  if (!read) {
    r.outcome = RecordResult::Outcome::kUnreadable;
    r.message = read.message();
    return r;
  }
  shogi::Color winner;
  if (!book::record_winner(record, winner)) {
    r.outcome = RecordResult::Outcome::kUndecided;
    return r;
  }
  auto fail = [&](size_t ply, const Status& s) {
    r.outcome = RecordResult::Outcome::kFailed;
    r.message = file + ": ply " + std::to_string(ply) + ": " + s.message();
    return r;
  };
  const std::string root_sfen = pos.sfen();
  std::vector<std::string> history;
  if (searcher) searcher->new_game();
  for (size_t ply = 0; ply < record.moves.size(); ++ply) {
    const shogi::Move played = record.moves[ply].move;
    if (int(ply) >= o.min_ply) {
      const bool won = pos.side_to_move() == winner;
      r.wins += won;
      engine::SearchResult result;
      bool searched = false;
      const auto search_start = std::chrono::steady_clock::now();
      if (o.depth > 0) {
        if (Status s = searcher->search(root_sfen, history, o.depth, result); !s)
          return fail(ply, s);
        searched = true;
        r.values.emplace_back(result.score, won);
      } else {
        r.values.emplace_back(weights.value(pos), won);
      }
      if (o.agreement) {
        if (!searched || o.agreement_depth != o.depth)
          if (Status s = searcher->search(root_sfen, history, o.agreement_depth, result); !s)
            return fail(ply, s);
        ++r.agreement_positions;
        r.agreement_matches +=
            result.kind == engine::SearchResult::Kind::kMove &&
            shogi::format_usi_move(result.best) == shogi::format_usi_move(played);
      }
      if (searcher)
        r.search_seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - search_start).count();
    }
    history.push_back(shogi::format_usi_move(played));
    pos.do_move(played);
  }
  return r;
}

}  // namespace

Status run_learn_curve(const CurveOptions& o, std::ostream& out, std::ostream& err,
                       CurveStats& stats) {
  stats = {};
  const auto start = std::chrono::steady_clock::now();
  if (o.bucket_cp < 1) return Status::error("--bucket must be at least 1 cp");
  if (o.max_value_cp < 1) return Status::error("--max-value must be at least 1 cp");
  if (o.threads < 1) return Status::error("--threads must be at least 1");
  std::vector<std::string> files;
  if (Status s = shogi::list_csa_files(o.records_dir, files); !s) return s;
  if (files.empty()) return Status::error(o.records_dir + ": no .csa records under it");
  stats.records_listed = int(files.size());
  if (o.held_out_every > 0) {
    std::vector<std::string> held_out;
    for (size_t i = 0; i < files.size(); ++i)
      if (is_held_out_group(int(i), o.held_out_every)) held_out.push_back(files[i]);
    if (held_out.empty())
      return Status::error(o.records_dir + ": no held-out records (" +
                           std::to_string(files.size()) + " records, fewer than " +
                           std::to_string(o.held_out_every) + ")");
    files = std::move(held_out);
  }
  CurveWeights weights;
  if (Status s = weights.load(o.weights); !s) return s;
  const bool searching = o.depth > 0 || o.agreement;
  if (searching) {  // an engine that cannot start is an error before any record is read
    CurveSearcher probe;
    if (Status s = probe.start(o, weights.eval_file()); !s) return s;
  }

  // Every record on o.threads threads, one engine each; then merged in record order, so the
  // output is the same for any number of threads.
  std::vector<RecordResult> results(files.size());
  {
    ProgressBar bar(err, int64_t(files.size()), o.progress || ProgressBar::stderr_is_terminal(),
                    "records");
    const int threads = int(std::min<size_t>(size_t(o.threads), files.size()));
    parallel_for_with_progress<CurveThread>(
        files.size(), threads, bar, "", [&](CurveThread& thread, size_t i) {
          if (searching && !thread.tried) {
            thread.tried = true;
            thread.searcher = std::make_unique<CurveSearcher>();
            thread.started = thread.searcher->start(o, weights.eval_file());
          }
          if (!thread.started) {
            results[i].outcome = RecordResult::Outcome::kFailed;
            results[i].message = thread.started.message();
            return;
          }
          results[i] = measure_record(files[i], o, weights, thread.searcher.get());
        });
    bar.finish();
  }
  EvaluationCurve curve(o.bucket_cp, o.max_value_cp);
  double search_seconds = 0;
  for (const RecordResult& r : results) {
    ++stats.records;
    switch (r.outcome) {
      case RecordResult::Outcome::kFailed:
        return Status::error(r.message);
      case RecordResult::Outcome::kUnreadable:
        ++stats.records_unreadable;
        err << "learn curve: " << r.message << " (skipped)" << std::endl;
        continue;
      case RecordResult::Outcome::kUndecided:
        ++stats.records_undecided;
        continue;
      case RecordResult::Outcome::kCounted:
        break;
    }
    for (const auto& [value, won] : r.values) curve.add(value, won);
    stats.wins += r.wins;
    stats.agreement_positions += r.agreement_positions;
    stats.agreement_matches += r.agreement_matches;
    search_seconds += r.search_seconds;
  }
  stats.positions = curve.positions();
  if (stats.positions == 0)
    return Status::error(
        o.records_dir + ": no positions to value (records: " + std::to_string(stats.records) +
        " read, " + std::to_string(stats.records_unreadable) + " unreadable, " +
        std::to_string(stats.records_undecided) + " drawn or unfinished; positions from ply " +
        std::to_string(o.min_ply) + ")");

  out << format_curve_table(curve);
  out << "records: " << stats.records << " read, "
      << stats.records - stats.records_unreadable - stats.records_undecided << " decided, "
      << stats.records_undecided << " drawn or unfinished (left out), " << stats.records_unreadable
      << " unreadable (skipped)";
  if (o.held_out_every > 0)
    out << "; held out: the last of every " << o.held_out_every << " of the "
        << stats.records_listed << ", by sorted path";
  out << "\n";
  out << "positions: " << stats.positions << " (from ply " << o.min_ply << "), valued by "
      << (o.depth > 0 ? "our engine's search to depth " + std::to_string(o.depth)
                      : std::string("the static evaluation"))
      << " with the " << weights.description() << "\n";
  int pairs = 0;
  const int inverted = curve.inversions(o.min_bucket_positions, pairs);
  out << "monotonicity: " << inverted << " inversions over " << pairs
      << " adjacent pairs of buckets with at least " << o.min_bucket_positions << " positions\n";
  char number[64];
  std::snprintf(number, sizeof number, "%.1f", curve.logistic_scale());
  out << "logistic fit: win rate = 1 / (1 + exp(-v / " << number << "))\n";
  if (o.agreement) {
    std::snprintf(number, sizeof number, "%.1f%%",
                  stats.agreement_positions
                      ? 100.0 * double(stats.agreement_matches) / double(stats.agreement_positions)
                      : 0.0);
    out << "agreement: " << stats.agreement_matches << " of " << stats.agreement_positions
        << " record moves (" << number << ") chosen by our engine at depth " << o.agreement_depth
        << "\n";
  }
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::snprintf(number, sizeof number, "%.1f s (searches %.1f s on %d thread%s)", stats.seconds,
                search_seconds, o.threads, o.threads == 1 ? "" : "s");
  out << "time: " << number << "\n";
  out.flush();

  if (!o.png_path.empty()) {
    const std::string title = "evaluation curve: " + std::to_string(stats.positions) +
                              " positions of " + o.records_dir + ", " + weights.description();
    if (Status s = run_gnuplot(o.gnuplot, curve_gnuplot_script(curve, o.png_path, title)); !s)
      return Status::error("--png " + o.png_path + ": " + s.message());
    out << "plot: " << o.png_path << "\n";
  }
  return Status::ok();
}

}  // namespace tools
