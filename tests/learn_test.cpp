// Evaluation learning: teacher files, the shallow search's leaves, the gradient, training and
// checkpoints, on the small records of tests/data/learn.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/eval/evaluate.h"
#include "engine/eval/weights.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/position.h"
#include "tests/temp_dir.h"
#include "tools/learn_data.h"
#include "tools/learn_search.h"
#include "tools/learn_train.h"

using namespace engine;
using namespace tools;

namespace {

const std::string kLearnDir = std::string(SASHITE_TEST_DATA_DIR) + "/learn";

std::vector<TrainingPosition> fixture_positions() {
  std::vector<TrainingPosition> positions;
  int records = 0;
  const Status s = collect_record_positions(kLearnDir, 0, 0, positions, &records);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  REQUIRE(records == 4);
  return positions;
}

std::vector<double> hand_set_doubles() {
  const eval::Weights w = eval::Weights::hand_set();
  std::vector<double> d(eval::kFeatureCount);
  for (int i = 0; i < eval::kFeatureCount; ++i) d[i] = w.get(i);
  return d;
}

}  // namespace

TEST_CASE("learn teacher file: lines, comments, and errors naming file:line") {
  std::vector<TrainingPosition> out;
  const std::string good =
      "# teacher moves\n"
      "\n"
      "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\t7g7f\n"
      "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2 \t 3c3d  # ok\r\n";
  Status s = parse_teacher_text(good, "t.tsv", 5, out);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  REQUIRE(out.size() == 2);
  CHECK(format_usi_move(out[0].teacher) == "7g7f");
  CHECK(format_usi_move(out[1].teacher) == "3c3d");
  CHECK(out[0].group == 5);
  CHECK(out[1].group == 6);

  struct Case {
    const char* text;
    const char* expected;
  };
  const Case cases[] = {
      {"# c\nlnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 7g7f\n",
       "bad.tsv:2: "},
      {"\n\nxyz b - 1\t7g7f\n", "bad.tsv:3: "},
      {"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\t7g7e\n", "bad.tsv:1: "},
      {"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\t\n", "bad.tsv:1: "},
      {"\t7g7f\n", "bad.tsv:1: "},
  };
  for (const Case& c : cases) {
    std::vector<TrainingPosition> bad;
    s = parse_teacher_text(c.text, "bad.tsv", 0, bad);
    CHECK_FALSE(s.is_ok());
    CHECK_MESSAGE(s.message().rfind(c.expected, 0) == 0, s.message());
  }

  TempDir dir("sashite-learn");
  s = read_teacher_file(dir.sub("missing.tsv"), 0, out);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find("missing.tsv") != std::string::npos);
}

TEST_CASE("learn search: the leaf value is evaluate() of the PV leaf from the mover's side") {
  const std::vector<TrainingPosition> positions = fixture_positions();
  const eval::Weights w = eval::Weights::hand_set();
  const std::vector<double> wd = hand_set_doubles();
  int leaves = 0, deep_leaves = 0;
  for (size_t i = 20; i < positions.size(); i += 17) {
    Position pos;
    REQUIRE(pos.set(positions[i].setup).is_ok());
    const Color mover = pos.side_to_move();
    const std::string before = pos.sfen();
    for (Move m : legal_moves(pos)) {
      const MoveLeaf leaf = search_move_leaf(pos, w, m);
      REQUIRE(pos.sfen() == before);
      if (leaf.mated) continue;
      const Position at_leaf = leaf_position(pos, leaf);
      const Value from_leaf = eval::evaluate(at_leaf, w);
      CHECK(leaf.value == (at_leaf.side_to_move() == mover ? from_leaf : -from_leaf));
      RawFeatures f;
      collect_raw_features(at_leaf, mover, f);
      CHECK(std::abs(raw_value(wd.data(), f) - leaf.value) < 1.0);
      CHECK(int(leaf.pv.size()) <= kDefaultQuiescenceDepth);
      ++leaves;
      deep_leaves += !leaf.pv.empty();
    }
  }
  CHECK(leaves > 500);
  CHECK(deep_leaves > 20);  // captures were answered
}

TEST_CASE("learn gradient: the analytic gradient matches finite differences") {
  const std::vector<TrainingPosition> positions = fixture_positions();
  const eval::Weights w = eval::Weights::hand_set();
  std::vector<double> wd = hand_set_doubles();
  LearnOptions o;
  std::vector<LeafSet> sets;
  for (size_t i = 30; i < positions.size() && sets.size() < 4; i += 41) {
    Position pos;
    REQUIRE(pos.set(positions[i].setup).is_ok());
    LeafSet set;
    measure_position(pos, positions[i].teacher, w, wd.data(), o, &set);
    if (set.size() > 1) sets.push_back(set);
  }
  REQUIRE(sets.size() >= 3);
  auto loss = [&](const std::vector<double>& x, std::vector<double>* gradient) {
    std::vector<double> scratch(eval::kFeatureCount, 0.0);
    double sum = 0;
    for (const LeafSet& s : sets)
      sum += add_position_gradient(s, x.data(), o.scale_cp, 1.0,
                                   gradient ? gradient->data() : scratch.data());
    return sum;
  };
  std::vector<double> g(eval::kFeatureCount, 0.0);
  loss(wd, &g);
  int checked = 0;
  for (int i = 0; i < eval::kFeatureCount; ++i) {
    if (std::abs(g[i]) < 1e-4) continue;
    const double h = 0.01;
    std::vector<double> plus = wd, minus = wd;
    plus[i] += h;
    minus[i] -= h;
    const double numeric = (loss(plus, nullptr) - loss(minus, nullptr)) / (2 * h);
    CHECK_MESSAGE(std::abs(numeric - g[i]) <= 1e-4 * std::max(1.0, std::abs(g[i])) + 1e-7,
                  "feature " << i << ": analytic " << g[i] << " numeric " << numeric);
    ++checked;
  }
  CHECK(checked > 50);
}

TEST_CASE("learn train: the fixture's loss falls and its agreement rises") {
  const std::vector<TrainingPosition> positions = fixture_positions();
  LearnOptions o;
  o.iterations = 2;
  o.passes = 8;
  o.learning_rate = 4;
  o.min_count = 2;
  o.batch_positions = 16;
  o.holdout_every = 4;  // one of the four records is held out
  eval::Weights out;
  std::vector<IterationStats> stats;
  const Status s = train_weights(o, positions, eval::Weights::hand_set(), out, stats, nullptr);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  REQUIRE(stats.size() == 3);
  CHECK(stats[0].training_positions > 150);
  CHECK(stats[0].heldout_positions > 40);
  CHECK(stats[2].loss < stats[0].loss);
  CHECK(stats[2].agreement > stats[0].agreement);
  CHECK(stats[2].heldout_disagreement >= 0);
  CHECK(stats[2].heldout_disagreement <= 1);
  CHECK_FALSE(out == eval::Weights::hand_set());
}

TEST_CASE("learn checkpoint: a run resumed after iteration 1 equals a straight run") {
  std::vector<TrainingPosition> positions = fixture_positions();
  thin_positions(positions, 80);
  REQUIRE(positions.size() == 80);
  LearnOptions o;
  o.iterations = 2;
  o.passes = 2;
  o.min_count = 1;
  o.batch_positions = 8;
  o.quiescence_depth = 2;
  TempDir dir("sashite-learn");
  eval::Weights straight, resumed, first;
  std::vector<IterationStats> straight_stats, resumed_stats, first_stats;
  o.checkpoint_dir = dir.sub("straight");
  REQUIRE(train_weights(o, positions, eval::Weights::hand_set(), straight, straight_stats, nullptr)
              .is_ok());

  o.checkpoint_dir = dir.sub("resumed");
  o.iterations = 1;  // stands for a run killed after its first iteration
  REQUIRE(
      train_weights(o, positions, eval::Weights::hand_set(), first, first_stats, nullptr).is_ok());
  o.iterations = 2;
  // Without --resume an existing checkpoint is not overwritten.
  CHECK_FALSE(
      train_weights(o, positions, eval::Weights::hand_set(), resumed, resumed_stats, nullptr)
          .is_ok());
  o.resume = true;
  const Status s =
      train_weights(o, positions, eval::Weights::hand_set(), resumed, resumed_stats, nullptr);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  CHECK(resumed == straight);
  REQUIRE(resumed_stats.size() == straight_stats.size());
  for (size_t i = 0; i < straight_stats.size(); ++i) {
    CHECK(resumed_stats[i].loss == straight_stats[i].loss);
    CHECK(resumed_stats[i].agreement == straight_stats[i].agreement);
  }
  // A checkpoint of other options is refused.
  o.learning_rate = 3;
  CHECK_FALSE(
      train_weights(o, positions, eval::Weights::hand_set(), resumed, resumed_stats, nullptr)
          .is_ok());
}
