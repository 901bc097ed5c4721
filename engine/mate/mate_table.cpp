// The mate transposition table: clustered storage, hand-domination lookups, and garbage
// collection of the least-worked entries.
#include "engine/mate/mate_table.h"

#include <algorithm>
#include <span>
#include <vector>

#include "engine/names.h"

namespace engine::mate {
namespace {

bool is_solved(const MateEntry& e) { return e.pn == 0 || e.dn == 0; }

}  // namespace

MateTable::MateTable(size_t megabytes) {
  // Entries start at generation 0, which is never the table's: all empty.
  const size_t entries = std::max<size_t>(megabytes, 1) * 1024 * 1024 / sizeof(MateEntry);
  cluster_count_ = std::max<size_t>(entries / kClusterSize, 1);
  entry_count_ = cluster_count_ * kClusterSize;
  entries_ = make_huge_page_array<MateEntry>(entry_count_);
}

void MateTable::clear() {
  used_ = 0;
  if (++generation_ == 0) {
    std::fill(entries_.get(), entries_.get() + entry_count_, MateEntry{});
    generation_ = 1;
  }
}

MateEntry* MateTable::cluster(uint64_t board_key) {
  const uint64_t mixed = board_key * 0x9E3779B97F4A7C15ull;
  return &entries_[size_t((unsigned __int128)mixed * cluster_count_ >> 64) * kClusterSize];
}
const MateEntry* MateTable::cluster(uint64_t board_key) const {
  return const_cast<MateTable*>(this)->cluster(board_key);
}

MateLookup MateTable::lookup(uint64_t board_key, Hand attacker_hand) const {
  const MateEntry* c = cluster(board_key);
  MateLookup out;
  for (int i = 0; i < kClusterSize; ++i) {
    const MateEntry& e = c[i];
    if (e.board_key != board_key || !live(e)) continue;
    const Hand h(e.hand);
    const bool proof = e.pn == 0 && attacker_hand.dominates(h);
    const bool disproof = e.dn == 0 && h.dominates(attacker_hand);
    if (proof || disproof) {
      // A solved entry beats anything; among proofs keep the shortest mate.
      if (out.found && out.pn == 0 && proof && out.mate_len <= e.mate_len) continue;
      out = {true, e.pn, e.dn, h, Move(e.move), e.mate_len, e.amount};
      if (disproof) return out;
      continue;
    }
    if (h == attacker_hand && !is_solved(e) && !(out.found && (out.pn == 0 || out.dn == 0)))
      out = {true, e.pn, e.dn, h, Move(e.move), e.mate_len, e.amount};
  }
  return out;
}

void MateTable::store(uint64_t board_key, Hand hand, uint32_t pn, uint32_t dn, uint32_t amount,
                      Move move, int mate_len) {
  if (used_ * 10 >= entry_count_ * 9) collect_garbage();
  MateEntry* c = cluster(board_key);
  const bool solved = pn == 0 || dn == 0;
  MateEntry* slot = nullptr;
  for (int i = 0; i < kClusterSize; ++i) {
    MateEntry& e = c[i];
    if (e.board_key != board_key || !live(e)) continue;
    const Hand h(e.hand);
    bool replace = h == hand && !is_solved(e);
    if (pn == 0) replace = replace || (!(e.dn == 0) && h.dominates(hand));  // subsumed by the proof
    if (dn == 0)
      replace = replace || (!(e.pn == 0) && hand.dominates(h));  // subsumed by the disproof
    if (!solved && is_solved(e) && h == hand) return;  // never overwrite a solution with less
    if (!replace) continue;
    amount = std::max(amount, e.amount);
    if (!slot) {
      slot = &e;
    } else {
      e = MateEntry{};
      --used_;
    }
  }
  if (!slot) {
    for (int i = 0; i < kClusterSize && !slot; ++i)
      if (!live(c[i])) {
        slot = &c[i];
        ++used_;
      }
  }
  if (!slot) {     // the cluster is full: replace its least-worked entry
    slot = &c[0];  // every entry is live here
    for (int i = 1; i < kClusterSize; ++i)
      if (c[i].amount < slot->amount) slot = &c[i];
  }
  slot->board_key = board_key;
  slot->hand = hand.raw();
  slot->pn = pn;
  slot->dn = dn;
  slot->amount = amount;
  slot->move = move.raw();
  slot->mate_len = uint16_t(std::min(mate_len, 65535));
  slot->generation = generation_;
}

void MateTable::collect_garbage() {
  ++collections_;
  // The median amount of a sample of used entries is the cut.
  std::vector<uint32_t> sample;
  const size_t step = std::max<size_t>(entry_count_ / 4096, 1);
  for (size_t i = 0; i < entry_count_; i += step)
    if (live(entries_[i])) sample.push_back(entries_[i].amount);
  if (sample.empty()) return;
  std::nth_element(sample.begin(), sample.begin() + sample.size() / 2, sample.end());
  const uint32_t cut = sample[sample.size() / 2];
  for (MateEntry& e : std::span(entries_.get(), entry_count_)) {
    if (live(e) && e.amount <= cut) {
      e = MateEntry{};
      --used_;
    }
  }
  // Survivors age, so that old work does not block new work forever.
  for (MateEntry& e : std::span(entries_.get(), entry_count_))
    if (live(e)) e.amount -= e.amount / 4;
}

}  // namespace engine::mate
