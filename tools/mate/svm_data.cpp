// The mate-prediction dataset: building it from game records, and reading it back.
#include "tools/mate/svm_data.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <random>
#include <sstream>
#include <unordered_set>

#include "base/text_lines.h"
#include "engine/engine.h"
#include "shogi/csa_files.h"
#include "shogi/csa_record.h"
#include "shogi/movegen.h"

namespace tools {

using base::Status;
using shogi::Position;

namespace {

const char* label_name(bool mate) { return mate ? "mate" : "nomate"; }

enum class Source { kRecord, kSearch, kInSearch };
const char* source_name(Source s) {
  return s == Source::kRecord ? "record" : s == Source::kSearch ? "search" : "insearch";
}
int& source_count(SvmDataStats& stats, Source s) {
  return s == Source::kRecord   ? stats.record_positions
         : s == Source::kSearch ? stats.search_positions
                                : stats.insearch_positions;
}

// The engine whose searches give the in-search positions, and the sample of the positions
// where its last search called the mate solver (reservoir sampling, the search's thread).
class MateCallSampler {
 public:
  Status start(const SvmDataOptions& options, std::mt19937_64& rng) {
    rng_ = &rng;
    samples_ = size_t(std::max(options.insearch_samples, 1));
    limits_.nodes = options.insearch_nodes;
    for (const auto& [name, value] : {std::pair{"Threads", "1"},
                                      {"USI_Hash", "16"},
                                      {"USI_OwnBook", "false"},
                                      {"MateSearch", "true"},
                                      // every site calls, as when the shipped data was made
                                      {"MateControl", "none"},
                                      {"MateAfterCuts", "false"}})
      if (Status s = engine_.set_option(name, value); !s) return s;
    if (Status s = engine_.prepare(); !s)
      return Status::error("svm data: the engine: " + s.message());
    engine_.set_mate_call_observer([this](const Position& pos) { observe(pos); });
    return Status::ok();
  }
  // Searches from pos; the positions drawn are in sample() until the next call.
  Status search(const Position& pos) {
    seen_ = 0;
    taken_.clear();
    if (Status s = engine_.set_position(pos.sfen(), {}); !s) return s;
    engine_.new_game();
    engine_.search(limits_);
    return Status::ok();
  }
  const std::vector<Position>& sample() const { return taken_; }

 private:
  void observe(const Position& pos) {
    ++seen_;
    if (taken_.size() < samples_) {
      taken_.emplace_back().copy_current(pos);
      return;
    }
    const uint64_t j = std::uniform_int_distribution<uint64_t>(0, seen_ - 1)(*rng_);
    if (j < samples_) taken_[j].copy_current(pos);
  }

  engine::Engine engine_;
  engine::SearchLimits limits_;
  std::mt19937_64* rng_ = nullptr;
  size_t samples_ = 2;
  uint64_t seen_ = 0;
  std::vector<Position> taken_;
};

std::vector<std::string> csa_files_under(const std::string& dir, Status& status) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    status = Status::error(dir + ": not a directory");
  else
    status = shogi::list_csa_files(dir, files);
  return files;
}

}  // namespace

Status make_svm_data(const SvmDataOptions& options, const MateLabeller& label, std::ostream& out,
                     SvmDataStats& stats, std::ostream* log) {
  if (!label && !options.sfen_only) return Status::error("svm data: no mate solver to label with");
  Status status;
  const std::vector<std::string> files = csa_files_under(options.records_dir, status);
  if (!status) return status;
  if (files.empty()) return Status::error(options.records_dir + ": no .csa files under it");
  std::mt19937_64 rng(options.seed);
  std::unordered_set<uint64_t> seen;
  std::unique_ptr<MateCallSampler> sampler;
  if (options.insearch_nodes > 0) {
    sampler = std::make_unique<MateCallSampler>();
    if (Status s = sampler->start(options, rng); !s) return s;
  }

  if (options.sfen_only)
    out << "# sashite svm data --sfen-only: one unlabelled SFEN per line\n";
  else
    out << "# sashite svm data 1: LABEL<TAB>SOURCE<TAB>SFEN (tools/mate/svm_data.h)\n";
  out << "# records " << options.records_dir << ", last " << options.positions_per_game
      << " positions each plus one random node 1.." << options.max_search_plies
      << " plies below each"
      << (options.insearch_nodes == 0
              ? std::string()
              : ", " + std::to_string(options.insearch_samples) + " mate-call positions of a " +
                    std::to_string(options.insearch_nodes) + "-node search from each" +
                    (options.insearch_every > 0
                         ? " and from every " + std::to_string(options.insearch_every) +
                               "th position of the record"
                         : std::string()))
      << "; "
      << (options.sfen_only ? "unlabelled"
                            : "solver budget " + std::to_string(options.nodes) + " nodes")
      << "; seed " << options.seed << "\n";

  auto emit = [&](const Position& pos, Source source) {
    if (!seen.insert(pos.key()).second) {
      ++stats.duplicates;
      return;
    }
    if (options.sfen_only) {
      ++source_count(stats, source);
      out << pos.sfen() << '\n';
      return;
    }
    const auto start = std::chrono::steady_clock::now();
    const MateLabel l = label(pos, options.nodes);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (log && seconds > options.slow_seconds)
      *log << "svm data: slow position (" << seconds << " s): " << pos.sfen() << std::endl;
    if (l == MateLabel::kUnknown) {
      ++stats.unknown;
      return;
    }
    const bool mate = l == MateLabel::kMate;
    ++(mate ? stats.mate : stats.nomate);
    ++source_count(stats, source);
    out << label_name(mate) << '\t' << source_name(source) << '\t' << pos.sfen() << '\n';
  };

  int games = 0, skipped = 0;
  for (const std::string& file : files) {
    if (skipped < options.skip_games) {
      ++skipped;
      continue;
    }
    if (options.max_games > 0 && games >= options.max_games) break;
    shogi::CsaRecord record;
    Position pos;
    if (!shogi::load_csa_record_file(file, record) || record.moves.empty()) {
      ++stats.records_unreadable;
      continue;
    }
    const int total = int(record.moves.size());
    const int last = std::max(0, total - options.positions_per_game + 1);
    const bool every = sampler && options.insearch_every > 0;
    const int first = every ? std::min(last, options.insearch_every) : last;
    if (!shogi::replay_csa_record(record, pos, first)) {
      ++stats.records_unreadable;
      continue;
    }
    ++games;
    ++stats.records;
    for (int ply = first; ply <= total; ++ply) {
      if (ply > first) pos.do_move(record.moves[ply - 1].move);
      if (ply < last) {
        // Before the record's last positions: only the searches of every Nth.
        if (ply % options.insearch_every != 0) continue;
        if (Status s = sampler->search(pos); !s) return s;
        for (const Position& p : sampler->sample()) emit(p, Source::kInSearch);
        continue;
      }
      emit(pos, Source::kRecord);
      // One random node below: a line of 1..max plies of legal moves.
      Position node = pos;
      std::uniform_int_distribution<int> depth_of(1, std::max(1, options.max_search_plies));
      const int depth = depth_of(rng);
      int played = 0;
      for (; played < depth; ++played) {
        const shogi::MoveList moves = shogi::legal_moves(node);
        if (moves.empty()) break;
        std::uniform_int_distribution<int> pick(0, moves.size() - 1);
        node.do_move(moves[pick(rng)]);
      }
      if (played > 0) emit(node, Source::kSearch);
      if (sampler) {
        if (Status s = sampler->search(pos); !s) return s;
        for (const Position& p : sampler->sample()) emit(p, Source::kInSearch);
      }
    }
    out.flush();
    if (log && games % 20 == 0)
      *log << "svm data: " << games << " records, " << stats.mate << " mate, " << stats.nomate
           << " nomate, " << stats.unknown << " unknown" << std::endl;
  }
  out.flush();
  if (!out) return Status::error("svm data: write failed");
  return Status::ok();
}

Status parse_svm_data(std::string_view text, std::string_view name, std::vector<SvmExample>& out) {
  out.clear();
  base::TextLines lines(text);
  for (std::string_view line; lines.next(line);) {
    const int line_number = lines.number();
    if (line.empty() || line[0] == '#') continue;
    auto fail = [&](const std::string& message) {
      return Status::error(std::string(name) + ":" + std::to_string(line_number) + ": " + message);
    };
    const size_t tab1 = line.find('\t');
    const size_t tab2 = tab1 == std::string_view::npos ? tab1 : line.find('\t', tab1 + 1);
    if (tab2 == std::string_view::npos) return fail("expected LABEL<TAB>SOURCE<TAB>SFEN");
    const std::string_view label = line.substr(0, tab1);
    SvmExample example;
    if (label == "mate")
      example.mate = true;
    else if (label != "nomate")
      return fail("label '" + std::string(label) + "' is neither mate nor nomate");
    example.source = std::string(line.substr(tab1 + 1, tab2 - tab1 - 1));
    example.sfen = std::string(line.substr(tab2 + 1));
    Position check;
    if (Status s = check.set_sfen(example.sfen); !s) return fail(s.message());
    out.push_back(std::move(example));
  }
  return Status::ok();
}

Status read_svm_data(const std::string& path, std::vector<SvmExample>& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::error(path + ": cannot open the dataset file");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return parse_svm_data(buffer.str(), path, out);
}

}  // namespace tools
