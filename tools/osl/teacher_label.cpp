// Labelling gensfen records with GPS Shogi's evaluation and quiescence search (OpenShogiLib).

// OpenShogiLib's headers must see the settings its library was built with (see
// reference_agreement.cpp): NDEBUG and OSL_SMP, before anything includes <cassert>.
#ifndef NDEBUG
#define NDEBUG
#endif
#ifndef OSL_SMP
#define OSL_SMP 1
#endif

#include "tools/osl/teacher_label.h"

#include <osl/usi.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <thread>

#include "base/file_write.h"
#include "shogi/notation.h"
#include "tools/common/progress_bar.h"
#include "tools/learn/gensfen_format.h"
#include "tools/learn/result_scale.h"
#include "tools/osl/osl_quiescence.h"
#include "tools/osl/reference_agreement.h"

namespace tools::osl_teacher {

using base::Status;
namespace fs = std::filesystem;

namespace {

using osl_reference::OslEvaluation;
using osl_reference::quiescence_black_value;

constexpr int kClamp = 32000;
constexpr char kScaleFile[] = "teacher-scale.txt";

// Runs work(i) for i in [0, count) on `threads` threads.
template <class Work>
void parallel(size_t count, int threads, Work work) {
  std::atomic<size_t> next{0};
  auto run = [&] {
    for (size_t i; (i = next.fetch_add(1)) < count;) work(i);
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(run);
  run();
  for (std::thread& t : pool) t.join();
}

Status read_scale_file(const fs::path& path, double& factor) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word >> factor) || word != "factor" || !(factor > 0))
    return Status::error(path.string() +
                         ": expected 'factor F ...' with F > 0 (delete it to fit anew)");
  return Status::ok();
}

// The factor fitted on the first fit_positions of the sorted files; `line` says how.
Status fit_factor(const std::vector<std::string>& files, const LabelOptions& o, double& factor,
                  std::string& line) {
  std::vector<GensfenRecord> sample;
  for (const std::string& file : files) {
    if (sample.size() >= size_t(o.fit_positions)) break;
    std::vector<GensfenRecord> records;
    if (Status s = read_gensfen_file(file, records); !s) return s;
    const size_t take = std::min(records.size(), size_t(o.fit_positions) - sample.size());
    sample.insert(sample.end(), records.begin(), records.begin() + ptrdiff_t(take));
  }
  std::vector<int> teacher(sample.size());
  std::vector<int16_t> search(sample.size());
  std::vector<int8_t> results(sample.size());
  parallel(sample.size(), o.threads, [&](size_t i) {
    const TeacherValue v = teacher_value(sample[i].position, o.depth);
    teacher[i] = v.ok ? v.quiescence : teacher_win_threshold();  // left out of the fit
  });
  for (size_t i = 0; i < sample.size(); ++i) {
    search[i] = sample[i].value;
    results[i] = sample[i].result;
  }
  const double scale =
      fit_result_scale(teacher, results, sample.size(), teacher_win_threshold(), 1, 1e8);
  const double search_scale = fit_result_scale(search, results, search.size());
  if (!(scale > 0) || !(search_scale > 0))
    return Status::error("no positions to fit the teacher's scale on");
  factor = search_scale / scale;
  char text[256];
  std::snprintf(text, sizeof text,
                "factor %.9g: over %zu positions the results fit sigmoid(value / %.1f) of OSL's "
                "values, sigmoid(value / %.1f) of the search values\n",
                factor, sample.size(), scale, search_scale);
  line = text;
  return Status::ok();
}

}  // namespace

int teacher_win_threshold() { return OslEvaluation::infty(); }

int16_t to_engine_scale(int value, double factor) {
  if (value >= teacher_win_threshold()) return kClamp;
  if (value <= -teacher_win_threshold()) return -kClamp;
  const double v = std::round(double(value) * factor);
  return int16_t(std::clamp(v, double(-kClamp), double(kClamp)));
}

TeacherValue teacher_value(const shogi::PositionSetup& setup, int depth) {
  TeacherValue v;
  osl::NumEffectState state;
  try {
    osl::usi::parse("sfen " + shogi::format_sfen(setup), state);
  } catch (const std::exception&) {
    return v;
  }
  const OslEvaluation evaluation(state);
  const int sign = state.turn() == osl::BLACK ? 1 : -1;
  v.static_value = sign * evaluation.value();
  v.quiescence = sign * quiescence_black_value(state, osl::Move::PASS(alt(state.turn())), depth);
  v.ok = true;
  return v;
}

Status run_label(const LabelOptions& o, std::ostream& out) {
  if (o.out_dir.empty()) return Status::error("--out DIR is required");
  if (o.shards < 1 || o.shard < 0 || o.shard >= o.shards)
    return Status::error("--shard K must be in 0 .. --shards N - 1");
  if (o.threads < 1 || o.depth < 0 || o.fit_positions < 1)
    return Status::error("bad --threads, --quiescence-depth or --fit-positions");
  std::vector<std::string> files;
  if (Status s = collect_gensfen_files(o.inputs, files); !s) return s;
  std::error_code ec;
  fs::create_directories(o.out_dir, ec);
  if (!fs::is_directory(o.out_dir, ec))
    return Status::error(o.out_dir + ": cannot create the directory");
  if (Status s = osl_reference::load_reference_evaluation(o.home); !s) return s;

  double factor = o.factor;
  const fs::path scale_path = fs::path(o.out_dir) / kScaleFile;
  if (factor <= 0 && fs::exists(scale_path, ec)) {
    if (Status s = read_scale_file(scale_path, factor); !s) return s;
    out << "osl_label: factor " << factor << " from " << scale_path.string() << "\n";
  } else if (factor <= 0) {
    std::string line;
    if (Status s = fit_factor(files, o, factor, line); !s) return s;
    if (Status s = base::replace_file(scale_path.string(), line); !s) return s;
    out << "osl_label: " << line << std::flush;
  }

  // The files of this shard not labelled yet, and their positions (from their headers).
  std::vector<std::string> todo;
  int64_t total = 0;
  int done_before = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    if (int(i % size_t(o.shards)) != o.shard) continue;
    if (fs::exists(fs::path(o.out_dir) / fs::path(files[i]).filename(), ec)) {
      ++done_before;
      continue;
    }
    todo.push_back(files[i]);
    uint64_t count = 0;
    if (Status s = read_gensfen_count(files[i], count); !s) return s;
    total += int64_t(count);
  }
  out << "osl_label: " << todo.size() << " files to label (" << done_before << " already in "
      << o.out_dir << "), shard " << o.shard << " of " << o.shards << ", quiescence depth "
      << o.depth << ", " << o.threads << " threads, factor " << factor << "\n"
      << std::flush;
  const auto start = std::chrono::steady_clock::now();
  ProgressBar bar(std::cerr, total, o.progress || ProgressBar::stderr_is_terminal(), "positions");
  int64_t labelled = 0, failed = 0;
  for (const std::string& file : todo) {
    std::vector<GensfenRecord> records;
    if (Status s = read_gensfen_file(file, records); !s) return s;
    std::atomic<int64_t> not_taken{0};
    parallel(records.size(), o.threads, [&](size_t i) {
      GensfenRecord& r = records[i];
      const TeacherValue v = teacher_value(r.position, o.depth);
      r.labelled = v.ok;
      r.teacher_value = v.ok ? to_engine_scale(v.quiescence, factor) : 0;
      r.teacher_static = v.ok ? to_engine_scale(v.static_value, factor) : 0;
      if (!v.ok) not_taken.fetch_add(1);
    });
    const fs::path target = fs::path(o.out_dir) / fs::path(file).filename();
    if (Status s = base::replace_file(target.string(), gensfen_file_bytes(records)); !s) return s;
    labelled += int64_t(records.size()) - not_taken.load();
    failed += not_taken.load();
    bar.update(std::min(total, labelled + failed));
  }
  bar.finish();
  const double seconds = seconds_since(start);
  char line[256];
  std::snprintf(line, sizeof line,
                "osl_label: done: %lld positions labelled in %zu files (%lld OSL did not take), "
                "%.0f s, %.0f positions/s, %.2f M positions/hour\n",
                static_cast<long long>(labelled), todo.size(), static_cast<long long>(failed),
                seconds, seconds > 0 ? double(labelled + failed) / seconds : 0.0,
                seconds > 0 ? double(labelled + failed) * 3600.0 / seconds / 1e6 : 0.0);
  out << line;
  return Status::ok();
}

}  // namespace tools::osl_teacher
