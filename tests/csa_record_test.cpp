// CSA notation and record files: moves, position blocks, records (V2.2 and V3.0), fixtures.
#include "shogi/csa_record.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "shogi/csa_notation.h"
#include "shogi/movegen.h"
#include "shogi/position.h"

#ifndef SASHITE_TEST_DATA_DIR
#define SASHITE_TEST_DATA_DIR "tests/data"
#endif

namespace csa_record_test {

using namespace base;
using namespace shogi;

namespace {

const std::string kRecordsDir = std::string(SASHITE_TEST_DATA_DIR) + "/records";

Position position_from_sfen(const std::string& sfen) {
  Position pos;
  Status status = pos.set_sfen(sfen);
  REQUIRE_MESSAGE(status.is_ok(), status.message());
  return pos;
}

Move parse_ok(const Position& pos, const std::string& text) {
  Move m;
  Status status = parse_csa_move(pos, text, m);
  REQUIRE_MESSAGE(status.is_ok(), status.message());
  return m;
}

// The error message of parsing `text` in pos; fails the test if it parses.
std::string parse_error(const Position& pos, const std::string& text) {
  Move m;
  Status status = parse_csa_move(pos, text, m);
  CHECK_MESSAGE(!status.is_ok(), text);
  return status.message();
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

Status parse_block(const std::string& text, PositionSetup& out, int first_line = 1) {
  return parse_csa_position(split_lines(text), first_line, "block", out);
}

std::string read_error(const std::string& text) {
  CsaRecord rec;
  Status status = read_csa_record(text, "x.csa", rec);
  CHECK_MESSAGE(!status.is_ok(), text);
  return status.message();
}

void check_same_move(const CsaRecordMove& a, const CsaRecordMove& b, bool exact_time) {
  CHECK(a.move == b.move);
  CHECK(a.move.raw() == b.move.raw());
  CHECK(a.text == b.text);
  CHECK(a.comments == b.comments);
  CHECK(a.time_ms.has_value() == b.time_ms.has_value());
  if (a.time_ms && b.time_ms) {
    if (exact_time)
      CHECK(*a.time_ms == *b.time_ms);
    else
      CHECK(*a.time_ms / 1000 * 1000 == *b.time_ms);
  }
}

// Every field but version and encoding; times exact or in whole seconds (V2.2).
void check_same_record(const CsaRecord& a, const CsaRecord& b, bool exact_time) {
  const bool v3 = exact_time;
  CHECK(a.black_name == b.black_name);
  CHECK(a.white_name == b.white_name);
  CHECK(a.info == b.info);
  CHECK(a.comments == b.comments);
  CHECK(same_position_setup(a.initial, b.initial));
  REQUIRE(a.moves.size() == b.moves.size());
  for (size_t i = 0; i < a.moves.size(); ++i) check_same_move(a.moves[i], b.moves[i], v3);
  REQUIRE(a.rejected_last_move.has_value() == b.rejected_last_move.has_value());
  if (a.rejected_last_move) check_same_move(*a.rejected_last_move, *b.rejected_last_move, v3);
  CHECK(a.result == b.result);
  CHECK(a.result_time_ms.has_value() == b.result_time_ms.has_value());
  if (a.result_time_ms && b.result_time_ms)
    CHECK((v3 ? *a.result_time_ms : *a.result_time_ms / 1000 * 1000) == *b.result_time_ms);
  CHECK(a.result_comments == b.result_comments);
}

void check_round_trip(const CsaRecord& rec, CsaVersion v) {
  const std::string text = write_csa_record(rec, v);
  CsaRecord back;
  Status status = read_csa_record(text, "written", back);
  REQUIRE_MESSAGE(status.is_ok(), (status.message() + "\n" + text));
  CHECK(back.version == (v == CsaVersion::kV30 ? "V3.0" : "V2.2"));
  if (v == CsaVersion::kV30)
    CHECK(back.encoding == (rec.encoding.empty() ? std::string("UTF-8") : rec.encoding));
  else
    CHECK(back.encoding.empty());
  check_same_record(rec, back, v == CsaVersion::kV30);
  // Writing again gives the same text.
  CHECK(write_csa_record(back, v) == text);
}

std::vector<std::filesystem::path> fixture_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(kRecordsDir))
    if (entry.is_regular_file() && entry.path().extension() == ".csa")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

CsaRecord load_fixture(const std::string& name) {
  CsaRecord rec;
  Status status = load_csa_record_file(kRecordsDir + "/" + name, rec);
  REQUIRE_MESSAGE(status.is_ok(), status.message());
  return rec;
}

}  // namespace

TEST_SUITE_BEGIN("csa");

TEST_CASE("CSA piece names map both ways") {
  for (int t = kPawn; t <= kDragon; ++t) {
    const PieceType pt = PieceType(t);
    CHECK(piece_type_from_csa(csa_piece_name(pt)) == pt);
  }
  CHECK(std::string(csa_piece_name(kPawn)) == "FU");
  CHECK(std::string(csa_piece_name(kHorse)) == "UM");
  CHECK(std::string(csa_piece_name(kProKnight)) == "NK");
  CHECK(piece_type_from_csa("GY") == kKing);
  CHECK(piece_type_from_csa("OU") == kKing);
  CHECK(piece_type_from_csa("fu") == kNoPieceType);
  CHECK(piece_type_from_csa("XX") == kNoPieceType);
  CHECK(piece_type_from_csa("FUU") == kNoPieceType);
  CHECK(piece_type_from_csa("") == kNoPieceType);
  CHECK(std::string(csa_piece_name(kNoPieceType)).empty());
  CHECK(format_csa_square(make_square(6, 6)) == "77");
  CHECK(format_csa_square(make_square(0, 0)) == "11");
  CHECK(format_csa_square(make_square(8, 8)) == "99");
}

TEST_CASE("CSA moves: a short game with a promotion, a capture and a drop") {
  Position pos;
  const char* line[] = {"+7776FU", "-3334FU", "+8822UM", "-3122GI", "+0045KA"};
  for (const char* text : line) {
    const Move m = parse_ok(pos, text);
    CHECK(format_csa_move(m) == text);
    pos.do_move(m);
  }
  CHECK(pos.last_move().is_drop());
  CHECK(pos.hand(kBlack).empty());
  CHECK(pos.hand(kWhite).count(kBishop) == 1);

  Position p2;
  p2.do_move(parse_ok(p2, "+7776FU"));
  p2.do_move(parse_ok(p2, "-3334FU"));
  const Move promo = parse_ok(p2, "+8822UM");
  CHECK(promo.is_promotion());
  CHECK(format_csa_move(promo) == "+8822UM");
  const Move plain = parse_ok(p2, "+8822KA");
  CHECK(!plain.is_promotion());
  CHECK(format_csa_move(plain) == "+8822KA");
}

TEST_CASE("CSA moves: format and parse round trip over every legal move") {
  const std::vector<std::string> sfens = {
      Position::kStartSfen,
      // Drops of every kind, promotions, and both sides.
      "ln1g3nl/1r1s1kg2/p2ppsbpp/1pp2p3/7P1/2PP2P2/PPBSPP2P/2GK1S1R1/LN3G1NL b P 25",
      "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
      "8k/6S2/8G/9/9/9/9/9/4K4 b P 1",
  };
  for (const std::string& sfen : sfens) {
    const Position pos = position_from_sfen(sfen);
    const MoveList moves = legal_moves(pos);
    CHECK(moves.size() > 0);
    for (const Move m : moves) {
      const std::string text = format_csa_move(m);
      REQUIRE(text.size() == 7);
      Move back;
      Status status = parse_csa_move(pos, text, back);
      REQUIRE_MESSAGE(status.is_ok(), status.message());
      CHECK(back == m);
      CHECK(back.is_promotion() == m.is_promotion());
      CHECK(back.piece_after() == m.piece_after());
    }
  }
}

TEST_CASE("CSA moves: errors name the text, the column and the fault") {
  Position start;
  CHECK(parse_error(start, "+7776F") ==
        "CSA move '+7776F': column 7: too short: a CSA move has 7 characters");
  CHECK(parse_error(start, "+77X6FU") == "CSA move '+77X6FU': column 4: expected a digit 1-9");
  CHECK(parse_error(start, "*7776FU") ==
        "CSA move '*7776FU': column 1: expected + or - (the side moving)");
  CHECK(parse_error(start, "+7776XX") == "CSA move '+7776XX': column 6: unknown piece name 'XX'");
  CHECK(parse_error(start, "+7776FUX") ==
        "CSA move '+7776FUX': column 8: unexpected text after the move");
  CHECK(parse_error(start, "+0776FU").find("column 3: expected 0") != std::string::npos);
  CHECK(parse_error(start, "+7760FU").find("column 5") != std::string::npos);
  CHECK(parse_error(start, "").find("column 1") != std::string::npos);
  CHECK(parse_error(start, "-3334FU") == "CSA move '-3334FU': column 1: it is Black's turn");
  CHECK(parse_error(start, "+5556FU") == "CSA move '+5556FU': column 2: no piece on 55");
  CHECK(parse_error(start, "+3334FU") ==
        "CSA move '+3334FU': column 2: the piece on 33 is White's");
  CHECK(parse_error(start, "+7775FU") == "CSA move '+7775FU': FU on 77 cannot move to 75");
  CHECK(parse_error(start, "+7776TO") ==
        "CSA move '+7776TO': cannot promote outside the promotion zone");
  CHECK(parse_error(start, "+7776KI") ==
        "CSA move '+7776KI': column 6: the piece on 77 is FU, not KI");
  CHECK(parse_error(start, "+6979KI") == "CSA move '+6979KI': captures its own piece on 79");
  CHECK(parse_error(start, "+0055KA") == "CSA move '+0055KA': no KA in hand");
  CHECK(parse_error(start, "+0055TO") == "CSA move '+0055TO': column 6: cannot drop TO");

  CsaMoveProblem problem;
  Move m;
  CHECK(!parse_csa_move(start, "+77X6FU", m, problem));
  CHECK(problem.syntax);
  CHECK(problem.column == 4);
  CHECK(!parse_csa_move(start, "+7775FU", m, problem));
  CHECK(!problem.syntax);
  CHECK(problem.reason == "FU on 77 cannot move to 75");

  const Position must_promote = position_from_sfen("k8/8P/9/9/9/9/9/9/K8 b - 1");
  CHECK(parse_error(must_promote, "+1211FU").find("must promote") != std::string::npos);
  CHECK(parse_ok(must_promote, "+1211TO").is_promotion());

  const Position drops = position_from_sfen("4k4/9/9/9/9/9/4P4/9/4K4 b PN 1");
  CHECK(parse_error(drops, "+0053FU").find("nifu") != std::string::npos);
  CHECK(parse_error(drops, "+0041FU").find("could never move") != std::string::npos);
  CHECK(parse_error(drops, "+0042KE").find("could never move") != std::string::npos);
  CHECK(parse_error(drops, "+0057FU").find("occupied") != std::string::npos);
  parse_ok(drops, "+0043KE");

  const Position uchifuzume = position_from_sfen("8k/6S2/8G/9/9/9/9/9/4K4 b P 1");
  CHECK(parse_error(uchifuzume, "+0012FU").find("uchifuzume") != std::string::npos);

  const Position pinned = position_from_sfen("4k4/4r4/9/9/9/9/9/4G4/4K4 b - 1");
  CHECK(parse_error(pinned, "+5848KI") == "CSA move '+5848KI': leaves the king in check");
  parse_ok(pinned, "+5857KI");
}

TEST_CASE("CSA position: PI, handicaps, ranks, P+/P- and 00AL") {
  PositionSetup s;
  REQUIRE(parse_block("PI\n+", s).is_ok());
  CHECK(same_position_setup(s, csa_start_setup()));
  CHECK(same_position_setup(s, Position().setup()));

  REQUIRE(parse_block("PI82HI22KA\n-", s).is_ok());
  CHECK(s.side_to_move == kWhite);
  CHECK(s.board[make_square(7, 1)] == kNoPiece);
  CHECK(s.board[make_square(1, 1)] == kNoPiece);
  CHECK(s.hands[kBlack].empty());
  CHECK(s.hands[kWhite].empty());
  Position two_piece;
  REQUIRE(two_piece.set(s).is_ok());
  CHECK(two_piece.sfen(false) == "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -");
  CHECK(format_csa_position(s) == "PI82HI22KA\n-\n");

  // Ten-piece handicap, written in the usual order.
  REQUIRE(parse_block("PI11KY91KY21KE81KE31GI71GI41KI61KI22KA82HI\n-", s).is_ok());
  CHECK(format_csa_position(s) == "PI82HI22KA41KI61KI31GI71GI21KE81KE11KY91KY\n-\n");

  // The nine ranks, as the protocol sends them; comments and blank lines are skipped.
  const std::string rows =
      "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n"
      "P2 * -HI *  *  *  *  * -KA * \n"
      "P3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n"
      "'a comment\n"
      "P4 *  *  *  *  *  *  *  *  * \n"
      "P5 *  *  *  *  *  *  *  *  * \n"
      "\n"
      "P6 *  *  *  *  *  *  *  *  * \n"
      "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\n"
      "P8 * +KA *  *  *  *  * +HI * \n"
      "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n"
      "+\n";
  REQUIRE(parse_block(rows, s).is_ok());
  CHECK(same_position_setup(s, csa_start_setup()));

  // Lenient: trailing spaces dropped, and merged spaces (" * * ") as mail and HTML leave them.
  const std::string merged =
      "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n"
      "P2 * -HI * * * * * -KA *\n"
      "P3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n"
      "P4 * * * * * * * * *\n"
      "P5 *  *  *  *  *  *  *  *  *\n"
      "P6 * * * * * * * * * \n"
      "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\n"
      "P8 * +KA * * * * * +HI *\n"
      "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY   \n"
      "+\r\n";
  REQUIRE(parse_block(merged, s).is_ok());
  CHECK(same_position_setup(s, csa_start_setup()));

  // A mate problem: pieces by square, a pawn in Black's hand, the rest to White.
  REQUIRE(parse_block("P-11OU\nP+13KI32GI\nP+00FU\nP-00AL\n+", s).is_ok());
  CHECK(s.board[make_square(0, 0)] == make_piece(kWhite, kKing));
  CHECK(s.board[make_square(0, 2)] == make_piece(kBlack, kGold));
  CHECK(s.board[make_square(2, 1)] == make_piece(kBlack, kSilver));
  CHECK(s.hands[kBlack].count(kPawn) == 1);
  CHECK(s.hands[kBlack].total() == 1);
  CHECK(s.hands[kWhite].count(kPawn) == 17);
  CHECK(s.hands[kWhite].count(kLance) == 4);
  CHECK(s.hands[kWhite].count(kKnight) == 4);
  CHECK(s.hands[kWhite].count(kSilver) == 3);
  CHECK(s.hands[kWhite].count(kGold) == 3);
  CHECK(s.hands[kWhite].count(kBishop) == 2);
  CHECK(s.hands[kWhite].count(kRook) == 2);
  Position problem;
  REQUIRE(problem.set(s).is_ok());

  // 00AL applies after every other line, wherever it stands; GY is read as a king.
  REQUIRE(parse_block("P-00AL\nP+59GY\nP-51OU\nP+00HI\n+", s).is_ok());
  CHECK(s.hands[kBlack].count(kRook) == 1);
  CHECK(s.hands[kWhite].count(kRook) == 1);
  CHECK(s.hands[kWhite].count(kPawn) == 18);

  // PI then pieces added to the hands (a handicap given back as pieces in hand).
  REQUIRE(parse_block("PI82HI\nP-00HI\n-", s).is_ok());
  CHECK(s.hands[kWhite].count(kRook) == 1);
}

TEST_CASE("CSA position: format and parse round trip") {
  std::vector<PositionSetup> setups;
  setups.push_back(csa_start_setup());
  for (const char* sfen : {"l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
                           "8k/6S2/8G/9/9/9/9/9/4K4 b P 1",
                           "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
                           "lnsgkgsnl/1r5b1/pppppppp1/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1",
                           "4k4/9/9/9/9/9/9/9/4K4 w 2r2b4g4s4n4l18p 1"}) {
    setups.push_back(position_from_sfen(sfen).setup());
  }
  for (const PositionSetup& setup : setups) {
    const std::string text = format_csa_position(setup);
    PositionSetup back;
    Status status = parse_block(text, back);
    REQUIRE_MESSAGE(status.is_ok(), (status.message() + "\n" + text));
    CHECK_MESSAGE(same_position_setup(setup, back), text);
  }
  CHECK(format_csa_position(csa_start_setup()) == "PI\n+\n");
  const std::string hands = format_csa_position(setups[1]);
  CHECK(hands.find("P+00HI00KI\n") != std::string::npos);
  CHECK(hands.find("P-00KI00GI00KE00FU00FU00FU00FU00FU\n") != std::string::npos);
  CHECK(hands.find("P1-KY *  *  *  *  *  * -KE-KY\n") != std::string::npos);
  CHECK(hands.substr(hands.size() - 2) == "-\n");
}

TEST_CASE("CSA position: malformed blocks give NAME:LINE:COL errors") {
  PositionSetup s;
  auto error_of = [&](const std::string& text, int first_line = 1) {
    Status status = parse_block(text, s, first_line);
    CHECK_MESSAGE(!status.is_ok(), text);
    return status.message();
  };
  CHECK(error_of("P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HX", 10) ==
        "block:11:7: unknown piece name 'HX'");
  CHECK(error_of("PI") == "block:1:1: missing the side to move (a line '+' or '-')");
  CHECK(error_of("").find("missing the side to move") != std::string::npos);
  CHECK(error_of("+") ==
        "block:1:1: no position lines (PI, P1..P9, P+, P-) before the side to move");
  CHECK(error_of("PI55KA\n+") == "block:1:3: PI: no KA on 55 to remove");
  CHECK(error_of("PI82H\n+") ==
        "block:1:3: incomplete item: PI is followed by <square><piece> items");
  CHECK(error_of("PI\nP+55KA\n+") == "block:2:3: too many KA (more than the set holds)");
  CHECK(error_of("PI\nP+00FU\n+") == "block:2:3: too many FU (more than the set holds)");
  CHECK(error_of("P+55KA\nP+55FU\n+") == "block:2:3: square 55 is already occupied");
  CHECK(error_of("P+00TO\n+") == "block:1:5: a TO cannot be held in hand");
  CHECK(error_of("P+00OU\n+") == "block:1:5: a OU cannot be held in hand");
  CHECK(error_of("P+5\n+") ==
        "block:1:3: incomplete item: expected <square><piece> such as 55KA or 00FU");
  CHECK(error_of("P+0A\n+").find("block:1:3:") == 0);
  CHECK(error_of("P+00AL\nP-00AL\n+") == "block:2:3: 00AL given twice");
  CHECK(error_of("P+00XX\n+") == "block:1:5: unknown piece name 'XX'");
  CHECK(error_of("PI\nPI\n+") == "block:2:1: a second PI line");
  CHECK(error_of("P1 *  *  *  *  *  *  *  *  * \nPI\n+") ==
        "block:2:1: PI cannot be combined with P1..P9 lines");
  CHECK(error_of("PI\nP1 *  *  *  *  *  *  *  *  * \n+") ==
        "block:2:1: P1..P9 lines cannot be combined with PI");
  CHECK(error_of("P+00FU\nPI\n+") == "block:2:1: PI must come before the P+ and P- lines");
  CHECK(error_of("P1 *  *  *  *  *  *  *  *  * \nP1 *  *  *  *  *  *  *  *  * \n+") ==
        "block:2:1: a second P1 line");
  CHECK(error_of("P1 *  *  * \n+") == "block:1:12: the rank has 3 cells; 9 expected");
  CHECK(error_of("P1 *  *  *  *  *  *  *  *  * -FU\n+") ==
        "block:1:30: unexpected text after the ninth cell");
  CHECK(error_of("P1 *  *  *  *  * x*  *  *  * \n+") ==
        "block:1:18: expected ' * ' (empty) or a piece such as '+FU' or '-KY'");
  CHECK(error_of("P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n+") ==
        "block:1:1: missing rank lines: P2, P3, P4, P5, P6, P7, P8, P9");
  CHECK(error_of("PI\n+\n-") == "block:3:1: unexpected line after the side to move");
  CHECK(error_of("PI\n+7776FU") ==
        "block:2:1: expected a position line (PI, P1..P9, P+, P-) or the side to move (+ or -)");
  CHECK(error_of("PX\n+") == "block:1:2: unknown position line: expected PI, P1..P9, P+ or P-");
}

TEST_CASE("CSA record: header, moves, times, comments and the result") {
  const std::string text =
      "'a header comment\n"
      "V2.2\n"
      "N+Alice, the first\n"
      "N-Bob\n"
      "$EVENT:Test, with a comma\n"
      "$START_TIME:2026/11/25 21:31:41\n"
      "$TIME_LIMIT:00:25+00\n"
      "PI\n"
      "'in the position block\n"
      "+\n"
      "+7776FU,T12\n"
      "'* 30 -3334FU +2726FU\n"
      "-3334FU\n"
      "'comment, with a comma\n"
      "T6\n"
      "+8822UM,T0,'** 200\n"
      "-3122GI\n"
      "%TORYO,T3\n"
      "'summary:toryo:Alice win:Bob lose\n"
      "$END_TIME:2026/11/25 21:40:00\n";
  CsaRecord rec;
  Status status = read_csa_record(text, "t.csa", rec);
  REQUIRE_MESSAGE(status.is_ok(), status.message());
  CHECK(rec.version == "V2.2");
  CHECK(rec.encoding.empty());
  CHECK(rec.black_name == "Alice, the first");
  CHECK(rec.white_name == "Bob");
  REQUIRE(rec.info.size() == 4);
  CHECK(rec.info[0] == std::pair<std::string, std::string>("EVENT", "Test, with a comma"));
  CHECK(*rec.find_info("TIME_LIMIT") == "00:25+00");
  CHECK(*rec.find_info("END_TIME") == "2026/11/25 21:40:00");
  CHECK(rec.find_info("SITE") == nullptr);
  CHECK(rec.comments == std::vector<std::string>{"a header comment", "in the position block"});
  CHECK(same_position_setup(rec.initial, csa_start_setup()));
  REQUIRE(rec.moves.size() == 4);
  CHECK(rec.moves[0].text == "+7776FU");
  CHECK(*rec.moves[0].time_ms == 12000);
  CHECK(rec.moves[0].comments == std::vector<std::string>{"* 30 -3334FU +2726FU"});
  CHECK(*rec.moves[1].time_ms == 6000);
  CHECK(rec.moves[1].comments == std::vector<std::string>{"comment, with a comma"});
  CHECK(rec.moves[2].move.is_promotion());
  CHECK(*rec.moves[2].time_ms == 0);
  CHECK(rec.moves[2].comments == std::vector<std::string>{"** 200"});
  CHECK(!rec.moves[3].time_ms.has_value());
  CHECK(rec.result == CsaSpecialMove::kToryo);
  CHECK(*rec.result_time_ms == 3000);
  CHECK(rec.result_comments == std::vector<std::string>{"summary:toryo:Alice win:Bob lose"});
  CHECK(!rec.has_rejected_last_move());
  CHECK(!rec.more_games_in_file);

  Position final_pos = csa_final_position(rec);
  CHECK(final_pos.sfen(false) ==
        "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb");
  Position after2;
  REQUIRE(replay_csa_record(rec, after2, 2).is_ok());
  CHECK(after2.sfen(false) == "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -");
  Position after0;
  REQUIRE(replay_csa_record(rec, after0, 0).is_ok());
  CHECK(after0.sfen(false) == Position().sfen(false));
  Position all;
  REQUIRE(replay_csa_record(rec, all).is_ok());
  CHECK(all.key() == final_pos.key());
  CHECK(!replay_csa_record(rec, all, 5).is_ok());
  CHECK(!replay_csa_record(rec, all, -2).is_ok());
}

TEST_CASE("CSA record: V2.2 and V3.0 round trips") {
  const std::string v3 =
      "'CSA encoding=UTF-8\n"
      "V3.0\n"
      "N+先手の人\n"
      "N-後手の人\n"
      "$EVENT:floodgate-300-10F\n"
      "$TIME:300+0+10\n"
      "$TIME+:300+0+10\n"
      "$MAX_MOVES:256\n"
      "$JISHOGI:27\n"
      "'Max_Moves:256\n"
      "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n"
      "P2 * -HI *  *  *  *  * -KA * \n"
      "P3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n"
      "P4 *  *  *  *  *  *  *  *  * \n"
      "P5 *  *  *  *  *  *  *  *  * \n"
      "P6 *  *  *  *  *  *  *  *  * \n"
      "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\n"
      "P8 * +KA *  *  *  *  * +HI * \n"
      "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n"
      "+\n"
      "+2726FU\n"
      "T1.234\n"
      "'** 104 -8485FU\n"
      "-8384FU,T0.5\n"
      "+2625FU,T2\n"
      "-8485FU,T0.001\n"
      "+6978KI,T10.25\n"
      "-4132KI,T1.2349\n"
      "%MAX_MOVES\n"
      "T0.1\n"
      "'result comment\n";
  CsaRecord rec;
  Status status = read_csa_record(v3, "v3.csa", rec);
  REQUIRE_MESSAGE(status.is_ok(), status.message());
  CHECK(rec.encoding == "UTF-8");
  CHECK(rec.version == "V3.0");
  CHECK(*rec.find_info("TIME") == "300+0+10");
  CHECK(*rec.find_info("TIME+") == "300+0+10");
  CHECK(*rec.moves[0].time_ms == 1234);
  CHECK(*rec.moves[1].time_ms == 500);
  CHECK(*rec.moves[3].time_ms == 1);
  CHECK(*rec.moves[4].time_ms == 10250);
  CHECK(*rec.moves[5].time_ms == 1234);  // decimals past milliseconds are truncated
  CHECK(rec.result == CsaSpecialMove::kMaxMoves);
  CHECK(*rec.result_time_ms == 100);

  check_round_trip(rec, CsaVersion::kV30);
  check_round_trip(rec, CsaVersion::kV22);

  const std::string written = write_csa_record(rec, CsaVersion::kV30);
  CHECK(written.substr(0, 25) == "'CSA encoding=UTF-8\nV3.0\n");
  CHECK(written.find("\nT1.234\n") != std::string::npos);
  CHECK(written.find("\nT0.5\n") != std::string::npos);
  CHECK(written.find("\nT0.001\n") != std::string::npos);
  CHECK(written.find("\nT2\n") != std::string::npos);
  CHECK(written.find("\nPI\n+\n") != std::string::npos);
  const std::string written22 = write_csa_record(rec, CsaVersion::kV22);
  CHECK(written22.substr(0, 5) == "V2.2\n");
  CHECK(written22.find("\nT1\n'** 104 -8485FU\n") != std::string::npos);
  CHECK(written22.find("T1.") == std::string::npos);
  CHECK(written22.find("-8384FU\nT0\n") != std::string::npos);  // T0.5 truncated
  CHECK(written22.find("CSA encoding") == std::string::npos);

  // A handicap game with pieces in hand written as rows, and a rejected final move.
  CsaRecord handicap = load_fixture("synthetic_illegal_last_move.csa");
  handicap.initial =
      position_from_sfen("lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1").setup();
  handicap.moves.clear();
  handicap.rejected_last_move.reset();
  Position pos;
  REQUIRE(pos.set(handicap.initial).is_ok());
  for (const char* text : {"-5142OU", "+7776FU", "-4232OU"}) {
    CsaRecordMove m;
    m.move = parse_ok(pos, text);
    m.text = text;
    m.time_ms = 1500;
    pos.do_move(m.move);
    handicap.moves.push_back(m);
  }
  CsaRecordMove bad;
  bad.text = "+2822HI";
  bad.time_ms = 2000;
  bad.comments = {"the rook cannot jump"};
  handicap.rejected_last_move = bad;
  handicap.result = CsaSpecialMove::kIllegalMove;
  check_round_trip(handicap, CsaVersion::kV30);
  check_round_trip(handicap, CsaVersion::kV22);
  CHECK(write_csa_record(handicap, CsaVersion::kV22).find("\nPI82HI22KA\n-\n") !=
        std::string::npos);
}

TEST_CASE("CSA record: BOM, CRLF, blank lines and several games") {
  const std::string plain = "V2.2\nN+a\nN-b\nPI\n+\n+7776FU\nT1\n-3334FU\nT2\n%TORYO\n";
  CsaRecord a;
  REQUIRE(read_csa_record(plain, "plain", a).is_ok());

  std::string crlf;
  for (char c : plain) {
    if (c == '\n')
      crlf += "\r\n\r\n";  // CRLF and blank lines
    else
      crlf += c;
  }
  for (const std::string& variant : std::vector<std::string>{
           std::string("\xEF\xBB\xBF") + plain, crlf, std::string("\xEF\xBB\xBF") + crlf,
           plain.substr(0, plain.size() - 1),
           "V2.2\nN+a\nN-b\nPI\n+\n+7776FU,T1,-3334FU,T2,%TORYO\n",
           "V2.2  \nN+a\nN-b\nPI  \n+ \n+7776FU , T1\n-3334FU\nT2\n%TORYO\t\n"}) {
    CsaRecord b;
    Status status = read_csa_record(variant, "variant", b);
    REQUIRE_MESSAGE(status.is_ok(), status.message());
    check_same_record(a, b, true);
    CHECK(b.version == a.version);
    CHECK(b.encoding == a.encoding);
  }

  // A BOM line-column: errors count columns after the BOM.
  CHECK(read_error("\xEF\xBB\xBF"
                   "PI\n+\n+7775FU\n") ==
        "x.csa:3:1: illegal move +7775FU (FU on 77 cannot move to 75)");
  CHECK(read_error("PI\r\n+\r\n+7776FU,T1,-3334FX\r\n") ==
        "x.csa:3:17: bad move -3334FX (unknown piece name 'FX')");

  // Several games: only the first is read.
  CsaRecord multi;
  REQUIRE(read_csa_record("PI\n+\n+7776FU\n/\nPI\n+\n+2726FU\n-8384FU\n", "m", multi).is_ok());
  CHECK(multi.moves.size() == 1);
  CHECK(multi.more_games_in_file);
  CHECK(!read_csa_record("/\nPI\n+\n", "m", multi).is_ok());
}

TEST_CASE("CSA record: malformed input gives NAME:LINE:COL errors") {
  CHECK(read_error("") == "x.csa:1:1: no starting position (PI or P1..P9, then + or -)");
  CHECK(read_error("V2.2\nN+a\n") == "x.csa:2:1: no starting position (PI or P1..P9, then + or -)");
  CHECK(read_error("V2.2\n+7776FU\n") ==
        "x.csa:2:1: expected the starting position (PI or P1..P9, then + or -) first");
  CHECK(read_error("V9.9\nPI\n+\n") == "x.csa:1:1: unsupported version 'V9.9'");
  CHECK(read_error("N+a\nV2.2\nPI\n+\n") ==
        "x.csa:2:1: the version line must come before names and info");
  CHECK(read_error("N+a\nN+b\nPI\n+\n") == "x.csa:2:1: a second N+ line");
  CHECK(read_error("$EVENT\nPI\n+\n") == "x.csa:1:2: expected $KEY:VALUE");
  CHECK(read_error("hello\nPI\n+\n") == "x.csa:1:1: unrecognised line 'hello'");
  CHECK(read_error("V2.2\nPI\n") ==
        "x.csa:2:1: missing the side to move (a line '+' or '-') after the position");
  CHECK(read_error("V2.2\nPI\nN+a\n+\n") ==
        "x.csa:3:1: expected a position line (P...) or the side to move (+ or -)");
  CHECK(read_error("V2.2\nP1-KY\n+\n") == "x.csa:2:6: the rank has 1 cells; 9 expected");
  CHECK(read_error("V2.2\nP+59OU\nP+51OU\n+\n").find("x.csa:4:1: invalid starting position: ") ==
        0);
  CHECK(read_error("PI\n+\nT3\n") == "x.csa:3:1: a time (T) before any move");
  CHECK(read_error("PI\n+\n+7776FU\nT3\nT4\n") == "x.csa:5:1: a second time for the same move");
  CHECK(read_error("PI\n+\n+7776FU\nT1.x\n") ==
        "x.csa:4:4: bad time: expected digits after the decimal point");
  CHECK(read_error("PI\n+\n+7776FU\nT\n") == "x.csa:4:2: bad time: expected the seconds after T");
  CHECK(read_error("PI\n+\n+7776FU\nT-1\n") == "x.csa:4:2: bad time: expected the seconds after T");
  CHECK(read_error("PI\n+\n+7776FU\nT12s\n") ==
        "x.csa:4:4: bad time: unexpected text after the time");
  CHECK(read_error("PI\n+\n+7776FU\n%TORYO\n-3334FU\n") ==
        "x.csa:5:1: a move after the end of the game (%TORYO)");
  CHECK(read_error("PI\n+\n%TORYO\n%CHUDAN\n") == "x.csa:4:1: a special move after %TORYO");
  CHECK(read_error("PI\n+\n%RESIGN\n") == "x.csa:3:1: unknown special move '%RESIGN'");
  CHECK(read_error("PI\n+\n+7776FU\n+\n") == "x.csa:4:1: a second side-to-move line");
  CHECK(read_error("PI\n+\n+7776FU\nPI\n") ==
        "x.csa:4:1: a header or position line after the moves began");
  CHECK(read_error("PI\n+\n-3334FU\n") == "x.csa:3:1: illegal move -3334FU (it is Black's turn)");
  CHECK(read_error("PI\n+\n+7776FU\n-5152OU\n+2726FU,T1,-5254OU\n") ==
        "x.csa:5:12: illegal move -5254OU (OU on 52 cannot move to 54)");
  // An illegal move is accepted only as the final move of a game ending in an illegal-move mark.
  CHECK(read_error("PI\n+\n+7775FU\n%TORYO\n") ==
        "x.csa:3:1: illegal move +7775FU (FU on 77 cannot move to 75)");
  CHECK(read_error("PI\n+\n+7775FU\n-3334FU\n%ILLEGAL_MOVE\n") ==
        "x.csa:3:1: illegal move +7775FU (FU on 77 cannot move to 75)");
  CHECK(read_error("PI\n+\n+7775FU\n") ==
        "x.csa:3:1: illegal move +7775FU (FU on 77 cannot move to 75)");
  // A move that is not a move at all stays an error even there.
  CHECK(read_error("PI\n+\n+77756FU\n%ILLEGAL_MOVE\n") ==
        "x.csa:3:8: bad move +77756FU (unexpected text after the move)");
  CHECK(read_error("'CSA encoding=EBCDIC\nPI\n+\n") ==
        "x.csa:1:15: unknown encoding 'EBCDIC' (UTF-8 or SHIFT_JIS expected)");
  CsaRecord rec;
  Status status = load_csa_record_file(kRecordsDir + "/no_such_file.csa", rec);
  CHECK(!status.is_ok());
  CHECK(status.message() == kRecordsDir + "/no_such_file.csa: cannot open the file");
}

TEST_CASE("CSA record: mutated input never crashes") {
  const CsaRecord base = load_fixture("g000001.csa");
  const std::string text = write_csa_record(base, CsaVersion::kV30);
  uint64_t state = 0x9E3779B97F4A7C15ULL;
  auto next = [&]() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  const std::string alphabet = "+-0123456789PIT%',/\n\r *ALFUOUKAHI$N:V.";
  int parsed = 0;
  for (int round = 0; round < 2000; ++round) {
    std::string t = text;
    const int edits = 1 + int(next() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t at = next() % t.size();
      switch (next() % 3) {
        case 0:
          t[at] = alphabet[next() % alphabet.size()];
          break;
        case 1:
          t.erase(at, 1 + next() % 8);
          break;
        default:
          t.insert(at, 1, alphabet[next() % alphabet.size()]);
          break;
      }
      if (t.empty()) t.push_back('x');
    }
    CsaRecord rec;
    Status status = read_csa_record(t, "fuzz", rec);
    if (status.is_ok()) {
      ++parsed;
      Position pos;
      CHECK(replay_csa_record(rec, pos).is_ok());
    } else {
      CHECK(status.message().rfind("fuzz:", 0) == 0);
    }
  }
  CHECK(parsed > 0);
}

TEST_CASE("CSA record: every fixture parses, replays and round-trips") {
  const std::vector<std::filesystem::path> files = fixture_files();
  REQUIRE(files.size() >= 12);
  for (const std::filesystem::path& path : files) {
    CAPTURE(path.string());
    CsaRecord rec;
    Status status = load_csa_record_file(path.string(), rec);
    REQUIRE_MESSAGE(status.is_ok(), status.message());
    CHECK(!rec.moves.empty());
    CHECK(rec.result != CsaSpecialMove::kNone);
    Position replayed;
    REQUIRE(replay_csa_record(rec, replayed).is_ok());
    CHECK(replayed.key() == csa_final_position(rec).key());
    CHECK(replayed.is_consistent());
    check_round_trip(rec, CsaVersion::kV22);
    check_round_trip(rec, CsaVersion::kV30);
  }
}

TEST_CASE("CSA record: what the fixtures say about how games end") {
  // WCSC28: %KACHI after a declaration the final position allows.
  const CsaRecord kachi = load_fixture("utf8_WCSC28_U1_TSG_HFW.csa");
  CHECK(kachi.result == CsaSpecialMove::kKachi);
  CHECK(csa_final_position(kachi).can_declare_win());
  CHECK(kachi.version == "V2.2");
  CHECK(kachi.find_info("START_TIME") != nullptr);

  // %SENNICHITE: the final position has occurred four times.
  const CsaRecord sennichite = load_fixture("utf8_WCSC28_U1_USA_NAN.csa");
  CHECK(sennichite.result == CsaSpecialMove::kSennichite);
  CHECK(csa_final_position(sennichite).repetition(4) == Repetition::kDraw);

  // %TIME_UP, %CHUDAN, and the two illegal-action marks.
  CHECK(load_fixture("utf8_WCSC28_L5_WDF_GIR.csa").result == CsaSpecialMove::kTimeUp);
  CHECK(load_fixture("utf8_WCSC28_U4_HFW_APR.csa").result == CsaSpecialMove::kChudan);
  CHECK(load_fixture("utf8_WCSC28_L2_HIM_NRK.csa").result == CsaSpecialMove::kWhiteIllegalAction);
  CHECK(load_fixture("utf8_WCSC28_L8_WOD_YUU.csa").result == CsaSpecialMove::kBlackIllegalAction);

  // The real WCSC record ending in %ILLEGAL_MOVE does not hold the offending move: the server
  // logged the mate before it, and White's illegal reply is not in the file.
  const CsaRecord real = load_fixture("utf8_WCSC28_L1_KAK_CRZ.csa");
  CHECK(real.result == CsaSpecialMove::kIllegalMove);
  CHECK(!real.has_rejected_last_move());
  const Position mated = csa_final_position(real);
  CHECK(mated.in_check());
  CHECK(legal_moves(mated).empty());

  // The same game with the illegal reply written out: that move breaks our rules, is kept
  // aside, and the record still reads.
  const CsaRecord synthetic = load_fixture("synthetic_illegal_last_move.csa");
  CHECK(synthetic.result == CsaSpecialMove::kIllegalMove);
  REQUIRE(synthetic.has_rejected_last_move());
  CHECK(synthetic.rejected_last_move->text == "-1222OU");
  CHECK(synthetic.rejected_last_move->move == kMoveNone);
  CHECK(*synthetic.rejected_last_move->time_ms == 1000);
  CHECK(*synthetic.result_time_ms == 0);
  CHECK(synthetic.moves.size() == real.moves.size());
  CHECK(csa_final_position(synthetic).key() == mated.key());
  Move m;
  CHECK(!parse_csa_move(mated, "-1222OU", m).is_ok());

  // Read strictly, the same file is an error naming the move and why.
  const std::string text = write_csa_record(synthetic, CsaVersion::kV22);
  CsaRecord strict;
  CsaReadOptions options;
  options.allow_rejected_last_move = false;
  Status status = read_csa_record(text, "strict.csa", strict, options);
  REQUIRE(!status.is_ok());
  CHECK(status.message().find("illegal move -1222OU (leaves the king in check)") !=
        std::string::npos);

  // Engine games: floodgate-style result comments after %TORYO.
  const CsaRecord game = load_fixture("g000001.csa");
  CHECK(game.result == CsaSpecialMove::kToryo);
  CHECK(game.black_name == "gpsshogi");
  CHECK(game.result_comments == std::vector<std::string>{"result: white_win toryo"});
  CHECK(game.find_info("EVENT") != nullptr);
}

TEST_CASE("CSA special move names") {
  for (CsaSpecialMove s :
       {CsaSpecialMove::kToryo, CsaSpecialMove::kChudan, CsaSpecialMove::kSennichite,
        CsaSpecialMove::kOuteSennichite, CsaSpecialMove::kIllegalMove,
        CsaSpecialMove::kBlackIllegalAction, CsaSpecialMove::kWhiteIllegalAction,
        CsaSpecialMove::kTimeUp, CsaSpecialMove::kJishogi, CsaSpecialMove::kKachi,
        CsaSpecialMove::kHikiwake, CsaSpecialMove::kMaxMoves, CsaSpecialMove::kTsumi,
        CsaSpecialMove::kFuzumi, CsaSpecialMove::kMatta, CsaSpecialMove::kError}) {
    CHECK(csa_special_move_from_name(csa_special_move_name(s)) == s);
  }
  CHECK(std::string(csa_special_move_name(CsaSpecialMove::kBlackIllegalAction)) ==
        "%+ILLEGAL_ACTION");
  CHECK(csa_special_move_from_name("%toryo") == CsaSpecialMove::kNone);
  CHECK(csa_special_move_from_name("TORYO") == CsaSpecialMove::kNone);
  CHECK(std::string(csa_special_move_name(CsaSpecialMove::kNone)).empty());
}

TEST_SUITE_END();

}  // namespace csa_record_test

namespace csa_record_ending_test {

std::string problem(const std::string& text) {
  shogi::CsaRecord rec;
  const base::Status s = shogi::read_csa_record(text, "t.csa", rec);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  return shogi::csa_record_ending_problem(rec);
}

TEST_CASE("csa record: an ending its moves do not bear out is named") {
  const std::string start = "V2.2\nPI\n+\n";
  const std::string shuffle = "+5958OU\n-5152OU\n+5859OU\n-5251OU\n";  // back to the start
  CHECK(problem(start + "+7776FU\n-3334FU\n%TORYO\n") == "");
  CHECK(problem(start + "+7776FU\n-3334FU\n%SENNICHITE\n") ==
        "%SENNICHITE without a fourfold repetition");
  CHECK(problem(start + shuffle + shuffle + shuffle + "%SENNICHITE\n") == "");
  CHECK(problem(start + shuffle + shuffle + shuffle + "+7776FU\n%TORYO\n") ==
        "move 13 (+7776FU) comes after a fourfold repetition ended the game");
  CHECK(problem(start + "+7776FU\n-3334FU\n%KACHI\n") ==
        "%KACHI that the entering-king rule (27 points) does not allow");
}

}  // namespace csa_record_ending_test
