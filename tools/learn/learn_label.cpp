// sashite learn label: CSA records copied with another engine's search values as comments.
#include "tools/learn/learn_label.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <utility>

#include "base/file_write.h"
#include "shogi/csa_files.h"
#include "shogi/notation.h"
#include "shogi/position.h"
#include "tools/common/parallel_for.h"
#include "tools/common/progress_bar.h"
#include "usi/usi_engine_process.h"

namespace tools {

using base::Status;
using shogi::CsaRecord;
namespace fs = std::filesystem;
using Milliseconds = std::chrono::milliseconds;

namespace {

constexpr size_t kMaxFailureNotes = 20;

// One record to label: where it comes from and goes, and the record itself.
struct LabelJob {
  std::string source;
  fs::path out_path;
  CsaRecord record;
};

// A directory as an absolute, normal path without a trailing separator.
fs::path normal_dir(const std::string& dir) {
  fs::path p = fs::absolute(dir).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  return p;
}

// True when `inner` is `outer` or lies under it (both normal_dir).
bool is_within(const fs::path& inner, const fs::path& outer) {
  const fs::path rel = inner.lexically_relative(outer);
  return !rel.empty() && *rel.begin() != "..";
}

// The engine process of one worker thread, started on first use and after a fault.
// Default-constructible: the per-thread state of parallel_for_with_progress.
struct LabelWorker {
  std::unique_ptr<usi::UsiEngineProcess> engine;

  ~LabelWorker() {
    if (!engine) return;
    engine->quit();
    engine->stop(usi::UsiEngineProcess::Clock::now() + Milliseconds(2000));
  }

  // A running engine that has had isready / usinewgame; errors when it cannot be had.
  Status ready_for_game(const LabelOptions& o) {
    const Milliseconds timeout(o.ready_timeout_ms);
    for (int attempt = 0;; ++attempt) {
      usi::EngineReply r;
      if (!engine) {
        engine = std::make_unique<usi::UsiEngineProcess>();
        usi::EngineConfig config;
        config.command = o.engine;
        config.options = usi::split_usi_options(o.engine_options);
        if (Status s = engine->start(config); !s) {
          engine.reset();
          return Status::error("engine '" + o.engine + "': " + s.message());
        }
        r = engine->start_session(config.options, timeout);
      }
      if (r.ok()) r = engine->new_game(timeout);
      if (r.ok()) return Status::ok();
      engine.reset();  // kills the process
      if (attempt > 0) return Status::error("engine '" + o.engine + "': " + r.detail);
    }
  }
};

// What one record's labelling added to the counts.
struct RecordCounts {
  int64_t positions = 0, labelled = 0, mates = 0, failures = 0, unscored = 0;
  std::vector<std::string> notes;  // one per failure
};

std::string go_command(const LabelOptions& o) {
  return o.go.empty() ? "go btime 0 wtime 0 byoyomi " + std::to_string(o.byoyomi_ms) : o.go;
}

// Labels job.record in place (its "** " comments dropped first). Stops early, with
// `cancelled` set, when `stop` becomes true.
Status label_record(const LabelOptions& o, LabelWorker& worker, LabelJob& job,
                    const std::atomic<bool>& stop, RecordCounts& c, bool& cancelled) {
  CsaRecord& rec = job.record;
  drop_value_comments(rec);
  if (Status s = worker.ready_for_game(o); !s) return s;
  const std::string go = go_command(o);
  const Milliseconds timeout(o.think_timeout_ms > 0 ? o.think_timeout_ms
                                                    : 2 * int64_t(o.byoyomi_ms) + 30000);
  const int last = std::min(o.last_ply, int(rec.moves.size()));
  for (int ply = std::max(1, o.first_ply); ply <= last; ++ply) {
    if (stop.load()) {
      cancelled = true;
      return Status::ok();
    }
    const std::string position = label_position_command(rec, ply);
    const usi::BestMove best = worker.engine->think(position, go, timeout);
    ++c.positions;
    if (!best.ok()) {
      ++c.failures;
      c.notes.push_back(job.source + ": move " + std::to_string(ply) + ": " + best.detail);
      worker.engine.reset();  // kills it, thinking or not
      if (Status s = worker.ready_for_game(o); !s) return s;
      continue;
    }
    const shogi::Color to_move =
        ply % 2 == 0 ? rec.initial.side_to_move : ~rec.initial.side_to_move;
    const std::string comment = label_value_comment(best.search, to_move);
    if (comment.empty()) {
      ++c.unscored;
      continue;
    }
    std::vector<std::string>& comments = rec.moves[size_t(ply) - 1].comments;
    comments.insert(comments.begin(), comment);
    ++c.labelled;
    if (best.search.score->is_mate) ++c.mates;
  }
  return Status::ok();
}

// Writes `text` to `path`, creating its directory, through a synced "<path>.tmp" and a rename.
Status write_atomically(const fs::path& path, const std::string& text) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) return Status::error(path.parent_path().string() + ": " + ec.message());
  return base::replace_file(path.string(), text);
}

// The records to label (their outputs absent), loaded; the counts of those found.
Status gather_jobs(const LabelOptions& o, std::vector<LabelJob>& jobs, LabelCounts& counts) {
  for (const std::string& dir : o.records) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return Status::error(dir + ": not a directory");
    std::vector<std::string> paths;
    if (Status s = shogi::list_csa_files(dir, paths); !s) return s;
    const fs::path base = normal_dir(dir);
    for (const std::string& path : paths) {
      ++counts.records;
      LabelJob job;
      job.source = path;
      job.out_path = fs::path(o.out_dir) / base.filename() /
                     fs::absolute(path).lexically_normal().lexically_relative(base);
      if (fs::exists(job.out_path, ec)) {
        ++counts.skipped;
        continue;
      }
      if (Status s = shogi::load_csa_record_file(path, job.record); !s) return s;
      ++counts.read;
      jobs.push_back(std::move(job));
    }
  }
  return Status::ok();
}

}  // namespace

Status validate_label_options(const LabelOptions& o) {
  if (o.records.empty()) return Status::error("no --records directory");
  if (o.out_dir.empty()) return Status::error("no --out directory");
  if (o.engine.empty()) return Status::error("no --engine");
  if (o.byoyomi_ms <= 0) return Status::error("--byoyomi must be positive");
  if (o.first_ply < 1) return Status::error("--first-ply must be at least 1");
  if (o.last_ply < o.first_ply) return Status::error("--last-ply is below --first-ply");
  if (o.jobs < 1) return Status::error("--jobs must be at least 1");
  for (const std::string& kv : o.engine_options)
    if (kv.find('=') == std::string::npos || kv.front() == '=')
      return Status::error("USI option '" + kv + "': expected NAME=VALUE");
  const fs::path out = normal_dir(o.out_dir);
  for (size_t i = 0; i < o.records.size(); ++i) {
    const fs::path dir = normal_dir(o.records[i]);
    if (is_within(out, dir))
      return Status::error("--out " + o.out_dir + " is inside --records " + o.records[i]);
    for (size_t j = 0; j < i; ++j)
      if (normal_dir(o.records[j]).filename() == dir.filename())
        return Status::error("--records " + o.records[j] + " and " + o.records[i] +
                             " have the same name: their outputs would mix");
  }
  return Status::ok();
}

std::string label_position_command(const CsaRecord& rec, int plies) {
  std::string sfen = shogi::format_sfen(rec.initial);
  std::string s =
      sfen == shogi::Position::kStartSfen ? "position startpos" : "position sfen " + sfen;
  if (plies > 0) s += " moves";
  for (int i = 0; i < plies; ++i) {
    s += ' ';
    s += shogi::format_usi_move(rec.moves[size_t(i)].move);
  }
  return s;
}

std::string label_value_comment(const usi::SearchReport& report, shogi::Color side_to_move) {
  if (!report.score) return "";
  usi::SearchReport r = report;
  if (r.score->is_mate) r.score->mate_plies = -1;  // "+M" / "-M": the sign is what counts
  return search_comment(r, side_to_move);
}

void drop_value_comments(CsaRecord& rec) {
  auto drop = [](shogi::CsaRecordMove& m) {
    std::erase_if(m.comments, [](const std::string& c) { return c.rfind("** ", 0) == 0; });
  };
  for (shogi::CsaRecordMove& m : rec.moves) drop(m);
  if (rec.rejected_last_move) drop(*rec.rejected_last_move);
}

Status run_learn_label(const LabelOptions& o, LabelCounts& counts, std::ostream& err) {
  const auto start = std::chrono::steady_clock::now();
  counts = {};
  if (Status s = validate_label_options(o); !s) return s;
  std::vector<LabelJob> jobs;
  if (Status s = gather_jobs(o, jobs, counts); !s) return s;

  std::mutex mutex;  // guards counts, notes and error
  std::vector<std::string> notes;
  Status error = Status::ok();
  std::atomic<bool> stop{false};
  ProgressBar bar(err, int64_t(jobs.size()), o.progress, "records");
  const int threads = int(std::min<size_t>(size_t(o.jobs), std::max<size_t>(jobs.size(), 1)));
  parallel_for_with_progress<LabelWorker>(
      jobs.size(), threads, bar, "labelling", [&](LabelWorker& worker, size_t i) {
        if (stop.load()) return;
        LabelJob& job = jobs[i];
        RecordCounts c;
        bool cancelled = false;
        Status s = label_record(o, worker, job, stop, c, cancelled);
        if (s && !cancelled)
          s = write_atomically(job.out_path,
                               shogi::write_csa_record(job.record, job.record.version == "V3.0"
                                                                       ? shogi::CsaVersion::kV30
                                                                       : shogi::CsaVersion::kV22));
        job.record = CsaRecord();  // free it
        std::lock_guard<std::mutex> lock(mutex);
        counts.positions += c.positions, counts.labelled += c.labelled, counts.mates += c.mates;
        counts.failures += c.failures, counts.unscored += c.unscored;
        notes.insert(notes.end(), c.notes.begin(), c.notes.end());
        if (!s && error) error = s;
        if (!s) stop = true;
        if (s && !cancelled) ++counts.written;
      });
  bar.finish();
  for (size_t i = 0; i < notes.size() && i < kMaxFailureNotes; ++i) err << notes[i] << '\n';
  if (notes.size() > kMaxFailureNotes)
    err << "... and " << notes.size() - kMaxFailureNotes << " more engine failures\n";
  counts.seconds = seconds_since(start);
  return error;
}

std::string format_label_summary(const LabelCounts& c) {
  char line[320];
  std::snprintf(line, sizeof line,
                "%d records: %d skipped (already labelled), %d read, %d written; %lld "
                "positions: %lld labelled (%lld mates), %lld failures, %lld unscored; %.0f s\n",
                c.records, c.skipped, c.read, c.written, (long long)c.positions,
                (long long)c.labelled, (long long)c.mates, (long long)c.failures,
                (long long)c.unscored, c.seconds);
  return line;
}

}  // namespace tools
