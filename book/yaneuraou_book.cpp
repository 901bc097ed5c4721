// YaneuraouBook: reading and writing YaneuraOu's "#YANEURAOU-DB2016 1.00" text book.
#include "book/yaneuraou_book.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>

#include "base/text_lines.h"
#include "base/words.h"
#include "book/book_plies.h"
#include "shogi/notation.h"

namespace book {

namespace {

using base::split_words;

constexpr const char* kHeader = "#YANEURAOU-DB2016 1.00";

template <typename T>
bool parse_int(std::string_view text, T& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

int16_t clamp16(int64_t v) { return int16_t(std::clamp<int64_t>(v, -32767, 32767)); }

}  // namespace

base::Status import_yaneuraou_book_text(std::string_view text, std::string_view name,
                                        BookBuilder& out, ImportStats& stats) {
  shogi::Position pos;
  enum class Block { kNone, kValid, kSkipped } block = Block::kNone;
  base::TextLines lines(text);
  for (std::string_view line; lines.next(line);) {
    const int line_number = lines.number();
    auto where = [&]() { return std::string(name) + ":" + std::to_string(line_number) + ": "; };
    if (line.empty() || line[0] == '#' || line.substr(0, 2) == "//") continue;
    if (line.substr(0, 5) == "sfen ") {
      base::Status set = pos.set_sfen(line.substr(5));
      if (set) {
        block = Block::kValid;
      } else {
        block = Block::kSkipped;
        ++stats.skipped;
        stats.warn(where() + set.message() + " (position skipped)");
      }
      continue;
    }
    const std::vector<std::string_view> t = split_words(line);
    if (t.empty()) continue;
    if (block == Block::kNone)
      return base::Status::error(where() + "a move line before any 'sfen' line");
    if (t.size() < 3 || t.size() > 5)
      return base::Status::error(where() + "expected '<move> <ponder> <value> <depth> <count>'");
    int64_t value = 0, depth = 0;
    uint64_t count = 1;
    if (!parse_int(t[2], value))
      return base::Status::error(where() + "value '" + std::string(t[2]) + "' is not a number");
    if (t.size() >= 4 && !parse_int(t[3], depth))
      return base::Status::error(where() + "depth '" + std::string(t[3]) + "' is not a number");
    if (t.size() >= 5 && !parse_int(t[4], count))
      return base::Status::error(where() + "count '" + std::string(t[4]) + "' is not a number");
    if (block == Block::kSkipped) continue;
    BookMove m;
    base::Status parsed = shogi::parse_usi_move(pos, t[0], m.move);
    if (!parsed) {
      ++stats.skipped;
      stats.warn(where() + parsed.message() + " (move skipped)");
      continue;
    }
    m.count = uint32_t(std::min<uint64_t>(count, 0xffffffffu));
    if (value != 0 || depth != 0) {
      m.value = clamp16(value);
      m.depth = clamp16(depth);
    }
    m.sources = kSourceYaneuraou;
    ++stats.rows;
    if (!out.add(pos, m)) {
      ++stats.collisions;
      stats.warn(where() + "key collision with another position; move dropped");
    }
  }
  return base::Status::ok();
}

base::Status import_yaneuraou_book(const std::string& path, BookBuilder& out, ImportStats& stats) {
  std::string text;
  base::Status s = read_whole_file(path, text);
  if (!s) return s;
  ++stats.files;
  return import_yaneuraou_book_text(text, path, out, stats);
}

base::Status write_yaneuraou_book(const std::vector<BookEntry>& entries, std::ostream& out,
                                  size_t* positions) {
  const std::unordered_map<uint64_t, int> plies = book_plies(entries);
  std::unordered_map<uint64_t, size_t> index_of;
  index_of.reserve(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) index_of.emplace(entries[i].key, i);

  struct Item {
    std::string sfen;  // without the move number
    BookEntry entry;
  };
  std::vector<Item> items;
  items.reserve(entries.size());
  shogi::Position pos;
  for (const BookEntry& e : entries) {
    if (e.moves.empty()) continue;
    base::Status set = pos.set(e.position.setup());
    if (!set)
      return base::Status::error("book entry " + std::to_string(e.key) + ": " + set.message());
    items.push_back({pos.sfen(false), e});
    items.back().entry.sort_moves();
  }
  std::sort(items.begin(), items.end(),
            [](const Item& a, const Item& b) { return a.sfen < b.sfen; });

  // The best move of each position, for ponder moves.
  std::unordered_map<uint64_t, shogi::Move> best;
  best.reserve(items.size());
  for (const Item& item : items) best.emplace(item.entry.key, item.entry.moves.front().move);

  out << kHeader << '\n';
  std::string text;
  for (const Item& item : items) {
    const auto ply = plies.find(item.entry.key);
    text.clear();
    text += "sfen ";
    text += item.sfen;
    text += ' ';
    text += std::to_string(ply == plies.end() ? 1 : ply->second + 1);
    text += '\n';
    pos.set(item.entry.position.setup());
    for (const BookMove& m : item.entry.moves) {
      const shogi::Move move = pos.complete_move(m.move);
      std::string ponder = "none";
      if (pos.is_pseudo_legal(move) && pos.is_legal(move)) {
        const auto next = best.find(pos.key_after(move));
        if (next != best.end()) ponder = shogi::format_usi_move(next->second);
      }
      text += shogi::format_usi_move(move);
      text += ' ';
      text += ponder;
      text += ' ';
      text += std::to_string(m.has_value() ? m.value : 0);
      text += ' ';
      text += std::to_string(m.has_value() ? m.depth : 0);
      text += ' ';
      text += std::to_string(m.count);
      text += '\n';
    }
    out << text;
  }
  if (!out) return base::Status::error("YaneuraOu book: write error");
  if (positions) *positions = items.size();
  return base::Status::ok();
}

}  // namespace book
