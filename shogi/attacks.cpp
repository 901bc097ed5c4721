// Builds the attack tables, including magic bitboards for bishop and rank attacks.
#include "shogi/attacks.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

namespace shogi {
namespace attacks_detail {

Bitboard step_table[kColorNb][kPieceTypeNb][kSquareNb];
Bitboard lance_masks[kColorNb][kSquareNb];
Magic bishop_magics[kSquareNb];
Magic rank_magics[kSquareNb];
Bitboard between[kSquareNb][kSquareNb];
Bitboard line[kSquareNb][kSquareNb];
uint8_t first_bit_in_file[kSquareNb];

}  // namespace attacks_detail

namespace {

using namespace attacks_detail;

struct Delta {
  int file, rank;
};

// Directions for Black; White negates the rank.
constexpr Delta kKingDeltas[] = {{0, -1}, {1, -1}, {-1, -1}, {1, 0},
                                 {-1, 0}, {0, 1},  {1, 1},   {-1, 1}};
constexpr Delta kGoldDeltas[] = {{0, -1}, {1, -1}, {-1, -1}, {1, 0}, {-1, 0}, {0, 1}};
constexpr Delta kSilverDeltas[] = {{0, -1}, {1, -1}, {-1, -1}, {1, 1}, {-1, 1}};
constexpr Delta kKnightDeltas[] = {{1, -2}, {-1, -2}};
constexpr Delta kPawnDeltas[] = {{0, -1}};
constexpr Delta kBishopDirs[] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
constexpr Delta kRookDirs[] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};

template <size_t N>
Bitboard steps(Color c, Square s, const Delta (&deltas)[N]) {
  Bitboard b;
  for (const Delta& d : deltas) {
    int f = file_of(s) + d.file;
    int r = rank_of(s) + (c == kBlack ? d.rank : -d.rank);
    if (is_on_board(f, r)) b.set(make_square(f, r));
  }
  return b;
}

// Ray attacks by walking, for table construction and verification.
template <size_t N>
Bitboard slide(Square s, Bitboard occupied, const Delta (&dirs)[N]) {
  Bitboard b;
  for (const Delta& d : dirs) {
    int f = file_of(s) + d.file, r = rank_of(s) + d.rank;
    while (is_on_board(f, r)) {
      Square t = make_square(f, r);
      b.set(t);
      if (occupied.test(t)) break;
      f += d.file;
      r += d.rank;
    }
  }
  return b;
}

// Squares of the rays whose occupancy matters: every ray square but the last.
template <size_t N>
Bitboard relevant_mask(Square s, const Delta (&dirs)[N]) {
  Bitboard b;
  for (const Delta& d : dirs) {
    int f = file_of(s) + d.file, r = rank_of(s) + d.rank;
    while (is_on_board(f + d.file, r + d.rank)) {
      b.set(make_square(f, r));
      f += d.file;
      r += d.rank;
    }
  }
  return b;
}

uint64_t next_random(uint64_t& state) {  // xorshift64*
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return state * 2685821657736338717ULL;
}

// Finds a magic for every square and fills `storage` (kept alive for the process).
template <size_t N>
void build_magics(Magic* magics, std::vector<Bitboard>& storage, const Delta (&dirs)[N],
                  bool rank_only, uint64_t seed, const uint64_t* known) {
  std::vector<size_t> offsets(kSquareNb);
  size_t total = 0;
  std::vector<Bitboard> masks(kSquareNb);
  for (Square s = 0; s < kSquareNb; ++s) {
    Bitboard mask = relevant_mask(s, dirs);
    if (rank_only) mask &= rank_bb(rank_of(s));
    masks[s] = mask;
    offsets[s] = total;
    total += size_t(1) << mask.count();
  }
  storage.assign(total, Bitboard());
  uint64_t rng = seed;
  std::vector<Bitboard> occupancies, references;
  std::vector<uint32_t> epoch;
  for (Square s = 0; s < kSquareNb; ++s) {
    const Bitboard mask = masks[s];
    const int bits = mask.count();
    // The merge trick needs the two words' mask bits to be disjoint.
    if ((mask.lo & mask.hi) != 0) std::abort();
    std::vector<Square> squares;
    for (Square q : mask) squares.push_back(q);
    occupancies.assign(size_t(1) << bits, Bitboard());
    references.assign(size_t(1) << bits, Bitboard());
    for (size_t i = 0; i < occupancies.size(); ++i) {
      Bitboard occ;
      for (int k = 0; k < bits; ++k)
        if (i >> k & 1) occ.set(squares[k]);
      occupancies[i] = occ;
      Bitboard att = slide(s, occ, dirs);
      if (rank_only) att &= rank_bb(rank_of(s));
      references[i] = att;
    }
    Magic& m = magics[s];
    m.mask = mask;
    m.shift = 64 - (bits == 0 ? 1 : bits);
    m.table = storage.data() + offsets[s];
    Bitboard* table = storage.data() + offsets[s];
    epoch.assign(size_t(1) << bits, 0);
    for (uint32_t attempt = 1;; ++attempt) {
      uint64_t magic = next_random(rng) & next_random(rng) & next_random(rng);
      if (known) magic = known[s];  // verified below like a fresh one
      if (bits == 0) magic = 0;
      m.magic = magic;
      bool ok = true;
      for (size_t i = 0; i < occupancies.size() && ok; ++i) {
        uint32_t idx = m.index(occupancies[i]);
        if (idx >= occupancies.size()) {
          ok = false;
        } else if (epoch[idx] != attempt) {
          epoch[idx] = attempt;
          table[idx] = references[i];
        } else if (table[idx] != references[i]) {
          ok = false;
        }
      }
      if (ok) break;
      if (known) std::abort();  // a shipped magic no longer fits: the layout changed
    }
  }
}

std::vector<Bitboard> bishop_storage, rank_storage;

// Magic numbers found once by the search above (run with SASHITE_FIND_MAGICS=1 to redo it),
// so that start-up does not spend most of a second looking for them.
constexpr uint64_t kBishopMagicNumbers[kSquareNb] = {
#include "shogi/attacks_bishop_magics.inc"
};
constexpr uint64_t kRankMagicNumbers[kSquareNb] = {
#include "shogi/attacks_rank_magics.inc"
};

void build_all() {
  for (Color c : {kBlack, kWhite}) {
    for (Square s = 0; s < kSquareNb; ++s) {
      auto& t = step_table[c];
      t[kPawn][s] = steps(c, s, kPawnDeltas);
      t[kKnight][s] = steps(c, s, kKnightDeltas);
      t[kSilver][s] = steps(c, s, kSilverDeltas);
      t[kGold][s] = steps(c, s, kGoldDeltas);
      t[kKing][s] = steps(c, s, kKingDeltas);
      t[kProPawn][s] = t[kProLance][s] = t[kProKnight][s] = t[kProSilver][s] = t[kGold][s];
      // Sliders: their attacks on an empty board.
      Bitboard forward;
      for (int r = rank_of(s) + (c == kBlack ? -1 : 1); r >= 0 && r < 9;
           r += (c == kBlack ? -1 : 1))
        forward.set(make_square(file_of(s), r));
      lance_masks[c][s] = forward;
      t[kLance][s] = forward;
      t[kBishop][s] = slide(s, Bitboard(), kBishopDirs);
      t[kRook][s] = slide(s, Bitboard(), kRookDirs);
      t[kHorse][s] = t[kBishop][s] | t[kKing][s];
      t[kDragon][s] = t[kRook][s] | t[kKing][s];
    }
  }
  for (Square s = 0; s < kSquareNb; ++s)
    first_bit_in_file[s] = uint8_t(file_of(s) * 9 - (s < 63 ? 0 : 63));
  const bool search = std::getenv("SASHITE_FIND_MAGICS") != nullptr;
  build_magics(bishop_magics, bishop_storage, kBishopDirs, false, 0x9E3779B97F4A7C15ULL,
               search ? nullptr : kBishopMagicNumbers);
  build_magics(rank_magics, rank_storage, kRookDirs, true, 0xD1B54A32D192ED03ULL,
               search ? nullptr : kRankMagicNumbers);
  if (search) {
    // Prints the tables for attacks_magics.inc.
    for (const Magic* table : {bishop_magics, rank_magics}) {
      std::printf("{\n");
      for (Square s = 0; s < kSquareNb; ++s)
        std::printf("0x%016llxULL,%s", (unsigned long long)table[s].magic, s % 4 == 3 ? "\n" : " ");
      std::printf("\n},\n");
    }
  }
  for (Square a = 0; a < kSquareNb; ++a) {
    for (Square b = 0; b < kSquareNb; ++b) {
      between[a][b] = line[a][b] = Bitboard();
      if (a == b) continue;
      int df = file_of(b) - file_of(a), dr = rank_of(b) - rank_of(a);
      if (!(df == 0 || dr == 0 || df == dr || df == -dr)) continue;
      int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
      for (int f = file_of(a) + sf, r = rank_of(a) + sr; make_square(f, r) != b; f += sf, r += sr)
        between[a][b].set(make_square(f, r));
      Bitboard full = square_bb(a);
      for (int k : {1, -1}) {
        for (int f = file_of(a) + k * sf, r = rank_of(a) + k * sr; is_on_board(f, r);
             f += k * sf, r += k * sr)
          full.set(make_square(f, r));
      }
      line[a][b] = full;
    }
  }
}

}  // namespace

void init_attacks() {
  static std::once_flag once;
  std::call_once(once, build_all);
}

}  // namespace shogi
