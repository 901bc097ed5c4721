// MatchEngine: the process that plays one engine's games (engine1's or engine2's) for one
// match worker, started afresh for every game or kept from one game to the next.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "base/status.h"
#include "usi/usi_engine_process.h"

namespace tools {

// One of the two engines of a match worker. Without reuse every game gets a new process
// (usi, setoption, isready, usinewgame ... gameover, quit). With reuse the process is kept
// from one game to the next: each game starts with isready and usinewgame and ends with
// gameover, as a GUI does, so the engine keeps what it learns over a session. A kept process
// is replaced by a new one only when it faulted in its last game (crashed, hung, lost on
// time, played an illegal move; see end_game) or fails the isready of the next game (it died
// or hangs between games): prepare() then reports restarted().
// Not thread-safe: one thread at a time drives it (the handshake may run on another thread
// than the moves, one after the other).
class MatchEngine {
 public:
  using Clock = usi::UsiEngineProcess::Clock;
  using Milliseconds = usi::UsiEngineProcess::Milliseconds;

  // `reuse`: keep the process between games. Default: false (one process per game).
  explicit MatchEngine(bool reuse = false) : reuse_(reuse) {}
  MatchEngine(const MatchEngine&) = delete;
  MatchEngine& operator=(const MatchEngine&) = delete;
  ~MatchEngine() = default;  // a process still running is killed

  // Where the USI dialog goes from now on, this process and the next ones; null for nowhere.
  void set_log(usi::UsiEngineProcess::LogSink sink);

  // Gets a process ready for a game. A kept process gets isready/readyok and usinewgame;
  // otherwise (first game, no reuse, a fault last game, or the kept process failed that) a
  // new process is started from `config` and gets usi/usiok, the setoptions, isready/readyok
  // and usinewgame. Each reply must come within `timeout`.
  // Returns an error only when the program cannot be run (the match should stop); a fault of
  // the engine goes into `reply` (the game is lost by it).
  base::Status prepare(const usi::EngineConfig& config, Milliseconds timeout,
                       usi::EngineReply& reply);

  // The process of the current game. REQUIRES: prepare() returned ok.
  usi::UsiEngineProcess& process() { return *process_; }
  // True when prepare() started a new process in place of a kept one, or of one that faulted
  // in its last game (with reuse only).
  bool restarted() const { return restarted_; }

  // After a game: sends "gameover <result>" (win, lose or draw), then "quit" unless the
  // process is kept for the next game (reuse, and `faulted` is false: the engine crashed,
  // hung, lost on time or misbehaved in this game).
  void end_game(std::string_view result, bool faulted);
  // Waits until `deadline` for a process told to quit to exit, kills it then, and forgets it.
  // A kept process is left alone.
  void release(Clock::time_point deadline);
  // At the end of the match: tells a kept process to quit; release() then waits for it.
  void shut_down();

 private:
  std::unique_ptr<usi::UsiEngineProcess> process_;
  usi::UsiEngineProcess::LogSink log_;
  bool reuse_ = false;
  bool kept_ = false;       // process_ is alive, idle, and will play the next game
  bool faulted_ = false;    // the last game ended with a fault of this engine
  bool restarted_ = false;  // see restarted()
};

}  // namespace tools
