// PositionIndex: exact k-nearest-neighbour search over book positions by simple difference,
// restricted to book positions with a move that passes the filters in the query position.
#pragma once

#include <cstdint>
#include <vector>

#include "book/book_entry.h"
#include "book/similarity.h"
#include "shogi/position.h"

namespace book {

// A retrieved book position: its index in the book's entries and its simple difference.
struct Neighbour {
  uint32_t entry = 0;
  int distance = 0;
  bool operator==(const Neighbour&) const = default;
};

// A legal move of the query position with its attacker counts there.
struct QueryMove {
  shogi::Move move;
  MoveAttackers attackers;
};

// Counters of one search, for benchmarks and tests.
struct IndexSearchStats {
  uint64_t groups_visited = 0;  // groups whose chunk bounds were read
  uint64_t chunks_skipped = 0;  // chunks whose bound exceeded the k-th best
  uint64_t rows_visited = 0;    // rows whose summary was read
  uint64_t rows_compared = 0;   // full board compares
};

// The index holds one row per (book position, book move). A book position is retrieved
// when one of its moves passes the filters (docs/techniques.md §3 (i) and (ii)): the move is
// legal in the query, i.e. one of the query's legal moves has the same 16-bit key, and the
// attacker counts agree (attackers_compatible). So the rows are split by side to move and
// book move (a query only reads the rows of its own legal moves), then grouped by the
// counts the attacker filter compares (a whole group passes or fails at once).
// Inside a group the rows are sorted so that consecutive rows look alike
// (lexicographically by their block summaries, the blocks that vary most first) and cut
// into chunks of kChunkRows. A chunk keeps the summary blocks all its rows share and the
// range of their hand totals: the shared blocks that differ in the query plus the distance
// of the query's hand total to that range bound the difference of every row of the chunk
// from below, so a chunk is skipped when that bound exceeds the current k-th best (or
// max_distance). Chunks with a bound of at most 2 are visited first, so that the k-th
// best drops fast. Then per row: the hand totals (|difference| <= hand difference), the
// block summaries (block_difference, 32 bytes), the board compare (six SSE2 16-byte
// compares) and the exact hand difference. The 32-byte summaries keep most rejected rows'
// 96-byte boards from being read at all.
// The result is exact: it equals nearest_by_scan (tested on random books). Immutable
// after build; thread-safe for concurrent searches.
class PositionIndex {
 public:
  // Indexes every move of entries[i] for each i with usable[i] != 0; move_attackers holds
  // the attacker counts of entry i's moves at [move_begin[i], move_begin[i + 1]).
  void build(const std::vector<BookEntry>& entries, const std::vector<uint8_t>& usable,
             const std::vector<uint32_t>& move_begin,
             const std::vector<MoveAttackers>& move_attackers);

  // True when some book position of this side to move has this move (by its 16-bit key).
  bool has_move(shogi::Color side, shogi::Move m) const { return move_slot_[side][m.key16()] != 0; }

  // The book positions nearest to pos by simple difference among those within max_distance
  // that have a move passing the filters against `moves` (the query's legal moves with
  // their attacker counts; moves absent from the book may be left out): the k nearest and
  // every position tied with the k-th, ordered by difference then entry index.
  // REQUIRES: k >= 1.
  std::vector<Neighbour> nearest(const shogi::Position& pos, const std::vector<QueryMove>& moves,
                                 int k, int max_distance, IndexSearchStats* stats = nullptr) const;
  // The same answer by comparing every row (the reference the tests use).
  std::vector<Neighbour> nearest_by_scan(const shogi::Position& pos,
                                         const std::vector<QueryMove>& moves, int k,
                                         int max_distance) const;

  size_t size() const { return row_entry_.size(); }  // rows: (position, move) pairs
  size_t group_count() const { return groups_.size(); }
  // The board of an indexed entry. REQUIRES: the entry was indexed.
  const BoardRow& row_of_entry(uint32_t entry) const { return rows_[entry_row_[entry]]; }

 private:
  struct MoveRows {  // the rows of one side to move and book move
    uint32_t group_begin, group_end;
  };
  struct Group {              // the rows of one move with one attacker signature
    MoveAttackers signature;  // enemy counts as 0 or 1
    uint32_t row_begin, row_end;
    uint32_t chunk_begin;  // the group's rows in chunks of kChunkRows, the last one shorter
  };
  // kChunkRows consecutive rows: the summary blocks they all share (mask 0xFF) and their
  // values, and the range of their hand totals (common.spare[0..1]), for a lower bound on
  // the whole chunk.
  struct Chunk {
    BoardSummary common;
    BoardSummary mask;
  };
  static constexpr uint32_t kChunkRows = 16;
  class Search;

  // move_slot_[side][key16]: index into moves_ + 1, 0 when the book has no such move.
  std::vector<uint32_t> move_slot_[shogi::kColorNb];
  std::vector<MoveRows> moves_;
  std::vector<Group> groups_;
  std::vector<BoardRow> rows_;
  // Read before the row (a third of the bytes): block summary, and in spare[0] the hand
  // total.
  std::vector<BoardSummary> row_summary_;
  std::vector<MoveAttackers> row_attackers_;  // for the scan (the search has groups)
  std::vector<uint32_t> row_entry_;
  std::vector<Chunk> chunks_;
  std::vector<uint32_t> entry_row_;  // entry index -> one of its rows (UINT32_MAX: none)
  // Per row: side and move (for the scan), hands and their total.
  std::vector<uint8_t> row_side_;
  std::vector<uint16_t> row_move_;
  std::vector<uint32_t> row_hands_[shogi::kColorNb];
};

}  // namespace book
