// Search, time management, futility statistics and options.
#include "engine/search.h"

#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>
#include <vector>

#include "engine/engine.h"
#include "engine/eval/weights.h"
#include "engine/eval_noise.h"
#include "engine/futility.h"
#include "engine/mate/mate1.h"
#include "engine/movepick.h"
#include "engine/search_bench.h"
#include "engine/see.h"
#include "engine/timeman.h"
#include "shogi/movegen.h"
#include "shogi/notation.h"
#include "tests/test_prng.h"

namespace search_test {

using namespace engine;

#ifndef SASHITE_TEST_DATA_DIR
#define SASHITE_TEST_DATA_DIR "tests/data"
#endif

namespace {

// The SFENs of a test data file (comments after '#' dropped).
std::vector<std::string> read_sfens(const std::string& name) {
  std::ifstream in(std::string(SASHITE_TEST_DATA_DIR) + "/" + name);
  std::vector<std::string> sfens;
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (!line.empty()) sfens.push_back(line);
  }
  return sfens;
}

// Mate in 1 by brute force: every legal move, then no legal reply while in check.
bool has_mate_in_1(Position& pos) {
  for (Move m : legal_moves(pos)) {
    pos.do_move(m);
    const bool mated = pos.in_check() && legal_moves(pos).empty();
    pos.undo_move();
    if (mated) return true;
  }
  return false;
}

SearchResult search_sfen(Engine& engine, const std::string& sfen, int depth) {
  REQUIRE(engine.set_position(sfen, {}).is_ok());
  SearchLimits limits;
  limits.depth = depth;
  return engine.search(limits);
}

// Searches the first `count` of the 20 mate problems (10 mates in 3, then 10 in 5) to
// `depth`, each as a new game, and hands each result to check(index, sfen, result).
template <class Check>
void search_mate_problems(int depth, int count, Check check) {
  Engine engine;
  engine.set_option("USI_Hash", "16");
  const std::vector<std::string> problems = read_sfens("mate/mate3_mate5_head20.sfen");
  REQUIRE(problems.size() == 20);
  for (int i = 0; i < count; ++i) {
    engine.new_game();
    const SearchResult r = search_sfen(engine, problems[i], depth);
    REQUIRE(r.kind == SearchResult::Kind::kMove);
    check(i, problems[i], r);
  }
}

}  // namespace

TEST_CASE("search finds a mate in one and scores it as mate") {
  Engine engine;
  engine.set_option("USI_Hash", "16");
  // Black: gold in hand, White king on 5a boxed in by its own pieces: G*5b is mate.
  const SearchResult r = search_sfen(engine, "3nkn3/3p1p3/4P4/9/9/9/9/9/4K4 b G 1", 4);
  REQUIRE(r.kind == SearchResult::Kind::kMove);
  CHECK(format_usi_move(r.best) == "G*5b");
  CHECK(r.score == mate_in(1));
}

TEST_CASE("mate_in_1 agrees with brute force after every check and evasion of mate problems") {
  // The positions two plies into mate-in-3 problems hold many mates in one, with both kings
  // on the board: mate_in_1's test of the exits before the move must lose none of them.
  const std::vector<std::string> problems = read_sfens("mate/mate3_mate5_head20.sfen");
  REQUIRE(problems.size() == 20);
  int positions = 0, mates = 0;
  for (const std::string& sfen : problems) {
    Position pos;
    REQUIRE(pos.set_sfen(sfen).is_ok());
    for (Move check : legal_moves(pos)) {
      if (!pos.gives_check(check)) continue;
      pos.do_move(check);
      for (Move evasion : legal_moves(pos)) {
        pos.do_move(evasion);
        const std::string before = pos.sfen();
        const Move m = mate::mate_in_1(pos);
        CHECK(pos.sfen() == before);
        const bool expected = !pos.in_check() && has_mate_in_1(pos);
        if (!pos.in_check()) CHECK_MESSAGE((m != kMoveNone) == expected, pos.sfen());
        if (m != kMoveNone && !pos.in_check()) {
          pos.do_move(m);
          CHECK((pos.in_check() && legal_moves(pos).empty()));
          pos.undo_move();
        }
        mates += expected;
        ++positions;
        pos.undo_move();
      }
      pos.undo_move();
    }
  }
  MESSAGE(positions << " positions, " << mates << " mates in one");
  CHECK(mates > 50);
}

TEST_CASE("search scores mate-in-3 problems as mate in 3 at depth 3") {
  // The mates of the interior nodes (after the check and each evasion) end those nodes at
  // once; the root must still see the whole line's length.
  search_mate_problems(3, 10, [](int, const std::string& sfen, const SearchResult& r) {
    CHECK_MESSAGE(r.score == mate_in(3), sfen);
  });
}

TEST_CASE("mate problems keep true mate scores at depth 9, under singular extensions") {
  // At depth 9 the singular-extension test runs (depth >= 8): its searches without the TT
  // move must not leak a false mate into the node's value. Every problem is found as a mate
  // never shorter than its solution (a shorter one would be false) and the mates in 3
  // exactly; a pruned search may find a longer mate of a mate-in-5 problem first.
  search_mate_problems(9, 20, [](int i, const std::string& sfen, const SearchResult& r) {
    const int plies = i < 10 ? 3 : 5;
    CHECK_MESSAGE(r.score >= kValueMateInMaxPly, sfen << " scored " << r.score);
    CHECK_MESSAGE(r.score <= mate_in(plies), sfen << " scored " << r.score);
    if (plies == 3) CHECK_MESSAGE(r.score == mate_in(3), sfen << " scored " << r.score);
  });
}

TEST_CASE("history tables saturate at their limits and order quiet moves by their sum") {
  Position pos;
  const Move m = legal_moves(pos)[0];
  auto continuation = std::make_unique<ContinuationHistory>();
  continuation->clear();
  ContinuationEntry& entry = continuation->after(m);
  for (int i = 0; i < 200; ++i) entry.update(m, 2000);
  CHECK(entry.get(m) > 25000);
  CHECK(entry.get(m) <= 30000);
  for (int i = 0; i < 400; ++i) entry.update(m, -2000);
  CHECK(entry.get(m) < -25000);
  CHECK(entry.get(m) >= -30000);
  CHECK(continuation->sentinel().get(m) == 0);

  ButterflyHistory butterfly;
  butterfly.clear();
  butterfly.update(kBlack, m, 1000);
  MoveHistories histories;
  histories.butterfly = &butterfly;
  histories.continuation[0] = &entry;  // counts twice
  histories.continuation[1] = &continuation->sentinel();
  CHECK(histories.quiet_score(kBlack, m) == butterfly.get(kBlack, m) + 2 * entry.get(m));

  auto captures = std::make_unique<CaptureHistory>();
  captures->clear();
  for (int i = 0; i < 200; ++i) captures->update(pos, m, 2000);
  CHECK(captures->get(pos, m) > 0);
  CHECK(captures->get(pos, m) <= CaptureHistory::kLimit);
}

TEST_CASE("search stopped before depth 1: a mate in one, else the TT move, else a safe one") {
  const eval::Weights weights = eval::Weights::hand_set();
  TranspositionTable tt;
  tt.resize(1);
  Position pos;
  REQUIRE(pos.set_sfen("3nkn3/3p1p3/4P4/9/9/9/9/9/4K4 b G 1"));
  CHECK(format_usi_move(unsearched_move(pos, legal_moves(pos), tt, weights)) == "G*5b");
  // White must take back the promoted bishop on 2b (with the silver or the rook): the moves
  // that keep material.
  REQUIRE(pos.set_sfen(Position().sfen()));
  for (const char* u : {"7g7f", "3c3d", "8h2b+"}) {
    Move m;
    REQUIRE(parse_usi_move(pos, u, m));
    pos.do_move(m);
  }
  const MoveList legal = legal_moves(pos);
  const Move recapture = unsearched_move(pos, legal, tt, weights);
  CHECK(format_usi_move(recapture).substr(2) == "2b");
  // With a move in the transposition table, that move.
  Move tt_move;
  REQUIRE(parse_usi_move(pos, "4a3b", tt_move));
  bool found = false;
  TTEntry* entry = tt.probe(pos.key(), &found);
  tt.store(entry, pos.key(), 0, kBoundExact, 5, tt_move, 0);
  CHECK(unsearched_move(pos, legal, tt, weights) == tt_move);
  // Never a piece given away when a move loses nothing by exchange: none of the first moves
  // of a game hangs a piece, and the choice is one of them.
  tt.clear();
  REQUIRE(pos.set_sfen(Position().sfen()));
  const Move first = unsearched_move(pos, legal_moves(pos), tt, weights);
  CHECK(legal_moves(pos).contains(first));
  CHECK(see_ge(pos, first, 0));
}

TEST_CASE("a search stopped at once plays a move: an unfinished value never resigns") {
  Engine engine;
  engine.set_option("USI_Hash", "16");
  engine.set_option("USI_OwnBook", "false");
  engine.set_option("ResignValue", "3000");
  // Black is well ahead (a bishop up): nothing here to resign for.
  REQUIRE(engine
              .set_position("ln1g3nl/1r1s1kg2/p1ppppsp1/1p4p1p/7P1/2P3P2/PPSPPP2P/1BG4R1/"
                            "LN2KGSNL b B 1",
                            {})
              .is_ok());
  for (int i = 0; i < 5; ++i) {
    SearchResult result;
    engine.set_result_callback([&](const SearchResult& r) { result = r; });
    SearchLimits limits;
    limits.infinite = true;
    engine.go(limits);
    engine.stop();  // most often before depth 1 ends (a client whose deadline has passed)
    engine.wait();
    REQUIRE(result.kind == SearchResult::Kind::kMove);
    CHECK(legal_moves(engine.position()).contains(result.best));
    if (result.depth == 0) CHECK(result.score == kValueNone);
  }
}

TEST_CASE("a search stopped late in an iteration plays what that iteration found") {
  // An endgame where the best move changes from one depth to the next. Stopped by a node
  // limit after depth d finished but before depth d + 1 did, the search no longer throws
  // the unfinished iteration away: once that iteration has searched its new best move, the
  // move is played (the former rule played depth d's move up to the last node).
  const std::string sfen = search_bench_positions()[9];
  Engine engine;
  engine.set_option("USI_Hash", "16");
  engine.set_option("USI_OwnBook", "false");
  std::vector<SearchInfo> infos;
  engine.set_info_callback([&](const SearchInfo& info) { infos.push_back(info); });
  engine.new_game();
  search_sfen(engine, sfen, 5);
  // The last finished depth whose best move differs from the depth before it.
  size_t change = 0;
  for (size_t i = 1; i < infos.size(); ++i)
    if (!infos[i].pv.empty() && !infos[i - 1].pv.empty() && infos[i].pv[0] != infos[i - 1].pv[0])
      change = i;
  REQUIRE(change > 0);
  const Move before = infos[change - 1].pv[0], after = infos[change].pv[0];
  const uint64_t from = infos[change - 1].nodes, to = infos[change].nodes;
  engine.set_info_callback(nullptr);
  int played_after = 0;
  std::string seen;  // what each stopped search played, for a failure's message
  for (const double share : {0.9, 0.97}) {
    engine.new_game();
    REQUIRE(engine.set_position(sfen, {}).is_ok());
    SearchLimits limits;
    limits.nodes = from + uint64_t(double(to - from) * share);
    const SearchResult r = engine.search(limits);
    REQUIRE(r.kind == SearchResult::Kind::kMove);
    CHECK(r.depth == infos[change - 1].depth);  // the finished depth is still reported as such
    CHECK(legal_moves(engine.position()).contains(r.best));
    played_after += r.best == after;
    seen +=
        "stopped at " + std::to_string(limits.nodes) + " nodes: " + format_usi_move(r.best) + "; ";
  }
  INFO(seen, "depth ", infos[change - 1].depth, " played ", format_usi_move(before), ", depth ",
       infos[change].depth, " (ends at ", to, " nodes) ", format_usi_move(after));
  CHECK(played_after > 0);
}

TEST_CASE("search: no legal move resigns, a valid declaration wins") {
  Engine engine;
  engine.set_option("USI_Hash", "16");
  // White to move, mated: resign.
  SearchResult r = search_sfen(engine, "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1", 3);
  CHECK(r.kind == SearchResult::Kind::kResign);
  // Black's king in White's camp with 10 pieces there and 28 points: declare.
  r = search_sfen(engine, "1+R+BGKG+P+P+P/1+R+BG1G3/9/9/9/9/9/9/k8 b 2S4P 1", 3);
  CHECK(r.kind == SearchResult::Kind::kWin);
}

TEST_CASE("search is reproducible after a new-game reset") {
  Engine engine;
  engine.set_option("USI_Hash", "16");
  const std::string sfen = search_bench_positions()[4];
  engine.new_game();
  const SearchResult a = search_sfen(engine, sfen, 6);
  engine.new_game();
  const SearchResult b = search_sfen(engine, sfen, 6);
  CHECK(a.nodes == b.nodes);
  CHECK(a.best == b.best);
  CHECK(a.nodes > 0);
}

TEST_CASE("go nodes stops near the node budget and returns a legal move") {
  Engine engine;
  engine.set_option("USI_Hash", "16");
  REQUIRE(engine.set_position("startpos", {"7g7f", "3c3d"}).is_ok());
  SearchLimits limits;
  limits.nodes = 20000;
  const SearchResult r = engine.search(limits);
  REQUIRE(r.kind == SearchResult::Kind::kMove);
  CHECK(legal_moves(engine.position()).contains(r.best));
  CHECK(r.nodes >= 20000);
  CHECK(r.nodes < 40000);
}

TEST_CASE("movetime is respected") {
  Engine engine;
  engine.set_option("USI_Hash", "16");
  engine.set_option("MoveOverhead", "50");
  REQUIRE(engine.prepare().is_ok());  // the evaluation loaded first, as isready does
  REQUIRE(engine.set_position("startpos", {}).is_ok());
  SearchLimits limits;
  limits.movetime_ms = 300;
  const auto start = std::chrono::steady_clock::now();
  const SearchResult r = engine.search(limits);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  CHECK(r.kind == SearchResult::Kind::kMove);
  CHECK(ms < 300 + 150);  // sanitizer builds are slow to unwind; the margin is generous
}

TEST_CASE("stop ends an infinite search with a legal move") {
  Engine engine;
  engine.set_option("USI_Hash", "16");
  REQUIRE(engine.set_position("startpos", {}).is_ok());
  SearchResult result;
  bool done = false;
  engine.set_result_callback([&](const SearchResult& r) {
    result = r;
    done = true;
  });
  SearchLimits limits;
  limits.infinite = true;
  engine.go(limits);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(!done);  // infinite: no bestmove before stop
  engine.stop();
  engine.wait();
  CHECK(done);
  CHECK(result.kind == SearchResult::Kind::kMove);
  CHECK(legal_moves(engine.position()).contains(result.best));
}

TEST_CASE("time budget never exceeds what can be spent") {
  SearchLimits limits;
  for (int64_t left : {0, 50, 1000, 10000, 300000}) {
    for (int64_t byoyomi : {0, 1000, 10000}) {
      for (int64_t inc : {0, 10000}) {
        limits.time_left_ms[kBlack] = limits.time_left_ms[kWhite] = left;
        limits.byoyomi_ms = byoyomi;
        limits.increment_ms[kBlack] = limits.increment_ms[kWhite] = inc;
        for (int ply : {1, 40, 150}) {
          const TimeBudget b = compute_time_budget(limits, kBlack, ply, TimeOptions{100});
          CAPTURE(left);
          CAPTURE(byoyomi);
          CAPTURE(inc);
          CHECK(b.managed);
          CHECK(b.optimum_ms <= b.maximum_ms);
          CHECK(b.maximum_ms <= std::max<int64_t>(20, left + byoyomi - 100));
          CHECK(b.optimum_ms > 0);
        }
      }
    }
  }
  // Pure byoyomi: all of it, less the overhead.
  limits = SearchLimits();
  limits.time_left_ms[kBlack] = limits.time_left_ms[kWhite] = 0;
  limits.byoyomi_ms = 1000;
  CHECK(compute_time_budget(limits, kWhite, 10, TimeOptions{100}).maximum_ms == 900);
  // No clock at all: unmanaged.
  CHECK(!compute_time_budget(SearchLimits(), kBlack, 1, TimeOptions{100}).managed);
  // floodgate's 300 s + 10 s Fischer (the client passes the increment inside the main time):
  // the second move neither thinks long nor may run long; the middle game gets more.
  limits = SearchLimits();
  limits.time_left_ms[kBlack] = limits.time_left_ms[kWhite] = 310000;
  limits.increment_ms[kBlack] = limits.increment_ms[kWhite] = 10000;
  const TimeBudget opening = compute_time_budget(limits, kBlack, 3, TimeOptions{100});
  const TimeBudget middle = compute_time_budget(limits, kBlack, 40, TimeOptions{100});
  CHECK(opening.maximum_ms <= 30000);
  CHECK(opening.optimum_ms < middle.optimum_ms);
  CHECK(middle.maximum_ms <= 3 * middle.optimum_ms + 300);
}

TEST_CASE("futility controller (paper) adopts the smallest margin reaching the target precision") {
  using F = FutilityController;
  F f;
  f.configure(F::Mode::kPaper, 60, 200);
  CHECK(f.margin(F::kFailHigh, 1, 1) == kValueNone);  // nothing settled yet
  // Nodes whose eval exceeds beta by 120: margins 50, 75, 100 would cut them.
  // Half of them fail low in the full search: precision 50% < 60% for those three.
  for (int i = 0; i < 1000; ++i) f.record_node(1, 120, 0, i % 2 ? 10 : -10);
  CHECK(f.margin(F::kFailHigh, 1, 1) == kValueNone);
  // Nodes 400 above beta almost always fail high: margins up to 400 see them.
  for (int i = 0; i < 2000; ++i) f.record_node(1, 400, 0, i % 10 ? 50 : -50);
  // Margins 50..100 now: (500 + 1800) / 3000 = 77% precise -> adopted, the smallest is 50.
  CHECK(f.margin(F::kFailHigh, 1, 1) == 50);
  // Pre-frontier and the move side keep their own statistics.
  CHECK(f.margin(F::kFailHigh, 2, 1) == kValueNone);
  CHECK(f.margin(F::kFailLow, 1, 1) == kValueNone);
  // Quiet moves 180 below alpha: margins up to 150 would skip them; 70% stay below alpha.
  for (int i = 0; i < 1000; ++i) f.record_move(1, -180, 0, i % 10 < 7 ? -5 : 5);
  CHECK(f.margin(F::kFailLow, 1, 1) == 50);
  // A target of 80% is out of reach for them: nothing adopted.
  F strict;
  strict.configure(F::Mode::kPaper, 80, 200);
  for (int i = 0; i < 1000; ++i) strict.record_move(1, -180, 0, i % 10 < 7 ? -5 : 5);
  CHECK(strict.margin(F::kFailLow, 1, 1) == kValueNone);
  f.reset();
  CHECK(f.margin(F::kFailHigh, 1, 1) == kValueNone);
  CHECK(f.margin(F::kFailLow, 1, 1) == kValueNone);
  f.configure(F::Mode::kFixed, 60, 150);
  CHECK(f.margin(F::kFailHigh, 1, 1) == 150);
  CHECK(f.margin(F::kFailLow, 2, 1) == 300);
  f.configure(F::Mode::kOff, 60, 150);
  CHECK(f.margin(F::kFailHigh, 1, 1) == kValueNone);
}

TEST_CASE("futility controller (dynamic): verified samples, costly wrong prunes, phases") {
  using F = FutilityController;
  const uint64_t kKey = uint64_t(1) << 40 | uint64_t(1) << 48;  // a node not verified
  F f;
  f.configure(F::Mode::kDynamic, 90, 100);
  f.set_root_ply(1);
  // 95% of the nodes 120 above beta fail high; each wrong one falls 50 below beta. Counted
  // by cost (1.5 each) the precision of margins 50..100 is 0.95 / (0.95 + 0.075) = 92.7%.
  for (int i = 0; i < 1000; ++i) f.record_node(1, 120, 0, i % 20 ? 10 : -50);
  const Value adopted = f.margin(F::kFailHigh, 1, kKey);
  CHECK(adopted == 50);
  // Wrong prunes that miss by 8 pawns (cost 9 each, capped there): 0.95 / (0.95 + 0.45) =
  // 68% < 90%, though 95% of the prunes stay right.
  F costly;
  costly.configure(F::Mode::kDynamic, 90, 100);
  for (int i = 0; i < 1000; ++i) costly.record_node(1, 120, 0, i % 20 ? 10 : -2000);
  CHECK(costly.margin(F::kFailHigh, 1, kKey) == kValueNone);
  F paper;  // the document counts them one each: 95%, adopted
  paper.configure(F::Mode::kPaper, 90, 100);
  for (int i = 0; i < 1000; ++i) paper.record_node(1, 120, 0, i % 20 ? 10 : -2000);
  CHECK(paper.margin(F::kFailHigh, 1, kKey) == 50);
  // One key in kVerifyOneIn (bits 40.. for the fail-high side, 48.. for the fail-low side)
  // is searched unpruned.
  int verified = 0;
  for (uint64_t k = 0; k < 64; ++k) verified += f.margin(F::kFailHigh, 1, k << 40) == kValueNone;
  CHECK(verified == int(64 / F::kVerifyOneIn));
  CHECK(f.margin(F::kFailHigh, 1, uint64_t(1) << 40) == 50);
  CHECK(f.margin(F::kFailHigh, 1, 0) == kValueNone);
  // A verified node counts kVerifyOneIn times: 40 nodes the margin in force would prune, all
  // wrong by 6 pawns, outweigh the right ones: no margin reaches 90% and none is in force.
  for (int i = 0; i < 40; ++i) f.record_node(1, 180, 0, -600);
  CHECK(f.margin(F::kFailHigh, 1, kKey) == kValueNone);
  // Nodes 250 above beta, all right: 200 is the smallest margin precise enough.
  for (int i = 0; i < 600; ++i) f.record_node(1, 250, 0, 300);
  CHECK(f.margin(F::kFailHigh, 1, kKey) == 200);
  // Another phase has statistics of its own; the first is kept for when it comes back.
  f.set_root_ply(F::kPhasePlies + 1);
  CHECK(f.margin(F::kFailHigh, 1, kKey) == kValueNone);
  f.set_root_ply(F::kPhasePlies);
  CHECK(f.margin(F::kFailHigh, 1, kKey) == 200);
  CHECK(f.report().find("phase 0 fail-high depth 1 margin 200:") != std::string::npos);
  f.reset();
  CHECK(f.margin(F::kFailHigh, 1, kKey) == kValueNone);
  CHECK(f.report().empty());
}

TEST_CASE("options: types, ranges and case-insensitive names") {
  Engine engine;
  CHECK(engine.set_option("usi_hash", "32").is_ok());
  CHECK(engine.options().get_int("USI_Hash") == 32);
  CHECK(!engine.set_option("USI_Hash", "0").is_ok());
  CHECK(!engine.set_option("USI_Hash", "abc").is_ok());
  CHECK(!engine.set_option("FutilityMode", "sometimes").is_ok());
  CHECK(engine.set_option("FutilityMode", "OFF").is_ok());
  CHECK(engine.options().get_string("FutilityMode") == "off");
  CHECK(!engine.set_option("NoSuchOption", "1").is_ok());
  CHECK(!engine.set_option("USI_Ponder", "yes").is_ok());
  bool found_threads = false;
  for (const std::string& line : engine.options().usi_lines())
    found_threads |= line == "option name Threads type spin default 1 min 1 max 512";
  CHECK(found_threads);
}

TEST_CASE("Lazy SMP: several threads search together and return a legal move") {
  Engine engine;
  engine.set_option("USI_Hash", "16");
  REQUIRE(engine.set_option("Threads", "3").is_ok());
  REQUIRE(engine.set_position("startpos", {"7g7f", "3c3d", "8h2b+"}).is_ok());
  SearchLimits limits;
  limits.depth = 7;
  const SearchResult r = engine.search(limits);
  REQUIRE(r.kind == SearchResult::Kind::kMove);
  CHECK(legal_moves(engine.position()).contains(r.best));
  const std::string best = format_usi_move(r.best);
  CHECK((best == "3a2b" || best == "8b2b"));  // the bishop must be recaptured
  CHECK(r.depth >= 7);
  // Back to one thread: deterministic again.
  REQUIRE(engine.set_option("Threads", "1").is_ok());
  engine.new_game();
  const SearchResult a = engine.search(limits);
  engine.new_game();
  const SearchResult b = engine.search(limits);
  CHECK(a.nodes == b.nodes);
}

TEST_CASE("search: the tunable parameters are options that change the search, and reset") {
  // The same position at the same depth: another LMR divisor or null-move base searches
  // another tree; back at the defaults, the same tree again.
  const std::string sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
  auto nodes = [&](const std::vector<std::pair<std::string, std::string>>& options) {
    Engine engine;
    engine.set_option("USI_Hash", "16");
    engine.set_option("USI_OwnBook", "false");
    for (const auto& [name, value] : options) REQUIRE(engine.set_option(name, value).is_ok());
    return search_sfen(engine, sfen, 7).nodes;
  };
  const uint64_t defaults = nodes({});
  CHECK(nodes({{"LmrDivisor", "250"}}) != defaults);
  CHECK(nodes({{"NullMoveBase", "5"}}) != defaults);
  CHECK(nodes({{"LmrDivisor", "250"}, {"LmrDivisor", "160"}}) == defaults);
  Engine engine;
  CHECK_FALSE(engine.set_option("LmrDivisor", "10").is_ok());  // below its range
}

namespace {

// The position after `moves` (USI notation) from the start.
Position after_moves(const std::vector<std::string>& moves) {
  Position pos;
  REQUIRE(pos.set_sfen("startpos").is_ok());
  for (const std::string& text : moves) {
    Move m;
    REQUIRE(parse_usi_move(pos, text, m).is_ok());
    pos.do_move(m);
  }
  return pos;
}

}  // namespace

TEST_CASE("eval noise: within its amplitude, uniform, a property of the position and seed") {
  EvalNoise noise;
  noise.amplitude_cp = 50;
  noise.seed = 1;
  // Over many keys every value lies in [-A, A], both ends are reached, and the mean is near 0.
  test::Prng prng(7);
  int low = 0, high = 0;
  int64_t sum = 0;
  constexpr int kKeys = 20000;
  for (int i = 0; i < kKeys; ++i) {
    const Value v = noise.black_view(prng.next());
    REQUIRE(v >= -50);
    REQUIRE(v <= 50);
    low += v == -50;
    high += v == 50;
    sum += v;
  }
  CHECK(low > 0);
  CHECK(high > 0);
  CHECK(std::abs(double(sum) / kKeys) < 2.0);
  // Amplitude 1 gives each of -1, 0 and 1; amplitude 0 nothing.
  EvalNoise one{1, 3};
  int seen[3] = {0, 0, 0};
  for (int i = 0; i < 300; ++i) ++seen[one.black_view(prng.next()) + 1];
  CHECK((seen[0] > 0 && seen[1] > 0 && seen[2] > 0));
  CHECK(EvalNoise{}.black_view(prng.next()) == 0);
  CHECK_FALSE(EvalNoise{}.on());

  // The same position reached by two move orders gets the same noise.
  const Position a = after_moves({"7g7f", "3c3d", "2g2f", "8c8d"});
  const Position b = after_moves({"2g2f", "8c8d", "7g7f", "3c3d"});
  REQUIRE(a.key() == b.key());
  CHECK(noise.for_side_to_move(a) == noise.for_side_to_move(b));
  // Another seed gives other noise (on at least one of a few positions).
  EvalNoise other = noise;
  other.seed = 2;
  bool differs = false;
  for (const std::string& sfen : search_bench_positions()) {
    Position pos;
    REQUIRE(pos.set_sfen(sfen).is_ok());
    differs |= noise.for_side_to_move(pos) != other.for_side_to_move(pos);
  }
  CHECK(differs);
}

TEST_CASE("eval noise: both sides to move see one value, from Black's view") {
  // Each bench position with either side to move: the side to move's noise is Black's with
  // Black to move and its negation with White to move, the same number for both.
  const EvalNoise noise{200, 12345};
  int nonzero = 0;
  for (const std::string& sfen : search_bench_positions()) {
    Position black, white;
    std::string flipped = sfen;
    const size_t side = flipped.find(' ') + 1;
    flipped[side] = flipped[side] == 'b' ? 'w' : 'b';
    REQUIRE(black.set_sfen(sfen).is_ok());
    REQUIRE(white.set_sfen(flipped).is_ok());
    if (black.side_to_move() == kWhite) std::swap(black, white);
    REQUIRE(black.key() != white.key());
    CHECK(noise.black_view(black.key()) == noise.black_view(white.key()));
    CHECK(noise.for_side_to_move(black) == noise.black_view(black.key()));
    CHECK(noise.for_side_to_move(white) == -noise.for_side_to_move(black));
    nonzero += noise.for_side_to_move(black) != 0;
  }
  CHECK(nonzero > 0);
}

TEST_CASE("eval noise: off changes nothing; one seed one search, another seed another") {
  // Searches the first bench positions to depth 6, each after a new game, with these options.
  const std::vector<std::string> positions(search_bench_positions().begin(),
                                           search_bench_positions().begin() + 4);
  auto search_all = [&](Engine& engine) {
    std::vector<std::pair<uint64_t, Move>> results;
    for (const std::string& sfen : positions) {
      engine.new_game();
      const SearchResult r = search_sfen(engine, sfen, 6);
      results.emplace_back(r.nodes, r.best);
    }
    return results;
  };
  auto make_engine = [](const std::vector<std::pair<std::string, std::string>>& options) {
    auto engine = std::make_unique<Engine>();
    REQUIRE(engine->set_option("USI_Hash", "16").is_ok());
    for (const auto& [name, value] : options) REQUIRE(engine->set_option(name, value).is_ok());
    return engine;
  };
  const auto defaults = search_all(*make_engine({}));
  // Off, with a seed or after noise was on, is the default search.
  CHECK(search_all(*make_engine({{"EvalNoise", "0"}, {"EvalNoiseSeed", "987654"}})) == defaults);
  CHECK(search_all(*make_engine({{"EvalNoise", "100"}, {"EvalNoise", "0"}})) == defaults);

  // On: the same seed gives the same searches after a new game, in one engine and in another.
  auto noisy = make_engine({{"EvalNoise", "100"}, {"EvalNoiseSeed", "1"}});
  const auto seed1 = search_all(*noisy);
  CHECK(search_all(*noisy) == seed1);
  CHECK(search_all(*make_engine({{"EvalNoiseSeed", "1"}, {"EvalNoise", "100"}})) == seed1);
  CHECK(seed1 != defaults);
  // Another seed: another player, its nodes differ on at least one position.
  const auto seed2 = search_all(*make_engine({{"EvalNoise", "100"}, {"EvalNoiseSeed", "2"}}));
  bool nodes_differ = false;
  for (size_t i = 0; i < positions.size(); ++i) nodes_differ |= seed1[i].first != seed2[i].first;
  CHECK(nodes_differ);
  // Out of range values are refused.
  Engine engine;
  CHECK_FALSE(engine.set_option("EvalNoise", "501").is_ok());
  CHECK_FALSE(engine.set_option("EvalNoiseSeed", "-1").is_ok());
}

}  // namespace search_test
