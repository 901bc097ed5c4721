// BookAdvisor: what an opening book suggests in a position, as the search consumes it.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "engine/book_mode.h"
#include "engine/names.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace engine {

// What a probe asks for; the engine fills it from its Book* options.
struct BookRequest {
  BookMode mode = BookMode::kRelation;
  int k = 4;                   // similar positions kept (nearest first)
  int max_distance = 12;       // squares + hand pieces; farther positions lend nothing
  int narrow_cut_percent = 0;  // drop moves with less than this share of the count
  int eval_diff_cp = 0;        // drop moves whose stored value trails the best by more; 0: off
  int min_depth = 0;           // drop moves whose stored value is shallower; 0: off
};

// One suggested move: legal in the probed position, weight in (0, 1], best first.
struct BookSuggestion {
  Move move;
  double weight = 0;  // share of the book's preference, the suggestions summing to 1
  uint32_t count = 0;
  Value value = kValueNone;  // a stored search value (side to move), or kValueNone
};

// The suggestion to play (BookMoveChoice weighted or best): with `weighted`, one at random
// in proportion to the weights; else the first (suggestions come best first).
// REQUIRES: !suggestions.empty().
inline size_t pick_book_suggestion(const std::vector<BookSuggestion>& suggestions, bool weighted,
                                   std::mt19937_64& random) {
  size_t i = 0;
  if (!weighted) return i;
  double total = 0;
  for (const BookSuggestion& s : suggestions) total += s.weight;
  double x = std::uniform_real_distribution<double>(0, total)(random);
  for (; i + 1 < suggestions.size() && x >= suggestions[i].weight; ++i) x -= suggestions[i].weight;
  return i;
}

// An opening book seen from the engine. Implementations live outside engine/ (book/ keeps
// it in LevelDB); the engine only asks. Thread-safe: probes may come from any thread.
class BookAdvisor {
 public:
  virtual ~BookAdvisor() = default;
  virtual std::vector<BookSuggestion> suggest(const Position& pos,
                                              const BookRequest& request) const = 0;
};

}  // namespace engine
