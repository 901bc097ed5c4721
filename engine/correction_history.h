// Correction history: how far the static evaluation missed the search's value, learned
// during the search by pawn placement and by the previous move, and added back to it.
#pragma once

#include <cstdint>
#include <cstring>

#include "engine/movepick.h"
#include "engine/names.h"
#include "shogi/position.h"

namespace engine {

// Per search thread. Entries are in 1/kGrain centipawns, bounded by kLimit (the gravity of
// update_history_entry), so a correction never exceeds kLimit / kGrain centipawns per table.
struct CorrectionHistory {
  static constexpr int kLimit = 1024;
  static constexpr int kGrain = 16;
  static constexpr int kPawnSize = 16384;  // a power of two
  int16_t pawn[kColorNb][kPawnSize];
  int16_t previous_move[kColorNb][kPieceNb][kSquareNb];

  void clear() {
    std::memset(pawn, 0, sizeof pawn);
    std::memset(previous_move, 0, sizeof previous_move);
  }
  // The index of the pawns on the board (both colours; hands are not part of it).
  static unsigned pawn_index(const Position& pos) {
    const Bitboard b = pos.pieces(kBlack, kPawn), w = pos.pieces(kWhite, kPawn);
    uint64_t h = b.lo * 0x9E3779B97F4A7C15ull ^ b.hi * 0xC2B2AE3D27D4EB4Full;
    h ^= (w.lo * 0x165667B19E3779F9ull) ^ (w.hi * 0xD6E8FEB86659FD93ull);
    return unsigned(h >> 50) & (kPawnSize - 1);
  }
  // The correction in centipawns for the side to move; `previous` is the move that led to
  // the position (kMoveNone or kMoveNull: none).
  int correction(const Position& pos, Move previous) const {
    const Color us = pos.side_to_move();
    int c = pawn[us][pawn_index(pos)];
    if (previous.is_ok()) c += previous_move[us][previous.piece_after()][previous.to()];
    return c / kGrain;
  }
  // Moves the entries toward `error` (search value - corrected static evaluation, cp),
  // weighted by the depth of the search that found it.
  void update(const Position& pos, Move previous, int error, int depth) {
    const Color us = pos.side_to_move();
    int bonus = error * kGrain * depth / 8;
    bonus = bonus > kLimit / 4 ? kLimit / 4 : bonus < -kLimit / 4 ? -kLimit / 4 : bonus;
    update_history_entry(pawn[us][pawn_index(pos)], bonus, kLimit);
    if (previous.is_ok())
      update_history_entry(previous_move[us][previous.piece_after()][previous.to()], bonus, kLimit);
  }
};

}  // namespace engine
