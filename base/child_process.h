// ChildProcess: a program run with its standard input and output connected to us by pipes,
// read line by line with deadlines. The transport under a USI engine.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace base {

// Splits a command line the way a POSIX shell splits words, without expansions: blanks
// separate words, '...' quotes literally, "..." quotes with \" \\ \$ \` escapes, and a
// backslash outside quotes escapes the next character. "./engine -t 2" gives {"./engine",
// "-t", "2"}. Errors on an unterminated quote or a trailing backslash.
Status split_command_line(std::string_view text, std::vector<std::string>& argv);

// A running child process. Its stdin and stdout are pipes to us; its stderr goes to a file
// (or /dev/null). The child stays in our process group, so a Ctrl-C in the terminal reaches
// it too. Not thread-safe: one thread drives a ChildProcess. Movable, not copyable.
// SIGPIPE is ignored process-wide once the first child starts (writing to a child that died
// must fail with EPIPE instead of killing us).
class ChildProcess {
 public:
  using Clock = std::chrono::steady_clock;
  enum class ReadResult { kLine, kTimeout, kClosed };
  static constexpr size_t kMaxLineBytes = 1 << 20;

  ChildProcess() = default;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();  // kill() if still running

  // Starts argv[0] (searched in PATH when it has no '/') with argv, our environment plus
  // `extra_env` ("NAME=value" entries, overriding ours). stderr is appended to
  // `stderr_path`, or discarded when it is empty; it runs in `working_dir` (our own when
  // empty; a relative program path is then taken from there). Errors when the program
  // cannot be run.
  // REQUIRES: !argv.empty(), not started yet.
  Status start(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env,
               const std::string& stderr_path, const std::string& working_dir = "");

  bool started() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }

  // Writes `line` and a newline. False when the child no longer reads (it exited).
  bool write_line(std::string_view line);
  // Reads the next line (without "\n" or "\r\n") into `line`, waiting until `deadline`.
  // kClosed when the child closed its output (usually: it exited). A line longer than
  // kMaxLineBytes is cut there (the rest comes as the next line): a child that never writes
  // a newline cannot make us hold all it writes.
  // Thread-safety: one thread may read while another writes (write_line); nothing else.
  ReadResult read_line(std::string& line, Clock::time_point deadline);

  // Waits until `deadline` for the child to exit; true when it has (and was reaped).
  bool wait_exit(Clock::time_point deadline);
  // Kills the child (SIGKILL) and reaps it. Nothing when it has already been reaped.
  void kill();
  // "exited with status 1", "killed by signal 11 (Segmentation fault)", or "still running"
  // (after checking without waiting).
  std::string exit_description();

 private:
  void close_pipes();
  bool reap(bool block);

  pid_t pid_ = -1;
  int to_child_ = -1;    // write end of the child's stdin
  int from_child_ = -1;  // read end of the child's stdout
  std::string buffer_;   // bytes read but not yet returned as lines
  bool reaped_ = false;
  int wait_status_ = 0;
};

}  // namespace base
