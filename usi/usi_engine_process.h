// UsiEngineProcess: a USI engine run as a child process, driven through pipes with timeouts.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/child_process.h"
#include "base/status.h"
#include "usi/usi_info.h"

namespace usi {

// How to run one engine.
struct EngineConfig {
  std::string command;  // a shell-like command line: "/usr/games/gpsusi", "./x --threads 2"
  std::vector<std::pair<std::string, std::string>> options;  // sent as setoption, in order
  // Give the engine its own temporary OSL_HOME (see UsiEngineProcess::start). Always done
  // for a program named gpsusi. Default: false.
  bool isolate_home = false;
  std::string stderr_path;        // where the engine's stderr goes; "" discards it
  std::vector<std::string> args;  // more arguments after the command line's, taken as they are
  std::string working_dir;        // where the engine runs; "" = our working directory
};

// What went wrong in an exchange with the engine.
enum class EngineFault {
  kNone,
  kTimeout,  // the expected reply did not come in time
  kExited,   // the engine closed its output or exited
};

struct EngineReply {
  EngineFault fault = EngineFault::kNone;
  std::string detail;  // for a fault: "no readyok within 30000 ms", "exited with status 1"
  bool ok() const { return fault == EngineFault::kNone; }
};

// The answer to "go".
struct BestMove : EngineReply {
  std::string move;        // the word after "bestmove": "7g7f", "resign", "win", ...
  int64_t elapsed_ms = 0;  // from sending "go" to reading "bestmove" (or to the fault)
  SearchReport search;     // from the info lines before the bestmove (see SearchInfoTracker)
};

// "NAME=VALUE" command-line options as (NAME, VALUE) pairs for EngineConfig::options, split
// at the first '='. REQUIRES: each string holds a '=' (the command lines check it).
std::vector<std::pair<std::string, std::string>> split_usi_options(
    const std::vector<std::string>& name_values);

// True when `command` runs gpsusi (its program's file name is "gpsusi").
bool is_gpsusi_command(std::string_view command);

// One engine process and the USI dialog with it. Not thread-safe: one thread drives it.
// The destructor kills the engine if it is still running and removes its temporary home.
class UsiEngineProcess {
 public:
  using Clock = std::chrono::steady_clock;
  using Milliseconds = std::chrono::milliseconds;
  // Receives every line sent ("> usi") and received ("< usiok").
  using LogSink = std::function<void(std::string_view line)>;

  UsiEngineProcess() = default;
  UsiEngineProcess(const UsiEngineProcess&) = delete;
  UsiEngineProcess& operator=(const UsiEngineProcess&) = delete;
  ~UsiEngineProcess();

  void set_log(LogSink sink) { log_ = std::move(sink); }

  // Starts the program. With isolate_home (or for gpsusi) the engine gets OSL_HOME set to a
  // new temporary directory holding a `data` symlink to the gpsshogi data ($OSL_HOME/data
  // when our OSL_HOME has one, else /usr/share/gpsshogi-data/data): gpsusi saves every
  // setoption in $OSL_HOME/gpsusi.conf, so engines running side by side must not share it.
  // Errors only when the program cannot be run at all (bad command, not found).
  base::Status start(const EngineConfig& config);

  // Once per process: usi -> id name ... usiok; then setoption for each option.
  // usiok must come within `timeout`.
  EngineReply start_session(const std::vector<std::pair<std::string, std::string>>& options,
                            Milliseconds timeout);
  // Before each game: isready -> readyok (within `timeout`); usinewgame.
  EngineReply new_game(Milliseconds timeout);
  // start_session then new_game: what a process used for one game needs.
  EngineReply prepare_game(const std::vector<std::pair<std::string, std::string>>& options,
                           Milliseconds timeout);
  // Sends `position` (a whole "position ..." command) and `go` (a whole "go ..." command),
  // then waits until `timeout` after the go for "bestmove", following the info lines on the
  // way (BestMove::search). A timeout leaves the engine thinking; the caller ends the game.
  BestMove think(const std::string& position, const std::string& go, Milliseconds timeout);
  // Sends "gameover <result>" (win, lose or draw) when the engine still runs.
  void send_gameover(std::string_view result);
  // Sends "quit" (once) when the engine still runs; stop() then waits for the exit.
  void quit();
  // send_gameover then quit.
  void end_game(std::string_view result);
  // Waits until `deadline` for the engine to exit, then kills it.
  void stop(Clock::time_point deadline);

  // For a driver of its own (the CSA client's engine thread, which reads while another thread
  // may write): one line out (logged), one line in (not logged: info lines come by the
  // hundred). send_line and read_line may run on two threads at once; nothing else may.
  bool send_line(std::string_view line) { return send(line); }
  base::ChildProcess::ReadResult read_line(std::string& line, Clock::time_point deadline) {
    return child_.read_line(line, deadline);
  }
  pid_t pid() const { return child_.pid(); }

  // From "id name", or "" before prepare_game has read it.
  const std::string& name() const { return name_; }
  // The "info string error ..." lines the engine sent between the last isready and its
  // readyok: what it could not set up (a weight file, a book), which a GUI would show.
  const std::vector<std::string>& ready_errors() const { return ready_errors_; }
  // "exited with status 1" and so on, for messages.
  std::string exit_description() { return child_.exit_description(); }

 private:
  bool send(std::string_view line);
  // The fault after a failed write: the engine no longer reads its input.
  EngineReply exited();
  // Reads lines until one starts with `word` (then true, the line in `line`) or a fault.
  // Info lines on the way go to `tracker` when it is not null.
  EngineReply wait_for(std::string_view word, Clock::time_point deadline, Milliseconds timeout,
                       std::string& line, SearchInfoTracker* tracker = nullptr);

  base::ChildProcess child_;
  std::filesystem::path temp_home_;  // empty when the engine has none
  std::string name_;
  std::vector<std::string> ready_errors_;
  bool collect_ready_errors_ = false;  // while waiting for readyok
  bool quit_sent_ = false;
  LogSink log_;
};

}  // namespace usi
