// PositionIndex: build (group rows by move and attacker counts, sort them into chunks) and
// the bounded search.
#include "book/position_index.h"

#include <emmintrin.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <tuple>
#include <unordered_set>

#include "shogi/hand.h"

namespace book {

using shogi::Color;
using shogi::Square;

namespace {

int hand_total(const uint32_t hands[shogi::kColorNb]) {
  return shogi::Hand(hands[0]).total() + shogi::Hand(hands[1]).total();
}

// The attacker counts as the filter sees them: the enemy's only by whether they are zero.
MoveAttackers attacker_signature(MoveAttackers a) {
  a.enemy_to = a.enemy_to > 0;
  a.enemy_from = a.enemy_from > 0;
  return a;
}

struct RowKey {
  uint8_t side;
  uint16_t move;  // Move::key16
  MoveAttackers signature;
  int total;
  uint32_t hands[2];
  uint32_t entry;
  uint32_t move_index;  // into the book's move_attackers
  auto tie() const {
    return std::tie(side, move, signature.own_to, signature.enemy_to, signature.own_from,
                    signature.enemy_from, entry);
  }
};

}  // namespace

void PositionIndex::build(const std::vector<BookEntry>& entries, const std::vector<uint8_t>& usable,
                          const std::vector<uint32_t>& move_begin,
                          const std::vector<MoveAttackers>& move_attackers) {
  *this = PositionIndex();
  std::vector<RowKey> keys;
  for (uint32_t i = 0; i < entries.size(); ++i) {
    if (!usable[i]) continue;
    const PackedPosition& p = entries[i].position;
    RowKey k;
    k.side = p.side_to_move & 1;
    k.hands[0] = p.hands[0];
    k.hands[1] = p.hands[1];
    k.total = hand_total(p.hands);
    k.entry = i;
    for (size_t m = 0; m < entries[i].moves.size(); ++m) {
      const shogi::Move move = entries[i].moves[m].move;
      if (!move.is_ok()) continue;
      k.move = move.key16();
      k.move_index = move_begin[i] + uint32_t(m);
      k.signature = attacker_signature(move_attackers[k.move_index]);
      keys.push_back(k);
    }
  }
  std::sort(keys.begin(), keys.end(),
            [](const RowKey& a, const RowKey& b) { return a.tie() < b.tie(); });
  keys.erase(std::unique(keys.begin(), keys.end(),
                         [](const RowKey& a, const RowKey& b) {
                           return a.entry == b.entry && a.move == b.move;
                         }),
             keys.end());

  const size_t n = keys.size();
  rows_.resize(n);
  row_summary_.resize(n);
  row_attackers_.resize(n);
  row_entry_.resize(n);
  row_side_.resize(n);
  row_move_.resize(n);
  row_hands_[0].resize(n);
  row_hands_[1].resize(n);
  entry_row_.assign(entries.size(), UINT32_MAX);
  move_slot_[0].assign(1u << 16, 0);
  move_slot_[1].assign(1u << 16, 0);

  // Block order for sorting rows: the blocks whose content varies most first (entropy of
  // their hash over all rows), so that the rows of a chunk share those blocks.
  constexpr int kBlocks = BoardSummary::kBlocks;
  std::vector<BoardSummary> summaries(n);
  std::vector<std::array<uint32_t, 256>> histogram(kBlocks);
  for (auto& h : histogram) h.fill(0);
  for (size_t r = 0; r < n; ++r) {
    summaries[r] = board_summary(board_row(entries[keys[r].entry].position));
    for (int b = 0; b < kBlocks; ++b) ++histogram[size_t(b)][size_t(summaries[r].block(b))];
  }
  std::array<std::pair<double, int>, kBlocks> entropy;
  for (int b = 0; b < kBlocks; ++b) {
    double e = 0;
    for (uint32_t c : histogram[size_t(b)])
      if (c) e -= double(c) / double(n) * std::log2(double(c) / double(n));
    entropy[size_t(b)] = {-e, b};
  }
  std::sort(entropy.begin(), entropy.end());

  auto same_move = [](const RowKey& a, const RowKey& b) {
    return a.side == b.side && a.move == b.move;
  };
  auto same_group = [&](const RowKey& a, const RowKey& b) {
    return same_move(a, b) && std::memcmp(&a.signature, &b.signature, sizeof a.signature) == 0;
  };
  size_t i = 0;
  while (i < n) {
    const RowKey& m = keys[i];
    MoveRows move_rows{uint32_t(groups_.size()), 0};
    while (i < n && same_move(keys[i], m)) {
      size_t j = i;
      while (j < n && same_group(keys[j], keys[i])) ++j;
      Group group{keys[i].signature, uint32_t(i), uint32_t(j), uint32_t(chunks_.size())};
      std::vector<size_t> order(j - i);
      std::iota(order.begin(), order.end(), i);
      std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
        for (const auto& [e, b] : entropy)
          if (summaries[x].block(b) != summaries[y].block(b))
            return summaries[x].block(b) < summaries[y].block(b);
        return keys[x].entry < keys[y].entry;
      });
      for (size_t r = i; r < j; ++r) {
        const RowKey& key = keys[order[r - i]];
        rows_[r] = board_row(entries[key.entry].position);
        row_summary_[r] = summaries[order[r - i]];
        row_summary_[r].spare[0] = uint8_t(key.total);
        row_attackers_[r] = move_attackers[key.move_index];
        row_entry_[r] = key.entry;
        entry_row_[key.entry] = uint32_t(r);
        row_side_[r] = key.side;
        row_move_[r] = key.move;
        row_hands_[0][r] = key.hands[0];
        row_hands_[1][r] = key.hands[1];
      }
      // Chunks: the blocks every row of the chunk shares.
      for (size_t c = i; c < j; c += kChunkRows) {
        Chunk chunk;
        chunk.common = row_summary_[c];
        uint8_t low = 255, high = 0;
        for (size_t r = c; r < std::min(j, c + kChunkRows); ++r) {
          low = std::min(low, row_summary_[r].spare[0]);
          high = std::max(high, row_summary_[r].spare[0]);
        }
        chunk.common.spare[0] = low;  // the range of the rows' hand totals
        chunk.common.spare[1] = high;
        for (int b = 0; b < kBlocks; ++b) {
          bool same = true;
          for (size_t r = c; r < std::min(j, c + kChunkRows) && same; ++r)
            same = row_summary_[r].block(b) == chunk.common.block(b);
          chunk.mask.blocks[b] = same ? 0xFF : 0;
        }
        chunks_.push_back(chunk);
      }
      groups_.push_back(group);
      i = j;
    }
    move_rows.group_end = uint32_t(groups_.size());
    moves_.push_back(move_rows);
    move_slot_[m.side][m.move] = uint32_t(moves_.size());
  }
}

// The state of one search: the query, the results so far and the current bound.
class PositionIndex::Search {
 public:
  Search(const PositionIndex& index, const shogi::Position& pos, int k, int max_distance,
         IndexSearchStats* stats)
      : index_(index),
        query_(board_row(pos)),
        query_summary_(board_summary(query_)),
        k_(k),
        bound_(max_distance),
        stats_(stats),
        per_distance_(size_t(std::max(max_distance, 0)) + 1, 0) {
    hands_[0] = pos.hand(shogi::kBlack).raw();
    hands_[1] = pos.hand(shogi::kWhite).raw();
    side_ = pos.side_to_move();
    total_ = hand_total(hands_);
  }

  std::vector<Neighbour> run(const std::vector<QueryMove>& moves) {
    if (bound_ < 0) return {};
    // The groups of the query's legal moves whose attacker counts pass the filter; their
    // chunks with a small bound first (the k-th best drops fast), then the others.
    std::vector<const Group*> groups;
    for (const QueryMove& m : moves) {
      const uint32_t slot = index_.move_slot_[side_][m.move.key16()];
      if (!slot) continue;
      const MoveRows& rows = index_.moves_[slot - 1];
      for (uint32_t g = rows.group_begin; g < rows.group_end; ++g)
        if (attackers_compatible(index_.groups_[g].signature, m.attackers, m.move.is_drop()))
          groups.push_back(&index_.groups_[g]);
    }
    if (stats_) stats_->groups_visited += groups.size();
    for (const Group* g : groups) visit_group(*g, 0, kFirstPassBound);
    for (const Group* g : groups) visit_group(*g, kFirstPassBound + 1, bound_);
    std::vector<Neighbour> out;
    for (const Neighbour& n : results_)
      if (n.distance <= bound_) out.push_back(n);
    std::sort(out.begin(), out.end(), [](const Neighbour& a, const Neighbour& b) {
      return a.distance != b.distance ? a.distance < b.distance : a.entry < b.entry;
    });
    return out;
  }

 private:
  static constexpr int kFirstPassBound = 2;

  // Scans the chunks of the group whose bound lies in [low, high] (and within the bound).
  void visit_group(const Group& group, int low, int high) {
    uint32_t c = group.chunk_begin;
    for (uint32_t begin = group.row_begin; begin < group.row_end; begin += kChunkRows, ++c) {
      const int lb = chunk_bound(index_.chunks_[c]);
      if (lb < low) continue;  // visited in the first pass
      if (lb > high || lb > bound_) {
        if (stats_ && lb > bound_) ++stats_->chunks_skipped;
        continue;
      }
      // The summaries' bound for each row of the chunk, without branches; the rows within
      // the bound go on to the full compare.
      const uint32_t end = std::min(group.row_end, begin + kChunkRows);
      uint32_t candidates[kChunkRows];
      uint32_t count = 0;
      for (uint32_t r = begin; r < end; ++r) {
        const BoardSummary& summary = index_.row_summary_[r];
        const int row_bound =
            block_difference(query_summary_, summary) + std::abs(int(summary.spare[0]) - total_);
        candidates[count] = r;
        count += row_bound <= bound_;
      }
      if (stats_) stats_->rows_visited += end - begin;
      for (uint32_t i = 0; i < count; ++i) compare_row(candidates[i]);
    }
  }

  // A lower bound on the difference of every row of the chunk: the number of blocks they
  // all share that differ in the query, plus the bound from their hand totals.
  int chunk_bound(const Chunk& chunk) const {
    const __m128i* q = reinterpret_cast<const __m128i*>(query_summary_.blocks);
    const __m128i* c = reinterpret_cast<const __m128i*>(chunk.common.blocks);
    const __m128i* k = reinterpret_cast<const __m128i*>(chunk.mask.blocks);
    const __m128i differ0 =
        _mm_and_si128(_mm_xor_si128(_mm_load_si128(q), _mm_load_si128(c)), _mm_load_si128(k));
    const __m128i differ1 = _mm_and_si128(
        _mm_xor_si128(_mm_load_si128(q + 1), _mm_load_si128(c + 1)), _mm_load_si128(k + 1));
    // Plus the hand difference's bound from the range of hand totals.
    const int hands =
        std::max({0, int(chunk.common.spare[0]) - total_, total_ - int(chunk.common.spare[1])});
    return nonzero_blocks(differ0, differ1) + hands;
  }

  // REQUIRES: the row's summary bound is within bound_.
  void compare_row(uint32_t r) {
    const int hand_bound = std::abs(int(index_.row_summary_[r].spare[0]) - total_);
    if (stats_) ++stats_->rows_compared;
    int d = board_difference(query_.squares, index_.rows_[r].squares);
    if (d + hand_bound > bound_) return;
    const uint32_t row_hands[2] = {index_.row_hands_[0][r], index_.row_hands_[1][r]};
    if (row_hands[0] != hands_[0] || row_hands[1] != hands_[1])
      d += hand_difference(row_hands, hands_);
    if (d > bound_) return;
    const uint32_t entry = index_.row_entry_[r];
    if (!seen_.insert(entry).second) return;  // retrieved through another of its moves
    results_.push_back({entry, d});
    ++per_distance_[size_t(d)];
    if (int(results_.size()) < k_) return;
    // The bound becomes the k-th smallest difference (ties with it stay in).
    int count = 0;
    for (int t = 0; t <= bound_; ++t) {
      count += per_distance_[size_t(t)];
      if (count >= k_) {
        bound_ = t;
        break;
      }
    }
  }

  const PositionIndex& index_;
  const BoardRow query_;
  const BoardSummary query_summary_;
  uint32_t hands_[shogi::kColorNb];
  Color side_;
  int total_ = 0;
  int k_;
  int bound_;
  IndexSearchStats* stats_;
  std::vector<int> per_distance_;
  std::vector<Neighbour> results_;
  std::unordered_set<uint32_t> seen_;
};

std::vector<Neighbour> PositionIndex::nearest(const shogi::Position& pos,
                                              const std::vector<QueryMove>& moves, int k,
                                              int max_distance, IndexSearchStats* stats) const {
  return Search(*this, pos, k, max_distance, stats).run(moves);
}

std::vector<Neighbour> PositionIndex::nearest_by_scan(const shogi::Position& pos,
                                                      const std::vector<QueryMove>& moves, int k,
                                                      int max_distance) const {
  const BoardRow query = board_row(pos);
  const uint32_t hands[2] = {pos.hand(shogi::kBlack).raw(), pos.hand(shogi::kWhite).raw()};
  std::vector<Neighbour> all;
  std::unordered_set<uint32_t> seen;
  for (uint32_t r = 0; r < rows_.size(); ++r) {
    if (row_side_[r] != pos.side_to_move()) continue;
    const auto m = std::find_if(moves.begin(), moves.end(),
                                [&](const QueryMove& q) { return q.move.key16() == row_move_[r]; });
    if (m == moves.end() ||
        !attackers_compatible(row_attackers_[r], m->attackers, m->move.is_drop()))
      continue;
    const uint32_t row_hands[2] = {row_hands_[0][r], row_hands_[1][r]};
    const int d =
        board_difference(query.squares, rows_[r].squares) + hand_difference(hands, row_hands);
    if (d <= max_distance && seen.insert(row_entry_[r]).second) all.push_back({row_entry_[r], d});
  }
  std::sort(all.begin(), all.end(), [](const Neighbour& a, const Neighbour& b) {
    return a.distance != b.distance ? a.distance < b.distance : a.entry < b.entry;
  });
  if (int(all.size()) > k) {
    const int kth = all[size_t(k - 1)].distance;
    size_t end = size_t(k);
    while (end < all.size() && all[end].distance == kth) ++end;
    all.resize(end);
  }
  return all;
}

}  // namespace book
