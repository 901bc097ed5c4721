// Search, time management, futility statistics and options.
#include <doctest/doctest.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "engine/engine.h"
#include "engine/futility.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/search_bench.h"
#include "engine/timeman.h"

using namespace engine;

namespace {

SearchResult search_sfen(Engine& engine, const std::string& sfen, int depth) {
  REQUIRE(engine.set_position(sfen, {}).is_ok());
  SearchLimits limits;
  limits.depth = depth;
  return engine.search(limits);
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
  REQUIRE(engine.set_position("startpos", {}).is_ok());
  SearchLimits limits;
  limits.movetime_ms = 300;
  const auto start = std::chrono::steady_clock::now();
  const SearchResult r = engine.search(limits);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start).count();
  CHECK(r.kind == SearchResult::Kind::kMove);
  CHECK(ms < 300 + 150);  // sanitizer builds are slow to unwind; the margin is generous
}

TEST_CASE("stop ends an infinite search with a legal move") {
  Engine engine;
  engine.set_option("USI_Hash", "16");
  REQUIRE(engine.set_position("startpos", {}).is_ok());
  SearchResult result;
  bool done = false;
  engine.set_result_callback([&](const SearchResult& r) { result = r; done = true; });
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
          const TimeBudget b = compute_time_budget(limits, kBlack, ply, 100);
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
  CHECK(compute_time_budget(limits, kWhite, 10, 100).maximum_ms == 900);
  // No clock at all: unmanaged.
  CHECK(!compute_time_budget(SearchLimits(), kBlack, 1, 100).managed);
}

TEST_CASE("futility controller adopts the smallest margin reaching the target precision") {
  using F = FutilityController;
  F f;
  f.configure(F::Mode::kDynamic, 60, 200);
  CHECK(f.margin(F::kFailHigh, 1) == kValueNone);  // nothing settled yet
  // Nodes whose eval exceeds beta by 120: margins 50, 75, 100 would cut them.
  // Half of them fail low in the full search: precision 50% < 60% for those three.
  for (int i = 0; i < 1000; ++i) f.record_node(1, 120, 0, i % 2 ? 10 : -10);
  CHECK(f.margin(F::kFailHigh, 1) == kValueNone);
  // Nodes 400 above beta almost always fail high: margins up to 400 see them.
  for (int i = 0; i < 2000; ++i) f.record_node(1, 400, 0, i % 10 ? 50 : -50);
  // Margins 50..100 now: (500 + 1800) / 3000 = 77% precise -> adopted, the smallest is 50.
  CHECK(f.margin(F::kFailHigh, 1) == 50);
  // Pre-frontier and the move side keep their own statistics.
  CHECK(f.margin(F::kFailHigh, 2) == kValueNone);
  CHECK(f.margin(F::kFailLow, 1) == kValueNone);
  // Quiet moves 180 below alpha: margins up to 150 would skip them; 70% stay below alpha.
  for (int i = 0; i < 1000; ++i) f.record_move(1, -180, 0, i % 10 < 7 ? -5 : 5);
  CHECK(f.margin(F::kFailLow, 1) == 50);
  // A target of 80% is out of reach for them: nothing adopted.
  F strict;
  strict.configure(F::Mode::kDynamic, 80, 200);
  for (int i = 0; i < 1000; ++i) strict.record_move(1, -180, 0, i % 10 < 7 ? -5 : 5);
  CHECK(strict.margin(F::kFailLow, 1) == kValueNone);
  f.reset();
  CHECK(f.margin(F::kFailHigh, 1) == kValueNone);
  CHECK(f.margin(F::kFailLow, 1) == kValueNone);
  f.configure(F::Mode::kFixed, 60, 150);
  CHECK(f.margin(F::kFailHigh, 1) == 150);
  CHECK(f.margin(F::kFailLow, 2) == 300);
  f.configure(F::Mode::kOff, 60, 150);
  CHECK(f.margin(F::kFailHigh, 1) == kValueNone);
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
