// Book: an immutable in-memory opening book, probed by exact lookup or by similar-position
// retrieval (docs/techniques.md §3: simple and relation-number similarity).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "book/book_entry.h"
#include "book/position_index.h"
#include "book/similarity.h"
#include "engine/book_mode.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace book {

// The engine's declaration (engine/book_mode.h): the mode the engine asks for is the mode
// the book retrieves by.
using engine::book_mode_name;
using engine::BookMode;
using engine::parse_book_mode;

// A retrieved book position. distance: the simple difference (kExact, kSimple) or the
// relation-number weighted difference (kRelation).
struct SimilarPosition {
  const BookEntry* entry = nullptr;
  double distance = 0;
};

// A candidate move for the query position, merged over the retrieved positions.
struct Candidate {
  shogi::Move move;              // completed for the query position, legal there
  double weight = 0;             // the candidates' weights sum to 1
  uint32_t count = 0;            // sum of the book counts of the move in the retrieved positions
  int16_t value = kNoBookValue;  // from the retrieved position with the deepest value
  int16_t depth = 0;
};

struct ProbeResult {
  std::vector<SimilarPosition> positions;  // nearest first
  std::vector<Candidate> moves;            // best first
  WeightTable weights;  // kRelation: the dynamic weight table of this query; else zeros
  bool empty() const { return moves.empty(); }
};

struct RetrievalOptions {
  // The gain of the relation-number weight table: w[s] = 1 + alpha * touches[s] / max.
  // Default: 4.
  double relation_alpha = 4.0;
  // The relation-number method's first pass keeps the positions within max_distance, at
  // most this many nearest ones (ties with the last kept too); 0: no limit. A limit bounds
  // the latency when many positions lie within the threshold (the search's bound drops
  // only once it has this many). Default: 32.
  int relation_support = 32;
};

// The book. Immutable after construction; every const member is thread-safe, so engines'
// search threads may probe one Book concurrently.
//
// Retrieval (ProbeResult::positions):
//   kExact: the entry whose key and packed position equal the query's (k and max_distance
//     are not used).
//   kSimple: (i) a book position counts only through its moves that are legal here (the
//     same from/to/promotion or drop as a legal move of the query; see translate_move) and (ii)
//     pass the attacker-count filter (attackers_compatible); positions with no such move are "other
//     positions" and skipped; (iii) the distance is simple_difference; (iv) the k nearest within
//     max_distance, and every position tied with the k-th.
//   kRelation: (i) the kSimple positions within max_distance (at most
//     RetrievalOptions::relation_support of the nearest); (ii) their passing moves vote on
//     the squares they touch (SquareTouches); (iii) WeightTable::from_touches; (iv) those
//     positions are compared again by weighted_difference; (v) the k smallest, ties kept;
//     their distance is the weighted one. The table is returned in ProbeResult::weights.
// Candidate moves (ProbeResult::moves): each retrieved position p at distance d gives each
// of its passing moves m the weight  share(p, m) / (1 + d),  where share is m's count over
// the sum of p's move counts (every move of p, passing or not; 1/number of moves when all
// counts are 0). Weights of the same move add up; moves of weight 0 are dropped; the rest
// are normalised to sum 1 and ordered by weight, then count.
class Book {
 public:
  explicit Book(std::vector<BookEntry> entries);
  Book(const Book&) = delete;
  Book& operator=(const Book&) = delete;

  size_t size() const { return entries_.size(); }
  const std::vector<BookEntry>& entries() const { return entries_; }
  const PositionIndex& index() const { return index_; }

  // The entry of this exact position (key, then board, hands and side verified), or null.
  const BookEntry* find(const shogi::Position& pos) const;

  // REQUIRES: k >= 1. kOff gives an empty result.
  ProbeResult probe(const shogi::Position& pos, BookMode mode, int k, double max_distance,
                    const RetrievalOptions& options = {}, IndexSearchStats* stats = nullptr) const;
  // The same answer without the index, by scanning every position (tests, bench checks).
  ProbeResult probe_by_scan(const shogi::Position& pos, BookMode mode, int k, double max_distance,
                            const RetrievalOptions& options = {}) const;

 private:
  // The moves of entry e that pass both filters against the query's moves (sorted by
  // key16): (the query's move, index in the entry's moves).
  void passing_moves(const std::vector<QueryMove>& query_moves, uint32_t e,
                     std::vector<std::pair<shogi::Move, int>>& out) const;
  ProbeResult finish(const shogi::Position& pos, const std::vector<QueryMove>& query_moves,
                     BookMode mode, int k, const std::vector<Neighbour>& near,
                     const RetrievalOptions& options) const;
  ProbeResult probe_with(const shogi::Position& pos, BookMode mode, int k, double max_distance,
                         const RetrievalOptions& options, IndexSearchStats* stats, bool scan) const;

  std::vector<BookEntry> entries_;
  // Attacker counts of every book move in its own position: entry e's moves are at
  // [move_begin_[e], move_begin_[e + 1]).
  std::vector<uint32_t> move_begin_;
  std::vector<MoveAttackers> move_attackers_;
  std::vector<uint8_t> usable_;  // a legal position with at least one move: indexed
  // Exact lookup: open addressing on the key, slots hold entry index + 1 (0: empty).
  std::vector<uint32_t> slots_;
  int slot_shift_ = 64;
  PositionIndex index_;
};

}  // namespace book
