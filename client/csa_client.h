// CsaClient: the tournament client's loop around a CsaSession, a Transport and an engine.
#pragma once

// One thread (the caller of run()) owns the session, the transport and the engine player and
// carries out every action the session asks for:
//  - Connect: after the session's delay, or with back-off after failures (reconnect_initial_s
//    doubled per consecutive failure up to reconnect_max_s; reset by a successful login);
//    connect attempts time out after connect_timeout_s; max_connect_failures gives up;
//  - SendLine / Close on the transport; every line sent and received is logged with its time
//    (the password masked);
//  - timers at session.next_wakeup_ms(); a connection silent for the idle timeout is closed;
//  - StartSearch / StopSearch on the engine; its answers, which arrive on a search thread, are
//    queued under a mutex and the loop is woken (interrupt), then fed to the session here;
//  - records: written after every move (GameFiles), one results line per game, on the
//    RecordWriter's thread: a slow disk delays neither the next line's time nor a search.
// request_quit() may be called from any thread or a signal handler (it only sets atomics); the
// loop looks at it at least every kPollMs.
//
// Exit status of run(): kExitOk when every game ended with a result (or none was played and
// the session finished normally), kExitProtocol when the session failed (LOGIN:incorrect at the
// first login, or for an hour after earlier logins succeeded; bad credentials), kExitConnection
// when a game was cut by a lost connection or connecting failed max_connect_failures times in a
// row, kExitSetup when the log or record directory cannot be created.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "client/client_status.h"
#include "client/csa_config.h"
#include "client/csa_session.h"
#include "client/engine_player.h"
#include "client/game_files.h"
#include "client/log_limiter.h"
#include "client/record_writer.h"
#include "client/status_board.h"
#include "client/transport.h"

namespace spdlog {
class logger;
}

namespace client {

constexpr int kExitOk = 0;
constexpr int kExitSetup = 1;
constexpr int kExitProtocol = 2;
constexpr int kExitConnection = 3;

class CsaClient {
 public:
  static constexpr int64_t kPollMs = 200;

  // `interrupt` wakes a receive_lines in progress (AsioTransport::interrupt); may be empty.
  // The transport and the engine must outlive the client.
  CsaClient(CsaConfig config, Transport& transport, EnginePlayer& engine,
            std::function<void()> interrupt = {});
  ~CsaClient();
  CsaClient(const CsaClient&) = delete;
  CsaClient& operator=(const CsaClient&) = delete;

  // Keeps `board` (the status page's model) up to date from run() on. Call before run();
  // the board must outlive the client.
  void set_status_board(StatusBoard* board) { status_board_ = board; }

  // Plays until the session finishes; returns the exit status (above).
  int run();

  // Thread-safe and async-signal-safe. The first request finishes the current game (or
  // resigns it when on_quit = "resign", or `immediate`); a second one resigns.
  void request_quit(bool immediate = false);

  // After run(): what happened, for tests and the command's summary.
  const std::vector<GameResult>& results() const { return results_; }
  const std::vector<std::string>& record_paths() const { return record_paths_; }
  const std::string& finish_reason() const { return finish_reason_; }
  int connections() const { return connections_; }

 private:
  int64_t now_ms() const;
  void handle(const Event& event);
  // The event as of `at_ms` (a line's arrival), not of now.
  void handle(const Event& event, int64_t at_ms);
  void execute(const Action& action);
  void do_connect();
  void on_engine_answer(uint64_t id, EngineMove move);  // any thread
  void drain_engine_answers();
  void check_quit();
  void wait_for_input(int64_t until_ms);
  void log_line(char direction, const std::string& line);

  CsaConfig config_;
  Transport& transport_;
  EnginePlayer& engine_;
  std::function<void()> interrupt_;
  std::unique_ptr<CsaSession> session_;
  std::shared_ptr<spdlog::logger> log_;
  GameFiles files_;  // used on writer_'s thread once run() has set it up
  int64_t start_ns_ = 0;

  // Loop state (loop thread only).
  std::optional<int64_t> connect_at_ms_;
  int64_t last_received_ms_ = 0;
  int failures_ = 0;  // consecutive failed connections or logins
  bool gave_up_ = false;
  bool closed_by_us_ = false;
  bool finished_ = false;
  bool finish_ok_ = true;
  bool game_cut_ = false;
  int quit_seen_ = 0;
  shogi::Color us_ = shogi::kBlack;
  GameSummary game_summary_;
  std::vector<GameResult> results_;
  std::vector<std::string> record_paths_;  // filled on writer_'s thread, read after run()
  std::string finish_reason_;
  int connections_ = 0;
  StatusBoard* status_board_ = nullptr;
  std::unique_ptr<ClientStatus> status_;  // set when status_board_ is
  // A server flooding us (a refused Game_Summary of 200,000 lines) must not rotate the log
  // away: warnings of one kind and the lines sent or received are limited per window (a
  // summary with 2,000 moves played stays whole).
  LogLimiter warnings_limit_{20, 10000};
  LogLimiter lines_limit_{5000, 10000};

  // Shared with the engine's thread and signal handlers.
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<event::EngineMoveReady> answers_;
  std::atomic<int> quit_requests_{0};
  std::atomic<bool> quit_immediate_{false};

  // Runs the file writes. Last, so that it is joined before the members its jobs use go.
  RecordWriter writer_;
};

}  // namespace client
