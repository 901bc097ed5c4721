// `sashite learn teach`: the work list, the resumable output file, and the jobs that search
// with book think's engines and tree.
#include "tools/learn/learn_teach.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <mutex>

#include "base/text_lines.h"
#include "shogi/csa_files.h"
#include "shogi/csa_record.h"
#include "shogi/notation.h"
#include "shogi/position.h"
#include "tools/book/book_think.h"
#include "tools/book/book_think_jobs.h"
#include "tools/common/progress_bar.h"

namespace tools {

using base::Status;
namespace fs = std::filesystem;

namespace {

constexpr int kDefaultTeacherDepth = 8;
constexpr int kTeacherFaultsInARowLimit = 3;
constexpr const char* kNoMovePrefix = "# no move\t";

// The engine part of book think's options (its engine list and option parsing are reused).
BookThinkOptions think_options(const TeachOptions& o) {
  BookThinkOptions t;
  t.engines = o.engines;
  t.engine_options = o.engine_options;
  t.isolate_home = o.isolate_home;
  t.engine_stderr = o.engine_stderr;
  return t;
}

ThinkSearchLimits search_limits(const TeachOptions& o) {
  ThinkSearchLimits limits;
  limits.depth = o.depth > 0 || o.byoyomi_ms > 0 ? o.depth : kDefaultTeacherDepth;
  limits.movetime_ms = o.byoyomi_ms;
  limits.timeout_ms = o.timeout_ms;
  limits.ready_timeout_ms = o.ready_timeout_ms;
  return limits;
}

// What the values mean; the output's first line, so that a rerun with others is noticed.
std::string settings_text(const TeachOptions& o, const std::vector<usi::EngineConfig>& configs) {
  std::string s = "# sashite learn teach: " + search_limits(o).go_command() + "; tree-depth " +
                  std::to_string(o.tree_depth) + "; combine " + o.combine;
  for (size_t i = 0; i < configs.size(); ++i) {
    s += "; engine " + std::to_string(i) + ": " + configs[i].command;
    for (const auto& [name, value] : configs[i].options) s += " [" + name + "=" + value + "]";
  }
  return s;
}

// The positions from which the record played a move, past min_ply: per_game of them, the
// k-th at ply min_ply + (k + 1/2) * span / per_game.
void pick_record_plies(const shogi::CsaRecord& record, int per_game, int min_ply,
                       std::vector<ThinkWork>& out) {
  shogi::Position pos;
  if (!pos.set(record.initial)) return;
  const int moves = int(record.moves.size());
  const int span = moves - min_ply;
  if (span <= 0 || per_game <= 0) return;
  std::vector<int> plies;
  for (int k = 0; k < per_game; ++k) {
    const int ply = min_ply + int((2 * int64_t(k) + 1) * span / (2 * int64_t(per_game)));
    if (plies.empty() || plies.back() != ply) plies.push_back(ply);
  }
  size_t next = 0;
  for (int ply = 0; ply < moves && next < plies.size(); ++ply) {
    if (ply == plies[next]) {
      out.push_back({pos.key(), pos.sfen()});
      ++next;
    }
    pos.do_move(record.moves[size_t(ply)].move);
  }
}

}  // namespace

Status validate_teach_options(const TeachOptions& o) {
  if (o.sfens_path.empty() == o.records_dir.empty())
    return Status::error("give the positions: --sfens FILE or --records DIR (one of them)");
  if (o.out_path.empty()) return Status::error("--out FILE is required");
  if (o.depth > 0 && o.byoyomi_ms > 0)
    return Status::error("--depth and --byoyomi exclude each other");
  if (o.tree_depth < 1) return Status::error("--tree-depth must be at least 1");
  if (o.combine != "mean" && o.combine != "min")
    return Status::error("--combine '" + o.combine + "': expected mean or min");
  if (o.positions_per_game < 1) return Status::error("--positions-per-game must be at least 1");
  std::vector<usi::EngineConfig> configs;
  if (Status s = make_think_engine_configs(think_options(o), configs); !s) return s;
  for (const usi::EngineConfig& c : configs)
    if (usi::is_gpsusi_command(c.command) && o.byoyomi_ms == 0)
      return Status::error("engine '" + c.command +
                           "' is gpsusi, which aborts on go depth: use --byoyomi (>= 1000)");
  return Status::ok();
}

Status pick_teach_positions(const std::string& path, int per_game, int min_ply,
                            std::vector<ThinkWork>& out, std::ostream& err, int& unreadable) {
  std::vector<std::string> files;
  if (Status s = shogi::list_csa_files(path, files); !s) return s;
  for (const std::string& file : files) {
    shogi::CsaRecord record;
    if (Status s = shogi::load_csa_record_file(file, record); !s) {
      ++unreadable;
      err << "learn teach: " << s.message() << " (skipped)" << std::endl;
      continue;
    }
    pick_record_plies(record, per_game, min_ply, out);
  }
  return Status::ok();
}

Status read_teach_file(const std::string& path, std::unordered_set<uint64_t>& keys,
                       std::string& settings) {
  settings.clear();
  std::error_code ec;
  if (!fs::exists(path, ec)) return Status::ok();
  std::string text;
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Status::error(path + ": cannot be read");
    try {  // libstdc++'s filebuf throws on a read error (a directory) under this iterator
      text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    } catch (const std::ios_base::failure& e) {
      return Status::error(path + ": cannot be read: " + e.code().message());
    }
  }
  if (!text.empty() && text.back() != '\n') {
    const size_t keep = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
    fs::resize_file(path, keep, ec);
    if (ec)
      return Status::error(path + ": cannot cut off its unfinished last line: " + ec.message());
    text.resize(keep);
  }
  base::TextLines lines(text);
  for (std::string_view line; lines.next(line);) {
    const int number = lines.number();
    if (line.empty()) continue;
    if (line.rfind(kNoMovePrefix, 0) == 0) {
      line.remove_prefix(std::string_view(kNoMovePrefix).size());
    } else if (line[0] == '#') {
      if (number == 1) settings = std::string(line);
      continue;
    }
    const std::string_view sfen = line.substr(0, line.find('\t'));
    shogi::Position pos;
    if (Status s = pos.set_sfen(sfen); !s)
      return Status::error(path + ": line " + std::to_string(number) + ": " + s.message());
    keys.insert(pos.key());
  }
  return Status::ok();
}

std::string format_teach_line(const std::string& sfen, const ThinkNode& root,
                              const ThinkValuation& how) {
  std::string engines_moves;
  for (const ThinkAnswer& a : root.answers)
    engines_moves += (engines_moves.empty() ? "" : " ") + (a.best_move.empty() ? "-" : a.best_move);
  const std::vector<ScoredThinkMove> moves = score_root_moves(root, how);
  if (moves.empty()) return kNoMovePrefix + sfen + "\t" + engines_moves + "\n";
  // The first of the best: ties go to the move named first.
  const ScoredThinkMove best = *std::max_element(
      moves.begin(), moves.end(),
      [](const ScoredThinkMove& a, const ScoredThinkMove& b) { return a.value < b.value; });
  return sfen + "\t" + shogi::format_usi_move(best.move) + "\t" + std::to_string(best.value) +
         "\t" + engines_moves + "\n";
}

namespace {

// The shared state of one run: the jobs, the output file, the counters.
class TeachRun {
 public:
  TeachRun(const TeachOptions& o, std::vector<usi::EngineConfig> configs,
           std::vector<ThinkWork> work, std::ofstream& file, std::ostream& err)
      : o_(o),
        jobs_(std::move(configs), search_limits(o), o.combine, std::move(work), SIZE_MAX),
        file_(file),
        err_(err),
        bar_(err, int64_t(jobs_.total()), o.progress || ProgressBar::stderr_is_terminal(),
             "positions") {}

  Status run() {
    bar_.update(0);
    jobs_.run(
        o_.jobs, o_.tree_depth,
        [this](const ThinkWork& w, const ThinkNode& tree) {
          finish(format_teach_line(w.sfen, tree, jobs_.valuation()));
        },
        [this](const ThinkWork& w, const Status& s) { fail(w, s); },
        [this](const Status& s) {
          std::lock_guard<std::mutex> lock(mutex_);
          stop_with(s);
        });
    bar_.finish();
    return error_;
  }
  size_t written() const { return written_; }
  size_t no_move() const { return no_move_; }
  size_t failed() const { return failed_; }
  double elapsed_s() const { return bar_.elapsed_s(); }

 private:
  void finish(const std::string& line) {
    std::lock_guard<std::mutex> lock(mutex_);
    faults_in_a_row_ = 0;
    file_ << line << std::flush;
    if (!file_) stop_with(Status::error(o_.out_path + ": cannot be written"));
    ++(line[0] == '#' ? no_move_ : written_);
    bar_.update(int64_t(written_ + no_move_ + failed_));
  }

  void fail(const ThinkWork& w, const Status& s) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++failed_;
    ++faults_in_a_row_;
    bar_.clear_line();
    err_ << "learn teach: position " << w.sfen << ": " << s.message() << " (left for the next run)"
         << std::endl;
    if (faults_in_a_row_ >= kTeacherFaultsInARowLimit)
      stop_with(Status::error(std::to_string(faults_in_a_row_) +
                              " positions failed in a row; the last: " + s.message()));
    bar_.update(int64_t(written_ + no_move_ + failed_));
  }

  void stop_with(const Status& s) {  // REQUIRES: mutex_ held
    if (error_) error_ = s;
    jobs_.stop = true;
  }

  const TeachOptions& o_;
  ThinkJobs jobs_;
  std::ofstream& file_;
  std::ostream& err_;
  std::mutex mutex_;  // guards everything below
  ProgressBar bar_;
  size_t written_ = 0, no_move_ = 0, failed_ = 0;
  int faults_in_a_row_ = 0;
  Status error_;
};

}  // namespace

Status run_learn_teach(const TeachOptions& o, std::ostream& out, std::ostream& err) {
  if (Status s = validate_teach_options(o); !s) return s;
  std::vector<usi::EngineConfig> configs;
  if (Status s = make_think_engine_configs(think_options(o), configs); !s) return s;

  std::vector<ThinkWork> work;
  int unreadable = 0;
  if (!o.sfens_path.empty())
    if (Status s = add_sfen_file_positions(o.sfens_path, work); !s) return s;
  if (!o.records_dir.empty())
    if (Status s = pick_teach_positions(o.records_dir, o.positions_per_game, o.min_ply, work, err,
                                        unreadable);
        !s)
      return s;
  select_think_work(ThinkShard{}, work);  // the first of each position
  const size_t distinct = work.size();

  std::unordered_set<uint64_t> done;
  std::string stored_settings;
  std::error_code ec;
  const bool existing = fs::exists(o.out_path, ec) && fs::file_size(o.out_path, ec) > 0;
  if (existing && !o.resume)
    return Status::error("--out " + o.out_path +
                         " exists: give --resume to carry it on, or another file");
  if (Status s = read_teach_file(o.out_path, done, stored_settings); !s) return s;
  std::vector<ThinkWork> left;
  for (ThinkWork& w : work)
    if (!done.count(w.key)) left.push_back(std::move(w));
  const size_t skipped = work.size() - left.size();
  if (o.max_positions > 0 && left.size() > size_t(o.max_positions))
    left.resize(size_t(o.max_positions));

  const std::string settings = settings_text(o, configs);
  if (!stored_settings.empty() && stored_settings != settings)
    err << "learn teach: warning: " << o.out_path << " was written with other settings:\n  "
        << stored_settings << "\nnow:\n  " << settings << std::endl;
  std::ofstream file(o.out_path, std::ios::app);
  if (!file) return Status::error(o.out_path + ": cannot be opened for writing");
  if (stored_settings.empty() && done.empty())
    file << settings << "\n"
         << "# columns: sfen\tmove\tvalue_cp\tthe engines' best moves at the root, in engine "
            "order\n"
         << std::flush;

  out << "learn teach: " << distinct << " positions";
  if (unreadable > 0) out << " (" << unreadable << " unreadable records skipped)";
  out << ", " << skipped << " already in " << o.out_path << ", " << left.size() << " to search"
      << std::endl;
  TeachRun run(o, std::move(configs), std::move(left), file, err);
  const Status s = run.run();
  char rate[64];
  const double elapsed = run.elapsed_s();
  std::snprintf(
      rate, sizeof rate, "%.1f s, %.2f s per position", elapsed,
      run.written() + run.no_move() ? elapsed / double(run.written() + run.no_move()) : 0.0);
  out << "learn teach: " << run.written() << " teacher moves written, " << run.no_move()
      << " positions without a move, " << run.failed() << " failed; " << rate << std::endl;
  return s;
}

}  // namespace tools
