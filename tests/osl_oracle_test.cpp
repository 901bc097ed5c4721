// Independent oracle: our legal move lists compared with OpenShogiLib's (Debian libosl-dev)
// on positions from random playouts, from random mating-net sketches and from real games.
// The games' positions are tests/data/record_positions.sfen (one SFEN per line): 2,931
// positions sampled from 356 CSA records (engine-vs-engine games and WCSC28), about 8 per
// game evenly spread from the opening to the final position, duplicates removed, read and
// replayed with OSL's own CSA reader (osl::CsaFile) by a throwaway generator.
//
// The comparison is kept independent of our code: OSL reads each position from its SFEN
// text with its own USI parser (osl::usi::parse) and writes its moves with its own USI
// formatter (osl::usi::show), and we compare sets of USI strings.
//
// Like with like: our kLegal generator gives every legal move, non-promotions of pawn,
// lance (to the second-last rank), bishop and rook included. OSL's generateLegal leaves
// those "useless" non-promotions out; generateWithFullUnpromotions includes them and, like
// generateLegal, already removes moves that leave the own king in check and pawn-drop mates
// (打ち歩詰め), so its list is the full legal list with no filtering needed on our side.
//
// OSL's limits, and how we keep out of them:
// - Positions without one side's king (mate problems): OSL 0.8.0 is built with
//   ALLOW_KING_ABSENCE, but then generates garbage moves that depend on what ran before
//   (valgrind reports reads of uninitialised memory), so such positions are skipped.
// - More pieces of a kind than one set (composed perft positions): OSL aborts, so skipped.
// - Moves are compared on both sides' lists; a duplicate in OSL's list is ignored (it is a
//   set), a duplicate in ours is a failure.
#include <doctest/doctest.h>
#include <osl/container.h>
#include <osl/numEffectState.h>
#include <osl/usi.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "shogi/movegen.h"
#include "shogi/notation.h"
#include "shogi/position.h"
#include "tests/test_prng.h"

namespace osl_oracle_test {

using namespace base;
using namespace shogi;

namespace {

using test::Prng;

// Seeds for the random playouts: every one has both kings and at most one set of pieces
// (see above). Checked by the tests.
const char* const kSeedSfens[] = {
    // The start position.
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    // Positions of tests/data/perft.txt that OSL can represent.
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91",
    "9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
    // Pawn-drop mate: P*1b would mate (lance 2a and silver 1c take every escape).
    "7lk/9/8S/9/9/9/9/7L1/8K b P 1",
    // Pawn-drop mate: P*9b would mate (gold 8c guards 9b and 8b, own knight on 8a).
    "kn7/9/1G7/9/9/9/9/9/8K b P 1",
    // A pawn drop that looks like mate but is not: the gold on 2a takes the pawn on 1b.
    "7gk/9/8S/9/9/9/9/9/8K b P 1",
    // Both sides with pawns in hand and the kings on one file.
    "8k/9/9/9/9/9/9/9/8K b 9P9p 1",
    // Many pieces in hand, kings in the corners and in the enemy camps (entering king).
    "8k/9/9/9/9/9/9/9/K8 b 2G2S9P2g2s9p 1",
    "4K4/9/9/9/9/9/9/9/4k4 b RBGSNLPrbgsnlp 1",
    "lnsgkgsnl/9/9/9/9/9/9/9/LNSGKGSNL b RB9Prb9p 1",
    // In check from afar: interpositions by drops and moves.
    "4k4/4r4/9/9/9/9/9/9/4K4 b GSNLP 1",
    // Pieces near the promotion zone: forced and optional promotions of lance and knight.
    "4k4/9/9/L1N1N1L2/PPP6/9/9/9/4K4 b - 1",
    "4k4/9/9/9/9/2n1n1l2/6ppp/9/4K4 w - 1",
    // A middle game from a record.
    "ln1g3nl/1r1s1kg2/4ppsp1/p1pp2p1p/1p5P1/P1P2PP2/1PSPP3P/2G1GS1R1/LNK4NL w Bb 28",
};

// The counts of one shogi set per unpromoted kind (index PieceType).
constexpr int kSetCount[kPieceTypeNb] = {0, 18, 4, 4, 4, 2, 2, 4, 2};

// True when OSL can hold the position: both kings, at most one set of every kind.
bool osl_can_represent(const Position& pos) {
  if (pos.king_square(kBlack) == kSquareNone || pos.king_square(kWhite) == kSquareNone)
    return false;
  int counts[kPieceTypeNb] = {};
  for (Square s = 0; s < kSquareNb; ++s)
    if (pos.piece_on(s) != kNoPiece) ++counts[unpromote(type_of(pos.piece_on(s)))];
  for (Color c : {kBlack, kWhite})
    for (int t = kPawn; t <= kGold; ++t) counts[t] += pos.hand(c).count(PieceType(t));
  for (int t = kPawn; t <= kKing; ++t)
    if (counts[t] > kSetCount[t]) return false;
  return true;
}

// The board, side and hands of a SFEN, without the move number.
std::string without_ply(const std::string& sfen) {
  size_t n = 0, i = 0;
  for (; i < sfen.size(); ++i)
    if (sfen[i] == ' ' && ++n == 3) break;
  return sfen.substr(0, i);
}

// OSL's own USI form of its state, as a SFEN without the move number.
std::string osl_sfen(const osl::NumEffectState& st) {
  std::string s = osl::usi::show(st);
  if (s == "startpos") return without_ply(Position::kStartSfen);
  if (s.starts_with("sfen ")) s = s.substr(5);
  return without_ply(s);
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : " ") + x;
  return s.empty() ? "(none)" : s;
}

struct OracleStats {
  int compared = 0;         // positions whose move lists were compared
  int skipped = 0;          // positions OSL cannot represent
  int deep = 0;             // positions where every move was also made and unmade
  long long moves = 0;      // legal moves compared
  long long made = 0;       // moves made and unmade in deep positions
  int in_check = 0;         // compared positions with the side to move in check
  int pawn_drop_mates = 0;  // compared positions where a pawn drop would be mate
};

// True when the side to move, not in check, holds a pawn whose drop in front of the enemy
// king would be mate (打ち歩詰め): the rule both generators must apply.
bool has_pawn_drop_mate(const Position& pos) {
  const Color us = pos.side_to_move();
  const Square king = pos.king_square(~us);
  if (pos.in_check() || !pos.hand(us).has(kPawn) || king == kSquareNone) return false;
  const int rank = rank_of(king) + (us == kBlack ? 1 : -1);
  if (rank < 0 || rank > 8) return false;
  const Square to = make_square(file_of(king), rank);
  if (pos.piece_on(to) != kNoPiece) return false;
  for (int r = 0; r < 9; ++r)
    if (pos.piece_on(make_square(file_of(king), r)) == make_piece(us, kPawn)) return false;
  return pos.is_pawn_drop_mate(to);
}

// Compares our legal moves in pos with OSL's; when `deep`, also makes every legal move and
// checks that our Position stays consistent, that the position after the move is OSL's
// after the same move, and that undo_move restores pos exactly.
void compare_with_osl(Position& pos, bool deep, OracleStats& stats) {
  const std::string sfen = pos.sfen();
  if (!osl_can_represent(pos)) {
    ++stats.skipped;
    return;
  }
  osl::NumEffectState st;
  try {
    osl::usi::parse("sfen " + sfen, st);
  } catch (const std::exception& e) {
    FAIL_CHECK("OSL cannot read SFEN " << sfen << ": " << e.what());
    return;
  }
  ++stats.compared;
  // OSL writes back what it read as we write it: the same board, side and hands.
  if (osl_sfen(st) != without_ply(sfen))
    FAIL_CHECK("OSL reads SFEN " << sfen << " as " << osl_sfen(st));
  stats.in_check += pos.in_check();
  stats.pawn_drop_mates += has_pawn_drop_mate(pos);

  // OSL's list, as USI strings (a set).
  osl::MoveVector osl_moves;
  st.generateWithFullUnpromotions(osl_moves);
  std::vector<std::pair<std::string, osl::Move>> theirs;
  for (osl::Move m : osl_moves) theirs.emplace_back(osl::usi::show(m), m);
  std::sort(theirs.begin(), theirs.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  theirs.erase(std::unique(theirs.begin(), theirs.end(),
                           [](const auto& a, const auto& b) { return a.first == b.first; }),
               theirs.end());

  // Ours.
  const MoveList list = legal_moves(pos);
  std::vector<std::pair<std::string, Move>> ours;
  for (Move m : list) ours.emplace_back(format_usi_move(m), m);
  std::sort(ours.begin(), ours.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  stats.moves += ours.size();
  for (size_t i = 1; i < ours.size(); ++i)
    if (ours[i].first == ours[i - 1].first)
      FAIL_CHECK("our generator gives " << ours[i].first << " twice in SFEN " << sfen);

  std::vector<std::string> only_ours, only_osl;
  size_t i = 0, j = 0;
  while (i < ours.size() || j < theirs.size()) {
    if (j == theirs.size() || (i < ours.size() && ours[i].first < theirs[j].first)) {
      only_ours.push_back(ours[i++].first);
    } else if (i == ours.size() || theirs[j].first < ours[i].first) {
      only_osl.push_back(theirs[j++].first);
    } else {
      ++i, ++j;
    }
  }
  if (!only_ours.empty() || !only_osl.empty()) {
    FAIL_CHECK("legal moves differ from OSL in SFEN " << sfen
                                                      << "\n  only ours: " << join(only_ours)
                                                      << "\n  only OSL:  " << join(only_osl));
  }
  if (!deep) return;

  // Every move made and unmade; the position after it agrees with OSL's.
  ++stats.deep;
  const uint64_t key = pos.key();
  for (const auto& [usi, m] : ours) {
    auto it = std::lower_bound(theirs.begin(), theirs.end(), usi,
                               [](const auto& a, const std::string& s) { return a.first < s; });
    pos.do_move(m);
    ++stats.made;
    if (!pos.is_consistent())
      FAIL_CHECK("inconsistent after do_move " << usi << " in SFEN " << sfen);
    if (it != theirs.end() && it->first == usi) {
      osl::NumEffectState after(st);
      after.makeMove(it->second);
      const std::string expected = osl_sfen(after);
      const std::string got = without_ply(pos.sfen());
      if (got != expected)
        FAIL_CHECK("position after " << usi << " in SFEN " << sfen << "\n  ours: " << got
                                     << "\n  OSL:  " << expected);
    }
    pos.undo_move();
    if (!pos.is_consistent() || pos.key() != key || pos.sfen() != sfen)
      FAIL_CHECK("undo_move " << usi << " does not restore SFEN " << sfen << " (got " << pos.sfen()
                              << ")");
  }
}

// Plays random legal moves from the seeds in turn (a new playout when there is no move or
// after max_plies), comparing every position on the way; every deep_every-th position is
// compared deeply. Stops after `positions` positions. Moves are uniform, except that with
// `hunt_king` half of the choices are a uniform checking move when there is one: kings
// are chased into the corners where evasions and pawn-drop mates happen.
void random_playouts(int positions, uint64_t seed, int max_plies, int deep_every, bool hunt_king,
                     OracleStats& stats) {
  Prng rng(seed);
  const int seed_count = int(std::size(kSeedSfens));
  int visited = 0;
  for (int playout = 0; visited < positions; ++playout) {
    Position pos;
    REQUIRE(pos.set_sfen(kSeedSfens[playout % seed_count]).is_ok());
    for (int ply = 0; ply <= max_plies && visited < positions; ++ply) {
      compare_with_osl(pos, visited % deep_every == 0, stats);
      ++visited;
      const MoveList list = legal_moves(pos);
      if (list.empty()) break;
      MoveList checks;
      if (hunt_king && rng.below(2) == 0)
        for (Move m : list)
          if (pos.gives_check(m)) checks.push(m);
      const MoveList& choice = checks.empty() ? list : checks;
      pos.do_move(choice[rng.below(choice.size())]);
    }
  }
}

// A random mating-net sketch (詰将棋-like): the defender's king on one of its three back
// ranks, 2 to 8 random pieces around it, the attacker holding a pawn and more in hand, at
// most one set of pieces in all. Half of them are turned round (colours swapped, board
// rotated) so that White attacks. These reach the pawn-drop-mate rule far more often than
// playouts do. Loops until Position::set accepts the sketch (it rejects nifu, dead pieces
// and the side not to move in check).
Position compose_near_king(Prng& rng) {
  static constexpr PieceType kKinds[] = {kPawn, kLance,   kKnight,   kSilver,    kGold,  kBishop,
                                         kRook, kProPawn, kProLance, kProSilver, kHorse, kDragon};
  for (;;) {
    PositionSetup setup;
    int left[kPieceTypeNb];
    std::copy(std::begin(kSetCount), std::end(kSetCount), left);
    const Square defender = make_square(rng.below(9), rng.below(3));
    setup.board[defender] = make_piece(kWhite, kKing);
    setup.board[make_square(rng.below(9), 6 + rng.below(3))] = make_piece(kBlack, kKing);
    const int n = 2 + rng.below(7);
    for (int i = 0; i < n; ++i) {
      const PieceType t = kKinds[rng.below(int(std::size(kKinds)))];
      const int file = file_of(defender) + rng.below(5) - 2;
      const int rank = rank_of(defender) + rng.below(4) - 1;
      if (!is_on_board(file, rank) || left[unpromote(t)] == 0) continue;
      const Square sq = make_square(file, rank);
      if (setup.board[sq] != kNoPiece) continue;
      setup.board[sq] = make_piece(rng.below(3) ? kBlack : kWhite, t);
      --left[unpromote(t)];
    }
    setup.hands[kBlack].add(kPawn);
    --left[kPawn];
    for (int t = kPawn; t <= kGold; ++t) {
      const int black = rng.below(left[t] + 1) / (t == kPawn ? 4 : 2);
      const int white = rng.below(left[t] - black + 1) / (t == kPawn ? 4 : 3);
      if (black) setup.hands[kBlack].add(PieceType(t), black);
      if (white) setup.hands[kWhite].add(PieceType(t), white);
    }
    if (rng.below(2)) {  // turn the board round: White attacks
      PositionSetup flipped;
      for (Square sq = 0; sq < kSquareNb; ++sq) {
        const Piece p = setup.board[sq];
        if (p != kNoPiece) flipped.board[kSquareNb - 1 - sq] = make_piece(~color_of(p), type_of(p));
      }
      flipped.hands[kBlack] = setup.hands[kWhite];
      flipped.hands[kWhite] = setup.hands[kBlack];
      flipped.side_to_move = kWhite;
      setup = flipped;
    }
    Position pos;
    if (pos.set(setup).is_ok()) return pos;
  }
}

// Compares `count` composed positions and, from each, up to `plies` random moves (half of
// them checks when there are some). Every other composition is drawn again until the side
// to move has a pawn-drop mate (by our rules: OSL judges them).
void composed_positions(int count, uint64_t seed, int plies, int deep_every, OracleStats& stats) {
  Prng rng(seed);
  int visited = 0;
  for (int i = 0; i < count; ++i) {
    Position pos = compose_near_king(rng);
    for (int tries = 0; i % 2 == 0 && tries < 10000 && !has_pawn_drop_mate(pos); ++tries)
      pos = compose_near_king(rng);
    for (int ply = 0; ply <= plies; ++ply) {
      compare_with_osl(pos, visited++ % deep_every == 0, stats);
      const MoveList list = legal_moves(pos);
      if (list.empty()) break;
      MoveList checks;
      for (Move m : list)
        if (pos.gives_check(m)) checks.push(m);
      const MoveList& choice = checks.empty() || rng.below(2) ? list : checks;
      pos.do_move(choice[rng.below(choice.size())]);
    }
  }
}

std::vector<std::string> read_record_positions() {
  std::ifstream in(std::string(SASHITE_TEST_DATA_DIR) + "/record_positions.sfen");
  REQUIRE(in.good());
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  return lines;
}

// Compares every stride-th position of the record fixture; every one is valid for us.
void record_positions(int stride, int deep_every, OracleStats& stats) {
  const std::vector<std::string> lines = read_record_positions();
  REQUIRE(lines.size() >= 2000);
  for (size_t k = 0; k < lines.size(); k += stride) {
    Position pos;
    Status status = pos.set_sfen(lines[k]);
    if (!status) {
      FAIL_CHECK("our parser rejects a position from a game: " << status.message());
      continue;
    }
    compare_with_osl(pos, (k / stride) % deep_every == 0, stats);
  }
}

std::string describe(const OracleStats& s) {
  std::ostringstream out;
  out << s.compared << " positions compared (" << s.moves << " moves, " << s.in_check
      << " in check, " << s.pawn_drop_mates << " with a pawn-drop mate), " << s.skipped
      << " skipped, " << s.deep << " with all " << s.made << " moves made and unmade";
  return out.str();
}

}  // namespace

TEST_CASE("OSL oracle: every playout seed is a position OSL can represent") {
  for (const char* sfen : kSeedSfens) {
    CAPTURE(sfen);
    Position pos;
    REQUIRE(pos.set_sfen(sfen).is_ok());
    CHECK(osl_can_represent(pos));
  }
}

TEST_CASE("OSL oracle: the start position and a known pawn-drop mate") {
  OracleStats stats;
  Position pos;
  compare_with_osl(pos, true, stats);
  CHECK(stats.moves == 30);
  // P*1b would be mate: both sides must leave it out.
  REQUIRE(pos.set_sfen("7lk/9/8S/9/9/9/9/7L1/8K b P 1").is_ok());
  compare_with_osl(pos, true, stats);
  CHECK(stats.compared == 2);
  CHECK_FALSE(legal_moves(pos).contains(Move::drop(kPawn, make_square(0, 1), kBlack)));
  // Here the gold on 2a can take the pawn: P*1b is legal.
  REQUIRE(pos.set_sfen("7gk/9/8S/9/9/9/9/9/8K b P 1").is_ok());
  compare_with_osl(pos, true, stats);
  CHECK(stats.compared == 3);
  CHECK(legal_moves(pos).contains(Move::drop(kPawn, make_square(0, 1), kBlack)));
}

TEST_CASE("OSL oracle: small sample (about 600 positions)") {
  OracleStats random_stats, composed_stats, record_stats;
  random_playouts(250, 20261125, 150, 3, false, random_stats);
  composed_positions(30, 20261126, 4, 3, composed_stats);
  record_positions(15, 3, record_stats);
  MESSAGE("uniform random: " << describe(random_stats) << "\ncomposed: " << describe(composed_stats)
                             << "\nrecords: " << describe(record_stats));
  CHECK(random_stats.compared + composed_stats.compared + record_stats.compared >= 500);
  CHECK(random_stats.skipped + composed_stats.skipped + record_stats.skipped == 0);
}

// Under 2 s in the -O3 build, so it stays out of the slow suite.
TEST_CASE("OSL oracle: bulk (over 25000 positions)") {
  OracleStats random_stats, hunt_stats, composed_stats, record_stats;
  random_playouts(12000, 0x5A5A5A5Aull, 150, 8, false, random_stats);
  random_playouts(3000, 0xC0FFEEull, 150, 8, true, hunt_stats);
  composed_positions(1500, 0xBADC0DEull, 4, 8, composed_stats);
  record_positions(1, 8, record_stats);
  MESSAGE("uniform random: " << describe(random_stats) << "\nking hunts: " << describe(hunt_stats)
                             << "\ncomposed: " << describe(composed_stats)
                             << "\nrecords: " << describe(record_stats));
  CHECK(random_stats.compared >= 10000);
  CHECK(record_stats.compared >= 2000);
  CHECK(random_stats.skipped + hunt_stats.skipped + composed_stats.skipped + record_stats.skipped ==
        0);
  // The sample reaches the rules that matter: checks and pawn-drop mates.
  CHECK(random_stats.in_check + hunt_stats.in_check + record_stats.in_check >= 1000);
  CHECK(composed_stats.pawn_drop_mates >= 100);
}

}  // namespace osl_oracle_test
