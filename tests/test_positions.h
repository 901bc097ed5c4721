// Positions the evaluation tests walk through: seeded random playouts from the start
// position, and a position's colour-flipped and mirrored images.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "shogi/movegen.h"
#include "shogi/position.h"

namespace test_positions {

// Plays `games` seeded random games of up to `plies` plies from the start position and calls
// visit(position, ply) after every move (ply 0 is the first). The same seed gives the same
// positions whatever the visitor does.
template <class Visit>
void random_playouts(uint64_t seed, int games, int plies, Visit visit) {
  std::mt19937_64 rng(seed);
  for (int g = 0; g < games; ++g) {
    shogi::Position pos;
    for (int ply = 0; ply < plies; ++ply) {
      const shogi::MoveList moves = shogi::legal_moves(pos);
      if (moves.empty()) break;
      pos.do_move(moves[int(rng() % uint64_t(moves.size()))]);
      visit(pos, ply);
    }
  }
}

// The SFEN of every position of random_playouts.
inline std::vector<std::string> random_playout_sfens(uint64_t seed, int games, int plies) {
  std::vector<std::string> sfens;
  random_playouts(seed, games, plies,
                  [&sfens](const shogi::Position& pos, int) { sfens.push_back(pos.sfen()); });
  return sfens;
}

inline shogi::Position from_sfen(const std::string& sfen) {
  shogi::Position pos;
  REQUIRE(pos.set_sfen(sfen).is_ok());
  return pos;
}

// The board turned 180 degrees with the colours of pieces, hands and side to move swapped.
inline shogi::Position colour_flipped(const shogi::Position& pos) {
  using namespace base;
  using namespace shogi;
  const PositionSetup in = pos.setup();
  PositionSetup out = in;
  for (Square s = 0; s < kSquareNb; ++s) {
    const Piece p = in.board[s];
    out.board[kSquareNb - 1 - s] = p == kNoPiece ? kNoPiece : make_piece(~color_of(p), type_of(p));
  }
  out.hands[kBlack] = in.hands[kWhite];
  out.hands[kWhite] = in.hands[kBlack];
  out.side_to_move = ~in.side_to_move;
  Position flipped;
  REQUIRE(flipped.set(out).is_ok());
  return flipped;
}

// The board mirrored left to right (file 1 <-> file 9), nothing else changed.
inline shogi::Position mirrored(const shogi::Position& pos) {
  using namespace base;
  using namespace shogi;
  const PositionSetup in = pos.setup();
  PositionSetup out = in;
  for (Square s = 0; s < kSquareNb; ++s)
    out.board[make_square(8 - file_of(s), rank_of(s))] = in.board[s];
  Position result;
  REQUIRE(result.set(out).is_ok());
  return result;
}

}  // namespace test_positions
