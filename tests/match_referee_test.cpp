// sashite match: the referee's adjudication (repetition, perpetual check, declaration,
// illegal moves, the ply limit, faults) and the CSA record it keeps, without processes.
#include "tools/match/match_referee.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "shogi/csa_record.h"
#include "tools/match/match_openings.h"

namespace match_referee_test {

using namespace tools;

namespace {

// Plays `replies` in turn from `opening`; returns the referee (over or not).
Referee play(const std::vector<std::string>& replies, const std::string& opening_line = "startpos",
             int max_plies = 256) {
  Opening opening;
  REQUIRE(parse_opening_line(opening_line, opening).is_ok());
  Referee referee;
  REQUIRE(referee.start(opening, max_plies).is_ok());
  for (const std::string& r : replies) {
    REQUIRE_FALSE(referee.over());
    referee.on_reply(r, 100);
  }
  return referee;
}

// The record written as CSA V2.2 must read back, with the same moves and result.
void check_record_round_trip(const Referee& referee) {
  shogi::CsaRecord back;
  const std::string text = shogi::write_csa_record(referee.record(), shogi::CsaVersion::kV22);
  base::Status s = shogi::read_csa_record(text, "game.csa", back);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  CHECK(back.moves.size() == referee.record().moves.size());
  CHECK(back.result == referee.record().result);
}

}  // namespace

TEST_CASE("referee: sennichite is a draw on the fourth occurrence") {
  std::vector<std::string> cycle;
  for (int i = 0; i < 3; ++i) cycle.insert(cycle.end(), {"5i5h", "5a5b", "5h5i", "5b5a"});
  cycle.pop_back();
  Referee r = play(cycle);
  CHECK_FALSE(r.over());  // the start position has occurred three times only
  r.on_reply("5b5a", 100);
  REQUIRE(r.over());
  CHECK(r.end().winner == GameWinner::kDraw);
  CHECK(r.end().reason == EndReason::kRepetition);
  CHECK(r.record().result == shogi::CsaSpecialMove::kSennichite);
  CHECK(r.plies() == 12);
  check_record_round_trip(r);
}

TEST_CASE("referee: perpetual check loses for the checking side") {
  std::vector<std::string> cycle;  // Black's rook checks on every move
  for (int i = 0; i < 3; ++i) cycle.insert(cycle.end(), {"1b1a", "5a5b", "1a1b", "5b5a"});
  Referee r = play(cycle, "4k4/8R/9/9/9/9/9/9/4K4 b - 1");
  REQUIRE(r.over());
  CHECK(r.end().winner == GameWinner::kWhite);
  CHECK(r.end().reason == EndReason::kPerpetualCheck);
  CHECK(r.record().result == shogi::CsaSpecialMove::kOuteSennichite);
  check_record_round_trip(r);

  // White checks; the cycle completes with Black's escape, White to move.
  cycle.clear();
  for (int i = 0; i < 3; ++i) cycle.insert(cycle.end(), {"9h9i", "5i5h", "9i9h", "5h5i"});
  Referee w = play(cycle, "4k4/9/9/9/9/9/9/r8/4K4 w - 1");
  REQUIRE(w.over());
  CHECK(w.end().reason == EndReason::kPerpetualCheck);
  CHECK(w.end().winner == GameWinner::kBlack);
}

TEST_CASE("referee: entering-king declaration, valid and invalid") {
  // Black: king on 5b, ten pieces in White's camp (4 major: 20 + 6 small: 6), 2 pawns in hand.
  Referee valid = play({"win"}, "RRBB1GGGG/4K4/SS7/9/9/9/9/9/4k4 b 2P 1");
  REQUIRE(valid.over());
  CHECK(valid.end().winner == GameWinner::kBlack);
  CHECK(valid.end().reason == EndReason::kDeclaration);
  CHECK(valid.record().result == shogi::CsaSpecialMove::kKachi);
  check_record_round_trip(valid);

  Referee short_of_points = play({"win"}, "RRBB1GGGG/4K4/SS7/9/9/9/9/9/4k4 b P 1");  // 27 < 28
  REQUIRE(short_of_points.over());
  CHECK(short_of_points.end().winner == GameWinner::kWhite);
  CHECK(short_of_points.end().reason == EndReason::kBadDeclaration);
  CHECK(short_of_points.record().result == shogi::CsaSpecialMove::kIllegalMove);

  Referee at_start = play({"7g7f", "win"});
  CHECK(at_start.end().winner == GameWinner::kBlack);
  CHECK(at_start.end().reason == EndReason::kBadDeclaration);
  check_record_round_trip(at_start);
}

TEST_CASE("referee: illegal moves and resignation lose") {
  for (const char* bad : {"5e5d", "7g7e", "xyz", "", "pass", "8h2b+"}) {
    Referee r = play({bad});
    REQUIRE(r.over());
    CHECK(r.end().winner == GameWinner::kWhite);
    CHECK(r.end().reason == EndReason::kIllegalMove);
    CHECK(r.record().result == shogi::CsaSpecialMove::kIllegalMove);
    CHECK(r.plies() == 0);
    check_record_round_trip(r);
  }
  Referee r = play({"7g7f", "3c3d", "8h2b+", "3a2b", "resign"});
  CHECK(r.end().winner == GameWinner::kWhite);
  CHECK(r.end().reason == EndReason::kResign);
  CHECK(r.record().result == shogi::CsaSpecialMove::kToryo);
  CHECK(r.position_command() == "position startpos moves 7g7f 3c3d 8h2b+ 3a2b");
  check_record_round_trip(r);
}

TEST_CASE("referee: the ply limit draws, unless the side to move is mated") {
  Referee r = play({"7g7f", "3c3d"}, "startpos", 2);
  CHECK(r.check_ply_limit());
  CHECK(r.end().winner == GameWinner::kDraw);
  CHECK(r.end().reason == EndReason::kMaxPlies);
  CHECK(r.record().result == shogi::CsaSpecialMove::kMaxMoves);
  check_record_round_trip(r);

  Referee opening_counts = play({}, "startpos moves 7g7f 3c3d 2g2f", 3);
  CHECK(opening_counts.check_ply_limit());

  Referee mated = play({}, "8k/9/9/9/9/9/4p4/4g4/4K4 b - 1", 0);
  CHECK_FALSE(mated.check_ply_limit());
  mated.on_reply("resign", 5);
  CHECK(mated.end().winner == GameWinner::kWhite);
}

TEST_CASE("referee: time loss and engine faults") {
  Referee r = play({"7g7f"});
  r.on_time_up(2500);
  CHECK(r.end().winner == GameWinner::kBlack);
  CHECK(r.end().reason == EndReason::kTimeUp);
  CHECK(r.record().result == shogi::CsaSpecialMove::kTimeUp);
  check_record_round_trip(r);

  Referee c = play({"7g7f"});
  c.on_engine_fault(shogi::kBlack, EndReason::kCrash, "exited with status 3");
  CHECK(c.end().winner == GameWinner::kWhite);
  CHECK(c.record().result == shogi::CsaSpecialMove::kChudan);
  CHECK(c.record().result_comments.back().find("exited with status 3") != std::string::npos);
}

}  // namespace match_referee_test
