// BookBuilder: the positions and moves of an import, collected in memory, then written.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "book/book_db.h"
#include "book/book_entry.h"
#include "shogi/position.h"

namespace book {

// What an import read and kept, for the user.
struct ImportStats {
  uint64_t files = 0;                 // files read (records: each .csa file)
  uint64_t records = 0;               // games used (records only)
  uint64_t rows = 0;                  // book moves read (lines, binary moves, record moves kept)
  uint64_t skipped = 0;               // inputs left out (unreadable files, filtered games, ...)
  uint64_t collisions = 0;            // moves dropped: another position had the same key
  std::vector<std::string> warnings;  // at most kMaxWarnings, for the user
  static constexpr size_t kMaxWarnings = 20;
  void warn(std::string message) {
    if (warnings.size() < kMaxWarnings) warnings.push_back(std::move(message));
  }
};

// Collects book moves by position (merging with BookEntry::merge_move). Not thread-safe.
class BookBuilder {
 public:
  // Merges m into the entry of pos, creating the entry. Returns false (and drops m) when
  // another position already holds pos's key. REQUIRES: m is legal in pos.
  bool add(const shogi::Position& pos, const BookMove& m);
  // Makes sure pos has an entry (with no moves when new); false on a key collision.
  bool add_position(const shogi::Position& pos);

  size_t position_count() const { return entries_.size(); }
  size_t move_count() const;  // distinct (position, move) pairs
  const std::unordered_map<uint64_t, BookEntry>& entries() const { return entries_; }
  // The entries in key order, moves sorted best first.
  std::vector<BookEntry> sorted_entries() const;

  // Writes every entry into db, combined with what db holds, batch_size entries per
  // WriteBatch (each batch atomic).
  base::Status write(BookDb& db, size_t batch_size = 20000) const;

 private:
  BookEntry* entry_for(const shogi::Position& pos);
  std::unordered_map<uint64_t, BookEntry> entries_;
};

}  // namespace book

namespace book {

// Reads a whole file; the error names the path.
base::Status read_whole_file(const std::string& path, std::string& out);

}  // namespace book
