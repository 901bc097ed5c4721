// Weights: storage, and the text file format's reader and writer.
#include "engine/eval/weights.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <system_error>

#include "base/file_write.h"
#include "base/words.h"
#include "engine/names.h"

namespace engine::eval {

namespace {

constexpr const char* kMagic = "sashite-eval";

bool parse_int(std::string_view text, int& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

bool parse_double(std::string_view text, double& out) {
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

std::string join_words(const std::vector<std::string_view>& words) {
  std::string joined;
  for (std::string_view w : words) {
    if (!joined.empty()) joined += ' ';
    joined += w;
  }
  return joined;
}

std::string section_line(const Section& s) {
  std::string line = std::string("section ") + s.name;
  for (int d = 0; d < s.rank; ++d) {
    line += ' ';
    line += std::to_string(s.dims[d]);
  }
  return line;
}

std::string format_number(double v) {
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), v);
  return ec == std::errc() ? std::string(buffer, end) : std::string("0");
}

// What the rows and columns of a section are, for the comment save() writes above it.
std::string section_comment(const Section& s) {
  std::string_view name = s.name;
  if (name == "material")
    return "# pawn lance knight silver bishop rook gold king +pawn +lance +knight +silver "
           "horse dragon";
  if (name == "hand")
    return "# rows: pawn lance knight silver bishop rook gold; column n: the n-th piece held "
           "(1..18)";
  if (name == "pin") return "# pieces pinned to their own king, by kind (13 kinds, no king)";
  if (name == "tempo") return "# the side to move's bonus";
  if (name.ends_with("_king_attacks"))
    return "# by enemy attacks into the king's 5x5 box, 0..23 (23 = 23 or more)";
  if (name.ends_with("_king_defences"))
    return "# by own attacks into the king's 5x5 box (king excluded), 0..23";
  if (name.ends_with("_king_controlled"))
    return "# by box squares with more enemy attackers than defenders, 0..25";
  if (name.ends_with("_king_escapes"))
    return "# by free, unattacked squares next to the king, 0..8";
  if (name.ends_with("_king_drops"))
    return "# rows: kind the enemy holds (pawn lance knight silver bishop rook gold); "
           "columns: empty squares next to the king, 0..8";
  if (name.ends_with("_piece_square"))
    return "# per kind, then rows folded file 0..4 (files 1|9 .. 5), columns rank 0..8 from "
           "the owner's side (rank 0 = the enemy's back rank)";
  if (name.ends_with("_safety"))
    return "# per kind, then rows enemy attackers 0..3, columns own defenders 0..3 (3 = 3 or "
           "more; kings included)";
  if (name.ends_with("_threat"))
    return "# a piece attacked by an enemy piece of a lower value class, by its kind";
  if (name.ends_with("_threatened"))
    return "# blocks: the side waiting, the side to move; rows: its pieces attacked by a "
           "cheaper piece or attacked and undefended, 0..3 (3 = 3 or more); columns: the "
           "highest value class among them (pawn 0, lance/knight 1, silver/gold/promoted "
           "2, bishop/rook 3, horse/dragon 4)";
  if (name.ends_with("_mobility"))
    return "# rows: lance bishop rook horse dragon; columns: squares attacked that its own side "
           "does not occupy, 0..16 (16 = 16 or more)";
  return "# per kind, then rows |df| 0..8, columns dr -8..+8 (dr > 0: the piece stands "
         "in front of the king, seen from the piece owner's side)";
}

}  // namespace

Weights::Weights() : units_(kFeatureCount, 0) {}

void Weights::set(int index, double centipawns) {
  if (std::isnan(centipawns)) centipawns = 0;
  if (centipawns > kMaxAbsCentipawns) centipawns = kMaxAbsCentipawns;
  if (centipawns < -kMaxAbsCentipawns) centipawns = -kMaxAbsCentipawns;
  units_[index] = int32_t(std::lround(centipawns * kUnitsPerCentipawn));
}

Status Weights::load(const std::string& path) {
  // A directory opens, and would read as an empty file.
  if (std::error_code ec; std::filesystem::is_directory(path, ec))
    return Status::error(path + ": Is a directory");
  std::ifstream in(path);
  if (!in) return Status::error(path + ": cannot open the file for reading");
  return read(in, path);
}

Status Weights::save(const std::string& path) const {
  // Through a synced sibling file and a rename: a reader never sees half a file, and a crash
  // keeps the previous weights.
  std::ostringstream out;
  write(out);
  return replace_file(path, out.str());
}

void Weights::write(std::ostream& out) const {
  out << kMagic << ' ' << kFormatVersion << '\n';
  if (!header_.empty()) {
    std::istringstream lines(header_);
    std::string line;
    while (std::getline(lines, line)) out << (line.empty() ? "#" : "# " + line) << '\n';
  }
  out << "features " << kFeatureCount << '\n';
  out << "# Weights in centipawns (a pawn is about 100). Layout: engine/eval/feature_layout.h.\n"
      << "# value = base sections + (1 - progress) * opening_* + progress * endgame_*\n";
  for (const Section& s : kSections) {
    out << '\n' << section_line(s) << '\n' << section_comment(s) << '\n';
    const int row = s.rank == 1 ? s.dims[0] : s.dims[s.rank - 1];
    const int block = s.rank == 3 ? s.dims[1] * s.dims[2] : s.size();
    for (int i = 0; i < s.size(); ++i) {
      if (s.rank == 3 && s.dims[0] == kKindNb && i % block == 0)
        out << "# " << kKindNames[i / block] << '\n';
      if (s.rank == 3 && s.dims[0] == 2 && i % block == 0)
        out << "# " << (i / block ? "the side to move" : "the side waiting") << '\n';
      if (s.rank == 2 && s.dims[0] == kHandKindNb && i % row == 0)
        out << "# " << kPieceNames[i / row] << '\n';
      if (s.rank == 2 && s.dims[0] == kSliderNb && i % row == 0)
        out << "# " << kSliderNames[i / row] << '\n';
      out << format_number(get(s.offset + i)) << ((i + 1) % row == 0 ? '\n' : ' ');
    }
  }
}

Status Weights::read(std::istream& in, const std::string& source_name) {
  int line_number = 0;
  auto fail = [&](int line, const std::string& what) {
    return Status::error(source_name + ": line " + std::to_string(line) + ": " + what);
  };

  std::string line;
  auto next_line = [&]() {
    if (!std::getline(in, line)) return false;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
  };

  // Line 1: the magic and the format version.
  if (!next_line())
    return fail(1, "empty file, expected 'sashite-eval " + std::to_string(kFormatVersion) + "'");
  {
    const auto words = split_words(line);
    if (words.size() != 2 || words[0] != kMagic)
      return fail(1, "bad header '" + line + "', expected 'sashite-eval " +
                         std::to_string(kFormatVersion) + "'");
    int version = 0;
    if (!parse_int(words[1], version))
      return fail(1, "bad format version '" + std::string(words[1]) + "'");
    if (version != kFormatVersion)
      return fail(1, "format version " + std::to_string(version) +
                         " is not supported (this build reads version " +
                         std::to_string(kFormatVersion) + ")");
  }

  // Header comments, then the feature count.
  std::string header;
  bool in_header = false;
  bool have_count = false;
  while (next_line()) {
    if (line.starts_with("#")) {
      std::string_view text = std::string_view(line).substr(1);
      if (text.starts_with(" ")) text.remove_prefix(1);
      if (in_header) header += '\n';
      header += text;
      in_header = true;
      continue;
    }
    const auto words = split_words(line);
    if (words.empty()) continue;
    int count = 0;
    if (words.size() != 2 || words[0] != "features" || !parse_int(words[1], count))
      return fail(line_number, "expected 'features " + std::to_string(kFeatureCount) +
                                   "', found '" + line + "'");
    if (count != kFeatureCount)
      return fail(line_number, "wrong feature count " + std::to_string(count) +
                                   " (this build's layout has " + std::to_string(kFeatureCount) +
                                   ": the file was made for another layout; learn it again, "
                                   "or write the hand-set weights anew)");
    have_count = true;
    break;
  }
  if (!have_count)
    return fail(line_number + 1,
                "file truncated: no 'features " + std::to_string(kFeatureCount) + "' line");

  // The sections, in order.
  std::vector<int32_t> units(kFeatureCount, 0);
  int section = -1;  // the section being read; -1 before the first
  int filled = 0;    // numbers read in it
  auto section_name = [&](int s) { return std::string("'") + kSections[s].name + "'"; };
  while (next_line()) {
    if (line.starts_with("#")) continue;
    const auto words = split_words(line);
    if (words.empty()) continue;
    if (words[0] == "section") {
      if (section >= 0 && filled < kSections[section].size())
        return fail(line_number, "section " + section_name(section) + " ends after " +
                                     std::to_string(filled) + " of its " +
                                     std::to_string(kSections[section].size()) + " numbers");
      if (section + 1 >= kSectionNb)
        return fail(line_number, "unexpected '" + line + "' after the last section");
      ++section;
      filled = 0;
      if (join_words(words) != section_line(kSections[section]))
        return fail(line_number,
                    "expected '" + section_line(kSections[section]) + "', found '" + line + "'");
      continue;
    }
    if (section < 0)
      return fail(line_number,
                  "expected '" + section_line(kSections[0]) + "', found '" + line + "'");
    const Section& s = kSections[section];
    for (std::string_view word : words) {
      if (filled >= s.size())
        return fail(line_number, "section " + section_name(section) + " has " +
                                     std::to_string(s.size()) + " numbers; '" + std::string(word) +
                                     "' is one too many");
      double value = 0;
      if (!parse_double(word, value) || !std::isfinite(value))
        return fail(line_number, "'" + std::string(word) + "' is not a number (section " +
                                     section_name(section) + ", entry " +
                                     std::to_string(filled + 1) + ")");
      if (std::fabs(value) > kMaxAbsCentipawns)
        return fail(line_number, "'" + std::string(word) + "' is out of range (at most " +
                                     format_number(kMaxAbsCentipawns) + " in magnitude)");
      units[s.offset + filled] = int32_t(std::lround(value * kUnitsPerCentipawn));
      ++filled;
    }
  }
  if (in.bad()) return Status::error(source_name + ": read error");
  if (section < 0)
    return fail(line_number + 1,
                "file truncated: no sections (expected '" + section_line(kSections[0]) + "')");
  if (filled < kSections[section].size())
    return fail(line_number + 1, "file truncated: section " + section_name(section) + " has " +
                                     std::to_string(filled) + " of its " +
                                     std::to_string(kSections[section].size()) + " numbers");
  if (section + 1 < kSectionNb)
    return fail(line_number + 1, "file truncated: section " + section_name(section + 1) +
                                     " and those after it are missing");

  version_ = kFormatVersion;
  header_ = std::move(header);
  units_ = std::move(units);
  return Status::ok();
}

}  // namespace engine::eval
