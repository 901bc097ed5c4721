// The root's mate guard: a move that allows a mate by checks is not played.
#include <doctest/doctest.h>

#include <string>

#include "engine/engine.h"
#include "engine/mate/solver.h"
#include "shogi/notation.h"

namespace mate_guard_test {

using namespace engine;

namespace {

// Move 81 of a game against gpsusi at 1 s a move (session 7): Black played 6a2a, and
// gpsusi announced mate at once. The mate by checks after 6a2a takes df-pn about 4,200
// nodes; a depth-6 search without the guard still plays 6a2a.
const std::string kBlunderSfen =
    "l+B1+R3nl/5p3/2p1pg1Pk/6p1p/pp1p1P3/2P2s+b1P/PPSPP4/2GKS4/LN1G3+rL b SNgn2p 81";

SearchResult search_with_guard(const std::string& guard_nodes) {
  Engine engine;
  REQUIRE(engine.set_option("USI_Hash", "16").is_ok());
  REQUIRE(engine.set_option("MateGuardNodes", guard_nodes).is_ok());
  REQUIRE(engine.set_position(kBlunderSfen, {}).is_ok());
  SearchLimits limits;
  limits.depth = 6;
  return engine.search(limits);
}

// Whether the opponent mates by checks after `move`, df-pn with `nodes`.
mate::MateStatus reply_mate(const std::string& move, uint64_t nodes) {
  Position pos;
  REQUIRE(pos.set_sfen(kBlunderSfen).is_ok());
  Move m = kMoveNone;
  REQUIRE(parse_usi_move(pos, move, m).is_ok());
  pos.do_move(m);
  mate::MateOptions options;
  options.node_limit = nodes;
  mate::MateResult result;
  REQUIRE(mate::solve_mate(pos, options, result).is_ok());
  return result.status;
}

}  // namespace

TEST_CASE("mate guard: off, the search plays 6a2a, which allows a mate by checks") {
  CHECK(reply_mate("6a2a", 20000) == mate::MateStatus::kMate);
  const SearchResult r = search_with_guard("0");
  REQUIRE(r.kind == SearchResult::Kind::kMove);
  CHECK(format_usi_move(r.best) == "6a2a");
}

TEST_CASE("mate guard: on by default, the search avoids 6a2a and plays a move without mate") {
  const SearchResult r = search_with_guard("20000");
  REQUIRE(r.kind == SearchResult::Kind::kMove);
  const std::string best = format_usi_move(r.best);
  CHECK(best != "6a2a");
  CHECK(reply_mate(best, 200000) != mate::MateStatus::kMate);
  CHECK(r.score > -kValueMateInMaxPly);
}

TEST_CASE("mate guard: MateGuardNodes takes 0 (off) and rejects negative limits") {
  Engine engine;
  CHECK(engine.set_option("MateGuardNodes", "0").is_ok());
  CHECK(!engine.set_option("MateGuardNodes", "-1").is_ok());
}

}  // namespace mate_guard_test
