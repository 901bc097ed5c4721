// ImportGpsTsv: GPS Shogi's TSV book dump into a BookBuilder (columns in import_gps_tsv.h).
#include "book/import_gps_tsv.h"

#include <array>
#include <charconv>
#include <unordered_map>

#include "base/text_lines.h"
#include "shogi/notation.h"

namespace book {

namespace {

constexpr int kColumns = 7;

// Splits text into lines (LF or CRLF), calling visit(line, line_number) until it fails.
template <typename Visit>
base::Status for_each_line(std::string_view text, Visit visit) {
  base::TextLines lines(text);
  for (std::string_view line; lines.next(line);)
    if (base::Status s = visit(line, lines.number()); !s) return s;
  return base::Status::ok();
}

bool split_columns(std::string_view line, std::array<std::string_view, kColumns>& columns) {
  size_t start = 0;
  for (int i = 0; i < kColumns; ++i) {
    const size_t tab = line.find('\t', start);
    if (i == kColumns - 1) {
      if (tab != std::string_view::npos) return false;
      columns[i] = line.substr(start);
      return true;
    }
    if (tab == std::string_view::npos) return false;
    columns[i] = line.substr(start, tab - start);
    start = tab + 1;
  }
  return true;
}

bool parse_number(std::string_view text, uint32_t& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

struct Row {
  uint32_t state = 0, weight = 0, next_state = 0, black_wins = 0, white_wins = 0;
  std::string_view sfen, move;
};

base::Status parse_row(std::string_view line, std::string_view name, int line_number, Row& row) {
  auto fail = [&](const std::string& why) {
    return base::Status::error(std::string(name) + ":" + std::to_string(line_number) + ": " + why);
  };
  std::array<std::string_view, kColumns> c;
  if (!split_columns(line, c))
    return fail(
        "expected 7 tab-separated columns (state, sfen, move, weight, next state, "
        "black wins, white wins)");
  constexpr std::string_view kSfenPrefix = "sfen ";
  if (c[1].substr(0, kSfenPrefix.size()) != kSfenPrefix)
    return fail("column 2: expected 'sfen <SFEN>'");
  row.sfen = c[1].substr(kSfenPrefix.size());
  row.move = c[2];
  const char* names[] = {"state", "", "", "weight", "next state", "black wins", "white wins"};
  uint32_t* fields[] = {&row.state,      nullptr,         nullptr,        &row.weight,
                        &row.next_state, &row.black_wins, &row.white_wins};
  for (int i : {0, 3, 4, 5, 6})
    if (!parse_number(c[i], *fields[i]))
      return fail("column " + std::to_string(i + 1) + " (" + names[i] + "): not a number: '" +
                  std::string(c[i]) + "'");
  return base::Status::ok();
}

}  // namespace

base::Status import_gps_tsv_text(std::string_view text, std::string_view name, BookBuilder& out,
                                 ImportStats& stats) {
  // Pass 1: the win counts of every state that has lines.
  std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> state_wins;
  base::Status s = for_each_line(text, [&](std::string_view line, int line_number) {
    if (line.empty() || line[0] == '#') return base::Status::ok();
    Row row;
    base::Status parsed = parse_row(line, name, line_number, row);
    if (!parsed) return parsed;
    state_wins[row.state] = {row.black_wins, row.white_wins};
    return base::Status::ok();
  });
  if (!s) return s;

  // Pass 2: positions and moves.
  shogi::Position pos;
  std::string_view current_sfen;
  s = for_each_line(text, [&](std::string_view line, int line_number) {
    if (line.empty() || line[0] == '#') return base::Status::ok();
    auto fail = [&](const std::string& why) {
      return base::Status::error(std::string(name) + ":" + std::to_string(line_number) + ": " +
                                 why);
    };
    Row row;
    base::Status parsed = parse_row(line, name, line_number, row);
    if (!parsed) return parsed;
    if (row.sfen != current_sfen) {
      base::Status set = pos.set_sfen(row.sfen);
      if (!set) return fail(set.message());
      current_sfen = row.sfen;
    }
    BookMove m;
    base::Status parsed_move = shogi::parse_usi_move(pos, row.move, m.move);
    if (!parsed_move) return fail(parsed_move.message());
    m.count = row.weight;
    if (auto it = state_wins.find(row.next_state); it != state_wins.end()) {
      const bool black = pos.side_to_move() == shogi::kBlack;
      m.wins = black ? it->second.first : it->second.second;
      m.losses = black ? it->second.second : it->second.first;
    }
    m.sources = kSourceGpsTsv;
    ++stats.rows;
    if (!out.add(pos, m)) {
      ++stats.collisions;
      stats.warn(fail("key collision with another position; move dropped").message());
    }
    return base::Status::ok();
  });
  return s;
}

base::Status import_gps_tsv(const std::string& path, BookBuilder& out, ImportStats& stats) {
  std::string text;
  base::Status s = read_whole_file(path, text);
  if (!s) return s;
  ++stats.files;
  return import_gps_tsv_text(text, path, out, stats);
}

}  // namespace book
