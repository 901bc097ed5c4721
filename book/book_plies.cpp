// BookPlies: breadth-first search over book moves from the start position.
#include "book/book_plies.h"

#include <deque>

#include "shogi/position.h"

namespace book {

std::unordered_map<uint64_t, int> book_plies(const std::vector<BookEntry>& entries) {
  std::unordered_map<uint64_t, const BookEntry*> by_key;
  by_key.reserve(entries.size());
  for (const BookEntry& e : entries) by_key.emplace(e.key, &e);
  std::unordered_map<uint64_t, int> plies;
  const shogi::Position start;
  if (!by_key.count(start.key())) return plies;
  plies[start.key()] = 0;
  std::deque<uint64_t> queue{start.key()};
  shogi::Position pos;
  while (!queue.empty()) {
    const uint64_t key = queue.front();
    queue.pop_front();
    const BookEntry& e = *by_key.at(key);
    if (!pos.set(e.position.setup())) continue;
    const int ply = plies[key];
    for (const BookMove& m : e.moves) {
      const shogi::Move move = pos.complete_move(m.move);
      if (!pos.is_pseudo_legal(move) || !pos.is_legal(move)) continue;
      const uint64_t next = pos.key_after(move);
      if (!by_key.count(next) || plies.count(next)) continue;
      plies[next] = ply + 1;
      queue.push_back(next);
    }
  }
  return plies;
}

}  // namespace book
