// The search's incremental evaluation gives exactly evaluate() along search-like walks.
#include <doctest/doctest.h>

#include <string>

#include "engine/eval/evaluate.h"
#include "engine/eval/incremental_evaluator.h"
#include "engine/eval/weights.h"
#include "scrambled_weights.h"
#include "shogi/movegen.h"
#include "shogi/position.h"
#include "test_prng.h"

namespace eval_incremental_test {

using namespace engine;
using namespace engine::eval;

namespace {

// A depth-first walk like a search's: at each node the evaluator is asked (or, at random,
// not, as when the table supplies the value), then a few random moves (and sometimes a
// null move) are made, walked and taken back. Counts the compared nodes.
struct Walk {
  IncrementalEvaluator& evaluator;
  const Weights& weights;
  test::Prng& rng;
  int compared = 0;

  void node(Position& pos, int depth) {
    if (rng.below(10) < 6) {
      CAPTURE(pos.sfen());
      REQUIRE(evaluator.evaluate(pos, weights) == evaluate(pos, weights));
      ++compared;
    }
    if (depth == 0) return;
    const MoveList moves = legal_moves(pos);
    if (moves.empty()) return;
    if (!pos.in_check() && pos.king_square(pos.side_to_move()) != kSquareNone &&
        rng.below(6) == 0) {
      pos.do_null_move();
      node(pos, depth - 1);
      pos.undo_null_move();
    }
    const int children = 1 + rng.below(3);
    for (int i = 0; i < children; ++i) {
      pos.do_move(moves[rng.below(int(moves.size()))]);
      node(pos, depth - 1);
      pos.undo_move();
    }
  }
};

Position from_sfen(const std::string& sfen) {
  Position pos;
  REQUIRE(pos.set_sfen(sfen).is_ok());
  return pos;
}

}  // namespace

TEST_CASE("incremental eval: equals evaluate along search-like walks") {
  const Weights hand_set = Weights::hand_set();
  const Weights scrambled = test::scrambled_weights(3);
  test::Prng rng(17);
  // Openings, a middle game with pieces in hand, a king-side attack, and a mate problem
  // without Black's king (no king-relative features for that side).
  const char* roots[] = {
      "startpos",
      "ln1g3+Rl/2skg4/ppppp1+B1p/9/9/9/PPPPP3P/2G6/LNK5L b BGSNr2sn6p 99",
      "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 88",
      "6Snl/8k/9/8s/8s/9/9/9/9 b RGSr2b3g3n3l18p 1",
  };
  for (const Weights* w : {&hand_set, &scrambled}) {
    IncrementalEvaluator evaluator;
    Walk walk{evaluator, *w, rng};
    for (const char* sfen : roots) {
      Position root = from_sfen(sfen);
      // Some plies into the game first, so that the walk starts deep in the history.
      for (int ply = 0; ply < 12; ++ply) {
        const MoveList moves = legal_moves(root);
        if (moves.empty()) break;
        root.do_move(moves[rng.below(int(moves.size()))]);
      }
      for (int tree = 0; tree < 6; ++tree) walk.node(root, 6);
    }
    CHECK(walk.compared > 2000);
  }
}

TEST_CASE("incremental eval: long games wrap its ply ring; switching weights resets it") {
  const Weights hand_set = Weights::hand_set();
  const Weights scrambled = test::scrambled_weights(8);
  test::Prng rng(5);
  IncrementalEvaluator evaluator;
  int compared = 0;
  for (int game = 0; game < 4; ++game) {
    Position pos;
    for (int ply = 0; ply < 400; ++ply) {
      const MoveList moves = legal_moves(pos);
      if (moves.empty()) break;
      pos.do_move(moves[rng.below(int(moves.size()))]);
      // Alternating weights objects: each switch must forget the other's sums.
      const Weights& w = (ply / 7) % 2 == 0 ? hand_set : scrambled;
      if (rng.below(4) != 0) {
        CAPTURE(pos.sfen());
        REQUIRE(evaluator.evaluate(pos, w) == evaluate(pos, w));
        ++compared;
      }
    }
  }
  CHECK(compared > 600);

  // reset() after the weights object changed in place (a new EvalFile in the same object).
  Weights changing = Weights::hand_set();
  Position pos;
  pos.do_move(legal_moves(pos)[0]);
  CHECK(evaluator.evaluate(pos, changing) == evaluate(pos, changing));
  changing = scrambled;
  evaluator.reset();
  CHECK(evaluator.evaluate(pos, changing) == evaluate(pos, scrambled));
}

}  // namespace eval_incremental_test
