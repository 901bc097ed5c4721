// Correction history: the static evaluation's correction learned during the search.
#include "engine/correction_history.h"

#include <doctest/doctest.h>

#include <memory>

#include "shogi/notation.h"
#include "shogi/position.h"

namespace correction_history_test {

using namespace engine;

namespace {

Position position(const char* sfen) {
  Position pos;
  REQUIRE(pos.set_sfen(sfen).is_ok());
  return pos;
}

Move usi(const Position& pos, const char* text) {
  Move m = kMoveNone;
  REQUIRE(parse_usi_move(pos, text, m).is_ok());
  return m;
}

}  // namespace

TEST_CASE("correction history: starts at zero and follows the search's errors") {
  auto history = std::make_unique<CorrectionHistory>();
  history->clear();
  Position pos = position("startpos");
  const Move none = kMoveNone;
  CHECK(history->correction(pos, none) == 0);

  // The static evaluation kept falling short: the correction turns positive, towards the error.
  for (int i = 0; i < 200; ++i) history->update(pos, none, 300, 8);
  const int pawn_only = history->correction(pos, none);
  CHECK(pawn_only > 0);
  CHECK(pawn_only <= CorrectionHistory::kLimit / CorrectionHistory::kGrain);  // bounded

  // It is per side to move: the other colour's table is untouched.
  Position white = position("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
  CHECK(history->correction(white, none) == 0);

  // With a previous move both tables add up (each bounded on its own).
  const Move previous = usi(position("startpos"), "7g7f");
  Position after = position("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
  for (int i = 0; i < 200; ++i) history->update(after, previous, -300, 8);
  const int both = history->correction(after, previous);
  CHECK(both < 0);
  CHECK(both >= -2 * CorrectionHistory::kLimit / CorrectionHistory::kGrain);
  CHECK(history->correction(after, none) < 0);
  CHECK(history->correction(after, none) > both);  // the previous-move table adds its share

  // Errors of the other sign pull it back.
  for (int i = 0; i < 400; ++i) history->update(after, previous, 300, 8);
  CHECK(history->correction(after, previous) > 0);

  history->clear();
  CHECK(history->correction(pos, none) == 0);
  CHECK(history->correction(after, previous) == 0);
}

}  // namespace correction_history_test
