// Evaluation learning: teacher files, the shallow search's leaves, the gradient, training and
// checkpoints, on the small records of tests/data/learn.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/eval/evaluate.h"
#include "engine/eval/features.h"
#include "engine/eval/weights.h"
#include "engine/see.h"
#include "shogi/movegen.h"
#include "shogi/notation.h"
#include "shogi/position.h"
#include "tests/temp_dir.h"
#include "tools/learn/learn_data.h"
#include "tools/learn/learn_search.h"
#include "tools/learn/learn_train.h"

namespace learn_test {

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

// The measures of `positions` under the hand-set weights, without training (every
// `holdout_every`th group held out, unless marked training-only).
IterationStats measure_untrained(const std::vector<TrainingPosition>& positions,
                                 int holdout_every = 2) {
  LearnOptions o;
  o.iterations = 0;
  o.holdout_every = holdout_every;
  eval::Weights out;
  std::vector<IterationStats> stats;
  REQUIRE(train_weights(o, positions, eval::Weights::hand_set(), out, stats, nullptr).is_ok());
  REQUIRE(stats.size() == 1);
  return stats[0];
}

Move usi_move(const Position& pos, const std::string& text) {
  Move m = kMoveNone;
  const Status s = parse_usi_move(pos, text, m);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  return m;
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
    eval::IncrementalEvaluator evaluator;
    for (Move m : legal_moves(pos)) {
      const MoveLeaf leaf = search_move_leaf(pos, evaluator, w, m);
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

TEST_CASE("learn search: the threat stand-pat counts a fork's second piece") {
  // N*3e forks White's gold on 4c and rook on 2c, neither defended (the pawn on 3c stands
  // between them, the one on 2d keeps the rook from promoting);
  // White has no capture and no promotion.
  const eval::Weights w = eval::Weights::hand_set();
  eval::IncrementalEvaluator evaluator;
  Position pos;
  REQUIRE(pos.set_sfen("4k4/9/5gpr1/7p1/9/9/9/9/4K4 b N 1").is_ok());
  const Move fork = usi_move(pos, "N*3e"), quiet = usi_move(pos, "5i4h");
  const MoveLeaf leaf = search_move_leaf(pos, evaluator, w, fork, 4, 0, true);
  CHECK(leaf.pv.empty());
  CHECK(leaf.bonus == std::max(capture_gain(kRook) / 6, capture_gain(kGold)));
  CHECK(leaf.value == -eval::evaluate(leaf_position(pos, leaf), w) + leaf.bonus);
  CHECK(search_move_leaf(pos, evaluator, w, quiet, 4, 0, true).bonus == 0);
  CHECK(search_move_leaf(pos, evaluator, w, fork, 4, 0, false).bonus == 0);
}

TEST_CASE("learn search: a threatmate penalty sees mates in one and threats of them") {
  const eval::Weights w = eval::Weights::hand_set();
  eval::IncrementalEvaluator evaluator;
  SUBCASE("a move that threatens mate in one: the threatened side stands pat below") {
    // White's king in the corner; after N*2d, G*1b mates (the knight guards 1b).
    Position pos;
    REQUIRE(pos.set_sfen("8k/9/9/9/9/9/9/9/4K4 b GN 1").is_ok());
    const Move threat = usi_move(pos, "N*2d"), quiet = usi_move(pos, "5i4h");
    for (const int penalty : {0, 500}) {
      CAPTURE(penalty);
      const MoveLeaf leaf = search_move_leaf(pos, evaluator, w, threat, 4, penalty);
      const MoveLeaf other = search_move_leaf(pos, evaluator, w, quiet, 4, penalty);
      CHECK_FALSE(leaf.mated);
      CHECK(leaf.bonus == penalty);  // for the root mover: the enemy is threatened
      CHECK(other.bonus == 0);
      CHECK(leaf.pv.empty());  // White has no capture to answer with
      const Position at_leaf = leaf_position(pos, leaf);
      CHECK(leaf.value == -eval::evaluate(at_leaf, w) + penalty);
    }
  }
  SUBCASE("a side to move that mates in one wins there") {
    // Black's king in the corner, White's silver beside it and a gold in hand: after any
    // Black move but the king's, G*1h mates (the silver guards 1h).
    Position pos;
    REQUIRE(pos.set_sfen("k8/9/9/9/9/9/7s1/9/8K b Pg 1").is_ok());
    const Move elsewhere = usi_move(pos, "P*5e");
    CHECK_FALSE(search_move_leaf(pos, evaluator, w, elsewhere, 4, 0).mated);
    const MoveLeaf lost = search_move_leaf(pos, evaluator, w, elsewhere, 4, 500);
    CHECK(lost.mated);
    CHECK(lost.value < -kValueMateInMaxPly);
    REQUIRE(lost.pv.size() == 1);
    CHECK(format_usi_move(lost.pv[0]) == "G*1h");
  }
}

namespace {

// The gradient check of one loss: finite differences of add_position_gradient's loss. With
// `threats`, the shallow search's threatmate penalty and threat stand-pat are on, so that
// leaves carry constant bonuses, which the stored leaves must give back.
void check_gradient(LossKind kind, bool threats = false) {
  const std::vector<TrainingPosition> positions = fixture_positions();
  const eval::Weights w = eval::Weights::hand_set();
  std::vector<double> wd = hand_set_doubles();
  LearnOptions o;
  o.loss = kind;
  o.window_cp = 1e9;  // every leaf kept: the measured loss is then the one differentiated
  if (threats) o.threatmate_penalty = 500, o.threat_stand_pat = true;
  int bonus_leaves = 0;
  std::vector<LeafSet> sets;
  for (size_t i = 30; i < positions.size() && sets.size() < 4; i += 41) {
    Position pos;
    REQUIRE(pos.set(positions[i].setup).is_ok());
    LeafSet set;
    eval::IncrementalEvaluator evaluator;
    const PositionMeasure m =
        measure_position(pos, evaluator, positions[i].teacher, w, wd.data(), o, &set);
    if (set.size() < 2) continue;
    std::vector<double> scratch(eval::kFeatureCount, 0.0);
    CHECK(add_position_gradient(set, wd.data(), o.scale_cp, 1.0, scratch.data(), kind) ==
          doctest::Approx(m.loss).epsilon(1e-9));
    CHECK(m.terms == (kind == LossKind::kPairs ? m.pairs : 1));
    bonus_leaves +=
        int(std::count_if(set.bonus.begin(), set.bonus.end(), [](int16_t b) { return b != 0; }));
    sets.push_back(set);
  }
  REQUIRE(sets.size() >= 3);
  CHECK((bonus_leaves > 0) == threats);
  auto loss = [&](const std::vector<double>& x, std::vector<double>* gradient) {
    std::vector<double> scratch(eval::kFeatureCount, 0.0);
    double sum = 0;
    for (const LeafSet& s : sets)
      sum += add_position_gradient(s, x.data(), o.scale_cp, 1.0,
                                   gradient ? gradient->data() : scratch.data(), kind);
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

}  // namespace

TEST_CASE("learn gradient: the analytic gradient matches finite differences") {
  SUBCASE("pair loss") { check_gradient(LossKind::kPairs); }
  SUBCASE("softmax loss") { check_gradient(LossKind::kSoftmax); }
  SUBCASE("pair loss, leaves with threat bonuses") { check_gradient(LossKind::kPairs, true); }
  SUBCASE("softmax loss, leaves with threat bonuses") { check_gradient(LossKind::kSoftmax, true); }
}

TEST_CASE("learn train: the fixture's loss falls and its agreement rises") {
  const std::vector<TrainingPosition> positions = fixture_positions();
  LearnOptions o;
  SUBCASE("pair loss") { o.loss = LossKind::kPairs; }
  SUBCASE("softmax loss") { o.loss = LossKind::kSoftmax; }
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
  // A checkpoint of other data (positions now training only, never held out) is refused.
  std::vector<TrainingPosition> training_only = positions;
  for (TrainingPosition& p : training_only) p.training_only = true;
  CHECK_FALSE(
      train_weights(o, training_only, eval::Weights::hand_set(), resumed, resumed_stats, nullptr)
          .is_ok());
  // A checkpoint of other options is refused.
  o.learning_rate = 3;
  CHECK_FALSE(
      train_weights(o, positions, eval::Weights::hand_set(), resumed, resumed_stats, nullptr)
          .is_ok());
}

TEST_CASE("learn records: a player filter keeps only that side's moves") {
  const std::vector<TrainingPosition> all = fixture_positions();
  std::vector<TrainingPosition> gps;
  int records = 0;
  const Status s = collect_record_positions(kLearnDir, 0, 7, gps, &records, "gpsshogi");
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  CHECK(records == 4);
  // g000011.csa (gpsshogi is Black there) is the first record: its even plies only.
  std::vector<TrainingPosition> first_record;
  for (const TrainingPosition& p : all)
    if (p.group == 0) first_record.push_back(p);
  REQUIRE(first_record.size() > 10);
  REQUIRE(gps.size() == (first_record.size() + 1) / 2);
  for (size_t i = 0; i < gps.size(); ++i) {
    CHECK(gps[i].group == 7);
    CHECK(gps[i].teacher == first_record[2 * i].teacher);
    CHECK(gps[i].setup.side_to_move == shogi::kBlack);
  }
  std::vector<TrainingPosition> none;
  REQUIRE(collect_record_positions(kLearnDir, 0, 0, none, &records, "no such player").is_ok());
  CHECK(none.empty());
}

TEST_CASE("learn holdout: training-only positions are never held out") {
  std::vector<TrainingPosition> positions = fixture_positions();
  const IterationStats measured = measure_untrained(positions);
  REQUIRE(measured.heldout_positions > 0);
  for (TrainingPosition& p : positions) p.training_only = true;
  const IterationStats all_training = measure_untrained(positions);
  CHECK(all_training.heldout_positions == 0);
  CHECK(all_training.training_positions ==
        measured.training_positions + measured.heldout_positions);
}

TEST_CASE("learn sources: measured data first, then training-only records and teacher files") {
  TempDir dir("sashite-learn-sources");
  const std::string teachers = (dir.path / "teach.tsv").string();
  const std::string book = (dir.path / "book.tsv").string();
  std::ofstream(teachers)
      << "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\t7g7f\n";
  std::ofstream(book)
      << "# book moves\n"
      << "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\t2g2f\n"
      << "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\t8c8d\n";
  TrainingSources src;
  src.records = kLearnDir;
  src.teachers = {teachers};
  src.train_records = {kLearnDir};
  src.train_player = "gpsshogi";
  src.train_teachers = {book};
  std::vector<TrainingPosition> positions;
  TrainingCounts counts;
  std::ostringstream log;
  const Status s = gather_training_positions(src, positions, counts, &log);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  const std::vector<TrainingPosition> records = fixture_positions();
  CHECK(counts.records == 4);
  CHECK(counts.record_positions == records.size());
  CHECK(counts.teacher_positions == 1);
  CHECK(counts.train_record_positions > 0);
  CHECK(counts.train_teacher_positions == 2);
  REQUIRE(positions.size() == records.size() + 1 + counts.train_record_positions + 2);
  // The measured part, in order, held out as before; the training-only part after it.
  for (size_t i = 0; i < records.size(); ++i) {
    CHECK(positions[i].group == records[i].group);
    CHECK_FALSE(positions[i].training_only);
  }
  CHECK(positions[records.size()].group == 4);  // teacher lines numbered on from the records
  CHECK_FALSE(positions[records.size()].training_only);
  for (size_t i = records.size() + 1; i < positions.size(); ++i) {
    CHECK(positions[i].training_only);
    CHECK(positions[i].group >= positions[i - 1].group);
  }
  Position start;
  REQUIRE(start.set_sfen("startpos").is_ok());
  CHECK(positions[positions.size() - 2].teacher == usi_move(start, "2g2f"));
  CHECK(log.str().find("book.tsv: 2 teacher positions (training only)") != std::string::npos);

  // The same measured part gives the same held-out set with or without the extra data.
  const std::vector<TrainingPosition> measured(positions.begin(),
                                               positions.begin() + records.size() + 1);
  const IterationStats with_extra = measure_untrained(positions);
  const IterationStats measured_only = measure_untrained(measured);
  CHECK(with_extra.heldout_positions == measured_only.heldout_positions);
  CHECK(with_extra.heldout_agreement == measured_only.heldout_agreement);

  // A bad training-only line stops it, naming the file and line.
  std::ofstream(book, std::ios::app)
      << "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\t5e5d\n";
  positions.clear();
  const Status bad = gather_training_positions(src, positions, counts);
  REQUIRE_FALSE(bad.is_ok());
  CHECK(bad.message().find("book.tsv:4:") != std::string::npos);
}

TEST_CASE("learn stats: held-out agreement by teacher move kind adds up to the overall one") {
  Position pos;
  REQUIRE(
      pos.set_sfen("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3").is_ok());
  CHECK(move_kind(pos, usi_move(pos, "8h2b+")) == kCaptureMove);
  CHECK(move_kind(pos, usi_move(pos, "2g2f")) == kQuietMove);
  REQUIRE(pos.set_sfen("lnsgkgsnl/1r7/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5").is_ok());
  CHECK(move_kind(pos, usi_move(pos, "B*5e")) == kDropMove);

  const IterationStats s = measure_untrained(fixture_positions(), 4);
  int positions_by_kind = 0;
  double agreement = 0;
  for (int k = 0; k < 3; ++k) {
    CHECK(s.heldout_positions_by_kind[k] > 0);  // the records have captures, quiet moves, drops
    CHECK(s.heldout_agreement_by_kind[k] >= 0);
    CHECK(s.heldout_agreement_by_kind[k] <= 1);
    positions_by_kind += s.heldout_positions_by_kind[k];
    agreement += s.heldout_agreement_by_kind[k] * s.heldout_positions_by_kind[k];
  }
  CHECK(positions_by_kind == s.heldout_positions);
  CHECK(agreement / s.heldout_positions == doctest::Approx(s.heldout_agreement));

  const std::string table = format_stats_table({s});
  CHECK(table.find("ho_capture  ho_quiet  ho_drop") != std::string::npos);
  CHECK(table.find("held-out teacher moves: capture " +
                   std::to_string(s.heldout_positions_by_kind[kCaptureMove])) != std::string::npos);
  CHECK(format_kind_agreement(s).starts_with("held-out agreement by teacher move: capture "));
}

TEST_CASE("learn train: frozen sections keep their initial weights") {
  std::vector<TrainingPosition> positions = fixture_positions();
  thin_positions(positions, 80);
  LearnOptions o;
  o.iterations = 1;
  o.passes = 2;
  o.min_count = 1;
  o.batch_positions = 8;
  o.quiescence_depth = 2;
  o.frozen = {"material", "piece_square", "opening_safety"};
  eval::Weights out;
  std::vector<IterationStats> stats;
  const Status s = train_weights(o, positions, eval::Weights::hand_set(), out, stats, nullptr);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  auto in_section = [](int i, int offset, int size) { return i >= offset && i < offset + size; };
  constexpr int kPieceSquareSize = eval::kSafetyOffset - eval::kPieceSquareOffset;
  constexpr int kSafetySize = eval::kThreatOffset - eval::kSafetyOffset;
  int changed_elsewhere = 0, changed_endgame_safety = 0;
  for (int i = 0; i < eval::kFeatureCount; ++i) {
    const bool frozen =
        in_section(i, eval::kMaterialOffset, 14) ||
        in_section(i, eval::kOpeningOffset + eval::kPieceSquareOffset, kPieceSquareSize) ||
        in_section(i, eval::kEndgameOffset + eval::kPieceSquareOffset, kPieceSquareSize) ||
        in_section(i, eval::kOpeningOffset + eval::kSafetyOffset, kSafetySize);
    const bool changed = out.get(i) != eval::Weights::hand_set().get(i);
    if (frozen) {
      CAPTURE(eval::feature_name(i));
      CHECK_FALSE(changed);
    } else if (in_section(i, eval::kEndgameOffset + eval::kSafetyOffset, kSafetySize)) {
      changed_endgame_safety += changed;
    } else {
      changed_elsewhere += changed;
    }
  }
  CHECK(changed_elsewhere > 0);
  CHECK(changed_endgame_safety > 0);

  o.frozen = {"pieces"};
  const Status bad = train_weights(o, positions, eval::Weights::hand_set(), out, stats, nullptr);
  CHECK_FALSE(bad.is_ok());
  CHECK(bad.message().find("--freeze pieces: no such section") != std::string::npos);
}

}  // namespace learn_test
