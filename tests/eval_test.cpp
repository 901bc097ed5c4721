// The evaluation: symmetry, the weight file format, features against evaluate, sanity values.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/eval/evaluate.h"
#include "engine/eval/feature_visitor.h"
#include "engine/eval/features.h"
#include "engine/eval/hand_set_weights.h"
#include "engine/eval/weights.h"
#include "scrambled_weights.h"
#include "shogi/movegen.h"
#include "shogi/position.h"
#include "test_positions.h"

namespace eval_test {

using namespace engine;
using namespace engine::eval;
using test_positions::colour_flipped;
using test_positions::from_sfen;
using test_positions::mirrored;
using test_positions::random_playout_sfens;

namespace {

std::string shipped_weights_path(const std::string& name) {
  return std::string(SASHITE_TEST_DATA_DIR) + "/../../data/weights/" + name;
}

std::string temporary_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("sashite_eval_test_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

// "line N" (built without "literal" + std::string, which trips GCC 12's -Wrestrict).
std::string at_line(int n) {
  std::string text = "line ";
  text += std::to_string(n);
  return text;
}

// Reads `text` as a weight file named "test.eval"; returns the status.
Status read_text(const std::string& text, Weights& w) {
  std::istringstream in(text);
  return w.read(in, "test.eval");
}

std::string hand_set_text() {
  std::ostringstream out;
  Weights::hand_set().write(out);
  return out.str();
}

// The 1-based number of the first line of `text` that starts with `prefix`.
int line_of(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.starts_with(prefix)) return n;
  return -1;
}

}  // namespace

TEST_CASE("eval: the layout's sections tile the weight vector") {
  CHECK(kFeatureCount == Weights::size());
  CHECK(kSections[0].offset == 0);
  CHECK(kSectionNb == 4 + 2 * kPhaseSectionNb);
  CHECK(feature_name(kMaterialOffset + kRook - 1) == "material[rook]");
  CHECK(feature_name(kHandOffset + (kPawn - 1) * kHandCountNb + 2) == "hand[pawn][3]");
  CHECK(
      feature_name(kOpeningOffset + kOwnKingOffset + kp_index(kBlack, kind_index(kGold), 40, 39)) ==
      "opening_own_king[gold][df=0][dr=+1]");
  CHECK(feature_name(kEndgameOffset + kKingEscapesOffset + 3) == "endgame_king_escapes[3]");
}

TEST_CASE("eval: kp_index orients the rank difference from the piece owner's side") {
  const Square king = make_square(4, 6);  // 5g
  // A Black gold one rank in front of a Black king (toward rank a), and the White mirror image.
  const int black = kp_index(kBlack, kind_index(kGold), king, make_square(4, 5));
  const int white = kp_index(kWhite, kind_index(kGold), 80 - king, 80 - make_square(4, 5));
  CHECK(black == white);
  CHECK(black % kDrNb - 8 == 1);
}

TEST_CASE("eval: bulk pawn attacks equal the union of each pawn's attacks") {
  for (const std::string& sfen : random_playout_sfens(17, 3, 150)) {
    const Position pos = from_sfen(sfen);
    for (Color c : {kBlack, kWhite}) {
      Bitboard expected;
      for (Square s : pos.pieces(c, kPawn)) {
        CHECK_FALSE((expected & step_attacks(c, kPawn, s)).any());  // distinct squares
        expected |= step_attacks(c, kPawn, s);
      }
      CHECK(detail::pawn_attacks(c, pos.pieces(c, kPawn)) == expected);
    }
  }
}

TEST_CASE("eval: the start position is balanced and at progress 0") {
  const Weights w = Weights::hand_set();
  Position pos;
  CHECK(progress(pos) == 0.0);
  const Value tempo = Value(w.get(kTempoOffset));
  CHECK(evaluate(pos, w) == tempo);  // symmetric: only the side to move's bonus is left
  CHECK(std::abs(evaluate(pos, w)) < 100);
  Position white_to_move =
      from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
  CHECK(evaluate(white_to_move, w) == tempo);
}

TEST_CASE("eval: a rook up scores high for that side") {
  const Weights w = Weights::hand_set();
  // White's rook removed.
  Position black_to_move =
      from_sfen("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
  Position white_to_move =
      from_sfen("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
  CHECK(evaluate(black_to_move, w) > 500);
  CHECK(evaluate(white_to_move, w) < -500);
  // Black holds the rook in hand instead.
  Position in_hand = from_sfen("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1");
  CHECK(evaluate(in_hand, w) > 1500);
}

TEST_CASE("eval: progress stays in [0, 1] and grows along records") {
  for (const std::string& sfen : random_playout_sfens(7, 5, 200)) {
    const double p = progress(from_sfen(sfen));
    CHECK(p >= 0.0);
    CHECK(p <= 1.0);
  }
  // An endgame: many pieces in hand and pieces deep in the enemy camp.
  Position late = from_sfen("ln1g3+Rl/2skg4/ppppp1+B1p/9/9/9/PPPPP3P/2G6/LNK5L b BGSNr2sn6p 99");
  CHECK(progress(late) > 0.8);
}

TEST_CASE("eval: colour-flipped and mirrored positions evaluate the same") {
  const Weights hand_set = Weights::hand_set();
  const Weights scrambled = test::scrambled_weights(11);
  int checked = 0;
  for (const std::string& sfen : random_playout_sfens(2024, 40, 160)) {
    const Position pos = from_sfen(sfen);
    const Position flipped = colour_flipped(pos);
    const Position mirror = mirrored(pos);
    CAPTURE(sfen);
    CHECK(evaluate(pos, hand_set) == evaluate(flipped, hand_set));
    CHECK(evaluate(pos, scrambled) == evaluate(flipped, scrambled));
    CHECK(evaluate(pos, scrambled) == evaluate(mirror, scrambled));
    CHECK(progress_fixed(pos) == progress_fixed(flipped));
    ++checked;
  }
  CHECK(checked > 3000);
}

TEST_CASE("eval: evaluate equals the dot product of the weights and collect_features") {
  const Weights hand_set = Weights::hand_set();
  const Weights scrambled = test::scrambled_weights(5);
  FeatureVector features;
  for (const std::string& sfen : random_playout_sfens(99, 20, 200)) {
    const Position pos = from_sfen(sfen);
    CAPTURE(sfen);
    collect_features(pos, features);
    for (size_t i = 1; i < features.size(); ++i) REQUIRE(features[i - 1].first < features[i].first);
    for (const Feature& f : features) {
      REQUIRE(f.first >= 0);
      REQUIRE(f.first < kFeatureCount);
      REQUIRE(f.second != 0.0f);
    }
    const double sign = pos.side_to_move() == kBlack ? 1 : -1;
    for (const Weights* w : {&hand_set, &scrambled}) {
      const double expected = sign * dot(*w, features);
      CHECK(std::fabs(evaluate(pos, *w) - expected) < 1.0);
      CHECK(evaluate(pos, *w) == Value(std::trunc(expected)));
    }
  }
}

TEST_CASE("eval: collect_features scales opening and endgame features by the progress") {
  Position pos = from_sfen("ln1g3+Rl/2skg4/ppppp1+B1p/9/9/9/PPPPP3P/2G6/LNK5L b BGSNr2sn6p 99");
  const double p = progress(pos);
  FeatureVector features;
  collect_features(pos, features);
  bool saw_opening = false, saw_endgame = false;
  for (const Feature& f : features) {
    if (f.first < kOpeningOffset) {
      CHECK(f.second == std::round(f.second));  // base features are whole counts
    } else if (f.first < kEndgameOffset) {
      saw_opening = true;
      CHECK(std::fabs(f.second / (1 - p) - std::round(f.second / (1 - p))) < 1e-4);
    } else {
      saw_endgame = true;
      CHECK(std::fabs(f.second / p - std::round(f.second / p)) < 1e-4);
    }
  }
  CHECK(saw_endgame);
  CHECK(saw_opening == (p < 1.0));
}

TEST_CASE("eval: positions without a king (mate problems) evaluate") {
  const Weights w = Weights::hand_set();
  Position pos = from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
  FeatureVector features;
  collect_features(pos, features);
  CHECK(std::fabs(evaluate(pos, w) - dot(w, features)) < 1.0);
  CHECK(describe(pos, w).find("White's king") != std::string::npos);
}

TEST_CASE("eval: describe lists every group and the final value") {
  const Weights w = Weights::hand_set();
  Position pos = from_sfen("ln1g3+Rl/2skg4/ppppp1+B1p/9/9/9/PPPPP3P/2G6/LNK5L w BGSNr2sn6p 99");
  const std::string text = describe(pos, w);
  for (const char* group :
       {"material", "hand", "pin", "tempo", "own_king", "enemy_king", "king_attacks",
        "king_defences", "king_controlled", "king_escapes", "king_drops", "progress"})
    CHECK(text.find(group) != std::string::npos);
  CHECK(text.find("evaluate() = " + std::to_string(evaluate(pos, w))) != std::string::npos);
}

TEST_CASE("eval: weights survive save and load") {
  const Weights original = test::scrambled_weights(3);
  Weights copy = original;
  copy.set_header("learned: test run 1\n\n  indented line");
  const std::string path = temporary_path("round_trip.eval");
  REQUIRE(copy.save(path).is_ok());
  Weights loaded;
  const Status status = loaded.load(path);
  std::filesystem::remove(path);
  REQUIRE_MESSAGE(status.is_ok(), status.message());
  CHECK(loaded == copy);
  CHECK(loaded.header() == "learned: test run 1\n\n  indented line");
  CHECK(loaded.version() == Weights::kFormatVersion);

  // Fractions of a centipawn are kept to 1/32.
  Weights fine;
  fine.set(kTempoOffset, 1.0 / 32);
  fine.set(kMaterialOffset, -12.34);
  std::stringstream text;
  fine.write(text);
  Weights back;
  REQUIRE(back.read(text, "stream").is_ok());
  CHECK(back == fine);
  CHECK(back.get(kTempoOffset) == 1.0 / 32);
  CHECK(std::fabs(back.get(kMaterialOffset) + 12.34) <= 1.0 / 64);
}

TEST_CASE("eval: a directory given as the weights file is named as one") {
  const std::string dir = temporary_path("weights_dir");
  std::filesystem::create_directory(dir);
  Weights w = Weights::hand_set();
  const Status status = w.load(dir);
  std::filesystem::remove(dir);
  CHECK(status.message() == dir + ": Is a directory");
  CHECK(w == Weights::hand_set());
}

TEST_CASE("eval: the shipped weights load: the learned default, comparison-trained, hand-set") {
  Weights learned;
  const Status learned_status = learned.load(shipped_weights_path("default.eval"));
  REQUIRE_MESSAGE(learned_status.is_ok(), learned_status.message());
  CHECK(learned.header().starts_with("learned weights (sashite learn fit"));
  CHECK(learned.header().find("command: sashite learn fit") != std::string::npos);
  CHECK(learned.header().find("--init data/weights/comparison-trained.eval") != std::string::npos);
  CHECK_FALSE(learned == Weights::hand_set());
  // The comparison-trained weights the fit started from ship too.
  Weights comparison;
  const Status comparison_status = comparison.load(shipped_weights_path("comparison-trained.eval"));
  REQUIRE_MESSAGE(comparison_status.is_ok(), comparison_status.message());
  CHECK(comparison.header().starts_with("learned weights (sashite learn train"));
  CHECK_FALSE(comparison == learned);
  Weights w;
  const Status status = w.load(shipped_weights_path("hand-set.eval"));
  REQUIRE_MESSAGE(status.is_ok(), status.message());
  CHECK(w == Weights::hand_set());
  CHECK(w.header().starts_with("hand-set weights (not learned):"));
  CHECK(w.get(kMaterialOffset + kPawn - 1) == 90);
  CHECK(w.get(kMaterialOffset + kDragon - 1) == 1395);
}

TEST_CASE("eval: write_hand_set_weights writes a loadable file") {
  const std::string path = temporary_path("hand_set.eval");
  REQUIRE(write_hand_set_weights(path) == 0);
  Weights w;
  CHECK(w.load(path).is_ok());
  std::filesystem::remove(path);
  CHECK(w == Weights::hand_set());
  CHECK(write_hand_set_weights("/nonexistent-directory/x.eval") == 1);
}

TEST_CASE("eval: malformed weight files are rejected with the line named") {
  const std::string good = hand_set_text();
  Weights w = Weights::hand_set();
  const Weights before = w;

  auto expect_error = [&](const std::string& text, const std::string& fragment) {
    const Status status = read_text(text, w);
    CAPTURE(fragment);
    CHECK_FALSE(status.is_ok());
    CHECK_MESSAGE(status.message().find(fragment) != std::string::npos, status.message());
    CHECK(status.message().starts_with("test.eval: "));
    CHECK(w == before);  // unchanged on error
  };

  SUBCASE("empty file") { expect_error("", "line 1: empty file"); }
  SUBCASE("bad header") {
    expect_error("sashite-evaluation 1\n" + good.substr(good.find('\n') + 1), "line 1: bad header");
  }
  SUBCASE("wrong version") {
    expect_error("sashite-eval 2\n" + good.substr(good.find('\n') + 1),
                 "line 1: format version 2 is not supported");
  }
  SUBCASE("wrong feature count") {
    std::string text = good;
    const std::string count_line = "features " + std::to_string(kFeatureCount);
    text.replace(text.find(count_line), count_line.size(), "features 12");
    expect_error(text, at_line(line_of(good, "features")) + ": wrong feature count 12");
  }
  SUBCASE("a file of the layout before piece_square (8402 features)") {
    std::string text = good;
    const std::string count_line = "features " + std::to_string(kFeatureCount);
    text.replace(text.find(count_line), count_line.size(), "features 8402");
    expect_error(text, "wrong feature count 8402 (this build's layout has " +
                           std::to_string(kFeatureCount) +
                           ": the file was made for another layout");
  }
  SUBCASE("not a number") {
    std::string text = good;
    const size_t section = text.find("section pin");
    const size_t numbers = text.find('\n', text.find('\n', section) + 1) + 1;  // after the comment
    text[numbers] = 'x';                                                       // "-9" becomes "x9"
    const int line = line_of(good, "section pin") + 2;
    expect_error(text, at_line(line) + ": 'x");
    expect_error(text, "is not a number (section 'pin', entry 1)");
  }
  SUBCASE("a section cut short") {
    std::string text = good;
    const size_t section = text.find("section pin");
    const size_t numbers = text.find('\n', text.find('\n', section) + 1) + 1;
    text.erase(numbers, text.find('\n', numbers) + 1 - numbers);  // drop the numbers' line
    expect_error(text, at_line(line_of(good, "section tempo") - 1) +
                           ": section 'pin' ends after 0 of its 13 numbers");
  }
  SUBCASE("one number too many") {
    std::string text = good;
    const size_t section = text.find("section tempo");
    const size_t numbers = text.find('\n', text.find('\n', section) + 1) + 1;
    text.insert(text.find('\n', numbers), " 5");
    expect_error(text, at_line(line_of(good, "section tempo") + 2) +
                           ": section 'tempo' has 1 numbers; '5' is one too many");
  }
  SUBCASE("a wrong section") {
    std::string text = good;
    const std::string header = "section hand 7 18";
    text.replace(text.find(header), header.size(), "section hand 7 17");
    expect_error(text, at_line(line_of(good, "section hand")) +
                           ": expected 'section hand 7 18', found 'section hand 7 17'");
  }
  SUBCASE("truncated file") {
    const std::string text = good.substr(0, good.find("section endgame_king_attacks"));
    int lines = 0;
    for (char c : text) lines += c == '\n';
    expect_error(text, at_line(lines + 1) + ": file truncated: section 'endgame_king_attacks'");
  }
  SUBCASE("truncated inside a section") {
    std::string text = good.substr(0, good.find("section opening_enemy_king"));
    text = text.substr(0, text.rfind("# dragon"));
    expect_error(text, "file truncated: section 'opening_own_king' has 1836 of its 1989 numbers");
  }
  SUBCASE("out of range") {
    std::string text = good;
    const size_t section = text.find("section tempo");
    const size_t numbers = text.find('\n', text.find('\n', section) + 1) + 1;
    text.replace(numbers, text.find('\n', numbers) - numbers, "1e9");
    expect_error(text, "'1e9' is out of range");
  }
  SUBCASE("missing file") {
    const Status status = w.load("/nonexistent-directory/none.eval");
    CHECK_FALSE(status.is_ok());
    CHECK(status.message().find("/nonexistent-directory/none.eval") != std::string::npos);
  }
}

namespace {

// Phase-feature counts (index within a phase set) of a position, summed over reports.
struct PhaseCountSink {
  std::vector<int> counts = std::vector<int>(kPhaseSize, 0);
  void base(int, int) {}
  void phase(int index, int count) { counts[index] += count; }
  void king(Color, int, int, int, int) {}
};

}  // namespace

TEST_CASE("eval: piece_square, safety, threat, mobility, threatened of a hand-built position") {
  // Black: king 5i, pawn 5g, gold 4g. White: king 5a, rook 5e, pawn 4f (attacking the gold).
  const Position pos = from_sfen("4k4/9/9/9/4r4/5p3/4PG3/9/4K4 b - 1");
  PhaseCountSink sink;
  detail::visit_features(pos, sink);
  std::vector<int> expected(kPhaseSize, 0);
  for (int i = 0; i < kPieceSquareOffset; ++i) expected[i] = sink.counts[i];  // older sections
  const int square_block = kFoldedFileNb * kRankNb;
  // Black pawn 5g: file 5 (folded 4), rank g (6); attacked by the rook, defended by the gold.
  expected[kPieceSquareOffset + 0 * square_block + 4 * 9 + 6] += 1;
  expected[kSafetyOffset + (0 * 4 + 1) * 4 + 1] += 1;
  // Black gold 4g: folded file 3, rank 6; attacked by the pawn (a cheaper piece), undefended.
  expected[kPieceSquareOffset + kind_index(kGold) * square_block + 3 * 9 + 6] += 1;
  expected[kSafetyOffset + (kind_index(kGold) * 4 + 1) * 4 + 0] += 1;
  expected[kThreatOffset + kind_index(kGold)] += 1;
  // White pawn 4f: from White's side rank 8 - 5 = 3; attacked by the gold, undefended.
  expected[kPieceSquareOffset + 0 * square_block + 3 * 9 + 3] -= 1;
  expected[kSafetyOffset + (0 * 4 + 1) * 4 + 0] -= 1;
  // White rook 5e: rank 4 either way; no attacker, no defender; it reaches 5b-5d, 5f, 5g
  // (the pawn) and the eight other squares of rank e: 13 squares (5a is its own king's).
  expected[kPieceSquareOffset + kind_index(kRook) * square_block + 4 * 9 + 4] -= 1;
  expected[kSafetyOffset + (kind_index(kRook) * 4 + 0) * 4 + 0] -= 1;
  expected[kMobilityOffset + slider_index(kRook) * kMobilityBuckets + 13] -= 1;
  // Threatened: Black (to move) has the gold (class 2) en prise, White (waiting) the pawn.
  expected[kThreatenedOffset + (1 * 4 + 1) * kValueClassNb + 2] += 1;
  expected[kThreatenedOffset + (0 * 4 + 1) * kValueClassNb + 0] -= 1;
  for (int i = 0; i < kPhaseSize; ++i) {
    CAPTURE(feature_name(kOpeningOffset + i));
    CHECK(sink.counts[i] == expected[i]);
  }
}

TEST_CASE("eval: the hand-set weights leave the learned-only sections at 0") {
  const Weights w = Weights::hand_set();
  for (int set : {kOpeningOffset, kEndgameOffset})
    for (int i = kPieceSquareOffset; i < kPhaseSize; ++i) {
      CAPTURE(feature_name(set + i));
      CHECK(w.get(set + i) == 0);
    }
  CHECK(feature_name(kOpeningOffset + kPieceSquareOffset + kind_index(kGold) * 45 + 3 * 9 + 6) ==
        "opening_piece_square[gold][file=3][rank=6]");
  CHECK(feature_name(kEndgameOffset + kSafetyOffset + (0 * 4 + 1) * 4 + 2) ==
        "endgame_safety[pawn][attackers=1][defenders=2]");
  CHECK(feature_name(kOpeningOffset + kThreatOffset + kind_index(kRook)) == "opening_threat[rook]");
  CHECK(feature_name(kEndgameOffset + kThreatenedOffset + (1 * 4 + 2) * 5 + 3) ==
        "endgame_threatened[to_move][count=2][class=3]");
  CHECK(feature_name(kOpeningOffset + kMobilityOffset + slider_index(kHorse) * 17 + 9) ==
        "opening_mobility[horse][9]");
}

}  // namespace eval_test
