// Training positions for evaluation learning: CSA records replayed, and teacher files parsed.
#include "tools/learn/learn_data.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/text_lines.h"
#include "base/words.h"
#include "shogi/csa_files.h"
#include "shogi/csa_record.h"
#include "shogi/notation.h"

namespace tools {

using base::Status;
using shogi::Position;
namespace fs = std::filesystem;

Status parse_teacher_text(std::string_view text, const std::string& name, int first_group,
                          std::vector<TrainingPosition>& out) {
  int group = first_group;
  base::TextLines lines(text);
  for (std::string_view line; lines.next(line);) {
    const int line_number = lines.number();
    if (const size_t hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
      line.remove_suffix(1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (line.empty()) continue;
    const std::string where = name + ":" + std::to_string(line_number) + ": ";
    const size_t tab = line.rfind('\t');
    if (tab == std::string_view::npos)
      return Status::error(where + "expected '<SFEN> <TAB> <USI move>', found no tab");
    std::string_view sfen = line.substr(0, tab);
    const std::vector<std::string_view> move_words = base::split_words(line.substr(tab + 1));
    while (!sfen.empty() && (sfen.back() == ' ' || sfen.back() == '\t')) sfen.remove_suffix(1);
    if (sfen.substr(0, 5) == "sfen ") sfen.remove_prefix(5);
    if (sfen.empty()) return Status::error(where + "no SFEN before the tab");
    if (move_words.size() != 1)
      return Status::error(where + "expected one USI move after the tab, found " +
                           std::to_string(move_words.size()) + " words");
    Position pos;
    if (Status s = pos.set_sfen(sfen); !s) return Status::error(where + s.message());
    TrainingPosition tp;
    if (Status s = shogi::parse_usi_move(pos, move_words[0], tp.teacher); !s)
      return Status::error(where + s.message());
    tp.setup = pos.setup();
    tp.group = group++;
    out.push_back(tp);
  }
  return Status::ok();
}

Status read_teacher_file(const std::string& path, int first_group,
                         std::vector<TrainingPosition>& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::error(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_teacher_text(text.str(), path, first_group, out);
}

Status collect_record_positions(const std::string& dir, int skip_plies, int first_group,
                                std::vector<TrainingPosition>& out, int* records,
                                const std::string& player) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Status::error(dir + ": not a directory");
  std::vector<std::string> paths;
  if (Status s = shogi::list_csa_files(dir, paths); !s) return s;
  int group = first_group;
  for (const std::string& path : paths) {
    shogi::CsaRecord rec;
    if (Status s = shogi::load_csa_record_file(path, rec); !s) return s;
    Position pos;
    if (Status s = pos.set(rec.initial); !s) return Status::error(path + ": " + s.message());
    const bool black_teaches = player.empty() || rec.black_name.find(player) != std::string::npos;
    const bool white_teaches = player.empty() || rec.white_name.find(player) != std::string::npos;
    for (size_t ply = 0; ply < rec.moves.size(); ++ply) {
      const shogi::Move m = rec.moves[ply].move;
      const bool teaches = pos.side_to_move() == shogi::kBlack ? black_teaches : white_teaches;
      if (int(ply) >= skip_plies && teaches) {
        TrainingPosition tp;
        tp.setup = pos.setup();
        tp.teacher = m;
        tp.group = group;
        out.push_back(tp);
      }
      pos.do_move(m);
    }
    ++group;
  }
  if (records) *records = int(paths.size());
  return Status::ok();
}

namespace {

int next_group(const std::vector<TrainingPosition>& positions) {
  return positions.empty() ? 0 : positions.back().group + 1;
}

void mark_training_only(std::vector<TrainingPosition>& positions, size_t first) {
  for (size_t i = first; i < positions.size(); ++i) positions[i].training_only = true;
}

}  // namespace

Status gather_training_positions(const TrainingSources& sources, std::vector<TrainingPosition>& out,
                                 TrainingCounts& counts, std::ostream* log) {
  counts = TrainingCounts{};
  const size_t start = out.size();
  if (!sources.records.empty())
    if (Status s = collect_record_positions(sources.records, sources.skip_plies, next_group(out),
                                            out, &counts.records);
        !s)
      return s;
  counts.record_positions = out.size() - start;
  for (const std::string& t : sources.teachers) {
    const size_t first = out.size();
    // Numbered on from the record count (as ever: held-out teacher lines stay the same).
    const int first_group = counts.records + int(counts.teacher_positions);
    if (Status s = read_teacher_file(t, first_group, out); !s) return s;
    counts.teacher_positions += out.size() - first;
  }
  for (const std::string& dir : sources.train_records) {
    const size_t first = out.size();
    int records = 0;
    if (Status s = collect_record_positions(dir, sources.train_skip_plies, next_group(out), out,
                                            &records, sources.train_player);
        !s)
      return s;
    mark_training_only(out, first);
    counts.train_record_positions += out.size() - first;
    if (log)
      *log << dir << ": " << records << " records, " << out.size() - first
           << " teacher positions (training only)\n";
  }
  for (const std::string& t : sources.train_teachers) {
    const size_t first = out.size();
    if (Status s = read_teacher_file(t, next_group(out), out); !s) return s;
    mark_training_only(out, first);
    counts.train_teacher_positions += out.size() - first;
    if (log) *log << t << ": " << out.size() - first << " teacher positions (training only)\n";
  }
  return Status::ok();
}

void thin_positions(std::vector<TrainingPosition>& positions, int max_positions) {
  const size_t total = positions.size();
  if (max_positions <= 0 || total <= size_t(max_positions)) return;
  size_t kept = 0;
  for (size_t i = 0; i < total; ++i) {
    // Keep i when the running quota (i + 1) * max / total steps up.
    if ((i + 1) * size_t(max_positions) / total > i * size_t(max_positions) / total)
      positions[kept++] = positions[i];
  }
  positions.resize(kept);
}

}  // namespace tools
