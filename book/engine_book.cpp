// EngineBook: probes for the engine, filtered and renormalised.
#include "book/engine_book.h"

#include <algorithm>

#include "book/book_db.h"

namespace book {

std::vector<engine::BookSuggestion> EngineBook::suggest(const shogi::Position& pos,
                                                        const engine::BookRequest& request) const {
  std::vector<engine::BookSuggestion> out;
  const BookMode mode = request.mode;
  if (mode == BookMode::kOff) return out;
  const ProbeResult probe =
      book_.probe(pos, mode, std::max(request.k, 1), double(request.max_distance));
  uint64_t total_count = 0;
  int best_value = kNoBookValue;
  for (const Candidate& c : probe.moves) {
    total_count += c.count;
    if (c.value != kNoBookValue) best_value = std::max<int>(best_value, c.value);
  }
  double total_weight = 0;
  for (const Candidate& c : probe.moves) {
    if (request.narrow_cut_percent > 0 &&
        c.count * 100.0 < request.narrow_cut_percent * double(total_count))
      continue;
    if (request.eval_diff_cp > 0 && best_value != kNoBookValue &&
        (c.value == kNoBookValue || best_value - c.value > request.eval_diff_cp))
      continue;
    if (request.min_depth > 0 && c.depth < request.min_depth) continue;
    engine::BookSuggestion s;
    s.move = c.move;
    s.weight = c.weight;
    s.count = c.count;
    s.value = c.value == kNoBookValue ? shogi::kValueNone : shogi::Value(c.value);
    total_weight += s.weight;
    out.push_back(s);
  }
  if (total_weight > 0)
    for (engine::BookSuggestion& s : out) s.weight /= total_weight;
  return out;
}

base::Status load_engine_book(const std::string& directory,
                              std::shared_ptr<const engine::BookAdvisor>& out) {
  std::vector<BookEntry> entries;
  // Engines started together (two clients of the demo, a match against itself) load the
  // same book at once; each holds the lock for the fraction of a second a load takes.
  if (base::Status st = load_book(directory, entries, kBookLockWaitMs); !st) return st;
  out = std::make_shared<EngineBook>(std::move(entries));
  return base::Status::ok();
}

void install_book_loader(engine::Engine& engine) { engine.set_book_loader(load_engine_book); }

}  // namespace book
