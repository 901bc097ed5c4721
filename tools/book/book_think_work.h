// The work list of `sashite book think`: the input positions, the shard split, and what an
// earlier run already wrote (resume).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "book/book_db.h"

namespace tools {

// One position to think about.
struct ThinkWork {
  uint64_t key = 0;  // shogi::Position::key()
  std::string sfen;  // what the engines are sent ("position sfen <sfen> ...")
};

// A deterministic split of the work: shard `index` of `count` takes the positions whose
// mixed key (shard_hash) modulo count is index. Every position is in exactly one shard.
struct ThinkShard {
  int index = 0;
  int count = 1;
  bool contains(uint64_t key) const;
};

// "I/N" with 0 <= I < N. Errors name the text.
base::Status parse_think_shard(std::string_view text, ThinkShard& out);
// Position keys carry the side to move in bit 0 and hand keys add up: a splitmix64 finish
// spreads them before the modulo.
uint64_t shard_hash(uint64_t key);

// Appends the positions of a book (key order) whose moves' counts add up to at least
// min_count. Errors name the directory.
base::Status add_book_positions(const std::string& book_dir, uint32_t min_count,
                                std::vector<ThinkWork>& out);
// Appends the positions of a file of SFENs, one a line ("sfen " in front and "startpos" are
// accepted; blank lines and lines starting with '#' are skipped). Errors name the file and
// the line.
base::Status add_sfen_file_positions(const std::string& path, std::vector<ThinkWork>& out);

// Appends the positions of CSA records (files, or directories searched recursively) up to
// max_ply (the position before move max_ply; 0: every position), each with at least
// min_count occurrences over the records, in the order first met. Errors name the path.
base::Status add_record_positions(const std::vector<std::string>& paths, int max_ply,
                                  uint32_t min_count, std::vector<ThinkWork>& out);

// Keeps the first of the positions with the same key, and those in `shard`, in order.
void select_think_work(const ThinkShard& shard, std::vector<ThinkWork>& work);

// The metadata name that marks a position as done although it has no entry (no engine
// named a legal move there, or no move got a value): "think-nomoves/<16 hex digits>".
std::string think_no_moves_meta_name(uint64_t key);

// Removes from `work` the positions `out` already holds (an entry, or the no-moves mark):
// what a run killed earlier finished. Returns how many were removed in `done`.
base::Status drop_finished_work(const book::BookDb& out, std::vector<ThinkWork>& work,
                                size_t& done);

}  // namespace tools
