// `sashite book think`: jobs that think about positions, and the batched, resumable writes.
#include "tools/book/book_think.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <mutex>

#include "book/book_db.h"
#include "shogi/position.h"
#include "tools/book/book_think_jobs.h"
#include "tools/book/book_think_work.h"
#include "tools/common/progress_bar.h"

namespace tools {

using base::Status;

namespace {

constexpr int kDefaultDepth = 8;
constexpr int kFaultsInARowLimit = 3;
constexpr std::chrono::seconds kFlushInterval{30};

// Quotes a word for base::split_command_line: '...' with each ' written as '\''.
std::string quote_word(const std::string& word) {
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

ThinkSearchLimits search_limits(const BookThinkOptions& o) {
  ThinkSearchLimits limits;
  limits.depth = o.depth > 0 || o.movetime_ms > 0 ? o.depth : kDefaultDepth;
  limits.movetime_ms = o.movetime_ms;
  limits.timeout_ms = o.timeout_ms;
  limits.ready_timeout_ms = o.ready_timeout_ms;
  return limits;
}

// What the scores mean; stored in the output so that a rerun with other settings is noticed.
std::string settings_text(const BookThinkOptions& o, const std::vector<usi::EngineConfig>& configs,
                          const ThinkSearchLimits& limits) {
  std::string s = limits.go_command() + "; tree-depth " + std::to_string(o.tree_depth) +
                  "; combine " + o.combine;
  for (size_t i = 0; i < configs.size(); ++i) {
    s += "; engine ";
    s += std::to_string(i);
    s += ": ";
    s += configs[i].command;
    for (const auto& [name, value] : configs[i].options) s += " [" + name + "=" + value + "]";
  }
  return s;
}

// The shared state of one run: the jobs, the output book, what is waiting to be written.
class ThinkRun {
 public:
  ThinkRun(const BookThinkOptions& o, std::vector<usi::EngineConfig> configs,
           std::vector<ThinkWork> work, std::ostream& out, std::ostream& err)
      : o_(o),
        jobs_(std::move(configs), search_limits(o), o.combine, std::move(work),
              o.limit > 0 ? size_t(o.limit) : SIZE_MAX),
        out_(out),
        err_(err),
        total_(jobs_.total()),
        bar_(err, int64_t(total_), o.progress || ProgressBar::stderr_is_terminal(), "positions") {}

  Status run(book::BookDb& db);

 private:
  // Records the result of one position (under the mutex); flushes when a batch is full.
  void finish_position(const ThinkWork& w, const ThinkNode& tree);
  Status flush();  // REQUIRES: mutex_ held
  void fail(const ThinkWork& w, const Status& s);
  void stop_with(const Status& s);  // REQUIRES: mutex_ held
  std::string note() const;

  const BookThinkOptions& o_;
  ThinkJobs jobs_;
  std::ostream& out_;
  std::ostream& err_;
  const size_t total_;  // positions this run takes (limit applied)

  std::mutex mutex_;  // guards everything below
  book::BookDb* db_ = nullptr;
  ProgressBar bar_;
  std::vector<book::BookEntry> pending_;
  std::vector<uint64_t> pending_no_moves_;
  size_t finished_ = 0, written_ = 0, no_moves_ = 0, failed_ = 0;
  int faults_in_a_row_ = 0;
  Status error_;
  std::chrono::steady_clock::time_point last_flush_ = std::chrono::steady_clock::now();
};

std::string ThinkRun::note() const {
  if (failed_ == 0) return "";
  std::string s = "(";
  s += std::to_string(failed_);
  s += " failed)";
  return s;
}

void ThinkRun::stop_with(const Status& s) {
  if (error_) error_ = s;
  jobs_.stop = true;
}

Status ThinkRun::flush() {
  if (pending_.empty() && pending_no_moves_.empty()) return Status::ok();
  for (uint64_t key : pending_no_moves_)
    if (Status s = db_->put_meta(think_no_moves_meta_name(key), "1"); !s) return s;
  if (!pending_.empty())
    if (Status s = db_->put(pending_, false); !s) return s;
  const size_t n = pending_.size() + pending_no_moves_.size();
  written_ += pending_.size();
  no_moves_ += pending_no_moves_.size();
  pending_.clear();
  pending_no_moves_.clear();
  last_flush_ = std::chrono::steady_clock::now();
  bar_.clear_line();
  out_ << "batch: " << n << " positions written, " << finished_ << " of " << total_ << " done"
       << std::endl;
  return Status::ok();
}

void ThinkRun::finish_position(const ThinkWork& w, const ThinkNode& tree) {
  shogi::Position root;
  root.set_sfen(w.sfen);  // checked when the work was read
  book::BookEntry entry;
  entry.key = w.key;
  entry.position = book::PackedPosition::from(root);
  for (const ScoredThinkMove& m : score_root_moves(tree, jobs_.valuation())) {
    book::BookMove bm;
    bm.move = m.move;
    bm.value = int16_t(std::clamp(m.value, -32767, 32767));
    bm.depth = int16_t(std::clamp(m.depth, 0, 32767));
    bm.sources = book::kSourceThink;
    entry.moves.push_back(bm);
  }
  entry.sort_moves();
  std::lock_guard<std::mutex> lock(mutex_);
  faults_in_a_row_ = 0;
  ++finished_;
  if (entry.moves.empty())
    pending_no_moves_.push_back(w.key);
  else
    pending_.push_back(std::move(entry));
  if (pending_.size() + pending_no_moves_.size() >= size_t(std::max(1, o_.batch)) ||
      std::chrono::steady_clock::now() - last_flush_ >= kFlushInterval)
    if (Status s = flush(); !s) stop_with(s);
  bar_.update(int64_t(finished_), note());
}

void ThinkRun::fail(const ThinkWork& w, const Status& s) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++failed_;
  ++faults_in_a_row_;
  bar_.clear_line();
  err_ << "book think: position " << w.sfen << ": " << s.message() << " (left for the next run)"
       << std::endl;
  if (faults_in_a_row_ >= kFaultsInARowLimit)
    stop_with(Status::error("book think: " + std::to_string(faults_in_a_row_) +
                            " positions failed in a row; the last: " + s.message()));
  bar_.update(int64_t(finished_), note());
}

Status ThinkRun::run(book::BookDb& db) {
  db_ = &db;
  bar_.update(0);
  jobs_.run(
      o_.jobs, o_.tree_depth,
      [this](const ThinkWork& w, const ThinkNode& tree) { finish_position(w, tree); },
      [this](const ThinkWork& w, const Status& s) { fail(w, s); },
      [this](const Status& s) {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_with(s);
      });
  std::lock_guard<std::mutex> lock(mutex_);
  if (Status s = flush(); !s && error_) error_ = s;
  bar_.finish();
  const double elapsed = bar_.elapsed_s();
  char rate[64];
  std::snprintf(rate, sizeof rate, "%.1f", elapsed > 0 ? finished_ * 60.0 / elapsed : 0.0);
  out_ << "book think: " << written_ << " positions scored, " << no_moves_
       << " without a scored move, " << failed_ << " failed; " << rate << " positions/min in "
       << format_duration_s(elapsed) << std::endl;
  return error_;
}

}  // namespace

std::string default_think_engine_command() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const fs::path sashite = ec ? fs::path("sashite") : exe.parent_path() / "sashite";
  return quote_word(sashite.string()) + " usi";
}

Status make_think_engine_configs(const BookThinkOptions& o,
                                 std::vector<usi::EngineConfig>& configs) {
  configs.clear();
  std::vector<std::string> commands = o.engines;
  if (commands.empty()) commands.push_back(default_think_engine_command());
  for (const std::string& command : commands) {
    usi::EngineConfig c;
    c.command = command;
    c.isolate_home = o.isolate_home;
    c.stderr_path = o.engine_stderr;
    configs.push_back(std::move(c));
  }
  for (const std::string& text : o.engine_options) {
    const size_t colon = text.find(':'), equal = text.find('=');
    const auto bad = [&](const std::string& why) {
      return Status::error("--option '" + text + "': " + why);
    };
    if (colon == std::string::npos || equal == std::string::npos || equal < colon)
      return bad("expected I:NAME=VALUE (I: the engine's number, from 0)");
    size_t index = 0;
    const char* begin = text.data();
    if (std::from_chars(begin, begin + colon, index).ptr != begin + colon || colon == 0)
      return bad("the engine number is not a number");
    if (index >= configs.size())
      return bad("there is no engine " + std::to_string(index) + " (" +
                 std::to_string(configs.size()) + " configured, numbered from 0)");
    const std::string name = text.substr(colon + 1, equal - colon - 1);
    if (name.empty()) return bad("empty option name");
    configs[index].options.emplace_back(name, text.substr(equal + 1));
  }
  // gpsusi plays from its own opening book without a search (and without a score): off,
  // unless the user chose a BookDepth.
  for (usi::EngineConfig& c : configs) {
    if (!usi::is_gpsusi_command(c.command)) continue;
    const bool chosen = std::any_of(c.options.begin(), c.options.end(),
                                    [](const auto& kv) { return kv.first == "BookDepth"; });
    if (!chosen) c.options.insert(c.options.begin(), {"BookDepth", "0"});
  }
  // Our own engine too: its book bonuses would leak into the values stored in the book.
  for (usi::EngineConfig& c : configs) {
    const std::string program = c.command.substr(0, c.command.find(' '));
    if (std::filesystem::path(program).filename() != "sashite") continue;
    const bool chosen = std::any_of(c.options.begin(), c.options.end(),
                                    [](const auto& kv) { return kv.first == "USI_OwnBook"; });
    if (!chosen) c.options.insert(c.options.begin(), {"USI_OwnBook", "false"});
  }
  return Status::ok();
}

Status validate_book_think_options(const BookThinkOptions& o) {
  if (o.book_dir.empty() && o.sfens_path.empty() && o.record_paths.empty())
    return Status::error("give the positions: --book DIR, --sfens FILE and/or --records PATH");
  if (o.out_dir.empty()) return Status::error("--out DIR is required");
  if (o.depth > 0 && o.movetime_ms > 0)
    return Status::error("--depth and --movetime exclude each other");
  if (o.tree_depth < 1) return Status::error("--tree-depth must be at least 1");
  if (o.combine != "mean" && o.combine != "min")
    return Status::error("--combine '" + o.combine + "': expected mean or min");
  ThinkShard shard;
  if (Status s = parse_think_shard(o.shard, shard); !s) return s;
  std::error_code ec;
  if (!o.book_dir.empty() && std::filesystem::equivalent(o.book_dir, o.out_dir, ec))
    return Status::error("--out " + o.out_dir + " is the input book: write to a new directory");
  std::vector<usi::EngineConfig> configs;
  if (Status s = make_think_engine_configs(o, configs); !s) return s;
  for (const usi::EngineConfig& c : configs)
    if (usi::is_gpsusi_command(c.command) && o.movetime_ms == 0)
      return Status::error("engine '" + c.command +
                           "' is gpsusi, which aborts on go depth: use --movetime (>= 1000)");
  return Status::ok();
}

Status run_book_think(const BookThinkOptions& o, std::ostream& out, std::ostream& err) {
  if (Status s = validate_book_think_options(o); !s) return s;
  std::vector<usi::EngineConfig> configs;
  if (Status s = make_think_engine_configs(o, configs); !s) return s;
  ThinkShard shard;
  parse_think_shard(o.shard, shard);

  std::vector<ThinkWork> work;
  if (!o.book_dir.empty())
    if (Status s = add_book_positions(o.book_dir, o.min_count, work); !s) return s;
  if (!o.sfens_path.empty())
    if (Status s = add_sfen_file_positions(o.sfens_path, work); !s) return s;
  if (!o.record_paths.empty())
    if (Status s = add_record_positions(o.record_paths, o.records_max_ply, o.min_count, work); !s)
      return s;
  select_think_work(shard, work);
  const size_t in_shard = work.size();

  book::BookDb db;
  if (Status s = db.open(o.out_dir, true); !s) return s;
  size_t done_before = 0;
  if (Status s = drop_finished_work(db, work, done_before); !s) return s;

  const std::string settings = settings_text(o, configs, search_limits(o));
  std::string stored;
  bool found = false;
  if (Status s = db.get_meta("think-settings", stored, found); !s) return s;
  if (!found) {
    // Positions with an entry are skipped: a book that is not a think output (the main
    // book, say) would make think skip everything it holds.
    bool has_entries = false;
    if (Status s = db.for_each([&](const book::BookEntry&) { return !(has_entries = true); }); !s)
      return s;
    if (has_entries)
      return Status::error("--out " + o.out_dir +
                           " is a book that book think did not write: give a new directory "
                           "(then merge it into the book with `sashite book merge`)");
  }
  if (found && stored != settings)
    err << "book think: warning: " << o.out_dir << " was written with other settings:\n  " << stored
        << "\nnow:\n  " << settings << std::endl;
  if (!found)
    if (Status s = db.put_meta("think-settings", settings); !s) return s;

  out << "book think: " << in_shard << " positions in shard " << o.shard << ", " << done_before
      << " already in " << o.out_dir << ", " << work.size() << " to think about" << std::endl;
  ThinkRun run(o, std::move(configs), std::move(work), out, err);
  Status s = run.run(db);
  db.close();
  return s;
}

}  // namespace tools
