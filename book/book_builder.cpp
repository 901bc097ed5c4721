// BookBuilder: collecting an import in memory and writing it in batches.
#include "book/book_builder.h"

#include <algorithm>

namespace book {

BookEntry* BookBuilder::entry_for(const shogi::Position& pos) {
  const uint64_t key = pos.key();
  auto [it, inserted] = entries_.try_emplace(key);
  BookEntry& entry = it->second;
  const PackedPosition packed = PackedPosition::from(pos);
  if (inserted) {
    entry.key = key;
    entry.position = packed;
  } else if (!(entry.position == packed)) {
    return nullptr;
  }
  return &entry;
}

bool BookBuilder::add(const shogi::Position& pos, const BookMove& m) {
  BookEntry* entry = entry_for(pos);
  if (!entry) return false;
  BookMove completed = m;
  completed.move = pos.complete_move(m.move);
  entry->merge_move(completed);
  return true;
}

bool BookBuilder::add_position(const shogi::Position& pos) { return entry_for(pos) != nullptr; }

size_t BookBuilder::move_count() const {
  size_t n = 0;
  for (const auto& [key, entry] : entries_) n += entry.moves.size();
  return n;
}

std::vector<BookEntry> BookBuilder::sorted_entries() const {
  std::vector<BookEntry> out;
  out.reserve(entries_.size());
  for (const auto& [key, entry] : entries_) {
    out.push_back(entry);
    out.back().sort_moves();
  }
  std::sort(out.begin(), out.end(),
            [](const BookEntry& a, const BookEntry& b) { return a.key < b.key; });
  return out;
}

base::Status BookBuilder::write(BookDb& db, size_t batch_size) const {
  // Key order, one batch of copies at a time: memory stays near the builder's own.
  std::vector<uint64_t> keys;
  keys.reserve(entries_.size());
  for (const auto& [key, entry] : entries_) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  std::vector<BookEntry> batch;
  batch.reserve(std::min(batch_size, keys.size()));
  for (uint64_t key : keys) {
    batch.push_back(entries_.at(key));
    batch.back().sort_moves();
    if (batch.size() >= batch_size) {
      base::Status s = db.put(batch, /*combine=*/true);
      if (!s) return s;
      batch.clear();
    }
  }
  if (!batch.empty()) return db.put(batch, /*combine=*/true);
  return base::Status::ok();
}

}  // namespace book

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace book {

base::Status read_whole_file(const std::string& path, std::string& out) {
  // A directory opens, and would read as an empty file.
  if (std::error_code ec; std::filesystem::is_directory(path, ec))
    return base::Status::error(path + ": Is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) return base::Status::error(path + ": cannot open (" + std::strerror(errno) + ")");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return base::Status::error(path + ": read error");
  out = std::move(buffer).str();
  return base::Status::ok();
}

}  // namespace book
