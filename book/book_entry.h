// BookEntry: what an opening book knows about one position and its moves, in memory.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "shogi/position.h"
#include "shogi/types.h"

namespace book {

// Where a book move came from (bit flags: a move may come from several sources).
enum MoveSource : uint8_t {
  kSourceNone = 0,
  kSourceGpsTsv = 1 << 0,     // GPS Shogi's book as TSV (gpsshogi_joseki_dump.tsv)
  kSourceJosekiDat = 1 << 1,  // GPS Shogi's joseki.dat (OSL binary)
  kSourceYaneuraou = 1 << 2,  // a YaneuraOu text book (#YANEURAOU-DB2016 1.00)
  kSourceRecords = 1 << 3,    // CSA game records
  kSourceThink = 1 << 4,      // scored by `sashite book think`
};

constexpr int16_t kNoBookValue = -32768;  // BookMove::value when no search scored the move

// One candidate move of a book position. Counts are from the point of view of the side to
// move in the position the move belongs to.
struct BookMove {
  shogi::Move move;               // completed for its position (Position::complete_move)
  uint32_t count = 0;             // weight or frequency (how often it was played/chosen)
  uint32_t wins = 0;              // games the side to move went on to win after this move
  uint32_t losses = 0;            // ... and to lose
  int16_t value = kNoBookValue;   // centipawns, side to move's view, from a search
  int16_t depth = 0;              // the depth that value comes from (0: none)
  uint8_t sources = kSourceNone;  // MoveSource flags

  bool has_value() const { return value != kNoBookValue; }
};

// A position packed for verification and similarity: one byte per square (shogi::Piece),
// the two hands (shogi::Hand::raw()), the side to move. 90 bytes, comparable bytewise.
struct PackedPosition {
  std::array<uint8_t, shogi::kSquareNb> board{};
  uint32_t hands[shogi::kColorNb] = {0, 0};
  uint8_t side_to_move = shogi::kBlack;

  static PackedPosition from(const shogi::Position& pos);
  shogi::PositionSetup setup() const;  // game_ply 1
  bool operator==(const PackedPosition&) const = default;
};

// One book position: its key (shogi::Position::key()), its packed form, its moves (best
// first when ordered by BookEntry::sort_moves).
struct BookEntry {
  uint64_t key = 0;
  PackedPosition position;
  std::vector<BookMove> moves;

  // Adds or combines a move: counts, wins and losses add up; the deeper value wins; sources
  // are or-ed.
  void merge_move(const BookMove& m);
  // Orders moves by count, then value, descending.
  void sort_moves();
};

}  // namespace book
