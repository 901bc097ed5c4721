// The mate solver (engine/mate): generators against brute force, mate in 1 and 3 against
// depth-limited df-pn, the problem sets with every mate line replayed, limits, long paths.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/huge_pages.h"
#include "base/words.h"
#include "engine/engine.h"
#include "engine/mate/mate1.h"
#include "engine/mate/mate_hand.h"
#include "engine/mate/mate_line.h"
#include "engine/mate/mate_moves.h"
#include "engine/mate/mate_table.h"
#include "engine/mate/path_keys.h"
#include "engine/mate/solver.h"
#include "engine/usi.h"
#include "shogi/movegen.h"
#include "shogi/notation.h"
#include "shogi/position.h"
#include "tests/test_prng.h"
#include "tools/mate/mate_bench.h"

namespace mate_test {

using namespace engine;
using namespace engine::mate;

namespace {

std::vector<tools::MateProblem> load(const std::string& name) {
  std::ifstream in(std::string(SASHITE_TEST_DATA_DIR) + "/mate/" + name);
  REQUIRE_MESSAGE(in.good(), "missing fixture " << name);
  return tools::read_mate_problems(in);
}

Position position_of(const tools::MateProblem& p) {
  Position pos;
  const Status s = pos.set_sfen(p.sfen);
  REQUIRE_MESSAGE(s.is_ok(), "line " << p.line_number << ": " << s.message());
  return pos;
}

std::set<uint16_t> keys(const MoveList& list) {
  std::set<uint16_t> out;
  for (Move m : list) out.insert(m.key16());
  return out;
}

// The brute-force truth: legal moves filtered by gives_check, or all legal moves in check.
void check_generators(const Position& pos) {
  const MoveList legal = legal_moves(pos);
  MoveList checks;
  generate_checks(pos, checks);
  MoveList expected_checks;
  for (Move m : legal)
    if (pos.gives_check(m)) expected_checks.push(m);
  CHECK_MESSAGE(keys(checks) == keys(expected_checks), "checks differ in " << pos.sfen());
  CHECK(checks.size() == expected_checks.size());  // no duplicates
  if (pos.in_check()) {
    MoveList evasions;
    generate_evasions(pos, evasions);
    CHECK_MESSAGE(keys(evasions) == keys(legal), "evasions differ in " << pos.sfen());
    CHECK(is_checkmated(pos) == legal.empty());
  }
}

// Random tsume-like positions: a White king, a few pieces of both sides near it, a few
// pieces in Black's hand, the rest in White's; Black (no king) to move.
bool random_tsume_position(test::Prng& rng, Position& pos) {
  PositionSetup setup;
  int left[kPieceTypeNb] = {0, 18, 4, 4, 4, 2, 2, 4};
  const int kf = rng.below(9), kr = rng.below(5);
  setup.board[make_square(kf, kr)] = make_piece(kWhite, kKing);
  const int pieces = 2 + rng.below(4);
  for (int i = 0; i < pieces; ++i) {
    const int f = std::clamp(kf + rng.below(5) - 2, 0, 8),
              r = std::clamp(kr + rng.below(5) - 1, 0, 8);
    const Square s = make_square(f, r);
    if (setup.board[s] != kNoPiece) continue;
    PieceType t = PieceType(kPawn + rng.below(7));
    if (left[t] == 0) continue;
    --left[t];
    const Color c = rng.below(3) == 0 ? kWhite : kBlack;
    if (can_promote(t) && rng.below(3) == 0) t = promote(t);
    setup.board[s] = make_piece(c, t);
  }
  const int in_hand = rng.below(4);
  for (int i = 0; i < in_hand; ++i) {
    const PieceType t = PieceType(kPawn + rng.below(7));
    if (left[t] == 0) continue;
    --left[t];
    setup.hands[kBlack].add(t);
  }
  for (int t = kPawn; t <= kGold; ++t) setup.hands[kWhite].add(PieceType(t), left[t]);
  setup.side_to_move = kBlack;
  return pos.set(setup).is_ok();
}

MateResult solve(const Position& pos, MateAlgo algo, uint64_t nodes, int max_ply = 4000) {
  MateOptions options;
  options.algo = algo;
  options.node_limit = nodes;
  options.max_ply = max_ply;
  options.table_megabytes = 16;
  static MateTable table(16);
  table.clear();
  MateResult result;
  REQUIRE(solve_mate(pos, options, result, &table).is_ok());
  return result;
}

}  // namespace

TEST_CASE("mate generators: checks and evasions equal the brute-force filter") {
  int positions = 0;
  for (const char* file : {"checkgen_cases.sfen", "evasion_cases.sfen", "mate_kongo50.sfen",
                           "mate3_mate5_head20.sfen", "nomate_nogare17.sfen"}) {
    for (const tools::MateProblem& p : load(file)) {
      Position pos = position_of(p);
      check_generators(pos);
      // And one ply further: the replies to every check (evasion positions).
      MoveList checks;
      generate_checks(pos, checks);
      for (Move m : checks) {
        pos.do_move(m);
        check_generators(pos);
        pos.undo_move();
      }
      ++positions;
    }
  }
  // Random playouts from the start position and random tsume positions.
  test::Prng rng(20261126);
  for (int game = 0; game < 30; ++game) {
    Position pos;
    for (int ply = 0; ply < 120; ++ply) {
      const MoveList legal = legal_moves(pos);
      if (legal.empty()) break;
      pos.do_move(legal[rng.below(legal.size())]);
      check_generators(pos);
      ++positions;
    }
  }
  for (int i = 0; i < 300; ++i) {
    Position pos;
    if (!random_tsume_position(rng, pos)) continue;
    check_generators(pos);
    ++positions;
  }
  MESSAGE(positions << " positions");
}

TEST_CASE("mate in 1 and mate in 3 agree with depth-limited df-pn on random positions") {
  test::Prng rng(7);
  int tried = 0, mates1 = 0, mates3 = 0;
  while (tried < 400) {
    Position pos;
    if (!random_tsume_position(rng, pos)) continue;
    ++tried;
    const Move m1 = mate_in_1(pos);
    const MateResult d1 = solve(pos, MateAlgo::kDfpn, 1'000'000, 1);
    CHECK_MESSAGE((m1 != kMoveNone) == (d1.status == MateStatus::kMate), pos.sfen());
    // A depth-limited search says no mate only when the attacker has no check at all.
    MoveList root_checks;
    generate_checks(pos, root_checks);
    CHECK((d1.status != MateStatus::kNoMate || root_checks.empty()));
    // A depth-limited no mate is sound (every check has an escape to a position without
    // checks, say): the unlimited search must not find a mate.
    if (m1 != kMoveNone) {
      ++mates1;
      CHECK(verify_mate_line(pos, kBlack, {m1}).is_ok());
    }
    Move first = kMoveNone;
    const bool m3 = mate_in_3(pos, &first);
    const MateResult d3 = solve(pos, MateAlgo::kDfpn, 1'000'000, 3);
    CHECK_MESSAGE(m3 == (d3.status == MateStatus::kMate), pos.sfen());
    if (d3.status == MateStatus::kNoMate)
      CHECK(solve(pos, MateAlgo::kPds, 100'000).status != MateStatus::kMate);
    if (m3) ++mates3;
    if (m3) CHECK(d3.line.size() <= 3);
    CHECK((m1 == kMoveNone || m3));
  }
  MESSAGE(tried << " positions, " << mates1 << " mates in 1, " << mates3 << " mates in <= 3");
  CHECK(mates1 > 10);
  CHECK(mates3 > mates1);
}

TEST_CASE("mate in 3 on the mate3/mate5 set; both solvers prove every one with a replayed line") {
  const auto problems = load("mate3_mate5_head20.sfen");
  REQUIRE(problems.size() == 20);
  for (size_t i = 0; i < problems.size(); ++i) {
    Position pos = position_of(problems[i]);
    Move first = kMoveNone;
    CHECK_MESSAGE(mate_in_3(pos, &first) == (i < 10), "line " << problems[i].line_number);
    for (MateAlgo algo : {MateAlgo::kDfpn, MateAlgo::kPds}) {
      const MateResult r = solve(pos, algo, 200'000);
      CHECK_MESSAGE(r.status == MateStatus::kMate, to_string(algo)
                                                       << " line " << problems[i].line_number);
      if (r.status == MateStatus::kMate)
        CHECK(verify_mate_line(pos, pos.side_to_move(), r.line).is_ok());
    }
  }
}

// In the "slow" suite (the optimised build only), as the larger sets below: under the
// sanitizers it took half a minute, and the smaller mate tests run the same code there.
TEST_CASE("kongo set: mates only, every line replayed; nogare set: never a mate" *
          doctest::test_suite("slow")) {
  for (MateAlgo algo : {MateAlgo::kDfpn, MateAlgo::kPds}) {
    int solved = 0;
    for (const tools::MateProblem& p : load("mate_kongo50.sfen")) {
      const Position pos = position_of(p);
      const MateResult r = solve(pos, algo, 20'000);
      CHECK_MESSAGE(r.status != MateStatus::kNoMate, to_string(algo) << " line " << p.line_number);
      if (r.status == MateStatus::kMate) {
        ++solved;
        const Status s = verify_mate_line(pos, kBlack, r.line);
        CHECK_MESSAGE(s.is_ok(), "line " << p.line_number << ": " << s.message());
      }
    }
    MESSAGE(std::string(to_string(algo)) << ": " << solved << "/50 kongo mates at 20,000 nodes");
    CHECK(solved >= 12);
    int refuted = 0;
    for (const tools::MateProblem& p : load("nomate_nogare17.sfen")) {
      const MateResult r = solve(position_of(p), algo, 20'000);
      CHECK_MESSAGE(r.status != MateStatus::kMate, to_string(algo) << " line " << p.line_number);
      refuted += r.status == MateStatus::kNoMate;
    }
    MESSAGE(std::string(to_string(algo))
            << ": " << refuted << "/17 nogare escapes proven at 20,000 nodes");
    CHECK(refuted >= 3);
  }
}

TEST_CASE("mate solver: limits answer unknown, never nomate") {
  const Position pos = position_of(load("mate_kongo50.sfen").at(10));
  for (MateAlgo algo : {MateAlgo::kDfpn, MateAlgo::kPds}) {
    const MateResult r = solve(pos, algo, 5);
    CHECK(r.status == MateStatus::kUnknown);
    CHECK(r.nodes <= 5);
    CHECK(r.note.find("node limit") != std::string::npos);
  }
  std::atomic<bool> stop{true};
  MateOptions options;
  options.stop = &stop;
  MateResult r;
  // The stop flag is polled every 1024 nodes.
  const Position hard = position_of(load("nomate_nogare17.sfen").at(1));
  REQUIRE(solve_mate(hard, options, r).is_ok());
  CHECK(r.status == MateStatus::kUnknown);
  // A search whose paths are cut by max_ply cannot claim no mate.
  const MateResult cut = solve(hard, MateAlgo::kDfpn, 100'000, 6);
  CHECK(cut.status != MateStatus::kNoMate);
}

// The position after White's 9c9a, move 89 of a game against gpsusi (session 38): Black
// mates by checks. With a fresh 16 MiB table (the root's mate guard's) df-pn answered
// unknown even at 1M nodes, while 12, 15, 17-28 and 32+ MiB found the mate within 40,000:
// a child whose table entry had been replaced fell back to its initial numbers, and df-pn
// went round in circles. Now the child keeps the numbers its last search returned.
TEST_CASE("mate solver kept from call to call: the answers of fresh solvers, any order") {
  std::vector<Position> positions;
  for (const tools::MateProblem& p : load("mate3_mate5_head20.sfen"))
    positions.push_back(position_of(p));
  for (const tools::MateProblem& p : load("nomate_nogare17.sfen"))
    positions.push_back(position_of(p));
  // A position with a history before it: the kept copy must drop it.
  Position played;
  REQUIRE(
      played.set_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1").is_ok());
  for (const char* usi : {"7g7f", "3c3d", "8h2b+", "3a2b"}) {
    Move m = kMoveNone;
    REQUIRE(parse_usi_move(played, usi, m).is_ok());
    played.do_move(m);
  }
  positions.push_back(played);
  MateSolver kept;
  MateTable fresh_table(16), kept_table(16);
  for (uint64_t nodes : {uint64_t(40), uint64_t(20'000)}) {
    for (size_t i = 0; i < positions.size(); ++i) {
      MateOptions options;
      options.node_limit = nodes;
      options.max_ply = i % 3 == 0 ? 9 : 4000;  // short and long paths share the memory
      fresh_table.clear();
      kept_table.clear();
      MateResult fresh, again;
      REQUIRE(solve_mate(positions[i], options, fresh, &fresh_table).is_ok());
      REQUIRE(kept.solve(positions[i], options, again, &kept_table).is_ok());
      CHECK_MESSAGE(again.status == fresh.status, "position " << i << " at " << nodes);
      CHECK(again.nodes == fresh.nodes);
      CHECK(again.line == fresh.line);
    }
  }
}

TEST_CASE("position copy_current: the position now, without its history") {
  Position played;
  auto play = [](Position& pos, const char* usi) {
    Move m = kMoveNone;
    REQUIRE(parse_usi_move(pos, usi, m).is_ok());
    pos.do_move(m);
  };
  for (const char* usi : {"7g7f", "3c3d", "8h2b+"}) play(played, usi);
  Position copy;
  copy.copy_current(played);
  CHECK(copy.sfen() == played.sfen());
  CHECK(copy.key() == played.key());
  CHECK(copy.checkers() == played.checkers());
  CHECK(copy.plies_played() == 0);
  CHECK(legal_moves(copy).size() == legal_moves(played).size());
  const std::string before = copy.sfen();
  play(copy, "3a2b");
  play(played, "3a2b");
  CHECK(copy.sfen() == played.sfen());
  CHECK(copy.plies_played() == 1);
  played.copy_current(played);  // itself: only the history goes
  CHECK(played.plies_played() == 0);
  CHECK(played.sfen() == copy.sfen());
  copy.undo_move();
  CHECK(copy.sfen() == before);
}

TEST_CASE("mate solver: a child whose table entry was replaced keeps its numbers") {
  Position pos;
  REQUIRE(pos.set_sfen("+R7l/2pl3g1/1l2kp1pp/2P6/3n5/P4G3/3P1PPSP/1SGK2Br1/LN3G1N1 w BN6P2s2p 90")
              .is_ok());
  for (size_t megabytes : {8, 16, 31, 64}) {
    MateTable table(megabytes);
    MateOptions options;
    options.node_limit = 100'000;
    options.max_ply = 63;
    MateResult r;
    REQUIRE(solve_mate(pos, options, r, &table).is_ok());
    CHECK_MESSAGE(r.status == MateStatus::kMate, megabytes << " MiB: " << r.note);
    if (r.status == MateStatus::kMate) CHECK(verify_mate_line(pos, kWhite, r.line).is_ok());
  }
}

// Line 39 of mate_kongo50.sfen in a 1 MiB table: proven in 22,525 nodes, but the table had
// replaced the node at ply 16 that the line needed, and the answer was unknown ("proof found
// but mate line"). The solver now searches such nodes again.
TEST_CASE("mate solver: a proof whose line the table lost still gives its line") {
  const Position pos = position_of(load("mate_kongo50.sfen").at(38));
  for (MateAlgo algo : {MateAlgo::kDfpn, MateAlgo::kPds}) {
    MateTable table(1);
    MateOptions options;
    options.algo = algo;
    options.node_limit = 100'000;
    MateResult r;
    REQUIRE(solve_mate(pos, options, r, &table).is_ok());
    CHECK_MESSAGE(r.status == MateStatus::kMate, to_string(algo) << ": " << r.note);
    if (r.status == MateStatus::kMate) CHECK(verify_mate_line(pos, kBlack, r.line).is_ok());
  }
}

TEST_CASE("mate line: every node missing from the table is proven again") {
  const Position pos = position_of(load("mate_kongo50.sfen").at(10));
  const MateResult first = solve(pos, MateAlgo::kDfpn, 1'000'000);
  REQUIRE(first.status == MateStatus::kMate);
  const int plies = int(first.line.size());
  MateTable empty(4);
  std::vector<Move> line;
  // Without a way to prove again, an empty table gives no line.
  CHECK(!extract_mate_line(pos, kBlack, empty, plies, line).is_ok());
  int searches = 0;
  ReproveFn reprove = [&](Position& p, int bound) {
    ++searches;
    MateOptions options;
    options.max_ply = bound;
    options.node_limit = 200'000;
    options.verify_line = false;
    MateResult r;
    REQUIRE(solve_mate(p, options, r, &empty).is_ok());
    return r.status == MateStatus::kMate;
  };
  const Status s = extract_mate_line(pos, kBlack, empty, plies, line, reprove);
  CHECK_MESSAGE(s.is_ok(), s.message());
  CHECK(searches > 0);
  CHECK(int(line.size()) <= plies);
  CHECK(verify_mate_line(pos, kBlack, line).is_ok());
  // A bound under the mate's length cannot be met: an error, not a longer line.
  line.clear();
  CHECK(!extract_mate_line(pos, kBlack, MateTable(1), 1, line, reprove).is_ok());
}

TEST_CASE("mate solver: shortest mates on the mate3/mate5 set, proven shortest") {
  const auto problems = load("mate3_mate5_head20.sfen");
  int longer_first = 0;
  for (size_t i = 0; i < problems.size(); ++i) {
    const Position pos = position_of(problems[i]);
    MateTable table(16);
    MateOptions options;
    options.node_limit = 200'000;
    MateResult plain;
    REQUIRE(solve_mate(pos, options, plain, &table).is_ok());
    longer_first += plain.line.size() > (i < 10 ? 3u : 5u);
    table.clear();
    options.shortest = true;
    int found = 0;
    uint64_t first_nodes = 0;  // the nodes spent when the first line was found
    options.found_line = [&](const std::vector<Move>&, uint64_t nodes, int64_t) {
      if (found++ == 0) first_nodes = nodes;
    };
    MateResult r;
    REQUIRE(solve_mate(pos, options, r, &table).is_ok());
    INFO("line " << problems[i].line_number << ": " << r.note);
    REQUIRE(r.status == MateStatus::kMate);
    CHECK(r.line.size() == (i < 10 ? 3u : 5u));
    CHECK(r.proven_shortest);
    CHECK(found >= 1);
    CHECK(verify_mate_line(pos, pos.side_to_move(), r.line).is_ok());
    // No budget left after the first proof: its line stands, not proven shortest.
    if (r.line.size() < plain.line.size()) {
      table.clear();
      options.node_limit = first_nodes;
      MateResult cut;
      REQUIRE(solve_mate(pos, options, cut, &table).is_ok());
      CHECK(cut.status == MateStatus::kMate);
      CHECK(!cut.proven_shortest);
      CHECK(cut.note.rfind("shortest not proven: node limit", 0) == 0);
    }
  }
  MESSAGE(longer_first << " of 20 first proofs longer than the shortest mate");
}

TEST_CASE("mate solver: long paths are walked without deep recursion trouble") {
  // A bare king on an open board against a rook and a bishop in hand: endless checks, and
  // df-pn dives deep. The path must stay bounded by max_ply, the answer never nomate.
  // 100,000 nodes a solve: the deepest paths (80-117 plies at 300,000) are 21-62 plies
  // here, and the sanitizer build walks them in 17 s instead of 45.
  Position pos;
  REQUIRE(pos.set_sfen("9/9/9/9/4k4/9/9/9/9 b RB 1").is_ok());
  const MateResult r = solve(pos, MateAlgo::kDfpn, 100'000, 4000);
  // The long composed problems: out of reach at this budget (Microcosmos), but walked
  // without trouble, and a mate is never called no mate.
  for (const tools::MateProblem& p : load("long_problems.sfen")) {
    const Position long_pos = position_of(p);
    for (MateAlgo algo : {MateAlgo::kDfpn, MateAlgo::kPds}) {
      const MateResult x = solve(long_pos, algo, 100'000, 4000);
      MESSAGE("line " << p.line_number << " " << std::string(to_string(algo)) << ": "
                      << std::string(to_string(x.status)) << ", deepest path " << x.max_ply_reached
                      << " plies, " << x.nodes << " nodes, stack " << x.stack_bytes << " bytes");
      // Small frames: 4000 plies (max_ply's default) then need about 1.2 MB of stack
      // (AddressSanitizer's redzones about double the frames: 4 MB, still inside 8 MB).
#ifdef __SANITIZE_ADDRESS__
      constexpr size_t kMaxFrameBytes = 2048;
#else
      constexpr size_t kMaxFrameBytes = 512;
#endif
      if (x.max_ply_reached > 10) CHECK(size_t(x.stack_bytes / x.max_ply_reached) < kMaxFrameBytes);
      if (p.line_number == 3) CHECK(x.status != MateStatus::kNoMate);  // Microcosmos mates
    }
  }
  CHECK(r.status != MateStatus::kMate);
  CHECK(r.max_ply_reached <= 4000);
  const MateResult shallow = solve(pos, MateAlgo::kPds, 100'000, 40);
  CHECK(shallow.status != MateStatus::kNoMate);
  CHECK(shallow.max_ply_reached <= 40);
}

TEST_CASE("mate table: hand domination and garbage collection") {
  MateTable table(1);
  Hand small, big;
  small.add(kGold);
  big.add(kGold);
  big.add(kSilver);
  table.store(42, small, 0, kInfinitePn, 10, kMoveNone, 3);  // proven with a gold
  CHECK(table.lookup(42, big).pn == 0);                      // superiority: more pieces, still mate
  CHECK(!table.lookup(42, Hand()).found);                    // fewer: nothing known
  table.store(43, small, kInfinitePn, 0, 10);                // disproven with at most a gold
  CHECK(table.lookup(43, Hand()).dn == 0);  // inferiority: fewer pieces, still no mate
  CHECK(!table.lookup(43, big).found);
  for (uint64_t k = 100; k < 100 + table.capacity(); ++k)
    table.store(k * 7919, small, 5, 5, uint32_t(k % 100));
  CHECK(table.collections() > 0);
  CHECK(table.used() < table.capacity());
}

TEST_CASE("huge-page arrays (the mate table's and the search's): 2 MB aligned, initialised") {
  struct Slot {
    uint64_t key = 7;
    uint32_t count = 3;
  };
  const size_t count = (size_t(3) << 20) / sizeof(Slot);  // a page and a half
  auto slots = make_huge_page_array<Slot>(count);
  CHECK(reinterpret_cast<uintptr_t>(slots.get()) % (size_t(2) << 20) == 0);
  bool all_initialised = true;
  for (size_t i = 0; i < count; ++i) all_initialised &= slots[i].key == 7 && slots[i].count == 3;
  CHECK(all_initialised);
  slots[count - 1].key = 9;  // the last element lies inside the allocation
  MateTable table(1);
  CHECK(table.capacity() == (size_t(1) << 20) / sizeof(MateEntry));
  CHECK(!table.lookup(42, Hand()).found);
}

TEST_CASE("mate path keys: shallowest ply, repeated keys, keys that share a filter slot") {
  PathKeys path;
  const uint64_t a = 0x1234'5678'9abc'def0ull;
  const uint64_t b = a ^ 1;  // the same filter slot as a (the top bits), another key
  const uint64_t c = a ^ (1ull << 63);
  CHECK(path.find(a) == -1);
  path.push(a, 0);
  CHECK(path.find(a) == 0);
  CHECK(path.find(b) == -1);  // the slot is taken, the key is not on the path
  CHECK(path.find(c) == -1);
  path.push(b, 1);
  path.push(a, 2);  // a repetition: the shallower ply stands
  CHECK(path.find(a) == 0);
  CHECK(path.find(b) == 1);
  path.pop();
  CHECK(path.find(a) == 0);
  path.pop();
  CHECK(path.find(b) == -1);
  path.pop();
  CHECK(path.find(a) == -1);
  path.push(c, 4);
  path.clear();
  CHECK(path.find(c) == -1);
}

TEST_CASE("sashite mate front: comments, errors by line, totals") {
  std::istringstream in(
      "# a comment\n\n"
      "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1   # classic mate in 3\n"
      "not a sfen\n"
      "4k4/9/9/9/9/9/9/9/9 b - 1\n");
  std::ostringstream out, err;
  MateOptions options;
  options.node_limit = 100000;
  options.table_megabytes = 4;
  const tools::MateTotals t = tools::run_mate_problems(in, options, out, err);
  CHECK(t.mate == 1);
  CHECK(t.nomate == 1);
  CHECK(t.errors == 1);
  CHECK(err.str().find("line 4:") != std::string::npos);
  std::istringstream lines(out.str());
  std::string first, second, total;
  std::getline(lines, first);
  std::getline(lines, second);
  std::getline(lines, total);
  CHECK(first.rfind("mate ", 0) == 0);
  CHECK(first.find(" nodes ") != std::string::npos);
  CHECK(second.rfind("nomate nodes ", 0) == 0);
  CHECK(total.rfind("total mate 1 nomate 1 unknown 0 errors 1", 0) == 0);
}

// The data sets at 200,000 nodes (about 20 s for both solvers). At 1,000,000 nodes they take
// a minute: `sashite mate --algo dfpn --nodes 1000000 --table-mb 64 < tests/data/mate/
// mate_kongo50.sfen` (and nomate_nogare17.sfen, and --algo pds) gave 50 and 48 of the 50
// mates, 13 and 14 of the 17 escapes (November 30, 2026; 49, 47, 13 and 12 before a child
// whose table entry was replaced kept its numbers).
TEST_CASE("mate sets at 200,000 nodes: statuses and replayed lines" * doctest::test_suite("slow")) {
  static MateTable table(64);  // at 16 MiB, garbage collection costs a few solutions
  auto solve64 = [&](const Position& pos, MateAlgo algo) {
    MateOptions options;
    options.algo = algo;
    options.node_limit = 200'000;
    table.clear();
    MateResult result;
    REQUIRE(solve_mate(pos, options, result, &table).is_ok());
    return result;
  };
  for (MateAlgo algo : {MateAlgo::kDfpn, MateAlgo::kPds}) {
    int mates = 0, refuted = 0;
    for (const tools::MateProblem& p : load("mate_kongo50.sfen")) {
      const Position pos = position_of(p);
      const MateResult r = solve64(pos, algo);
      CHECK(r.status != MateStatus::kNoMate);
      if (r.status == MateStatus::kMate) {
        ++mates;
        CHECK(verify_mate_line(pos, kBlack, r.line).is_ok());
      }
    }
    for (const tools::MateProblem& p : load("nomate_nogare17.sfen")) {
      const MateResult r = solve64(position_of(p), algo);
      CHECK(r.status != MateStatus::kMate);
      refuted += r.status == MateStatus::kNoMate;
    }
    MESSAGE(std::string(to_string(algo)) << ": kongo " << mates << "/50 mate, nogare " << refuted
                                         << "/17 nomate at 200,000 nodes");
    CHECK(mates >= 40);   // 42 (df-pn) and 43 (PDS) on November 30, 2026 (41 and 42 before
                          // a child whose table entry was replaced kept its numbers)
    CHECK(refuted >= 8);  // 9 and 9
  }
}

// An engine's go mate (Engine::go_mate) with the lines the USI loop prints for it (engine/usi.h's
// formatters), collected from the solver's thread and read by the test after wait().
struct MateLines {
  Engine engine;
  std::mutex mutex;
  std::vector<std::string> lines;
  MateLines() {
    REQUIRE(engine.set_option("USI_Hash", "1"));
    engine.set_mate_info_callback(
        [this](const MateSearchInfo& info) { add(format_usi_mate_info(info)); });
    engine.set_mate_result_callback([this](const MateSearchResult& result) {
      for (const std::string& line : format_usi_checkmate(result)) add(line);
    });
  }
  void add(const std::string& line) {
    std::lock_guard<std::mutex> lock(mutex);
    lines.push_back(line);
  }
  // go mate from pos for time_ms (< 0: until stop) in a table of table_mb MB (MateHash).
  void start(const Position& pos, int64_t time_ms, int table_mb) {
    REQUIRE(engine.set_option("MateHash", std::to_string(table_mb)));
    REQUIRE(engine.set_position(pos, {}));
    engine.go_mate(time_ms);
  }
  void stop() { engine.stop(); }
  void stop_and_wait() {
    engine.stop();
    engine.wait();
  }
};

TEST_CASE("go mate: checkmate <moves>, nomate, timeout, and stop") {
  MateLines runner;
  const std::vector<std::string>& lines = runner.lines;
  Position pos;
  REQUIRE(pos.set_sfen("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").is_ok());
  runner.start(pos, 1000, 16);
  runner.stop_and_wait();
  // The mate with its info line (score and pv) first, as GUIs' mate modes read it.
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].rfind("info depth 3 ", 0) == 0);
  CHECK(lines[0].find(" score mate 3 pv ") != std::string::npos);
  CHECK(lines[1] == "info string mate in 3 plies, proven shortest");
  CHECK(lines[2].rfind("checkmate ", 0) == 0);
  CHECK(lines[2] != "checkmate nomate");
  CHECK(lines[2] != "checkmate timeout");
  REQUIRE(pos.set_sfen("startpos").is_ok());
  runner.start(pos, -1, 16);
  runner.stop_and_wait();
  REQUIRE(lines.size() == 4);
  CHECK(lines[3] == "checkmate nomate");
  // A hard one: the time limit, then an infinite search ended by stop.
  REQUIRE(pos.set_sfen("g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/"
                       "4+P1P1L/+B5G1g b - 1")
              .is_ok());
  runner.start(pos, 100, 16);
  runner.stop_and_wait();  // stop also ends it: either way the answer is timeout
  runner.start(pos, -1, 16);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  runner.stop();
  runner.stop_and_wait();
  // The searches on the solver's thread end with an info line of their nodes and time.
  std::vector<std::string> answers, infos;
  for (const std::string& line : lines)
    (line.rfind("info ", 0) == 0 ? infos : answers).push_back(line);
  REQUIRE(answers.size() == 4);
  CHECK(answers[2] == "checkmate timeout");
  CHECK(answers[3] == "checkmate timeout");
  CHECK(infos.size() == 4);  // the mate's, then the closing lines of the thread's searches
  for (const std::string& info : infos)
    if (info.rfind("info string ", 0) != 0) CHECK(info.find(" nodes ") != std::string::npos);
}

TEST_CASE("go mate: an info line about once a second while solving") {
  MateLines runner;
  const std::vector<std::string>& lines = runner.lines;
  Position pos;
  REQUIRE(pos.set_sfen("g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/"
                       "4+P1P1L/+B5G1g b - 1")
              .is_ok());
  runner.start(pos, 1500, 16);
  std::this_thread::sleep_for(std::chrono::milliseconds(2000));  // it ends by its time limit
  runner.stop_and_wait();
  INFO(lines.size());
  REQUIRE(lines.size() >= 3);  // progress, the closing info line, the answer
  CHECK(lines.back() == "checkmate timeout");
  const std::string& progress = lines.front();
  CHECK(progress.rfind("info depth 0 seldepth ", 0) == 0);
  const size_t at = progress.find(" time ");
  REQUIRE(at != std::string::npos);
  const int ms = std::stoi(progress.substr(at + 6));
  CHECK(ms >= 1000);
  CHECK(ms < 1500);
}

// A 9-ply first proof of a mate in 5 (mate3_mate5_head20.sfen line 22, the 12th problem:
// df-pn finds a 9-ply mate first): go mate answers the 5-ply one, after an info line for each.
TEST_CASE("go mate: the shortest mate, an info line with its score and pv for each line found") {
  MateLines runner;
  Position pos = position_of(load("mate3_mate5_head20.sfen").at(11));
  runner.start(pos, 10'000, 64);
  runner.stop_and_wait();
  const std::vector<std::string>& lines = runner.lines;
  REQUIRE(!lines.empty());
  INFO(lines.back());
  const std::string& answer = lines.back();
  REQUIRE(answer.rfind("checkmate ", 0) == 0);
  std::vector<Move> line;
  Position replay = pos;
  const std::string moves = answer.substr(10);
  for (std::string_view word : base::split_words(moves)) {
    Move m = kMoveNone;
    REQUIRE(shogi::parse_usi_move(replay, word, m).is_ok());
    line.push_back(m);
    replay.do_move(m);
  }
  CHECK(line.size() == 5);
  CHECK(verify_mate_line(pos, pos.side_to_move(), line).is_ok());
  bool scored = false;
  for (const std::string& l : lines) scored |= l.find(" score mate 5 pv ") != std::string::npos;
  CHECK(scored);
  CHECK(std::find(lines.begin(), lines.end(), "info string mate in 5 plies, proven shortest") !=
        lines.end());
}

TEST_CASE("mate solver: an evasion that checks the attacker's king is answered as a check") {
  // From a game against gpsusi (ply 107): Black, in check from the rook on 7f, blocks
  // with B*8f, which checks the king on 3a. White's 7g8f+ takes the bishop and checks
  // Black's king in turn: no mate. The solver once made White's evasions as if none gave
  // check, so Black's later "checks" ignored its own king and it answered mate in 7.
  Position pos;
  REQUIRE(pos.set_sfen("+Bn1g2k1l/9/p2p1g2p/5N1P1/nP7/K1r1g1P2/P1s5P/2+s6/L6NL b RBGSL9Psp 107")
              .is_ok());
  for (MateAlgo algo : {MateAlgo::kDfpn, MateAlgo::kPds}) {
    const MateResult r = solve(pos, algo, 300'000);
    CHECK_MESSAGE(r.status == MateStatus::kNoMate, to_string(algo));
  }
  // The counter-check itself leaves Black a single king move, which is no check.
  Position after = pos;
  for (const char* text : {"B*8f", "7g8f+"}) {
    Move m;
    REQUIRE(parse_usi_move(after, text, m).is_ok());
    after.do_move(m);
  }
  CHECK(after.in_check());
  CHECK(solve(after, MateAlgo::kDfpn, 1000).status == MateStatus::kNoMate);
}

TEST_CASE("mate in 3 agrees with depth-limited df-pn and PDS on positions from games") {
  // Both kings on the board, as in the search's calls: the defender's evasions may check
  // the attacker, which the problem sets (no attacking king) never exercise. Counter-checks
  // within 3 plies are rare here; the case above is the regression test of that bug.
  std::ifstream in(std::string(SASHITE_TEST_DATA_DIR) + "/record_positions.sfen");
  REQUIRE(in.good());
  std::string line;
  int positions = 0, mates = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    Position pos;
    REQUIRE_MESSAGE(pos.set_sfen(line).is_ok(), line);
    ++positions;
    const bool m3 = mate_in_3(pos, nullptr);
    for (MateAlgo algo : {MateAlgo::kDfpn, MateAlgo::kPds}) {
      const MateResult r = solve(pos, algo, 200'000, 3);
      CHECK_MESSAGE(m3 == (r.status == MateStatus::kMate), to_string(algo) << " " << line);
    }
    if (m3) ++mates;
  }
  MESSAGE(positions << " positions, " << mates << " mates in <= 3");
  CHECK(positions > 2000);
  CHECK(mates > 10);
}

}  // namespace mate_test
