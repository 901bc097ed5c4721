// The work list of `sashite book think`: reading inputs, sharding, skipping finished work.
#include "tools/book/book_think_work.h"

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unordered_set>

#include "book/book_builder.h"
#include "book/import_records.h"
#include "shogi/position.h"

namespace tools {

using base::Status;

bool ThinkShard::contains(uint64_t key) const {
  return count <= 1 || shard_hash(key) % uint64_t(count) == uint64_t(index);
}

uint64_t shard_hash(uint64_t key) {
  key += 0x9e3779b97f4a7c15ULL;
  key = (key ^ (key >> 30)) * 0xbf58476d1ce4e5b9ULL;
  key = (key ^ (key >> 27)) * 0x94d049bb133111ebULL;
  return key ^ (key >> 31);
}

Status parse_think_shard(std::string_view text, ThinkShard& out) {
  const size_t slash = text.find('/');
  const auto bad = [&] {
    return Status::error("shard '" + std::string(text) + "': expected I/N with 0 <= I < N");
  };
  if (slash == std::string_view::npos) return bad();
  int index = -1, count = 0;
  const std::string_view a = text.substr(0, slash), b = text.substr(slash + 1);
  if (std::from_chars(a.data(), a.data() + a.size(), index).ptr != a.data() + a.size() || a.empty())
    return bad();
  if (std::from_chars(b.data(), b.data() + b.size(), count).ptr != b.data() + b.size() || b.empty())
    return bad();
  if (count < 1 || index < 0 || index >= count) return bad();
  out.index = index;
  out.count = count;
  return Status::ok();
}

Status add_book_positions(const std::string& book_dir, uint32_t min_count,
                          std::vector<ThinkWork>& out) {
  book::BookDb db;
  if (Status s = db.open(book_dir, false); !s) return s;
  Status bad_entry;
  Status s = db.for_each([&](const book::BookEntry& entry) {
    uint64_t total = 0;
    for (const book::BookMove& m : entry.moves) total += m.count;
    if (total < min_count) return true;
    shogi::Position pos;
    if (Status p = pos.set(entry.position.setup()); !p) {
      bad_entry = Status::error("book " + book_dir + ": entry " + std::to_string(entry.key) + ": " +
                                p.message());
      return false;
    }
    out.push_back({pos.key(), pos.sfen()});
    return true;
  });
  if (!s) return s;
  return bad_entry;
}

Status add_record_positions(const std::vector<std::string>& paths, int max_ply, uint32_t min_count,
                            std::vector<ThinkWork>& out) {
  book::RecordFilter filter;
  filter.max_ply = max_ply;
  book::BookBuilder positions;
  book::ImportStats stats;
  if (Status s = book::import_csa_records(paths, filter, positions, stats); !s) return s;
  for (const book::BookEntry& entry : positions.sorted_entries()) {
    uint64_t total = 0;
    for (const book::BookMove& m : entry.moves) total += m.count;
    if (total < min_count) continue;
    shogi::Position pos;
    if (!pos.set(entry.position.setup())) continue;
    out.push_back({pos.key(), pos.sfen()});
  }
  return Status::ok();
}

Status add_sfen_file_positions(const std::string& path, std::vector<ThinkWork>& out) {
  std::ifstream in(path);
  if (!in) return Status::error("SFEN file " + path + ": cannot be read");
  // A directory opens, and would read as an empty file.
  if (std::error_code ec; std::filesystem::is_directory(path, ec))
    return Status::error("SFEN file " + path + ": cannot be read: Is a directory");
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
      line.pop_back();
    const size_t begin = line.find_first_not_of(" \t");
    if (begin == std::string::npos || line[begin] == '#') continue;
    std::string_view text = std::string_view(line).substr(begin);
    if (text.substr(0, 5) == "sfen ") text.remove_prefix(5);
    shogi::Position pos;
    if (Status s = pos.set_sfen(text); !s)
      return Status::error("SFEN file " + path + ": line " + std::to_string(number) + ": " +
                           s.message());
    out.push_back({pos.key(), pos.sfen()});
  }
  return Status::ok();
}

void select_think_work(const ThinkShard& shard, std::vector<ThinkWork>& work) {
  std::unordered_set<uint64_t> seen;
  std::vector<ThinkWork> kept;
  for (ThinkWork& w : work)
    if (shard.contains(w.key) && seen.insert(w.key).second) kept.push_back(std::move(w));
  work = std::move(kept);
}

std::string think_no_moves_meta_name(uint64_t key) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(key));
  return std::string("think-nomoves/") + hex;
}

Status drop_finished_work(const book::BookDb& out, std::vector<ThinkWork>& work, size_t& done) {
  std::vector<ThinkWork> left;
  done = 0;
  for (ThinkWork& w : work) {
    book::BookEntry entry;
    bool found = false;
    if (Status s = out.get(w.key, entry, found); !s) return s;
    if (!found) {
      std::string value;
      if (Status s = out.get_meta(think_no_moves_meta_name(w.key), value, found); !s) return s;
    }
    if (found)
      ++done;
    else
      left.push_back(std::move(w));
  }
  work = std::move(left);
  return Status::ok();
}

}  // namespace tools
