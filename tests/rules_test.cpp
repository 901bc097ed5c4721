// Rules that end the game: repetition (千日手) with perpetual check (連続王手の千日手),
// repetition for search and null moves, and the entering-king declaration (入玉宣言) as
// floodgate checks it (docs/csa-protocol.md §1.9).
#include <doctest/doctest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "shogi/movegen.h"
#include "shogi/notation.h"
#include "shogi/position.h"

namespace rules_test {

using namespace base;
using namespace shogi;

namespace {

Position position(const std::string& sfen) {
  Position pos;
  Status status = pos.set_sfen(sfen);
  INFO(status.message());
  REQUIRE(status.is_ok());
  return pos;
}

// Plays a legal move given in USI.
void play(Position& pos, const std::string& usi) {
  Move m;
  Status status = parse_usi_move(pos, usi, m);
  INFO(pos.sfen() << " " << usi << ": " << status.message());
  REQUIRE(status.is_ok());
  pos.do_move(m);
}

const char* name(Repetition r) {
  switch (r) {
    case Repetition::kNone:
      return "none";
    case Repetition::kDraw:
      return "draw";
    case Repetition::kWin:
      return "win";
    case Repetition::kLoss:
      return "loss";
  }
  return "?";
}

// Plays `cycle` over and over, `plies` moves in all, and returns what repetition(n) said
// after each ply (index 0 = before any move).
std::vector<Repetition> play_cycle(Position& pos, const std::vector<std::string>& cycle, int plies,
                                   int occurrences) {
  std::vector<Repetition> out{pos.repetition(occurrences)};
  for (int i = 0; i < plies; ++i) {
    play(pos, cycle[i % cycle.size()]);
    out.push_back(pos.repetition(occurrences));
  }
  return out;
}

}  // namespace

TEST_CASE("repetition: the same position four times is a draw") {
  Position pos;
  const uint64_t start_key = pos.key();
  const std::vector<std::string> cycle = {"6i6h", "4a4b", "6h6i", "4b4a"};
  const std::vector<Repetition> four = play_cycle(pos, cycle, 13, 4);
  for (int ply = 0; ply <= 13; ++ply) {
    CAPTURE(ply);
    // The start position recurs at plies 4, 8, 12; the one after 6i6h at 1, 5, 9, 13.
    const Repetition expected = ply >= 12 ? Repetition::kDraw : Repetition::kNone;
    CHECK(name(four[ply]) == std::string(name(expected)));
  }
  CHECK(pos.plies_played() == 13);
  CHECK(pos.game_ply() == 14);

  // The same sequence with the occurrence counts of search (2) and of a third time (3).
  pos = Position();
  const std::vector<Repetition> two = play_cycle(pos, cycle, 8, 2);
  for (int ply = 0; ply <= 8; ++ply) {
    CAPTURE(ply);
    CHECK(name(two[ply]) == std::string(name(ply >= 4 ? Repetition::kDraw : Repetition::kNone)));
  }
  CHECK(pos.key() == start_key);
  CHECK(name(pos.repetition(3)) == std::string("draw"));  // plies 0, 4, 8
  CHECK(name(pos.repetition(4)) == std::string("none"));

  // Undoing back to the start removes the repetitions again.
  for (int i = 0; i < 8; ++i) pos.undo_move();
  CHECK(pos.sfen() == Position::kStartSfen);
  CHECK(name(pos.repetition(2)) == std::string("none"));
}

TEST_CASE("repetition: the history starts at set_sfen") {
  Position pos;
  for (const char* m : {"6i6h", "4a4b", "6h6i", "4b4a"}) play(pos, m);
  REQUIRE(name(pos.repetition(2)) == std::string("draw"));
  REQUIRE(pos.set_sfen(pos.sfen()).is_ok());
  CHECK(pos.plies_played() == 0);
  CHECK(name(pos.repetition(2)) == std::string("none"));
}

TEST_CASE("repetition: perpetual check by Black loses for Black") {
  // White's king shuttles 1b-1a; Black's rook checks it on every move from 5b and 5a.
  Position pos = position("4R4/8k/9/9/9/9/9/9/4K4 b - 1");
  const std::vector<std::string> cycle = {"5a5b", "1b1a", "5b5a", "1a1b"};
  const std::vector<Repetition> four = play_cycle(pos, cycle, 13, 4);
  for (int ply = 0; ply < 12; ++ply) {
    CAPTURE(ply);
    CHECK(name(four[ply]) == std::string("none"));
  }
  CHECK(name(four[12]) == std::string("loss"));  // Black to move, Black gave the checks
  CHECK(name(four[13]) == std::string("win"));   // White to move, checked throughout
  CHECK(pos.in_check());

  pos = position("4R4/8k/9/9/9/9/9/9/4K4 b - 1");
  const std::vector<Repetition> two = play_cycle(pos, cycle, 5, 2);
  CHECK(name(two[3]) == std::string("none"));
  CHECK(name(two[4]) == std::string("loss"));
  CHECK(name(two[5]) == std::string("win"));
}

TEST_CASE("repetition: perpetual check by White loses for White") {
  // Black's king shuttles 9h-9i; White's rook checks it from 5h and 5i.
  Position pos = position("4k4/9/9/9/9/9/9/K8/4r4 w - 1");
  const std::vector<std::string> cycle = {"5i5h", "9h9i", "5h5i", "9i9h"};
  const std::vector<Repetition> four = play_cycle(pos, cycle, 13, 4);
  for (int ply = 0; ply < 12; ++ply) {
    CAPTURE(ply);
    CHECK(name(four[ply]) == std::string("none"));
  }
  CHECK(pos.side_to_move() == kBlack);
  CHECK(name(four[12]) == std::string("loss"));
  CHECK(name(four[13]) == std::string("win"));
}

TEST_CASE("repetition: checks on only some moves of the cycle are a plain draw") {
  // Black's rook checks from 5a, White's gold blocks on 2a; then the rook retreats to 5c
  // (no check) and the gold returns to 2b.
  Position pos = position("8k/7g1/4R4/9/9/9/9/9/4K4 b - 1");
  const std::vector<std::string> cycle = {"5c5a", "2b2a", "5a5c", "2a2b"};
  const std::vector<Repetition> four = play_cycle(pos, cycle, 13, 4);
  for (int ply = 0; ply < 12; ++ply) {
    CAPTURE(ply);
    CHECK(name(four[ply]) == std::string("none"));
  }
  CHECK(name(four[12]) == std::string("draw"));
  CHECK(name(four[13]) == std::string("draw"));  // after a check, but not only checks
}

TEST_CASE("repetition: a cycle that only starts checking later is a draw") {
  // Quiet king moves first, then the perpetual checks begin: when the position occurs the
  // fourth time, the span back to its first occurrence holds non-checking moves.
  Position pos = position("4R4/8k/9/9/9/9/9/9/4K4 b - 1");
  play(pos, "5i5h");
  play(pos, "1b1c");
  play(pos, "5h5i");
  play(pos, "1c1b");  // the start position again, no checks so far
  for (int i = 0; i < 2; ++i)
    for (const char* m : {"5a5b", "1b1a", "5b5a", "1a1b"}) play(pos, m);
  // Occurrences at plies 0, 4, 8, 12.
  CHECK(name(pos.repetition(4)) == std::string("draw"));
  // Search's two-fold view sees the last four plies: all checks by Black.
  CHECK(name(pos.repetition(2)) == std::string("loss"));
}

TEST_CASE("positions that differ only in the hands are different") {
  Position a = position("4k4/9/9/9/9/9/9/9/4K4 b P 1");
  Position b = position("4k4/9/9/9/9/9/9/9/4K4 b p 1");
  Position c = position("4k4/9/9/9/9/9/9/9/4K4 b 2P 1");
  Position d = position("4k4/9/9/9/9/9/9/9/4K4 w P 1");
  CHECK(a.key() != b.key());
  CHECK(a.key() != c.key());
  CHECK(a.key() != d.key());
  CHECK(a.board_key() == b.board_key());
  CHECK((a.board_key() ^ zobrist::kSide) == d.board_key());

  // A real sequence: the board returns, but a pawn has changed hands.
  Position pos = position("4k4/9/9/9/4r4/9/9/4R4/4K4 b P 1");
  play(pos, "P*5f");  // Black drops a pawn in front of White's rook
  play(pos, "5e5f");  // White's rook takes it
  play(pos, "5h5g");  // Black's rook steps up
  play(pos, "5f5e");  // White's rook goes back
  play(pos, "5g5h");  // and so does Black's: the first board again, White to move
  CHECK(pos.sfen(false) == "4k4/9/9/9/4r4/9/9/4R4/4K4 w p");
  CHECK(pos.key() != position("4k4/9/9/9/4r4/9/9/4R4/4K4 w P 1").key());
  CHECK(pos.key() != position("4k4/9/9/9/4r4/9/9/4R4/4K4 w - 1").key());
  CHECK(name(pos.repetition(2)) == std::string("none"));
  for (const char* m : {"5e5f", "5h5g", "5f5e", "5g5h"}) play(pos, m);
  CHECK(name(pos.repetition(2)) == std::string("draw"));  // plies 5 and 9 match
  CHECK(name(pos.repetition(4)) == std::string("none"));
}

TEST_CASE("null moves") {
  Position pos;
  const std::string start = pos.sfen();
  const uint64_t key = pos.key();
  const uint64_t board_key = pos.board_key();

  pos.do_null_move();
  CHECK(pos.side_to_move() == kWhite);
  CHECK(pos.key() != key);
  CHECK(pos.board_key() == (board_key ^ zobrist::kSide));
  CHECK(pos.sfen() == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 2");
  CHECK(pos.last_move() == kMoveNull);
  CHECK_FALSE(pos.in_check());
  CHECK(pos.is_consistent());
  CHECK(legal_moves(pos).size() == 30);  // White's moves now
  pos.undo_null_move();
  CHECK(pos.sfen() == start);
  CHECK(pos.key() == key);
  CHECK(pos.is_consistent());

  SUBCASE("repetition does not look back across a null move") {
    pos.do_null_move();
    play(pos, "4a4b");
    pos.do_null_move();
    play(pos, "4b4a");
    CHECK(pos.key() == key);  // the start position, Black to move
    CHECK(name(pos.repetition(2)) == std::string("none"));
    pos.undo_move();
    pos.undo_null_move();
    pos.undo_move();
    pos.undo_null_move();
    CHECK(pos.sfen() == start);
    CHECK(pos.key() == key);
  }
  SUBCASE("repetition within the plies after a null move") {
    pos.do_null_move();
    const uint64_t after_null = pos.key();
    for (const char* m : {"4a4b", "6i6h", "4b4a", "6h6i"}) play(pos, m);
    CHECK(pos.key() == after_null);
    CHECK(name(pos.repetition(2)) == std::string("draw"));
  }
  SUBCASE("a null move in the middle of a game keeps the checks") {
    pos = position("4k4/9/9/9/9/9/9/9/4K3R b - 1");
    play(pos, "1i1a");  // check along rank a
    REQUIRE(pos.in_check());
    play(pos, "5a4b");
    pos.do_null_move();  // Black passes: White's king on 4b is not in check
    CHECK_FALSE(pos.in_check());
    CHECK(pos.is_consistent());
    pos.undo_null_move();
    CHECK(pos.is_consistent());
    CHECK(pos.side_to_move() == kBlack);
  }
}

TEST_CASE("entering-king declaration: Black needs 28 points") {
  // Black's camp: dragon and horse (5 each), two golds, two silvers, four pawns: 10
  // pieces, 18 points; the king on 5b.
  const std::string camp = "+R+BGGSS3/4K4/PPPP5/9/9/9/9/9/4k4";
  SUBCASE("exactly 28 with a rook and a bishop in hand") {
    Position pos = position(camp + " b RB 1");
    CHECK(pos.can_declare_win());
  }
  SUBCASE("27 is not enough for Black") {
    CHECK_FALSE(position(camp + " b R4P 1").can_declare_win());
    CHECK_FALSE(position(camp + " b BGSNL 1").can_declare_win());
    CHECK_FALSE(position(camp + " b - 1").can_declare_win());
  }
  SUBCASE("small pieces in hand count one each") {
    CHECK(position(camp + " b R5P 1").can_declare_win());
    CHECK(position(camp + " b BGSNLP 1").can_declare_win());
  }
  SUBCASE("unpromoted rooks and bishops in the camp count five") {
    const std::string big = "RBRBGG3/4K4/SSSS5/9/9/9/9/9/4k4";  // 26 points, 10 pieces
    CHECK(position(big + " b 2P 1").can_declare_win());
    CHECK_FALSE(position(big + " b P 1").can_declare_win());
  }
  SUBCASE("nine pieces in the camp are not enough, whatever the points") {
    CHECK_FALSE(position("+R+BGGSS3/4K4/PPP6/9/9/9/9/9/4k4 b RBP 1").can_declare_win());
    CHECK_FALSE(position("+R+BGGSS3/4K4/PPP6/9/9/9/9/9/4k4 b RB2G2S 1").can_declare_win());
    // The tenth piece one rank outside the camp.
    CHECK_FALSE(position("+R+BGGSS3/4K4/PPP6/3G5/9/9/9/9/4k4 b RBP 1").can_declare_win());
  }
  SUBCASE("pieces outside the camp do not count") {
    CHECK_FALSE(position("+R+BGGSS3/4K4/PPPP5/9/8R/9/9/9/4k4 b B4P 1").can_declare_win());
    CHECK(position("+R+BGGSS3/4K4/PPPP5/9/8R/9/9/9/4k4 b B5P 1").can_declare_win());
  }
  SUBCASE("the king must stand in the camp") {
    CHECK_FALSE(position("+R+BGGSS3/9/PPPP5/4K4/9/9/9/9/4k4 b RB 1").can_declare_win());
    CHECK(position("+R+BGGSS3/9/PPPPK4/9/9/9/9/9/4k4 b RB 1").can_declare_win());  // rank c
  }
  SUBCASE("the king must not be in check") {
    Position pos = position("+R+BGGSS3/4K4/PPPPg4/9/9/9/9/9/4k4 b RB 1");
    REQUIRE(pos.in_check());
    CHECK_FALSE(pos.can_declare_win());
  }
  SUBCASE("only the side to move declares") {
    CHECK_FALSE(position(camp + " w RB 1").can_declare_win());
  }
  SUBCASE("without a king there is no declaration") {
    CHECK_FALSE(position("+R+BGGSS3/9/PPPP5/9/9/9/9/9/4k4 b RBG 1").can_declare_win());
  }
}

TEST_CASE("entering-king declaration: White needs 27 points") {
  // White's camp: two silvers, two golds, horse, dragon, four pawns: 10 pieces, 18 points.
  const std::string camp = "4K4/9/9/9/9/9/5pppp/4k4/3ssgg+b+r";
  SUBCASE("exactly 27") {
    CHECK(position(camp + " w r4p 1").can_declare_win());
    CHECK(position(camp + " w rb 1").can_declare_win());
  }
  SUBCASE("26 is not enough") {
    CHECK_FALSE(position(camp + " w r3p 1").can_declare_win());
    CHECK_FALSE(position(camp + " w bgsn 1").can_declare_win());
  }
  SUBCASE("the same 27 points are not enough for Black") {
    CHECK_FALSE(position("+R+BGGSS3/4K4/PPPP5/9/9/9/9/9/4k4 b R4P 1").can_declare_win());
  }
  SUBCASE("nine pieces in the camp") {
    CHECK_FALSE(position("4K4/9/9/9/9/9/6ppp/4k4/3ssgg+b+r w r5p 1").can_declare_win());
  }
  SUBCASE("the king outside the camp, or in check") {
    CHECK_FALSE(position("4K4/9/9/9/9/4k4/5pppp/9/3ssgg+b+r w r4p 1").can_declare_win());
    Position pos = position("4K4/9/9/9/9/9/4Gpppp/4k4/3ssgg+b+r w r4p 1");
    REQUIRE(pos.in_check());
    CHECK_FALSE(pos.can_declare_win());
  }
  SUBCASE("Black to move in White's winning position") {
    CHECK_FALSE(position(camp + " b r4p 1").can_declare_win());
  }
}

TEST_CASE("entering-king declaration after real moves") {
  // Black's king walks into the camp: the declaration becomes possible only on arrival,
  // and a piece dropped out of the hand into the camp keeps the points.
  Position pos = position("+R+BGGSS3/9/PPPP5/4K4/9/9/9/9/4k4 b RB 1");
  CHECK_FALSE(pos.can_declare_win());
  play(pos, "5d5c");
  CHECK_FALSE(pos.can_declare_win());  // White to move now
  play(pos, "5i5h");
  CHECK(pos.can_declare_win());
  play(pos, "R*1c");  // rook from hand into the camp: still 28 points, 11 pieces
  play(pos, "5h5i");
  CHECK(pos.can_declare_win());
  play(pos, "1c1g");  // the rook leaves the camp: 23 points
  play(pos, "5i4i");
  CHECK_FALSE(pos.can_declare_win());
}

}  // namespace rules_test
