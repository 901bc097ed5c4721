// Book: construction (exact table, attacker counts, index) and the probes.
#include "book/book.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>

#include "shogi/movegen.h"

namespace book {

using shogi::Move;
using shogi::Position;

namespace {

constexpr uint64_t kSlotMultiplier = 0x9E3779B97F4A7C15ull;

bool same_position(const PackedPosition& packed, const Position& pos) {
  if (packed.side_to_move != uint8_t(pos.side_to_move()) ||
      packed.hands[0] != pos.hand(shogi::kBlack).raw() ||
      packed.hands[1] != pos.hand(shogi::kWhite).raw())
    return false;
  for (shogi::Square s = 0; s < shogi::kSquareNb; ++s)
    if (packed.board[s] != uint8_t(pos.piece_on(s))) return false;
  return true;
}

// The share of a book position's vote its move i gets (see Book).
double move_share(const BookEntry& e, size_t i) {
  uint64_t total = 0;
  for (const BookMove& m : e.moves) total += m.count;
  if (total == 0) return 1.0 / double(e.moves.size());
  return double(e.moves[i].count) / double(total);
}

}  // namespace

Book::Book(std::vector<BookEntry> entries) : entries_(std::move(entries)) {
  const size_t n = entries_.size();
  usable_.assign(n, 0);
  move_begin_.assign(n + 1, 0);
  Position pos;
  for (size_t e = 0; e < n; ++e) {
    const BookEntry& entry = entries_[e];
    move_begin_[e] = uint32_t(move_attackers_.size());
    const bool ok = pos.set(entry.position.setup()).is_ok();
    usable_[e] = ok && !entry.moves.empty();
    for (const BookMove& m : entry.moves)
      move_attackers_.push_back(ok && m.move.to() < shogi::kSquareNb
                                    ? count_move_attackers(pos, m.move)
                                    : MoveAttackers{});
  }
  move_begin_[n] = uint32_t(move_attackers_.size());

  int bits = 4;
  while ((size_t(1) << bits) < 2 * n) ++bits;
  slot_shift_ = 64 - bits;
  slots_.assign(size_t(1) << bits, 0);
  const size_t mask = slots_.size() - 1;
  for (size_t e = 0; e < n; ++e) {
    size_t s = size_t((entries_[e].key * kSlotMultiplier) >> slot_shift_);
    while (slots_[s]) s = (s + 1) & mask;
    slots_[s] = uint32_t(e + 1);
  }
  index_.build(entries_, usable_, move_begin_, move_attackers_);
}

const BookEntry* Book::find(const Position& pos) const {
  if (entries_.empty()) return nullptr;
  const uint64_t key = pos.key();
  const size_t mask = slots_.size() - 1;
  for (size_t s = size_t((key * kSlotMultiplier) >> slot_shift_); slots_[s]; s = (s + 1) & mask) {
    const BookEntry& e = entries_[slots_[s] - 1];
    if (e.key == key && same_position(e.position, pos)) return &e;
  }
  return nullptr;
}

void Book::passing_moves(const std::vector<QueryMove>& query_moves, uint32_t e,
                         std::vector<std::pair<Move, int>>& out) const {
  out.clear();
  const BookEntry& entry = entries_[e];
  for (size_t i = 0; i < entry.moves.size(); ++i) {
    // (i) legal here: one of the query's legal moves has the same from/to/promotion/drop.
    const uint16_t key = entry.moves[i].move.key16();
    const auto it =
        std::lower_bound(query_moves.begin(), query_moves.end(), key,
                         [](const QueryMove& q, uint16_t k) { return q.move.key16() < k; });
    if (it == query_moves.end() || it->move.key16() != key) continue;
    // (ii) the attacker counts agree.
    if (!attackers_compatible(move_attackers_[move_begin_[e] + i], it->attackers,
                              it->move.is_drop()))
      continue;
    out.emplace_back(it->move, int(i));
  }
}

ProbeResult Book::finish(const Position& pos, const std::vector<QueryMove>& query_moves,
                         BookMode mode, int k, const std::vector<Neighbour>& near,
                         const RetrievalOptions& options) const {
  std::vector<std::pair<Move, int>> moves;
  std::vector<std::pair<uint32_t, double>> chosen;  // (entry, distance)
  WeightTable table;
  if (mode == BookMode::kRelation) {
    // (ii) touches of the near positions' passing moves, (iii) the weight table.
    SquareTouches touches;
    for (const Neighbour& n : near) {
      passing_moves(query_moves, n.entry, moves);
      for (const auto& [m, i] : moves)
        touches.add_move(m, move_share(entries_[n.entry], size_t(i)));
    }
    table = WeightTable::from_touches(touches, options.relation_alpha);
    // (iv) compare again with the weights, (v) the k smallest, ties kept.
    const BoardRow query = board_row(pos);
    const uint32_t hands[2] = {pos.hand(shogi::kBlack).raw(), pos.hand(shogi::kWhite).raw()};
    for (const Neighbour& n : near)
      chosen.emplace_back(
          n.entry, weighted_difference(query.squares, hands, index_.row_of_entry(n.entry).squares,
                                       entries_[n.entry].position.hands, table));
    std::sort(chosen.begin(), chosen.end(), [](const auto& a, const auto& b) {
      return a.second != b.second ? a.second < b.second : a.first < b.first;
    });
    if (int(chosen.size()) > k) {
      const double kth = chosen[size_t(k - 1)].second;
      size_t end = size_t(k);
      while (end < chosen.size() && chosen[end].second == kth) ++end;
      chosen.resize(end);
    }
  } else {
    for (const Neighbour& n : near) chosen.emplace_back(n.entry, double(n.distance));
  }

  ProbeResult result;
  if (mode == BookMode::kRelation) result.weights = table;
  for (const auto& [e, d] : chosen) {
    const BookEntry& entry = entries_[e];
    result.positions.push_back({&entry, d});
    passing_moves(query_moves, e, moves);
    for (const auto& [m, i] : moves) {
      const BookMove& bm = entry.moves[size_t(i)];
      const double w = move_share(entry, size_t(i)) / (1.0 + d);
      auto it = std::find_if(result.moves.begin(), result.moves.end(),
                             [&](const Candidate& c) { return c.move == m; });
      if (it == result.moves.end()) {
        result.moves.push_back({m, 0.0, 0, kNoBookValue, 0});
        it = result.moves.end() - 1;
      }
      it->weight += w;
      it->count += bm.count;
      if (bm.has_value() && (it->value == kNoBookValue || bm.depth > it->depth)) {
        it->value = bm.value;
        it->depth = bm.depth;
      }
    }
  }
  std::erase_if(result.moves, [](const Candidate& c) { return !(c.weight > 0); });
  double total = 0;
  for (const Candidate& c : result.moves) total += c.weight;
  for (Candidate& c : result.moves) c.weight /= total;
  std::stable_sort(result.moves.begin(), result.moves.end(),
                   [](const Candidate& a, const Candidate& b) {
                     return a.weight != b.weight ? a.weight > b.weight : a.count > b.count;
                   });
  return result;
}

ProbeResult Book::probe_with(const Position& pos, BookMode mode, int k, double max_distance,
                             const RetrievalOptions& options, IndexSearchStats* stats,
                             bool scan) const {
  if (mode == BookMode::kOff || k < 1) return {};
  const BookEntry* exact = mode == BookMode::kExact ? find(pos) : nullptr;
  if (mode == BookMode::kExact && !exact) return {};
  // The query's legal moves that some book position of this side has, with their attacker
  // counts here, ordered by their 16-bit key: the filters compare book moves with them.
  std::vector<QueryMove> query_moves;
  for (const Move m : shogi::legal_moves(pos))
    if (index_.has_move(pos.side_to_move(), m))
      query_moves.push_back({m, count_move_attackers(pos, m)});
  std::sort(query_moves.begin(), query_moves.end(),
            [](const QueryMove& a, const QueryMove& b) { return a.move.key16() < b.move.key16(); });
  std::vector<Neighbour> near;
  if (mode == BookMode::kExact) {
    near.push_back({uint32_t(exact - entries_.data()), 0});
    return finish(pos, query_moves, mode, k, near, options);
  }
  if (!(max_distance >= 0)) return {};
  const int bound = int(std::floor(std::min(max_distance, 255.0)));
  const int want = mode == BookMode::kSimple      ? k
                   : options.relation_support > 0 ? options.relation_support
                                                  : INT_MAX;
  near = scan ? index_.nearest_by_scan(pos, query_moves, want, bound)
              : index_.nearest(pos, query_moves, want, bound, stats);
  return finish(pos, query_moves, mode, k, near, options);
}

ProbeResult Book::probe(const Position& pos, BookMode mode, int k, double max_distance,
                        const RetrievalOptions& options, IndexSearchStats* stats) const {
  return probe_with(pos, mode, k, max_distance, options, stats, false);
}

ProbeResult Book::probe_by_scan(const Position& pos, BookMode mode, int k, double max_distance,
                                const RetrievalOptions& options) const {
  return probe_with(pos, mode, k, max_distance, options, nullptr, true);
}

}  // namespace book
