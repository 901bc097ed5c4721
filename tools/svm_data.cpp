// The mate-prediction dataset: building it from game records, and reading it back.
#include "tools/svm_data.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <random>
#include <sstream>
#include <unordered_set>

#include "engine/csa_files.h"
#include "engine/csa_record.h"
#include "engine/movegen.h"
#include "engine/text_lines.h"

namespace tools {

using engine::Position;
using engine::Status;

namespace {

const char* label_name(bool mate) { return mate ? "mate" : "nomate"; }

std::vector<std::string> csa_files_under(const std::string& dir, Status& status) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    status = Status::error(dir + ": not a directory");
  else
    status = engine::list_csa_files(dir, files);
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

  if (options.sfen_only)
    out << "# sashite svm data --sfen-only: one unlabelled SFEN per line\n";
  else
    out << "# sashite svm data 1: LABEL<TAB>SOURCE<TAB>SFEN (tools/svm_data.h)\n";
  out << "# records " << options.records_dir << ", last " << options.positions_per_game
      << " positions each plus one random node 1.." << options.max_search_plies
      << " plies below each; "
      << (options.sfen_only ? "unlabelled" : "solver budget " + std::to_string(options.nodes) + " nodes")
      << "; seed " << options.seed << "\n";

  auto emit = [&](const Position& pos, bool from_record) {
    if (!seen.insert(pos.key()).second) {
      ++stats.duplicates;
      return;
    }
    if (options.sfen_only) {
      ++(from_record ? stats.record_positions : stats.search_positions);
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
    ++(from_record ? stats.record_positions : stats.search_positions);
    out << label_name(mate) << '\t' << (from_record ? "record" : "search") << '\t' << pos.sfen()
        << '\n';
  };

  int games = 0, skipped = 0;
  for (const std::string& file : files) {
    if (skipped < options.skip_games) {
      ++skipped;
      continue;
    }
    if (options.max_games > 0 && games >= options.max_games) break;
    engine::CsaRecord record;
    Position pos;
    if (!engine::load_csa_record_file(file, record) || record.moves.empty()) {
      ++stats.records_unreadable;
      continue;
    }
    const int total = int(record.moves.size());
    const int first = std::max(0, total - options.positions_per_game + 1);
    if (!engine::replay_csa_record(record, pos, first)) {
      ++stats.records_unreadable;
      continue;
    }
    ++games;
    ++stats.records;
    for (int ply = first; ply <= total; ++ply) {
      if (ply > first) pos.do_move(record.moves[ply - 1].move);
      emit(pos, true);
      // One random node below: a line of 1..max plies of legal moves.
      Position node = pos;
      std::uniform_int_distribution<int> depth_of(1, std::max(1, options.max_search_plies));
      const int depth = depth_of(rng);
      int played = 0;
      for (; played < depth; ++played) {
        const engine::MoveList moves = engine::legal_moves(node);
        if (moves.empty()) break;
        std::uniform_int_distribution<int> pick(0, moves.size() - 1);
        node.do_move(moves[pick(rng)]);
      }
      if (played > 0) emit(node, false);
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
  engine::TextLines lines(text);
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
