// SFEN and USI notation: round trips, canonical output, and malformed input. Every bad
// SFEN must give a Status error naming the text and the (1-based) column; every bad USI
// move string an error naming the text. Position::set_sfen must also refuse setups that
// break the rules and leave the previous position as it was.
#include "shogi/notation.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "shogi/movegen.h"
#include "shogi/position.h"
#include "tests/test_prng.h"

namespace notation_test {

using namespace base;
using namespace shogi;

namespace {

constexpr std::string_view kStart = Position::kStartSfen;

using test::Prng;

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// Parses `sfen`, expects an error naming it and the given column, and expects both
// parse_sfen's output and a Position to be left as they were.
void expect_sfen_error(std::string_view sfen, int column) {
  CAPTURE(sfen);
  PositionSetup setup;
  REQUIRE(parse_sfen(kStart, setup).is_ok());
  Status status = parse_sfen(sfen, setup);
  CHECK_FALSE(status.is_ok());
  CAPTURE(status.message());
  CHECK(contains(status.message(), "SFEN '" + std::string(sfen) + "'"));
  if (column > 0) CHECK(contains(status.message(), "column " + std::to_string(column) + ":"));
  CHECK(format_sfen(setup) == kStart);  // output untouched

  Position pos;
  pos.do_move(legal_moves(pos)[0]);
  const std::string before = pos.sfen();
  const uint64_t key = pos.key();
  Status via_position = pos.set_sfen(sfen);
  CHECK_FALSE(via_position.is_ok());
  CHECK(via_position.message() == status.message());
  CHECK(pos.sfen() == before);
  CHECK(pos.key() == key);
  CHECK(pos.plies_played() == 1);
}

// Sets `sfen` on a position that has a move history, expects a rule error, and expects
// the position (history included) to be unchanged.
void expect_rule_error(std::string_view sfen) {
  CAPTURE(sfen);
  PositionSetup setup;
  REQUIRE(parse_sfen(sfen, setup).is_ok());  // the text itself is well formed
  Position pos;
  Move first = legal_moves(pos)[0];
  pos.do_move(first);
  const std::string before = pos.sfen();
  const uint64_t key = pos.key();
  Status status = pos.set_sfen(sfen);
  CHECK_FALSE(status.is_ok());
  CAPTURE(status.message());
  CHECK(contains(status.message(), std::string(sfen)));
  CHECK(pos.sfen() == before);
  CHECK(pos.key() == key);
  CHECK(pos.plies_played() == 1);
  CHECK(pos.last_move() == first);
  CHECK(pos.is_consistent());
  pos.undo_move();
  CHECK(pos.sfen() == kStart);

  // Position::set gives the same verdict on the parsed setup.
  Position fresh;
  CHECK_FALSE(fresh.set(setup).is_ok());
  CHECK(fresh.sfen() == kStart);
}

// Round trip through both parse_sfen/format_sfen and Position.
void expect_round_trip(std::string_view sfen) {
  CAPTURE(sfen);
  PositionSetup setup;
  REQUIRE(parse_sfen(sfen, setup).is_ok());
  CHECK(format_sfen(setup) == sfen);
  Position pos;
  Status status = pos.set_sfen(sfen);
  CAPTURE(status.message());
  REQUIRE(status.is_ok());
  CHECK(pos.sfen() == sfen);
  CHECK(pos.is_consistent());
  // Without the move number.
  std::string without = pos.sfen(false);
  CHECK(sfen.starts_with(without));
  CHECK(std::string(sfen).substr(without.size()).starts_with(" "));
  Position again;
  REQUIRE(again.set_sfen(without).is_ok());
  CHECK(again.sfen(false) == without);
  CHECK(again.key() == pos.key());
}

}  // namespace

TEST_CASE("SFEN round trips") {
  SUBCASE("start position") {
    expect_round_trip(kStart);
    Position pos;
    CHECK(pos.sfen() == kStart);
    CHECK(pos.side_to_move() == kBlack);
    CHECK(pos.piece_on(make_square(4, 8)) == make_piece(kBlack, kKing));    // 5i
    CHECK(pos.piece_on(make_square(4, 0)) == make_piece(kWhite, kKing));    // 5a
    CHECK(pos.piece_on(make_square(7, 7)) == make_piece(kBlack, kBishop));  // 8h
    CHECK(pos.piece_on(make_square(1, 7)) == make_piece(kBlack, kRook));    // 2h
    CHECK(pos.piece_on(make_square(1, 1)) == make_piece(kWhite, kBishop));  // 2b
    CHECK(pos.piece_on(make_square(7, 1)) == make_piece(kWhite, kRook));    // 8b
    CHECK(pos.piece_on(make_square(8, 0)) == make_piece(kWhite, kLance));   // 9a
    CHECK(pos.piece_on(make_square(0, 6)) == make_piece(kBlack, kPawn));    // 1g
    CHECK(pos.hand(kBlack).empty());
    CHECK(pos.hand(kWhite).empty());
    CHECK(pos.pieces().count() == 40);
  }
  SUBCASE("startpos keyword") {
    Position pos;
    pos.do_move(legal_moves(pos)[3]);
    REQUIRE(pos.set_sfen("startpos").is_ok());
    CHECK(pos.sfen() == kStart);
    CHECK(pos.plies_played() == 0);
    PositionSetup setup;
    REQUIRE(parse_sfen("  startpos  ", setup).is_ok());
    CHECK(format_sfen(setup) == kStart);
    CHECK_FALSE(parse_sfen("startpos x", setup).is_ok());
    CHECK_FALSE(parse_sfen("startposition", setup).is_ok());
  }
  SUBCASE("promoted pieces of every kind and both colours") {
    expect_round_trip("+r+b+s+n+l+pk2/9/9/9/9/9/9/9/2K+P+L+N+S+B+R b 2G2g 1");
    expect_round_trip("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1");
    Position pos;
    REQUIRE(pos.set_sfen("+r+b+s+n+l+pk2/9/9/9/9/9/9/9/2K+P+L+N+S+B+R b 2G2g 1"));
    CHECK(pos.piece_on(make_square(8, 0)) == make_piece(kWhite, kDragon));    // 9a
    CHECK(pos.piece_on(make_square(3, 0)) == make_piece(kWhite, kProPawn));   // 4a
    CHECK(pos.piece_on(make_square(0, 8)) == make_piece(kBlack, kDragon));    // 1i
    CHECK(pos.piece_on(make_square(1, 8)) == make_piece(kBlack, kHorse));     // 2i
    CHECK(pos.piece_on(make_square(4, 8)) == make_piece(kBlack, kProLance));  // 5i
    CHECK(pos.hand(kBlack).count(kGold) == 2);
    CHECK(pos.hand(kWhite).count(kGold) == 2);
  }
  SUBCASE("big hands") {
    expect_round_trip("4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1");
    expect_round_trip("4k4/9/9/9/9/9/9/9/4K4 w 2r2b4g4s4n4l18p 1");
    expect_round_trip("4k4/9/9/9/9/9/9/9/4K4 b R2G3N9Pr2b2g4sn4l9p 1");
    Position pos;
    REQUIRE(pos.set_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1"));
    CHECK(pos.hand(kBlack).count(kPawn) == 18);
    CHECK(pos.hand(kBlack).count(kRook) == 2);
    CHECK(pos.hand(kBlack).count(kLance) == 4);
    CHECK(pos.hand(kBlack).total() == 38);
    CHECK(pos.hand(kWhite).empty());
  }
  SUBCASE("White to move, move numbers") {
    expect_round_trip("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
    expect_round_trip("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 100000");
    Position pos;
    REQUIRE(pos.set_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"));
    CHECK(pos.side_to_move() == kWhite);
    CHECK(pos.game_ply() == 2);
  }
  SUBCASE("positions without one king") {
    expect_round_trip("4k4/9/9/9/9/9/9/9/9 b P2r2b4g4s4n4l17p 1");
    expect_round_trip("9/9/9/9/9/9/9/9/4K4 w 2R2B4G4S4N4L17Pp 1");
    Position pos;
    REQUIRE(pos.set_sfen("4k4/9/9/9/9/9/9/9/9 b P2r2b4g4s4n4l17p 1"));
    CHECK(pos.king_square(kBlack) == kSquareNone);
    CHECK(pos.king_square(kWhite) == make_square(4, 0));
    CHECK_FALSE(pos.in_check());
  }
  SUBCASE("non-canonical input is written canonically") {
    Position pos;
    REQUIRE(pos.set_sfen("sfen 4k4/9/9/9/9/9/9/9/4K4 b P2bR 7"));
    CHECK(pos.sfen() == "4k4/9/9/9/9/9/9/9/4K4 b RP2b 7");
    REQUIRE(pos.set_sfen("4k4/9/9/9/9/9/9/9/4K4 b -"));  // move number defaults to 1
    CHECK(pos.sfen() == "4k4/9/9/9/9/9/9/9/4K4 b - 1");
    REQUIRE(pos.set_sfen("4k4/9/9/9/9/9/9/9/4K4 w 1P1p 3\r\n"));
    CHECK(pos.sfen() == "4k4/9/9/9/9/9/9/9/4K4 w Pp 3");
    REQUIRE(pos.set_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2P3P 1"));  // repeated kinds add up
    CHECK(pos.hand(kBlack).count(kPawn) == 5);
    REQUIRE(pos.set_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1\n"));
    CHECK(pos.sfen() == "4k4/9/9/9/9/9/9/9/4K4 b - 1");
  }
  SUBCASE("every position of a random playout") {
    Position pos;
    Prng prng(20240611);
    for (int ply = 0; ply < 200; ++ply) {
      MoveList moves = legal_moves(pos);
      if (moves.empty()) break;
      pos.do_move(moves[prng.below(moves.size())]);
      const std::string sfen = pos.sfen();
      CAPTURE(sfen);
      PositionSetup setup;
      REQUIRE(parse_sfen(sfen, setup).is_ok());
      CHECK(format_sfen(setup) == sfen);
      Position fresh;
      REQUIRE(fresh.set_sfen(sfen).is_ok());
      CHECK(fresh.sfen() == sfen);
      CHECK(fresh.key() == pos.key());
    }
    CHECK(pos.game_ply() == 1 + pos.plies_played());
  }
}

TEST_CASE("malformed SFEN: errors name the text and the column") {
  // kStart: the board ends at column 57, 'b' is column 59, '-' 61, the move number 63.
  SUBCASE("empty") {
    expect_sfen_error("", 1);
    expect_sfen_error("   ", 1);
    expect_sfen_error("\n", 1);
  }
  SUBCASE("bad piece letters") {
    expect_sfen_error("Xnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 1);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1", 57);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN0 b - 1", 57);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN* b - 1", 57);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN\xff b - 1", 57);
    expect_sfen_error(std::string_view("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/"
                                       "LNSGKGSN\0 b - 1",
                                       63),
                      57);
  }
  SUBCASE("too many squares in a rank") {
    expect_sfen_error("lnsgkgsnlp/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 10);
    expect_sfen_error("lnsgkgsnl/1r5b2/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 15);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/91/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 28);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNLL b - 1", 58);
  }
  SUBCASE("too few squares in a rank") {
    expect_sfen_error("lnsgkgsn/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 9);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/8/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 28);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1", 57);
  }
  SUBCASE("too many or too few ranks") {
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL/9 b - 1", 58);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 56);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL", 58);
    expect_sfen_error("9", 2);
  }
  SUBCASE("bad side to move") {
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1", 59);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL B - 1", 59);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL bw - 1", 60);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL ", 59);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b", 60);
  }
  SUBCASE("bad hands") {
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b K 1", 61);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b Pk 1", 62);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b Z 1", 61);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b +P 1", 61);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2 1", 0);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2", 0);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b ", 61);
  }
  SUBCASE("hand counts too big") {
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 19P 1", 61);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 3R 1", 62);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 5g 1", 62);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 10P9P 1", 65);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 99999999999P 1",
                      61);
  }
  SUBCASE("'+' before a piece that cannot promote, or before nothing") {
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNS+GKGSNL b - 1", 53);
    expect_sfen_error("lnsg+kgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 6);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/+9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 28);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN+/ b - 1", 0);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/8+/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 29);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN++L b - 1", 58);
  }
  SUBCASE("bad or trailing move number") {
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 x", 65);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1x", 64);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 2", 65);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - x", 63);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 0", 63);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - -1", 63);
    expect_sfen_error(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 99999999999999", 63);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -P 1", 62);
    expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f",
                      65);
  }
}

// A hand count of zero ("0P") is not a count SFEN allows: reading it as one pawn would
// silently change the position.
TEST_CASE("malformed SFEN: a zero hand count") {
  expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 0P 1", 61);
  expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 00R 1", 61);
  expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P0p 1", 62);
}

// A '+' as the last character of the board is followed by no piece.
TEST_CASE("malformed SFEN: '+' at the end of the board") {
  expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL+ b - 1", 58);
  expect_sfen_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN+ b - 1", 57);
}

TEST_CASE("malformed SFEN: random corruptions never crash and errors name a column") {
  const std::vector<std::string> seeds = {
      std::string(kStart),
      "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
      "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1",
  };
  const std::string alphabet = "plnsgbrkPLNSGBRK+/-0123456789 bw*\t\xc3";
  Prng prng(7);
  int errors = 0, accepted = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string text = seeds[prng.below(int(seeds.size()))];
    const int edits = 1 + prng.below(3);
    for (int e = 0; e < edits; ++e) {
      const int where = prng.below(int(text.size()) + 1);
      const char c = alphabet[prng.below(int(alphabet.size()))];
      switch (prng.below(3)) {
        case 0:
          text.insert(text.begin() + where, c);
          break;
        case 1:
          if (where < int(text.size())) text.erase(text.begin() + where);
          break;
        default:
          if (where < int(text.size())) text[where] = c;
          break;
      }
    }
    PositionSetup setup;
    Status status = parse_sfen(text, setup);
    Position pos;
    Status set_status = pos.set_sfen(text);
    if (!status) {
      ++errors;
      if (!contains(status.message(), "SFEN '" + text + "': column ")) {
        CAPTURE(text);
        CAPTURE(status.message());
        FAIL_CHECK("error does not name the SFEN and a column");
      }
      if (set_status) FAIL_CHECK("set_sfen accepted what parse_sfen refused: " << text);
      if (pos.sfen() != kStart) FAIL_CHECK("failed set_sfen changed the position: " << text);
      continue;
    }
    // Accepted text must round-trip through the canonical form.
    const std::string canonical = format_sfen(setup);
    PositionSetup again;
    if (!parse_sfen(canonical, again) || format_sfen(again) != canonical)
      FAIL_CHECK("canonical form does not round-trip: " << text << " -> " << canonical);
    if (set_status) {
      ++accepted;
      if (pos.sfen() != canonical) FAIL_CHECK("set_sfen differs from parse_sfen: " << text);
      if (!pos.is_consistent()) FAIL_CHECK("inconsistent position from " << text);
    } else if (pos.sfen() != kStart) {
      FAIL_CHECK("failed set_sfen changed the position: " << text);
    }
  }
  CHECK(errors > 1000);
  CHECK(accepted > 10);
}

TEST_CASE("set_sfen refuses setups that break the rules and keeps the position") {
  SUBCASE("two kings of one side") {
    expect_rule_error("4k4/9/9/9/9/9/9/9/3KK4 b - 1");
    expect_rule_error("3kk4/9/9/9/9/9/9/9/4K4 b - 1");
  }
  SUBCASE("nifu: two unpromoted pawns of one side on a file") {
    expect_rule_error("4k4/9/9/9/9/4P4/4P4/9/4K4 b - 1");
    expect_rule_error("4k4/4p4/9/9/4p4/9/9/9/4K4 b - 1");
    expect_rule_error("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
  }
  SUBCASE("pawn or lance on the last rank, knight on the last two") {
    expect_rule_error("P3k4/9/9/9/9/9/9/9/4K4 b - 1");
    expect_rule_error("L3k4/9/9/9/9/9/9/9/4K4 b - 1");
    expect_rule_error("N3k4/9/9/9/9/9/9/9/4K4 b - 1");
    expect_rule_error("4k4/N8/9/9/9/9/9/9/4K4 b - 1");
    expect_rule_error("4k4/9/9/9/9/9/9/9/p3K4 b - 1");
    expect_rule_error("4k4/9/9/9/9/9/9/9/l3K4 b - 1");
    expect_rule_error("4k4/9/9/9/9/9/9/9/n3K4 b - 1");
    expect_rule_error("4k4/9/9/9/9/9/9/n8/4K4 b - 1");
  }
  SUBCASE("the side not to move is in check") {
    expect_rule_error("4k4/9/9/9/4R4/9/9/9/4K4 b - 1");  // Black to move, rook sees 5a
    expect_rule_error("4k4/9/9/9/4r4/9/9/9/4K4 w - 1");  // White to move, rook sees 5i
    expect_rule_error("4k4/4G4/9/9/9/9/9/9/4K4 b - 1");  // adjacent gold
    expect_rule_error("4k4/9/3N5/9/9/9/9/9/4K4 b - 1");  // knight
  }
  SUBCASE("more pieces of a kind than a hand can count") {
    expect_rule_error("4k4/9/9/9/9/9/9/9/4K4 b 4G4g 1" /* 8 golds */);
    expect_rule_error("4k4/9/9/9/9/9/9/9/4K4 b 18P18p 1" /* 36 pawns */);
  }
}

TEST_CASE("Position::set refuses invalid raw setups and keeps the position") {
  Position pos;
  pos.do_move(legal_moves(pos)[0]);
  const std::string before = pos.sfen();
  auto expect_refused = [&](const PositionSetup& setup) {
    CHECK_FALSE(pos.set(setup).is_ok());
    CHECK(pos.sfen() == before);
    CHECK(pos.plies_played() == 1);
  };
  PositionSetup setup = Position().setup();
  SUBCASE("piece codes that are no piece") {
    for (int code : {15, 16, 31, 32, 64}) {
      CAPTURE(code);
      PositionSetup bad = setup;
      bad.board[make_square(4, 4)] = Piece(code);
      expect_refused(bad);
    }
  }
  SUBCASE("hand counts above the maximum") {
    PositionSetup bad = setup;
    bad.hands[kBlack] = Hand(19u << Hand::kShift[kPawn]);
    expect_refused(bad);
    bad = setup;
    bad.hands[kWhite] = Hand(3u << Hand::kShift[kRook]);
    expect_refused(bad);
  }
  SUBCASE("move number below 1") {
    PositionSetup bad = setup;
    bad.game_ply = 0;
    expect_refused(bad);
  }
  SUBCASE("a valid setup is taken") {
    CHECK(pos.set(setup).is_ok());
    CHECK(pos.sfen() == kStart);
    CHECK(pos.plies_played() == 0);
  }
}

TEST_CASE("set_sfen accepts what the rules allow") {
  Position pos;
  // Promoted pawns do not count for nifu; promoted pieces may stand anywhere.
  CHECK(pos.set_sfen("4k4/9/9/9/9/4+P4/4P4/9/4K4 b - 1"));
  CHECK(pos.set_sfen("+P+L+N1k4/9/9/9/9/9/9/9/4K4 b - 1"));
  // A pawn of each side on one file; knights on the third rank.
  CHECK(pos.set_sfen("4k4/4p4/N8/9/9/9/n3P4/9/4K4 b - 1"));
  // The side to move may be in check.
  CHECK(pos.set_sfen("4k4/9/9/9/4r4/9/9/9/4K4 b - 1"));
  CHECK(pos.in_check());
  // Pawns and lances on their own first rank.
  CHECK(pos.set_sfen("p3k3l/9/9/9/9/9/9/9/L3K3P b - 1"));
  // No kings at all.
  CHECK(pos.set_sfen("9/9/9/9/9/9/9/9/9 b 2R2B4G4S4N4L18P 1"));
}

TEST_CASE("USI moves: round trips") {
  Position pos;
  Move m;
  SUBCASE("7g7f from the start") {
    REQUIRE(parse_usi_move(pos, "7g7f", m).is_ok());
    CHECK(m.from() == make_square(6, 6));
    CHECK(m.to() == make_square(6, 5));
    CHECK_FALSE(m.is_drop());
    CHECK_FALSE(m.is_promotion());
    CHECK(m.piece_after() == make_piece(kBlack, kPawn));
    CHECK(format_usi_move(m) == "7g7f");
  }
  SUBCASE("8h2b+ captures and promotes") {
    for (const char* usi : {"7g7f", "3c3d"}) {
      REQUIRE(parse_usi_move(pos, usi, m).is_ok());
      pos.do_move(m);
    }
    REQUIRE(parse_usi_move(pos, "8h2b+", m).is_ok());
    CHECK(m.is_promotion());
    CHECK(pos.is_capture(m));
    CHECK(m.piece_after() == make_piece(kBlack, kHorse));
    CHECK(format_usi_move(m) == "8h2b+");
    Move plain;
    REQUIRE(parse_usi_move(pos, "8h2b", plain).is_ok());
    CHECK_FALSE(plain.is_promotion());
    CHECK(plain != m);
    CHECK(format_usi_move(plain) == "8h2b");
    pos.do_move(m);
    CHECK(pos.hand(kBlack).count(kBishop) == 1);
    CHECK(pos.sfen() == "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4");
  }
  SUBCASE("P*5e, for Black and for White") {
    REQUIRE(pos.set_sfen("lnsgkgsnl/1r5b1/pppp1pppp/9/9/9/PPPP1PPPP/1B5R1/LNSGKGSNL b Pp 1"));
    REQUIRE(parse_usi_move(pos, "P*5e", m).is_ok());
    CHECK(m.is_drop());
    CHECK(m.dropped_type() == kPawn);
    CHECK(m.to() == make_square(4, 4));
    CHECK(m.piece_after() == make_piece(kBlack, kPawn));
    CHECK(format_usi_move(m) == "P*5e");
    REQUIRE(pos.set_sfen("lnsgkgsnl/1r5b1/pppp1pppp/9/9/9/PPPP1PPPP/1B5R1/LNSGKGSNL w Pp 1"));
    REQUIRE(parse_usi_move(pos, "P*5e", m).is_ok());  // drops are upper case for both sides
    CHECK(m.piece_after() == make_piece(kWhite, kPawn));
    CHECK(format_usi_move(m) == "P*5e");
  }
  SUBCASE("every legal move of a random playout") {
    Prng prng(99);
    int checked = 0;
    for (int ply = 0; ply < 150; ++ply) {
      MoveList moves = legal_moves(pos);
      if (moves.empty()) break;
      for (Move legal : moves) {
        const std::string text = format_usi_move(legal);
        Move parsed;
        Status status = parse_usi_move(pos, text, parsed);
        if (!status || parsed.raw() != legal.raw())
          FAIL_CHECK(text << " does not round-trip in " << pos.sfen() << ": " << status.message());
        ++checked;
      }
      pos.do_move(moves[prng.below(moves.size())]);
    }
    CHECK(checked > 5000);
  }
  SUBCASE("squares and the special moves") {
    CHECK(format_usi_square(make_square(0, 0)) == "1a");
    CHECK(format_usi_square(make_square(8, 8)) == "9i");
    CHECK(format_usi_square(make_square(4, 4)) == "5e");
    CHECK(format_usi_move(kMoveNull) == "pass");
    CHECK(format_usi_move(kMoveNone) == "none");
    CHECK(usi_piece_letter(kDragon) == 'R');
    CHECK(usi_piece_letter(kProPawn) == 'P');
    CHECK(piece_type_from_usi_letter('g') == kGold);
    CHECK(piece_type_from_usi_letter('X') == kNoPieceType);
  }
}

TEST_CASE("USI moves: bad strings are errors, never crashes") {
  Position pos;
  REQUIRE(pos.set_sfen("lnsgkgsnl/1r5b1/pppp1pppp/9/9/9/PPPP1PPPP/1B5R1/LNSGKGSNL b Pp 1"));
  const Move sentinel = Move(0x12345);
  const std::vector<std::string> bad = {
      "",
      " ",
      "7g",
      "7g7",
      "7g7f7",
      "7g7f++",
      "7g7f-",
      "7g7f ",
      " 7g7f",
      "7G7F",
      "0a1b",
      "7j7f",
      "7g0f",
      "7g7z",
      "a7g7",
      "P*",
      "P*5",
      "P*5j",
      "P*0e",
      "K*5e",
      "p*5e",
      "X*5e",
      "+*5e",
      "P+5e",
      "P*5e+",
      "resign",
      "win",
      "pass",
      "none",
      "7g7f\n",
      "7g7e",
      "7g7f+",
      "P*5a",
      "3c3d",
      "5i5i",
      "1a1b",
      "8h3c",
      "2h2b+",
      "G*5e",
      "\xff\xff\xff\xff",
      std::string("7g\0f", 4),
      "9999",
      "1i1i+",
      "5i4h+",
      "5e5d",
  };
  for (const std::string& text : bad) {
    CAPTURE(text);
    Move out = sentinel;
    Status status = parse_usi_move(pos, text, out);
    CHECK_FALSE(status.is_ok());
    CHECK(contains(status.message(), "USI move '" + text + "'"));
    CHECK(out.raw() == sentinel.raw());
  }
  // The same strings in a position where White is to move.
  REQUIRE(pos.set_sfen("lnsgkgsnl/1r5b1/pppp1pppp/9/9/9/PPPP1PPPP/1B5R1/LNSGKGSNL w Pp 1"));
  for (const char* text : {"7g7f", "P*5i", "p*5e", "3c3d+", "5a5b+"}) {
    CAPTURE(text);
    Move out;
    CHECK_FALSE(parse_usi_move(pos, text, out).is_ok());
  }

  // Random strings: either an error, or a legal move that formats back to the same text.
  Prng prng(1234);
  const std::string alphabet = "123456789abcdefghijPLNSGBRKpx*+ ";
  int accepted = 0;
  auto pick = [&](const char* chars) { return chars[prng.below(int(std::strlen(chars)))]; };
  for (int trial = 0; trial < 20000; ++trial) {
    std::string text;
    switch (trial % 3) {
      case 0: {  // shaped like a board move, sometimes slightly off
        text = {pick("123456789"), pick("abcdefghi"), pick("123456789"), pick("abcdefghi")};
        if (prng.below(2)) text += pick("+++-");
        if (prng.below(8) == 0) text[prng.below(4)] = pick("0jA*");
        break;
      }
      case 1:  // shaped like a drop
        text = {pick("PLNSGBRKplx"), '*', pick("123456789"), pick("abcdefghij")};
        break;
      default: {
        const int length = prng.below(7);
        for (int i = 0; i < length; ++i) text += alphabet[prng.below(int(alphabet.size()))];
      }
    }
    Move out;
    Status status = parse_usi_move(pos, text, out);
    if (status) {
      ++accepted;
      if (format_usi_move(out) != text || !legal_moves(pos).contains(out))
        FAIL_CHECK("accepted '" << text << "' as " << format_usi_move(out));
    } else if (!contains(status.message(), "USI move '" + text + "'")) {
      FAIL_CHECK("error for '" << text << "' does not name it: " << status.message());
    }
  }
  CHECK(accepted > 20);
}

}  // namespace notation_test
