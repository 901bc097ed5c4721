// UsiEnginePlayer against a scripted fake USI engine: the dialog, pondering, and every way an
// engine can fail mid-game (crash, silence, an illegal move, two bestmoves, a bestmove while
// pondering), each answered in time by the engine or by the built-in fallback; the margin
// learnt from a late engine, the threads and hash options under the engine's names, and a
// prompt end.
#include "client/usi_engine_player.h"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <functional>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "shogi/csa_notation.h"
#include "shogi/movegen.h"
#include "shogi/notation.h"
#include "tests/search_request.h"
#include "tests/temp_dir.h"

#ifndef SASHITE_TEST_DATA_DIR
#define SASHITE_TEST_DATA_DIR "tests/data"
#endif

namespace usi_engine_player_test {

using namespace client;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

const std::string kFake = std::string(SASHITE_TEST_DATA_DIR) + "/usi/fake_usi_engine.sh";

// Answers as they arrive, on any thread.
struct Answers {
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<std::pair<uint64_t, EngineMove>> got;

  EnginePlayer::AnswerCallback callback() {
    return [this](uint64_t id, EngineMove m) {
      std::lock_guard<std::mutex> lock(mutex);
      got.emplace_back(id, std::move(m));
      cv.notify_all();
    };
  }
  // Waits until `n` answers have come (false after `ms`).
  bool wait(size_t n, int ms) {
    std::unique_lock<std::mutex> lock(mutex);
    return cv.wait_for(lock, milliseconds(ms), [&] { return got.size() >= n; });
  }
  size_t size() {
    std::lock_guard<std::mutex> lock(mutex);
    return got.size();
  }
  std::pair<uint64_t, EngineMove> at(size_t i) {
    std::lock_guard<std::mutex> lock(mutex);
    return got.at(i);
  }
};

// How long the fallback may take to answer once the grace is over: its 150 ms search and the
// player's threads; under ThreadSanitizer, with the other core loaded, that took 1.56 s.
#if defined(__SANITIZE_THREAD__)
constexpr int64_t kFallbackAnswerMs = 2500;
#else
constexpr int64_t kFallbackAnswerMs = 1000;
#endif

// A fake engine in MODE answering ANSWERS, its dialog logged in a temporary directory.
struct Fixture {
  TempDir dir{"sashite-usi-player"};
  EngineAdapter fallback;
  std::unique_ptr<UsiEnginePlayer> player;
  std::vector<std::string> logs;
  std::mutex log_mutex;

  Fixture(const std::string& mode, std::vector<std::string> answers, int64_t startup_ms = 10000,
          bool restart_every_game = false, bool send_increment = true,
          const std::function<void(UsiEngineSettings&)>& adjust = {}) {
    ::setenv("FAKE_LOG", (dir.path / "dialog.txt").c_str(), 1);
    ::setenv("FAKE_STATE", (dir.path / "state").c_str(), 1);
    CsaConfig c;
    c.threads = 1;
    c.hash_mb = 16;
    c.book = "off";
    // The fallback's 150 ms searches check the clock every so many nodes; under ThreadSanitizer
    // the network's nodes are slow enough to stretch that past the grace tests' bounds.
    c.weights = "linear";
    REQUIRE(fallback.configure(c));
    UsiEngineSettings s;
    s.command = kFake;
    s.args = {mode};
    s.args.insert(s.args.end(), answers.begin(), answers.end());
    s.hash_mb = 32;
    s.ponder = true;
    s.startup_timeout_ms = startup_ms;
    s.isready_timeout_ms = 5000;
    s.restart_every_game = restart_every_game;
    s.send_increment = send_increment;
    if (adjust) adjust(s);
    player = std::make_unique<UsiEnginePlayer>(s, fallback);
    player->set_log([this](LogLevel, const std::string& m) {
      std::lock_guard<std::mutex> lock(log_mutex);
      logs.push_back(m);
    });
  }
  ~Fixture() {
    player.reset();
    ::unsetenv("FAKE_LOG");
    ::unsetenv("FAKE_STATE");
    ::unsetenv("FAKE_LATE_MS");
  }
  // The lines the engine received.
  std::vector<std::string> dialog() {
    std::ifstream in(dir.path / "dialog.txt");
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
  }
  bool received(const std::string& line) {
    for (const std::string& l : dialog())
      if (l == line) return true;
    return false;
  }
  bool logged(const std::string& part) {
    std::lock_guard<std::mutex> lock(log_mutex);
    for (const std::string& l : logs)
      if (l.find(part) != std::string::npos) return true;
    return false;
  }
};

GameSummary summary() {
  GameSummary s;
  s.max_moves = 256;
  s.declaration = "Jishogi 1.1";
  s.initial = shogi::csa_start_setup();
  return s;
}

// The hard stop (think_ms) is by default well after the 11 s budget the clocks give: the
// engine is told them as they are, with no margin taken.
SearchRequest request(uint64_t id, std::vector<std::string> moves, bool ponder = false,
                      int64_t think_ms = 20000) {
  SearchRequest r;
  r.id = id;
  test_requests::set_usi_moves(r, moves);
  r.limits.time_left_ms[shogi::kBlack] = 10000;
  r.limits.time_left_ms[shogi::kWhite] = 20000;
  r.limits.byoyomi_ms = 1000;
  r.limits.ponder = ponder;
  r.started_ms = 0;
  r.deadline_ms = think_ms;
  return r;
}

std::string usi(const EngineMove& m) { return shogi::format_usi_move(m.move); }

// A move the fallback played: legal, from the built-in engine.
bool legal_in(const SearchRequest& r, const EngineMove& m) {
  const shogi::Position pos = r.position();
  return m.kind == EngineMove::Kind::kMove && shogi::legal_moves(pos).contains(m.move);
}

}  // namespace

TEST_CASE("usi player: handshake, the game's rules as options, a search with its PV and score") {
  Fixture f("normal", {"7g7f:3c3d", "2g2f:8c8d"});
  REQUIRE(f.player->prepare());
  CHECK(f.player->engine_name() == "FakeEngine 1.0");
  f.player->new_game(summary());
  Answers a;
  f.player->start(request(1, {}), a.callback());
  REQUIRE(a.wait(1, 5000));
  CHECK(a.at(0).first == 1);
  const EngineMove m = a.at(0).second;
  CHECK(usi(m) == "7g7f");
  REQUIRE(m.score.has_value());
  CHECK(*m.score == -42);
  REQUIRE(m.pv.size() == 2);
  CHECK(shogi::format_usi_move(m.pv[1]) == "3c3d");
  CHECK(f.received("setoption name USI_Hash value 32"));
  CHECK(f.received("setoption name USI_Ponder value true"));
  CHECK(f.received("setoption name Threads value 1"));
  CHECK(f.received("setoption name MaxMovesToDraw value 256"));
  CHECK(f.received("setoption name EnteringKingRule value CSARule27"));
  CHECK(f.received("usinewgame"));
  CHECK(f.received("position startpos"));
  CHECK(f.received("go btime 10000 wtime 20000 byoyomi 1000"));
  f.player->game_over(GameOutcome::kWin);
  f.player->wait();
  std::this_thread::sleep_for(milliseconds(100));
  CHECK(f.received("gameover win"));
  CHECK(f.player->replaced_answers() == 0);
}

TEST_CASE("usi player: a council's vote becomes the move's note (the record's comment)") {
  Fixture f("council", {"7g7f:3c3d"});
  REQUIRE(f.player->prepare());
  f.player->new_game(summary());
  Answers a;
  f.player->start(request(1, {}), a.callback());
  REQUIRE(a.wait(1, 5000));
  const EngineMove m = a.at(0).second;
  CHECK(usi(m) == "7g7f");
  CHECK(m.note == "council: majority 7g7f 2/2 (weight 2/2) from a; a 7g7f -42, b 7g7f -50");
  REQUIRE(m.score.has_value());
  CHECK(*m.score == -42);
}

// A game's first search under a Fischer clock (2 s increment), answered.
void fischer_go(Fixture& f, Answers& a) {
  REQUIRE(f.player->prepare());
  f.player->new_game(summary());
  SearchRequest r = request(1, {});
  r.limits.byoyomi_ms = 0;
  r.limits.increment_ms[shogi::kBlack] = r.limits.increment_ms[shogi::kWhite] = 2000;
  f.player->start(r, a.callback());
  REQUIRE(a.wait(1, 5000));
}

TEST_CASE("usi player: Fischer clocks go out as binc/winc, without byoyomi") {
  Fixture f("normal", {"7g7f:3c3d"});
  Answers a;
  fischer_go(f, a);
  CHECK(f.received("go btime 10000 wtime 20000 binc 2000 winc 2000"));
}

TEST_CASE("usi player: send_increment = false: an engine without binc is never sent it") {
  Fixture f("oldgo", {"7g7f:3c3d"}, 10000, false, false);
  Answers a;
  fischer_go(f, a);
  CHECK(usi(a.at(0).second) == "7g7f");  // its own move: it did not die
  CHECK(f.received("go btime 10000 wtime 20000 byoyomi 0"));
  CHECK(f.player->replaced_answers() == 0);
}

TEST_CASE("usi player: ponder hit answers after ponderhit; a ponder miss is stopped unheard") {
  Fixture f("normal", {"7g7f:3c3d", "2g2f:8c8d", "6i7h:4a3b"});
  REQUIRE(f.player->prepare());
  f.player->new_game(summary());
  Answers a;
  f.player->start(request(1, {"7g7f", "3c3d"}, true), a.callback());
  CHECK(!a.wait(1, 300));  // pondering: no answer before ponderhit
  // The hard stop after a ponderhit is the budget's end: the margin (100 ms) comes off.
  CHECK(f.received("go ponder btime 10000 wtime 20000 byoyomi 900"));
  f.player->ponderhit(1, request(1, {"7g7f", "3c3d"}));
  REQUIRE(a.wait(1, 5000));
  CHECK(a.at(0).first == 1);
  CHECK(usi(a.at(0).second) == "2g2f");
  CHECK(f.received("ponderhit"));

  // A miss: stop, and the stopped search's bestmove is not an answer.
  f.player->start(request(2, {"7g7f", "3c3d", "2g2f", "8c8d"}, true), a.callback());
  std::this_thread::sleep_for(milliseconds(100));
  f.player->stop(2);
  f.player->start(request(3, {"7g7f", "3c3d", "2g2f", "4a3b"}), a.callback());
  REQUIRE(a.wait(2, 5000));
  std::this_thread::sleep_for(milliseconds(200));
  CHECK(a.size() == 2);
  CHECK(a.at(1).first == 3);
  CHECK(usi(a.at(1).second) == "6i7h");
  const std::vector<std::string> d = f.dialog();
  const auto stop = std::find(d.begin(), d.end(), "stop");
  REQUIRE(stop != d.end());
  CHECK(std::find(stop, d.end(), "position startpos moves 7g7f 3c3d 2g2f 4a3b") != d.end());
  CHECK(f.player->replaced_answers() == 0);
}

TEST_CASE("usi player: a bestmove while pondering is kept until the ponderhit") {
  Fixture f("early", {"7g7f:3c3d", "2g2f:8c8d"});
  REQUIRE(f.player->prepare());
  f.player->new_game(summary());
  Answers a;
  f.player->start(request(1, {"7g7f", "3c3d"}, true), a.callback());
  CHECK(!a.wait(1, 300));
  f.player->ponderhit(1, request(1, {"7g7f", "3c3d"}));
  REQUIRE(a.wait(1, 2000));
  CHECK(usi(a.at(0).second) == "2g2f");
  CHECK(f.logged("bestmove while pondering"));
}

TEST_CASE("usi player: two bestmoves for one go: the second is not taken for the next search") {
  Fixture f("double", {"7g7f:3c3d", "2g2f:8c8d"});
  REQUIRE(f.player->prepare());
  f.player->new_game(summary());
  Answers a;
  f.player->start(request(1, {}), a.callback());
  REQUIRE(a.wait(1, 5000));
  std::this_thread::sleep_for(milliseconds(200));
  f.player->start(request(2, {"7g7f", "3c3d"}), a.callback());
  REQUIRE(a.wait(2, 5000));
  CHECK(usi(a.at(1).second) == "2g2f");
  CHECK(f.logged("with no search waiting for it"));
  CHECK(f.player->replaced_answers() == 0);
}

TEST_CASE("usi player: an illegal bestmove is replaced by the built-in engine's move") {
  Fixture f("illegal", {"7g7f:3c3d"});
  REQUIRE(f.player->prepare());
  f.player->new_game(summary());
  Answers a;
  const SearchRequest r = request(1, {});
  f.player->start(r, a.callback());
  REQUIRE(a.wait(1, 5000));
  CHECK(a.at(0).first == 1);
  CHECK(legal_in(r, a.at(0).second));
  CHECK(f.player->replaced_answers() == 1);
  CHECK(f.logged("not a legal move"));
}

TEST_CASE("usi player: an engine that crashes mid-search: the fallback answers, it restarts") {
  Fixture f("crashonce", {"7g7f:3c3d", "2g2f:8c8d"});
  REQUIRE(f.player->prepare());
  f.player->new_game(summary());
  Answers a;
  const SearchRequest r = request(1, {});
  const auto t0 = Clock::now();
  f.player->start(r, a.callback());
  REQUIRE(a.wait(1, 3000));
  CHECK(Clock::now() - t0 < milliseconds(2000));
  CHECK(legal_in(r, a.at(0).second));
  CHECK(f.player->replaced_answers() == 1);
  CHECK(f.logged("engine lost"));
  // Started again, with the game's options, and it answers the next search itself.
  for (int i = 0; i < 100 && f.player->starts() < 2; ++i)
    std::this_thread::sleep_for(milliseconds(20));
  CHECK(f.player->starts() == 2);
  f.player->start(request(2, {"7g7f", "3c3d"}), a.callback());
  REQUIRE(a.wait(2, 5000));
  CHECK(usi(a.at(1).second) == "2g2f");
  const std::vector<std::string> d = f.dialog();
  CHECK(std::count(d.begin(), d.end(), "usinewgame") == 2);
  CHECK(std::count(d.begin(), d.end(), "setoption name MaxMovesToDraw value 256") == 2);
}

TEST_CASE("usi player: a search asked while the engine restarts does not wait for its start") {
  Fixture f("crashslow", {"7g7f:3c3d", "2g2f:8c8d"});
  REQUIRE(f.player->prepare());
  f.player->new_game(summary());
  Answers a;
  f.player->start(request(1, {}), a.callback());
  REQUIRE(a.wait(1, 3000));  // the crash: the fallback's move, and a restart of 3 s begins
  const SearchRequest r = request(2, {"7g7f", "3c3d"}, false, 2000);
  const auto t0 = Clock::now();
  f.player->start(r, a.callback());
  REQUIRE(a.wait(2, 2000));                       // well inside its 2 s, not after the restart
  CHECK(Clock::now() - t0 < milliseconds(1900));  // the restart alone takes 3 s
  CHECK(legal_in(r, a.at(1).second));
  CHECK(f.logged("cannot wait for the engine"));
  CHECK(f.player->replaced_answers() == 2);
  // Once ready again, the engine answers the next search itself.
  const auto readies = [&] {
    std::lock_guard<std::mutex> lock(f.log_mutex);
    return std::count_if(f.logs.begin(), f.logs.end(), [](const std::string& l) {
      return l.find("ready: FakeEngine") != std::string::npos;
    });
  };
  for (int i = 0; i < 300 && readies() < 2; ++i) std::this_thread::sleep_for(milliseconds(20));
  REQUIRE(readies() == 2);
  CHECK(f.player->starts() == 2);
  f.player->start(request(3, {"7g7f", "3c3d"}), a.callback());
  REQUIRE(a.wait(3, 5000));
  CHECK(usi(a.at(2).second) == "2g2f");
}

TEST_CASE("usi player: an engine silent after stop: the fallback answers within the grace") {
  Fixture f("silent", {"7g7f:3c3d"});
  REQUIRE(f.player->prepare());
  f.player->new_game(summary());
  Answers a;
  const SearchRequest r = request(1, {});
  f.player->start(r, a.callback());
  CHECK(!a.wait(1, 300));
  const auto stopped = Clock::now();
  f.player->stop(1);
  REQUIRE(a.wait(1, 3000));
  const auto took = Clock::now() - stopped;
  CHECK(took >= milliseconds(UsiEnginePlayer::kStopGraceMs));
  CHECK(took < milliseconds(UsiEnginePlayer::kStopGraceMs + kFallbackAnswerMs));
  CHECK(legal_in(r, a.at(0).second));
  CHECK(f.player->replaced_answers() == 1);
}

TEST_CASE("usi player: a ponder move that is not legal after the best move is dropped") {
  // "bestmove 5g5f ponder 5g5f": the expected reply is no move of White's (as after a mate).
  Fixture f("normal", {"5g5f:5g5f"});
  REQUIRE(f.player->prepare());
  f.player->new_game(summary());
  Answers a;
  f.player->start(request(1, {}), a.callback());
  REQUIRE(a.wait(1, 5000));
  const EngineMove m = a.at(0).second;
  CHECK(usi(m) == "5g5f");
  CHECK(m.pv.size() == 1);  // nothing for the session to ponder on
}

TEST_CASE("usi player: restart_engine_every_game starts a new process for each game") {
  Fixture f("normal", {"7g7f:3c3d"}, 10000, true);
  REQUIRE(f.player->prepare());
  f.player->new_game(summary());
  Answers a;
  f.player->start(request(1, {}), a.callback());
  REQUIRE(a.wait(1, 5000));
  f.player->game_over(GameOutcome::kLose);
  f.player->new_game(summary());
  f.player->start(request(2, {}), a.callback());
  REQUIRE(a.wait(2, 5000));
  CHECK(f.player->starts() == 2);  // prepare's plays the first game; a new one the second
  CHECK(usi(a.at(1).second) == "7g7f");
  const std::vector<std::string> d = f.dialog();
  CHECK(std::count(d.begin(), d.end(), "gameover lose") == 1);
  CHECK(std::count(d.begin(), d.end(), "quit") == 1);  // the first process, for the second game
}

TEST_CASE("usi player: what the engine could not set up at isready is logged, once") {
  Fixture f("noweights", {"7g7f:3c3d"});
  REQUIRE(f.player->prepare());
  for (uint64_t game = 1; game <= 2; ++game) {
    f.player->new_game(summary());
    Answers a;
    f.player->start(request(game, {}), a.callback());
    REQUIRE(a.wait(1, 5000));
    CHECK(usi(a.at(0).second) == "7g7f");
    f.player->game_over(GameOutcome::kLose);
  }
  f.player->wait();
  std::lock_guard<std::mutex> lock(f.log_mutex);
  const std::vector<std::string> d = f.dialog();
  CHECK(std::count(d.begin(), d.end(), "isready") == 3);  // the start's and each game's
  const std::string shown = "engine: at isready: info string error: isready: w.eval: cannot open";
  CHECK(std::count(f.logs.begin(), f.logs.end(), shown) == 1);
}

TEST_CASE("usi player: an engine that dies on go ponder and on binc is not sent them again") {
  Fixture f("oldgo", {"7g7f:3c3d", "2g2f:8c8d", "6i7h:4a3b"});
  REQUIRE(f.player->prepare());
  f.player->new_game(summary());
  Answers a;
  SearchRequest ponder = request(1, {"7g7f", "3c3d"}, true);
  ponder.limits.byoyomi_ms = 0;
  ponder.limits.increment_ms[shogi::kBlack] = ponder.limits.increment_ms[shogi::kWhite] = 2000;
  f.player->start(ponder, a.callback());
  for (int i = 0; i < 100 && f.player->starts() < 2; ++i)
    std::this_thread::sleep_for(milliseconds(20));
  CHECK(f.player->starts() == 2);
  CHECK(f.logged("no pondering with it"));
  // Its ponderhit searches afresh; the go with binc kills it too: the fallback answers.
  SearchRequest hit = ponder;
  hit.limits.ponder = false;
  f.player->ponderhit(1, hit);
  REQUIRE(a.wait(1, 3000));
  CHECK(a.at(0).first == 1);
  CHECK(legal_in(hit, a.at(0).second));
  CHECK(f.logged("the increment goes inside btime/wtime only"));
  for (int i = 0; i < 100 && f.player->starts() < 3; ++i)
    std::this_thread::sleep_for(milliseconds(20));
  // From now on: no go ponder (no answer, no crash), and Fischer without binc/winc.
  f.player->start(request(2, {"7g7f", "3c3d", "2g2f", "8c8d"}, true), a.callback());
  f.player->stop(2);
  SearchRequest next = request(3, {"7g7f", "3c3d", "2g2f", "8c8d"});
  next.limits.byoyomi_ms = 0;
  next.limits.increment_ms[shogi::kBlack] = next.limits.increment_ms[shogi::kWhite] = 2000;
  f.player->start(next, a.callback());
  REQUIRE(a.wait(2, 3000));
  CHECK(a.at(1).first == 3);
  CHECK(usi(a.at(1).second) == "6i7h");
  CHECK(f.received("go btime 10000 wtime 20000 byoyomi 0"));
  CHECK(f.player->starts() == 3);
}

TEST_CASE("usi player: start-up failures are errors that say what failed") {
  {
    Fixture f("slowstart", {}, 1000);
    const base::Status st = f.player->prepare();
    REQUIRE(!st);
    CHECK(st.message().find("no usiok within 1000 ms") != std::string::npos);
  }
  {
    EngineAdapter fallback;
    UsiEngineSettings s;
    s.command = "/nonexistent/engine";
    UsiEnginePlayer player(s, fallback);
    const base::Status st = player.prepare();
    REQUIRE(!st);
    CHECK(st.message().find("/nonexistent/engine") != std::string::npos);
  }
}

TEST_CASE("engine margin: the first margin, then the latest answers' worst lateness") {
  EngineMargin m(100);
  CHECK(m.margin_ms() == 100);
  CHECK(!m.add(-500, false));  // well before its budget's end: the engine's choice
  CHECK(m.margin_ms() == 100);
  CHECK(m.add(7, false));  // YaneuraOu at NetworkDelay2 = 0, 7 ms late
  CHECK(m.margin_ms() == EngineMargin::kFloorMs + 7);
  CHECK(m.add(-EngineMargin::kNearMs, false));  // near the end: a measure of 0
  CHECK(m.margin_ms() == EngineMargin::kFloorMs + 7);
  CHECK(m.add(30, false));
  CHECK(m.margin_ms() == EngineMargin::kFloorMs + 30);
  // An answer the hard stop had to stop counts double: the engine would have been later still.
  CHECK(m.add(60, true));
  CHECK(m.margin_ms() == EngineMargin::kFloorMs + 120);
  // The worst of the last kWindow measures: it is forgotten kWindow answers later.
  for (size_t i = 0; i + 1 < EngineMargin::kWindow; ++i) CHECK(m.add(5, false));
  CHECK(m.margin_ms() == EngineMargin::kFloorMs + 120);
  CHECK(m.add(5, false));
  CHECK(m.margin_ms() == EngineMargin::kFloorMs + 5);
  CHECK(m.measures() == EngineMargin::kWindow);
  CHECK(m.add(1000000, true));
  CHECK(m.margin_ms() == EngineMargin::kMaxMs);
  CHECK(EngineMargin(0).margin_ms() == 0);
}

TEST_CASE("engine margin: the budget is cut from the byoyomi first, then from the main time") {
  engine::SearchLimits l;
  l.time_left_ms[shogi::kBlack] = 1000;
  l.time_left_ms[shogi::kWhite] = 5000;
  l.byoyomi_ms = 695;
  CHECK(engine_budget_ms(l, shogi::kBlack) == 1695);
  CHECK(engine_budget_ms(l, shogi::kWhite) == 5695);
  engine::SearchLimits c = cut_budget(l, shogi::kBlack, 100);
  CHECK(c.byoyomi_ms == 595);
  CHECK(c.time_left_ms[shogi::kBlack] == 1000);
  c = cut_budget(l, shogi::kBlack, 900);
  CHECK(c.byoyomi_ms == 0);
  CHECK(c.time_left_ms[shogi::kBlack] == 795);
  CHECK(c.time_left_ms[shogi::kWhite] == 5000);  // the opponent's clock as it is
  CHECK(engine_budget_ms(cut_budget(l, shogi::kBlack, 5000), shogi::kBlack) == 0);
  // Fischer: the increment is inside the main time already, not counted again.
  l.byoyomi_ms = 0;
  l.increment_ms[shogi::kBlack] = 10000;
  CHECK(engine_budget_ms(l, shogi::kBlack) == 1000);
  // No clock: the movetime.
  engine::SearchLimits t;
  t.movetime_ms = 3000;
  CHECK(engine_budget_ms(t, shogi::kBlack) == 3000);
  CHECK(cut_budget(t, shogi::kBlack, 200).movetime_ms == 2800);
}

TEST_CASE("usi player: a late engine's budget shrinks until the hard stop is no longer hit") {
  // The engine thinks to the end of the time it is told and answers 150 ms after it. Byoyomi
  // 600 ms and nothing else, the session's hard stop at 600 ms (emulated here), a first margin
  // of 20 ms: the first move must be stopped, the margin then grows past the lateness.
  ::setenv("FAKE_LATE_MS", "150", 1);
  const std::vector<std::string> game = {"7g7f:3c3d", "2g2f:8c8d", "2f2e:8d8e",
                                         "6i7h:4a3b", "3i4h:7a7b", "5i6h:5a4b"};
  Fixture f("late", game, 10000, false, true, [](UsiEngineSettings& s) {
    s.budget_margin_ms = 20;
    s.ponder = false;
  });
  REQUIRE(f.player->prepare());
  f.player->new_game(summary());
  Answers a;
  std::vector<std::string> played;
  std::vector<bool> stopped;
  for (size_t k = 0; k < game.size(); ++k) {
    SearchRequest r = request(k + 1, played, false, 600);
    r.limits.time_left_ms[shogi::kBlack] = r.limits.time_left_ms[shogi::kWhite] = 0;
    r.limits.byoyomi_ms = 600;
    f.player->start(r, a.callback());
    const bool in_time = a.wait(k + 1, 600);
    if (!in_time) f.player->stop(k + 1);
    REQUIRE(a.wait(k + 1, 3000));
    stopped.push_back(!in_time);
    CHECK(usi(a.at(k).second) == game[k].substr(0, 4));
    played.push_back(game[k].substr(0, 4));
    played.push_back(game[k].substr(5));
  }
  std::string seen;
  for (bool b : stopped) seen += b ? 'S' : '.';
  INFO("stopped at the hard stop (S): " << seen);
  CHECK(stopped[0]);  // 20 ms is not enough for an engine 150 ms late
  CHECK(!stopped[3]);
  CHECK(!stopped[4]);
  CHECK(!stopped[5]);
  CHECK(f.player->margin_ms() >= 150 + EngineMargin::kFloorMs);
  CHECK(f.player->replaced_answers() == 0);
  CHECK(f.logged("before the hard stop from now on"));
  // What the engine was told: 600 ms less the first margin, then less the learnt one.
  std::vector<int64_t> byoyomi;
  for (const std::string& l : f.dialog())
    if (l.starts_with("go btime 0 wtime 0 byoyomi "))
      byoyomi.push_back(std::stoll(l.substr(l.rfind(' ') + 1)));
  REQUIRE(byoyomi.size() == game.size());
  CHECK(byoyomi[0] <= 580);
  CHECK(byoyomi[0] >= 560);
  CHECK(byoyomi.back() <= 600 - 150 - EngineMargin::kFloorMs);
  // The learnt margin may pass half the move's time (a second hard stop on a loaded machine
  // doubles its measure), but what the engine is told never loses more than half of the time
  // left when the go went out.
  for (const int64_t b : byoyomi) CHECK(b >= 280);
}

TEST_CASE("usi player: threads and the hash go out under the names the engine offers") {
  Answers a;
  {  // gpsusi's Thread, 1..2: threads = 4 goes out as 2, with a warning.
    Fixture f("gpsopts", {"7g7f:3c3d"}, 10000, false, true,
              [](UsiEngineSettings& s) { s.threads = 4; });
    REQUIRE(f.player->prepare());
    CHECK(f.received("setoption name Thread value 2"));
    CHECK(!f.received("setoption name Threads value 4"));
    CHECK(f.logged("threads = 4 sent as Thread 2"));
    CHECK(f.logged("Thread goes from 1 to 2"));
  }
  {  // Thread set in [engine.usi]: that value, sent once.
    Fixture f("gpsopts", {"7g7f:3c3d"}, 10000, false, true, [](UsiEngineSettings& s) {
      s.threads = 2;
      s.options = {{"Thread", "1"}};
    });
    REQUIRE(f.player->prepare());
    const std::vector<std::string> d = f.dialog();
    CHECK(std::count_if(d.begin(), d.end(), [](const std::string& l) {
            return l.starts_with("setoption name Thread ");
          }) == 1);
    CHECK(f.received("setoption name Thread value 1"));
  }
  {  // Hash and no USI_Hash; no threads option at all: a warning says threads is not told.
    Fixture f("hashopts", {"7g7f:3c3d"});
    REQUIRE(f.player->prepare());
    CHECK(f.received("setoption name USI_Hash value 32"));
    CHECK(f.received("setoption name Hash value 32"));
    CHECK(!f.received("setoption name Threads value 1"));
    CHECK(f.logged("offers no Threads or Thread option: threads = 1 not told to it"));
  }
}

TEST_CASE("usi player: after the last game: wait() at once, quit() ends the engine, no delay") {
  Fixture f("normal", {"7g7f:3c3d"});
  REQUIRE(f.player->prepare());
  f.player->new_game(summary());
  Answers a;
  f.player->start(request(1, {}), a.callback());
  REQUIRE(a.wait(1, 5000));
  f.player->game_over(GameOutcome::kWin);
  const auto t0 = Clock::now();
  f.player->wait();  // no search runs: returns at once (it waited 5 s for an idle engine thread)
  CHECK(Clock::now() - t0 < milliseconds(1000));
  f.player->quit();
  f.player->wait();
  CHECK(Clock::now() - t0 < milliseconds(1500));
  const std::vector<std::string> d = f.dialog();
  const auto over = std::find(d.begin(), d.end(), "gameover win");
  REQUIRE(over != d.end());
  CHECK(std::find(over, d.end(), "quit") != d.end());
  CHECK(f.logged("quit: exited with status 0"));
  // A new game after all: the engine is started again and answers itself.
  f.player->new_game(summary());
  f.player->start(request(2, {}), a.callback());
  REQUIRE(a.wait(2, 5000));
  CHECK(usi(a.at(1).second) == "7g7f");
  CHECK(f.player->starts() == 2);
  CHECK(f.player->replaced_answers() == 0);
  const auto t1 = Clock::now();
  f.player.reset();
  CHECK(Clock::now() - t1 < milliseconds(1500));
}

}  // namespace usi_engine_player_test
