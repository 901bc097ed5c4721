// UsiEnginePlayer: any USI engine, run as a child process, behind the CSA client's EnginePlayer.
#pragma once

// One thread of its own (the engine thread) owns the process: it starts it, runs the
// handshakes (usi/usiok, setoption, isready/readyok, usinewgame), sends what the client's
// loop posts (position and go, stop, ponderhit, gameover) and reads every line the engine
// writes. The client's calls only post a command and return, so a slow or hung engine never
// blocks the loop that reads the server.
//
// Every `go` gets exactly one `bestmove` (USI); the answers are matched to the searches in
// order. What the engine gets wrong is caught here, never sent to the server:
//   - a bestmove that is not a legal move (or not a move at all), or no bestmove within
//     kStopGraceMs after `stop`, or an engine that exits mid-search: the built-in engine's
//     quick move answers instead (a short search, logged as an error);
//   - a second bestmove for one go (one with no search waiting) is logged and ignored; a
//     bestmove while pondering, before ponderhit or stop, is held until then;
//   - an engine that died or hung is killed and started again (with the handshake and the
//     current game's options) before the next search; the position is always sent whole;
//   - an engine that dies at once on "go ponder" is not asked to ponder again, and one that
//     dies on binc/winc gets the increment inside btime/wtime only (gpsusi 0.7 does both).
// The engine is told a budget (its main time plus the byoyomi) that ends a learnt margin before
// the session's hard stop at the move's deadline (EngineMargin), so that an engine thinking to
// the end of its time still answers before it; each answer's lateness is measured, and the
// margin logged when it changes.
// The server's rules go to the engine where it offers the option (MaxMovesToDraw for
// Max_Moves, EnteringKingRule for the declaration rule); an option the engine does not offer
// is skipped with one log line. USI_Hash and USI_Ponder are sent always (engines rarely list
// them), and `Hash` too to an engine that offers it and not USI_Hash; the thread count goes to
// whichever of Threads (YaneuraOu, Stockfish's kin) and Thread (gpsusi) the engine offers,
// within its range, else a warning says it offers neither. Thread-safe as EnginePlayer
// requires: call from the client's loop thread.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "client/csa_config.h"
#include "client/engine_margin.h"
#include "client/engine_player.h"
#include "shogi/position.h"
#include "usi/usi_engine_process.h"

namespace client {

// How to run the external engine: the [engine] keys of the configuration.
struct UsiEngineSettings {
  std::string command;                                       // the program
  std::vector<std::string> args;                             // its arguments
  std::string working_dir;                                   // "" = ours
  std::vector<std::pair<std::string, std::string>> options;  // [engine.usi], in order
  int hash_mb = 256;                                         // USI_Hash (and Hash)
  int threads = 1;                                           // Threads or Thread
  bool ponder = false;                                       // USI_Ponder
  int64_t startup_timeout_ms = 30000;                        // start to usiok
  int64_t isready_timeout_ms = 120000;  // isready to readyok (loading a large net)
  bool restart_every_game = false;      // a new process for every game
  bool send_increment = true;           // binc/winc; false: the increment inside btime/wtime
  std::string stderr_path;              // the engine's standard error; "" = discarded
  // How much sooner than the hard stop the engine's budget ends, until its answers have been
  // measured (EngineMargin): ms.
  int64_t budget_margin_ms = 100;
  // The fallback's search (the built-in engine) when the engine cannot answer: ms.
  int64_t fallback_ms = 150;
};

// The settings from a loaded configuration (engine.command and the keys beside it).
UsiEngineSettings usi_engine_settings(const CsaConfig& config);

class UsiEnginePlayer : public EnginePlayer {
 public:
  using Clock = std::chrono::steady_clock;
  // After `stop`, the engine has this long to answer before its answer is replaced.
  static constexpr int64_t kStopGraceMs = 400;

  // `fallback` answers for the engine when it cannot (see above); it must be prepared by
  // prepare() below and outlive this player.
  UsiEnginePlayer(UsiEngineSettings settings, EnginePlayer& fallback);
  ~UsiEnginePlayer() override;
  UsiEnginePlayer(const UsiEnginePlayer&) = delete;
  UsiEnginePlayer& operator=(const UsiEnginePlayer&) = delete;

  void set_log(LogSink sink) override;
  // Starts the engine and waits for its handshake (usiok, readyok); the error says what
  // failed ("cannot run ...", "no usiok within 30000 ms", "exited with status 1").
  base::Status prepare() override;
  void new_game(const GameSummary& summary) override;
  void start(const SearchRequest& request, AnswerCallback answer) override;
  void ponderhit(uint64_t search_id, const SearchRequest& request) override;
  void stop(uint64_t search_id) override;
  void game_over(std::optional<GameOutcome> outcome) override;
  // Sends quit and lets the engine exit on the engine thread; a later new_game starts it again.
  void quit() override;
  void wait() override;

  // For tests and the log: the engine's "id name", times it was started, answers replaced,
  // the margin its budget ends before the hard stop now (ms).
  std::string engine_name() const;
  int starts() const;
  int replaced_answers() const;
  int64_t margin_ms() const;

 private:
  struct Command {
    // kRelease: quit the engine process (no game follows); kQuit: end the engine thread too.
    enum class Kind { kNewGame, kStart, kPonderhit, kStop, kGameOver, kRelease, kQuit };
    explicit Command(Kind k) : kind(k) {}
    Kind kind;
    SearchRequest request;
    AnswerCallback answer;
    uint64_t search_id = 0;
    GameSummary summary;
    std::optional<GameOutcome> outcome;
    Clock::time_point posted;
  };
  // One `go` sent and not yet answered by a bestmove.
  struct Go {
    SearchRequest request;
    AnswerCallback answer;
    shogi::Position position;  // where the bestmove and the PV are read
    bool pondering = false;    // go ponder, neither ponderhit nor stop sent yet
    bool stop_sent = false;
    Clock::time_point stop_time;
    Clock::time_point deadline;  // for the fallback: when the move is due (local)
    int64_t budget_ms = 0;       // what the engine was told it may think (engine_budget_ms)
    // When that budget ends, counted from the go (from the ponderhit's post when pondering;
    // max until then): an answer's lateness is measured from here.
    Clock::time_point budget_end = Clock::time_point::max();
    bool wanted = true;          // the client still wants its answer
    bool bestmove_read = false;  // its bestmove came (held while pondering)
    std::optional<EngineMove> held;
    std::optional<shogi::Value> score;
    std::optional<uint64_t> nodes, nps;  // from its info lines, for the status page
    std::vector<shogi::Move> pv;
    // A council's vote on this move ("council: majority 7g7f 2/3 ..."), its first info string
    // council line: the record's comment and the status page show it.
    std::string council_vote;
  };

  void post(Command command);
  void run();  // the engine thread
  void execute(Command& command);
  // Starts the process and runs usi ... readyok; false (logged) on failure.
  bool launch();
  bool handshake_line(const std::string& line);  // an option/id line during the handshake
  // setoption for threads and hash_mb under the names the engine offers.
  void send_threads_and_hash();
  bool wait_for(const std::string& word, int64_t timeout_ms, std::string& error);
  // While the engine starts or answers isready, a search asked meanwhile cannot wait for it
  // past a quarter of its time (or its deadline's margin): the waiting commands are then
  // served as if the engine were down (the built-in engine's move, ponder searches orphaned).
  void serve_commands_while_waiting();
  void send(const std::string& line);
  void send_game_options();
  void on_line(const std::string& line);
  void on_bestmove(const std::string& line);
  void on_info(const std::string& line);
  void check_stops();
  // The engine is gone (exited, hung): every search still wanted gets the fallback's move.
  void engine_lost(const std::string& why);
  void go(Command& command);
  void send_go(Go go);  // position and go, or the fallback when the engine cannot
  // The engine's budget for `g` cut by the margin: the limits to send (g.budget_ms set).
  engine::SearchLimits told_limits(Go& g, Clock::time_point now);
  // An answer to `g` came now: its lateness measured (EngineMargin::add), the margin logged.
  void measure(const Go& g);
  void answer(Go& go, EngineMove move);
  void fallback(Go& go, const std::string& why);
  void log(LogLevel level, const std::string& message);

  UsiEngineSettings settings_;
  EnginePlayer& fallback_;

  mutable std::mutex mutex_;  // guards the members down to `log_`
  std::condition_variable cv_;
  std::deque<Command> commands_;
  std::optional<base::Status> launch_status_;  // the first launch's outcome, for prepare()
  bool busy_ = false;                          // the engine thread is executing commands
  size_t active_searches_ = 0;                 // gos waiting for an answer, and fallbacks
  bool answers_closed_ = false;                // wait() has returned: no more answers
  std::string engine_name_;
  int starts_ = 0;
  int replaced_ = 0;
  int64_t margin_now_ms_ = 0;  // margin_.margin_ms(), for margin_ms()
  LogSink log_;

  // The engine thread's own.
  std::unique_ptr<usi::UsiEngineProcess> process_;
  bool alive_ = false;
  bool process_played_ = false;    // the process has begun a game (usinewgame)
  std::set<std::string> offered_;  // the option names of the engine's "option name" lines
  std::map<std::string, std::pair<int64_t, int64_t>> spin_ranges_;  // their min and max
  std::set<std::string> skipped_logged_;
  std::set<std::string> ready_errors_logged_;  // the engine's errors at isready, logged once
  std::deque<Go> gos_;
  std::deque<Go> orphans_;  // ponder searches lost with an engine: a ponderhit restarts them
  std::optional<GameSummary> game_;  // the current game, for its options on a restart
  int consecutive_failures_ = 0;
  // What the engine has shown it cannot read (it died on it): kept across its restarts.
  bool ponder_ok_ = true;     // go ponder
  bool increment_ok_ = true;  // binc/winc
  EngineMargin margin_;
  std::string last_go_;  // the last go line sent, and when
  Clock::time_point last_go_time_;
  Clock::time_point next_launch_;
  std::thread thread_;
};

}  // namespace client
