// Mate prediction: feature values on hand-made positions, the model file, prediction with a
// tiny hand-written model, and training with LIBLINEAR on separable synthetic data.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine/mate/mate_features.h"
#include "engine/mate/svm_model.h"
#include "shogi/movegen.h"
#include "shogi/position.h"
#include "tests/run_command.h"
#include "tests/temp_dir.h"
#include "tools/mate/svm_data.h"
#include "tools/mate/svm_train.h"

namespace svm_test {

using namespace engine;
using namespace engine::mate;
namespace f = engine::mate::feature;

namespace {

MateFeatures features_of(const char* sfen) {
  Position pos;
  const Status s = pos.set_sfen(sfen);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  MateFeatures x;
  x.fill(-1);  // every entry must be written
  compute_mate_features(pos, x);
  return x;
}

float attacker(const MateFeatures& x, int offset) { return x[kAttackerBlock + offset]; }
float defender(const MateFeatures& x, int offset) { return x[kDefenderBlock + offset]; }

}  // namespace

TEST_CASE("svm features: lone king on its back rank, a gold in the attacker's hand") {
  // White king 5a, Black king 5i, Black to move with G in hand.
  const MateFeatures x = features_of("4k4/9/9/9/9/9/9/9/4K4 b G 1");
  for (int i = 0; i < kMateFeatureCount; ++i) CHECK_MESSAGE(x[i] >= 0, mate_feature_name(i));
  CHECK(x[f::kKingDistance] == 8);
  CHECK(defender(x, f::kKingFile) == 5);
  CHECK(defender(x, f::kKingRank) == 1);
  CHECK(attacker(x, f::kKingFile) == 5);
  CHECK(attacker(x, f::kKingRank) == 1);
  // Around 5a: the three squares behind are off the board; five escapes.
  CHECK(defender(x, f::kZoneAround + f::kZoneEdge) == 3);
  CHECK(defender(x, f::kZoneAround + f::kZoneEscape) == 5);
  CHECK(defender(x, f::kZoneAround + f::kZoneOwnControl) == 5);  // only its king sees them
  CHECK(defender(x, f::kZoneAround + f::kZoneEnemyControl) == 0);
  CHECK(defender(x, f::kZoneBack + f::kZoneEdge) == 10);
  CHECK(defender(x, f::kZoneFront + f::kZoneEdge) == 0);
  CHECK(attacker(x, f::kHandTotal) == 1);
  CHECK(attacker(x, f::kHandGold) == 1);
  CHECK(attacker(x, f::kHandPawn) == 0);
  CHECK(defender(x, f::kHandTotal) == 0);
  // A gold checks 5a from 4a, 6a, 4b, 5b, 6b: all empty, all next to the king, undefended.
  CHECK(attacker(x, f::kDropCheckSquares) == 5);
  CHECK(attacker(x, f::kDropCheckPawn + 4) == 5);
  CHECK(attacker(x, f::kContactDropChecks) == 0);  // nothing supports a drop: the king takes
  // A pawn on 5c supports a drop on 5b: one contact drop the king cannot take.
  CHECK(attacker(features_of("4k4/9/4P4/9/9/9/9/9/4K4 b G 1"), f::kContactDropChecks) == 1);
  CHECK(attacker(x, f::kNearDropChecks) == 5);
  CHECK(attacker(x, f::kCheckingPieces) == 0);
  CHECK(defender(x, f::kDropCheckSquares) == 0);
  CHECK(attacker(x, f::kCheckers) == 0);
}

TEST_CASE("svm features: board checks, promotion checks and attackers around the king") {
  // Black rook 4e: checks by 4e-5e, 4e-4a, and 4e-4b promoting (the dragon touches 5a).
  const MateFeatures x = features_of("4k4/9/9/9/5R3/9/9/9/4K4 b - 1");
  CHECK(attacker(x, f::kCheckingPieces) == 1);
  CHECK(attacker(x, f::kCheckingMoves) == 3);
  CHECK(attacker(x, f::kNearMoveChecks) == 2);  // 4a and 4b (5e is four ranks away)
  CHECK(attacker(x, f::kSupportedMoveChecks) == 0);
  CHECK(attacker(x, f::kBoardPawns + 6) == 1);  // rook or dragon
  // The rook sees 4a and 4b (the king's neighbours on file 4): fewer escapes.
  CHECK(defender(x, f::kZoneAround + f::kZoneEscape) == 3);
  CHECK(defender(x, f::kZoneAround + f::kZoneAttackers) == 0);
  // A black pawn on 5b next to the king, supported by a gold on 5c.
  const MateFeatures y = features_of("4k4/4P4/4G4/9/9/9/9/9/4K4 w - 1");
  // White moves, so White is the attacker and its king's features are in the attacker block.
  CHECK(attacker(y, f::kZoneAround + f::kZoneAttackers) == 1);
  CHECK(attacker(y, f::kZoneFront + f::kZoneAttackers) == 2);
  CHECK(attacker(y, f::kZoneAround + f::kZoneEnemyControl) == 0);  // 4b 5b 6b: gold vs king
  CHECK(attacker(y, f::kZoneAround + f::kZoneOwnControl) == 2);    // 4a, 6a
  CHECK(attacker(y, f::kEnemyAttackSum) == 3);                     // around: 4b, 5b, 6b
  CHECK(attacker(y, f::kZoneAround + f::kZoneEscape) == 2);        // 4a and 6a
  CHECK(attacker(y, f::kCheckers) == 1);                           // the pawn gives check
  CHECK(defender(y, f::kCheckers) == 0);
}

TEST_CASE("svm features: pins, x-ray threats, pawn drops and nifu") {
  // Black lance 5i pins the white silver 5c to the king 5a.
  const MateFeatures x = features_of("4k4/9/4s4/9/9/9/9/9/4L3K b P 1");
  CHECK(defender(x, f::kZoneFront + f::kZonePinned) == 1);
  CHECK(defender(x, f::kZoneAround + f::kZonePinned) == 0);
  CHECK(defender(x, f::kZoneFront + f::kZoneDefenders) == 1);
  CHECK(defender(x, f::kXrayThreats) == 1);
  CHECK(attacker(x, f::kDropCheckPawn) == 1);  // P*5b
  // With a black pawn already on file 5 the pawn drop is nifu.
  const MateFeatures y = features_of("4k4/9/9/9/9/9/4P4/9/8K b P 1");
  CHECK(attacker(y, f::kDropCheckPawn) == 0);
  CHECK(attacker(y, f::kHandPawn) == 1);
}

TEST_CASE("svm features: a mate problem without the attacker's king") {
  const MateFeatures x = features_of("4k4/9/9/9/9/9/9/9/9 b G 1");
  CHECK(x[f::kKingDistance] == 0);
  CHECK(attacker(x, f::kKingFile) == 0);
  CHECK(attacker(x, f::kZoneAround + f::kZoneEdge) == 0);
  CHECK(attacker(x, f::kDropCheckSquares) == 5);
  CHECK(defender(x, f::kKingFile) == 5);
  CHECK(std::string(mate_feature_name(0)) == "king_distance");
  CHECK(std::string(mate_feature_name(kDefenderBlock + f::kHandRook)) == "D.hand.rook");
}

TEST_CASE("svm model: file round trip, sign orientation and errors") {
  SvmModel m;
  for (int i = 0; i < kMateFeatureCount; ++i) m.weights[i] = 0.01f * float(i) - 0.5f;
  m.bias = 0.25f;
  m.platt_a = -2.5;
  m.platt_b = 0.125;
  const std::string text = format_svm_model(m, "test model\nsecond line");
  SvmModel back;
  REQUIRE(parse_svm_model(text, "t.model", back).is_ok());
  for (int i = 0; i < kMateFeatureCount; ++i) CHECK(back.weights[i] == m.weights[i]);
  CHECK(back.bias == m.bias);
  CHECK(back.platt_a == m.platt_a);
  CHECK(back.platt_b == m.platt_b);

  // "positive nomate" flips weights and bias.
  std::string flipped = text;
  flipped.replace(flipped.find("positive mate"), 13, "positive nomate");
  REQUIRE(parse_svm_model(flipped, "t.model", back).is_ok());
  CHECK(back.weights[3] == -m.weights[3]);
  CHECK(back.bias == -m.bias);

  auto error_of = [](const std::string& t) {
    SvmModel out;
    const Status s = parse_svm_model(t, "bad.model", out);
    CHECK(!s.is_ok());
    return s.message();
  };
  CHECK(error_of("hello 1\n").find("bad.model:1: expected the header") == 0);
  CHECK(error_of("# c\nsashite-svm-model 2\n").find("bad.model:2: unsupported model version") == 0);
  CHECK(error_of("sashite-svm-model 1\nfeatures 12\n").find("bad.model:2: the model has 12") == 0);
  CHECK(error_of("sashite-svm-model 1\nfeatures 129\npositive mate\nbias 0\nweight 0 1\n")
            .find("missing 'weight 1'") != std::string::npos);
  CHECK(error_of("sashite-svm-model 1\nweight 0 1\nweight 0 2\n")
            .find("bad.model:3: feature 0 given twice") == 0);
  CHECK(error_of("sashite-svm-model 1\nweight 200 1\n").find("bad.model:2: feature index 200") ==
        0);
  CHECK(error_of("sashite-svm-model 1\nbias x\n").find("bad.model:2: expected 'bias NUMBER'") == 0);
  CHECK(error_of("sashite-svm-model 1\nfrob 1\n").find("bad.model:2: unknown key 'frob'") == 0);
  CHECK(error_of("").find("bad.model") == 0);
  SvmModel out;
  const Status missing = load_svm_model("/nonexistent/x.model", out);
  CHECK(missing.message().find("/nonexistent/x.model") == 0);
}

TEST_CASE("svm model: a tiny model predicts the expected classes") {
  SvmModel m;
  m.weights[kAttackerBlock + f::kContactDropChecks] = 1.0f;
  m.bias = -0.5f;
  Position with_gold, without;
  REQUIRE(with_gold.set_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").is_ok());
  REQUIRE(without.set_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b - 1").is_ok());
  const double d1 = m.decision_value(with_gold), d2 = m.decision_value(without);
  CHECK(d1 == doctest::Approx(0.5));
  CHECK(d2 == doctest::Approx(-0.5));
  CHECK(SvmModel::predicts_mate(d1));
  CHECK(!SvmModel::predicts_mate(d2));
  CHECK(m.probability(d1) == doctest::Approx(1 / (1 + std::exp(-0.5))));
  CHECK(m.probability(0) == doctest::Approx(0.5));
  CHECK(m.probability(-1000) >= 0.0);
  CHECK(m.probability(1000) <= 1.0);
}

namespace {

// Separable data: mate iff x[5] - x[9] > 0, with a margin; other features are noise.
void synthetic(int n, uint64_t seed, std::vector<MateFeatures>& x, std::vector<bool>& mate) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(0, 10);
  while (int(x.size()) < n) {
    MateFeatures row;
    for (float& v : row) v = std::floor(u(rng));
    const float margin = row[5] - row[9];
    if (std::fabs(margin) < 2) continue;
    x.push_back(row);
    mate.push_back(margin > 0);
  }
}

}  // namespace

TEST_CASE("svm train: separable synthetic data, both label orders, sign convention") {
  for (bool mate_first : {true, false}) {
    std::vector<MateFeatures> x;
    std::vector<bool> mate;
    synthetic(300, 7, x, mate);
    // LIBLINEAR's label[0] is the first example's class: put the wanted class first.
    for (size_t i = 0; i < x.size(); ++i)
      if (mate[i] == mate_first) {
        std::swap(x[0], x[i]);
        const bool t = mate[0];
        mate[0] = mate[i];
        mate[i] = t;
        break;
      }
    REQUIRE(mate[0] == mate_first);
    for (tools::SvmSolver solver : {tools::SvmSolver::kL2LossDual, tools::SvmSolver::kLogistic}) {
      SvmModel m;
      REQUIRE(tools::train_mate_model(x, mate, 100.0, solver, m).is_ok());
      int correct = 0;
      for (size_t i = 0; i < x.size(); ++i)
        correct += SvmModel::predicts_mate(m.decision_value(x[i])) == mate[i];
      CHECK(correct == int(x.size()));
      CHECK(m.weights[5] > 0);  // more of feature 5 means mate
      CHECK(m.weights[9] < 0);
    }
  }
}

TEST_CASE("svm train: cross-validation, Platt's sigmoid and the tables") {
  std::vector<MateFeatures> x;
  std::vector<bool> mate;
  synthetic(200, 11, x, mate);
  tools::SvmTrainOptions options;
  options.c_grid = {0.1, 10.0};
  tools::SvmTrainResult result;
  REQUIRE(tools::train_mate_model_cv(x, mate, options, result).is_ok());
  CHECK(result.grid.size() == 2);
  CHECK(result.cross_validation.total() == 200);
  CHECK(result.cross_validation.accuracy() > 0.9);
  CHECK(result.training.accuracy() > 0.95);
  CHECK(result.model.platt_a < 0);  // larger decision value, higher mate probability
  const std::string tables = tools::format_mate_tables(result.cross_validation, "t");
  CHECK(tables.find("Table 3.1") != std::string::npos);
  CHECK(tables.find("Table 3.2") != std::string::npos);
  std::vector<bool> one_class(x.size(), true);
  CHECK(!tools::train_mate_model_cv(x, one_class, options, result).is_ok());
}

TEST_CASE("svm data: the dataset file reads back, errors name the line") {
  std::vector<tools::SvmExample> rows;
  REQUIRE(tools::parse_svm_data("# head\nmate\trecord\t4k4/9/9/9/9/9/9/9/4K4 b G 1\n"
                                "nomate\tsearch\t4k4/9/9/9/9/9/9/9/4K4 b - 1\n",
                                "d.txt", rows)
              .is_ok());
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].mate);
  CHECK(rows[0].source == "record");
  CHECK(!rows[1].mate);
  const Status bad = tools::parse_svm_data("# x\nmaybe\trecord\tstartpos\n", "d.txt", rows);
  CHECK(bad.message().find("d.txt:2: label 'maybe'") == 0);
  const Status bad_sfen = tools::parse_svm_data("mate\trecord\tnot-a-sfen\n", "d.txt", rows);
  CHECK(bad_sfen.message().find("d.txt:1: ") == 0);
}

TEST_CASE("svm data: record ends plus random nodes, labelled through the interface") {
  tools::SvmDataOptions options;
  options.records_dir = std::string(SASHITE_TEST_DATA_DIR) + "/records";
  options.nodes = 1234;
  options.max_games = 3;
  int calls = 0;
  // A stand-in solver: "mate" when the side to move has a piece in hand, unknown when it is
  // in check, else nomate. It must receive the budget unchanged.
  const tools::MateLabeller fake = [&](const Position& pos, uint64_t nodes) {
    ++calls;
    CHECK(nodes == 1234);
    if (pos.in_check()) return tools::MateLabel::kUnknown;
    return pos.hand(pos.side_to_move()).empty() ? tools::MateLabel::kNoMate
                                                : tools::MateLabel::kMate;
  };
  std::ostringstream out;
  tools::SvmDataStats stats;
  REQUIRE(tools::make_svm_data(options, fake, out, stats, nullptr).is_ok());
  CHECK(stats.records == 3);
  CHECK(calls == stats.mate + stats.nomate + stats.unknown);
  CHECK(stats.record_positions + stats.search_positions == stats.mate + stats.nomate);
  CHECK(stats.record_positions + stats.search_positions + stats.unknown + stats.duplicates <=
        3 * 20);
  CHECK(stats.record_positions > 0);
  CHECK(stats.search_positions > 0);
  std::vector<tools::SvmExample> rows;
  REQUIRE(tools::parse_svm_data(out.str(), "made", rows).is_ok());
  CHECK(int(rows.size()) == stats.mate + stats.nomate);
  for (const tools::SvmExample& row : rows) {
    Position pos;
    REQUIRE(pos.set_sfen(row.sfen).is_ok());
    CHECK(!pos.in_check());
    CHECK(row.mate == !pos.hand(pos.side_to_move()).empty());
  }
  // The same seed gives the same file.
  std::ostringstream again;
  tools::SvmDataStats stats2;
  REQUIRE(tools::make_svm_data(options, fake, again, stats2, nullptr).is_ok());
  CHECK(again.str() == out.str());
  // No solver, no data.
  CHECK(!tools::make_svm_data(options, tools::MateLabeller(), out, stats, nullptr).is_ok());
}

TEST_CASE("svm data: the positions where searches call the mate solver") {
  tools::SvmDataOptions options;
  options.records_dir = std::string(SASHITE_TEST_DATA_DIR) + "/records";
  options.max_games = 2;
  options.positions_per_game = 2;
  options.insearch_nodes = 3000;
  options.insearch_samples = 3;
  const tools::MateLabeller fake = [](const Position& pos, uint64_t) {
    return pos.hand(pos.side_to_move()).empty() ? tools::MateLabel::kNoMate
                                                : tools::MateLabel::kMate;
  };
  auto make = [&](tools::SvmDataStats& stats) {
    std::ostringstream out;
    REQUIRE(tools::make_svm_data(options, fake, out, stats, nullptr).is_ok());
    return out.str();
  };
  tools::SvmDataStats ends;
  const std::string ends_only = make(ends);
  // Two games, two searched positions each, at most three samples from each search.
  CHECK(ends.insearch_positions > 0);
  CHECK(ends.insearch_positions <= 2 * 2 * 3);
  CHECK(ends.mate + ends.nomate ==
        ends.record_positions + ends.search_positions + ends.insearch_positions);
  std::vector<tools::SvmExample> rows;
  REQUIRE(tools::parse_svm_data(ends_only, "made", rows).is_ok());
  int insearch = 0;
  for (const tools::SvmExample& row : rows) {
    if (row.source != "insearch") continue;
    ++insearch;
    Position pos;
    REQUIRE(pos.set_sfen(row.sfen).is_ok());
    CHECK(!pos.in_check());  // where the search calls the solver
  }
  CHECK(insearch == ends.insearch_positions);
  tools::SvmDataStats again;
  CHECK(make(again) == ends_only);  // searches of a fixed node count: the same file
  // From every 20th position of the whole games as well: more searches, more positions.
  options.insearch_every = 20;
  tools::SvmDataStats every;
  const std::string with_every = make(every);
  CHECK(every.insearch_positions > ends.insearch_positions);
  // The record's last positions are all there still, each as a record row or, when a search
  // sampled it first (positions are written once), as an insearch row.
  std::vector<tools::SvmExample> every_rows;
  REQUIRE(tools::parse_svm_data(with_every, "made", every_rows).is_ok());
  std::set<std::string> every_sfens;
  for (const tools::SvmExample& row : every_rows) every_sfens.insert(row.sfen);
  int records = 0;
  for (const tools::SvmExample& row : rows) {
    if (row.source != "record") continue;
    ++records;
    CHECK(every_sfens.count(row.sfen) == 1);
  }
  CHECK(records == ends.record_positions);
}

TEST_CASE("sashite svm test: the tables of a model on a dataset, by source; errors by line") {
  const std::string binary = SASHITE_TEST_DATA_DIR "/../../build/sashite";
  TempDir dir{"sashite-svm-test"};
  const std::string data = (dir.path / "d.tsv").string();
  {
    std::ofstream out(data);
    out << "# sashite svm data 1\n"
        << "mate\trecord\t4k4/9/4P4/9/9/9/9/9/4K4 b G 1\n"
        << "nomate\trecord\tlnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n"
        << "mate\tinsearch\t3k5/9/3P5/9/9/9/9/9/4K4 b G 1\n";
  }
  int status = -1;
  const std::string out = test_commands::run_command(binary + " svm test --data " + data, status);
  CHECK(status == 0);
  CHECK(out.find("Table 3.1: model (shipped) on " + data + " (3 positions)") != std::string::npos);
  CHECK(out.find("source record         2 positions ( 50.0% mate): accuracy") != std::string::npos);
  CHECK(out.find("source insearch       1 positions (100.0% mate): accuracy") != std::string::npos);
  {
    std::ofstream out(data, std::ios::app);
    out << "maybe\trecord\t4k4/9/9/9/9/9/9/9/4K4 b - 1\n";
  }
  const std::string bad = test_commands::run_command(binary + " svm test --data " + data, status);
  CHECK(status != 0);
  CHECK(bad.find(data + ":5: label 'maybe'") != std::string::npos);
}

TEST_CASE("svm features: check potential agrees with the legal checking moves") {
  // On real-game positions: the features count pseudo-legal checks (pins ignored), so they
  // bound the legal counts from above; the drop counts equal them but for pawn-drop mates.
  std::ifstream in(std::string(SASHITE_TEST_DATA_DIR) + "/record_positions.sfen");
  REQUIRE(in);
  std::string line;
  int positions = 0, exact_pieces = 0;
  while (std::getline(in, line) && positions < 600) {
    if (line.empty() || line[0] == '#') continue;
    Position pos;
    if (!pos.set_sfen(line).is_ok() || pos.in_check()) continue;
    if (pos.king_square(~pos.side_to_move()) == kSquareNone) continue;
    ++positions;
    MateFeatures x;
    compute_mate_features(pos, x);
    MoveList checks;
    generate(pos, GenType::kLegal, checks);
    std::set<Square> from_squares;
    std::set<int> destinations;  // from * 81 + to, promotion or not counted once
    int drops[8] = {};
    for (Move m : checks) {
      if (!pos.gives_check(m)) continue;
      if (m.is_drop()) {
        ++drops[m.dropped_type()];
        continue;
      }
      if (type_of(pos.piece_on(m.from())) == kKing) continue;
      from_squares.insert(m.from());
      destinations.insert(m.from() * 81 + m.to());
    }
    CHECK(attacker(x, f::kCheckingPieces) >= float(from_squares.size()));
    CHECK(attacker(x, f::kCheckingMoves) >= float(destinations.size()));
    exact_pieces += attacker(x, f::kCheckingPieces) == float(from_squares.size());
    const PieceType kinds[7] = {kPawn, kLance, kKnight, kSilver, kGold, kBishop, kRook};
    for (int i = 0; i < 7; ++i) {
      if (kinds[i] == kPawn)
        CHECK(attacker(x, f::kDropCheckPawn) >= float(drops[kPawn]));
      else
        CHECK(attacker(x, f::kDropCheckPawn + i) == float(drops[kinds[i]]));
    }
  }
  CHECK(positions > 300);
  CHECK(exact_pieces > positions * 9 / 10);  // pins are rare
}

TEST_CASE("svm model: the shipped model loads and keeps its orientation") {
  SvmModel m;
  const Status s = load_svm_model(default_svm_model_path(), m);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  // Game positions from data/mate/svm_data.tsv.gz (record ends labelled by df-pn). The model
  // is trained on game positions: sparse composed positions are outside what it has seen.
  Position mate, nomate;
  REQUIRE(mate.set_sfen("l5skl/4+B1g2/1+S4n1p/p1p1pppp1/1n6P/P2bPPPP1/1Sg6/K3S1G2/L1P4NL w "
                        "RN2Prg2p 92")
              .is_ok());
  REQUIRE(nomate
              .set_sfen("lnsg5/9/ppppk1+Bpp/9/3P2p2/2P2P3/PP1+b1pPPP/1S4gK1/L2G3NL b "
                        "RGS2NL2Prs 55")
              .is_ok());
  CHECK(m.probability(m.decision_value(mate)) > 0.9);
  CHECK(m.probability(m.decision_value(nomate)) < 0.1);
  CHECK(m.probability(m.decision_value(Position())) < 0.1);  // the start position
}

TEST_CASE("svm features: the same for a position and its colour-flipped mirror") {
  // Rotating the board 180 degrees and swapping the colours (and the side to move) gives the
  // same position seen from the other side: every feature is relative to the sides.
  std::ifstream in(std::string(SASHITE_TEST_DATA_DIR) + "/record_positions.sfen");
  REQUIRE(in);
  std::string line;
  int positions = 0;
  while (std::getline(in, line) && positions < 400) {
    if (line.empty() || line[0] == '#') continue;
    Position pos;
    if (!pos.set_sfen(line).is_ok()) continue;
    const PositionSetup setup = pos.setup();
    PositionSetup flipped;
    for (Square s = 0; s < kSquareNb; ++s) {
      const Piece p = setup.board[s];
      flipped.board[80 - s] = p == kNoPiece ? kNoPiece : make_piece(~color_of(p), type_of(p));
    }
    flipped.hands[kBlack] = setup.hands[kWhite];
    flipped.hands[kWhite] = setup.hands[kBlack];
    flipped.side_to_move = ~setup.side_to_move;
    Position mirror;
    REQUIRE(mirror.set(flipped).is_ok());
    ++positions;
    MateFeatures a, b;
    compute_mate_features(pos, a);
    compute_mate_features(mirror, b);
    for (int i = 0; i < kMateFeatureCount; ++i)
      CHECK_MESSAGE(a[i] == b[i], mate_feature_name(i), " in ", line);
  }
  CHECK(positions > 300);
}

// The claim of data/mate/README.md and docs/building.md: retraining on the shipped data gives
// the shipped model, chosen by a 4-fold cross-validated accuracy of at least 0.95 at C = 0.25.
TEST_CASE("svm train: the shipped data gives the shipped model, C = 0.25, accuracy >= 0.95" *
          doctest::test_suite("slow")) {
  const std::string binary = SASHITE_TEST_DATA_DIR "/../../build/sashite";
  const std::string shipped = SASHITE_TEST_DATA_DIR "/../../data/mate";
  TempDir dir{"sashite-svm-shipped"};
  const std::string data = (dir.path / "svm_data.tsv").string();
  const std::string model = (dir.path / "svm.model").string();
  int status = -1;
  const std::string unpacked = test_commands::run_command(
      "gzip -dc '" + shipped + "/svm_data.tsv.gz' > '" + data + "'", status);
  REQUIRE_MESSAGE(status == 0, unpacked);
  const std::string out = test_commands::run_command(
      binary + " svm train --data '" + data + "' --out '" + model + "' --folds 4", status);
  REQUIRE_MESSAGE(status == 0, out);

  // The third header line: "# N positions, M mate; C=0.25; 4-fold cross-validated accuracy A".
  auto lines_of = [](const std::string& path, bool comments) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
      if ((line.rfind("#", 0) == 0) == comments) lines.push_back(line);
    return lines;
  };
  const std::vector<std::string> header = lines_of(model, true);
  REQUIRE(header.size() >= 3);
  CAPTURE(header[2]);
  CHECK(header[2].find("; C=0.25; ") != std::string::npos);
  const std::string accuracy_label = "4-fold cross-validated accuracy ";
  const size_t at = header[2].find(accuracy_label);
  REQUIRE(at != std::string::npos);
  CHECK(std::stod(header[2].substr(at + accuracy_label.size())) >= 0.95);

  // Bias, Platt and weight lines: only the header's record of the --data path differs.
  const std::vector<std::string> trained = lines_of(model, false);
  CHECK(trained.size() > 129);
  CHECK(trained == lines_of(shipped + "/svm.model", false));
}

}  // namespace svm_test
