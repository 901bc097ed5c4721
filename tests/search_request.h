// Search requests for the client's tests: made from moves in USI notation, and read back.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "client/csa_session.h"
#include "shogi/notation.h"

namespace test_requests {

// Sets r's root to the start position and its moves to `usi`, read in turn.
inline void set_usi_moves(client::SearchRequest& r, const std::vector<std::string>& usi) {
  r.root = shogi::Position();
  r.moves.clear();
  shogi::Position pos;
  for (const std::string& text : usi) {
    shogi::Move m;
    REQUIRE(shogi::parse_usi_move(pos, text, m));
    pos.do_move(m);
    r.moves.push_back(m);
  }
}

// r's moves in USI notation.
inline std::vector<std::string> usi_moves(const client::SearchRequest& r) {
  std::vector<std::string> out;
  for (shogi::Move m : r.moves) out.push_back(shogi::format_usi_move(m));
  return out;
}

}  // namespace test_requests
