// ChildProcess: posix_spawn with pipes, and line reads with a deadline through poll.
#include "base/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>

extern char** environ;

namespace base {

Status split_command_line(std::string_view text, std::vector<std::string>& argv) {
  argv.clear();
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) argv.push_back(word);
      word.clear();
      in_word = false;
    } else if (c == '\'') {
      const size_t end = text.find('\'', i + 1);
      if (end == std::string_view::npos) return Status::error("command: unterminated ' quote");
      word.append(text.substr(i + 1, end - i - 1));
      in_word = true;
      i = end;
    } else if (c == '"') {
      in_word = true;
      for (++i;; ++i) {
        if (i >= text.size()) return Status::error("command: unterminated \" quote");
        if (text[i] == '"') break;
        if (text[i] == '\\' && i + 1 < text.size() && std::strchr("\"\\$`", text[i + 1])) ++i;
        word += text[i];
      }
    } else if (c == '\\') {
      if (i + 1 >= text.size()) return Status::error("command: trailing backslash");
      word += text[++i];
      in_word = true;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) argv.push_back(word);
  if (argv.empty()) return Status::error("command: empty");
  return Status::ok();
}

namespace {

void ignore_sigpipe_once() {
  static std::once_flag once;
  std::call_once(once, [] { ::signal(SIGPIPE, SIG_IGN); });
}

std::string env_name(const std::string& entry) { return entry.substr(0, entry.find('=')); }

}  // namespace

ChildProcess::~ChildProcess() { kill(); }

Status ChildProcess::start(const std::vector<std::string>& argv,
                           const std::vector<std::string>& extra_env,
                           const std::string& stderr_path, const std::string& working_dir) {
  ignore_sigpipe_once();
  int in_pipe[2], out_pipe[2];
  if (::pipe2(in_pipe, O_CLOEXEC) != 0) return Status::error(std::strerror(errno));
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    ::close(in_pipe[0]);
    ::close(in_pipe[1]);
    return Status::error(std::strerror(errno));
  }
  // Everything the child needs is built before the spawn: nothing allocates after it.
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string entry(*e);
    bool overridden = false;
    for (const std::string& extra : extra_env)
      if (env_name(extra) == env_name(entry)) overridden = true;
    if (!overridden) env.push_back(entry);
  }
  env.insert(env.end(), extra_env.begin(), extra_env.end());
  std::vector<char*> envp, args;
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_copy = argv;
  for (std::string& a : argv_copy) args.push_back(a.data());
  args.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  if (stderr_path.empty())
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  else
    posix_spawn_file_actions_addopen(&actions, 2, stderr_path.c_str(),
                                     O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (!working_dir.empty()) posix_spawn_file_actions_addchdir_np(&actions, working_dir.c_str());
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  if (rc != 0) {
    ::close(in_pipe[1]);
    ::close(out_pipe[0]);
    return Status::error("cannot run '" + argv[0] + "': " + std::strerror(rc));
  }
  pid_ = pid;
  to_child_ = in_pipe[1];
  from_child_ = out_pipe[0];
  reaped_ = false;
  buffer_.clear();
  return Status::ok();
}

bool ChildProcess::write_line(std::string_view line) {
  if (to_child_ < 0) return false;
  std::string data(line);
  data += '\n';
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(to_child_, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += size_t(n);
  }
  return true;
}

ChildProcess::ReadResult ChildProcess::read_line(std::string& line, Clock::time_point deadline) {
  for (;;) {
    const size_t eol = buffer_.find('\n');
    if (eol != std::string::npos) {
      line = buffer_.substr(0, eol);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      buffer_.erase(0, eol + 1);
      return ReadResult::kLine;
    }
    if (buffer_.size() >= kMaxLineBytes) {
      line = buffer_.substr(0, kMaxLineBytes);
      buffer_.erase(0, kMaxLineBytes);
      return ReadResult::kLine;
    }
    if (from_child_ < 0) return ReadResult::kClosed;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return ReadResult::kTimeout;
    pollfd pfd{from_child_, POLLIN, 0};
    const int ready = ::poll(&pfd, 1, int(std::min<int64_t>(left.count() + 1, 1 << 30)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;  // the loop checks the deadline again
    char chunk[4096];
    const ssize_t n = ::read(from_child_, chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) {
      ::close(from_child_);
      from_child_ = -1;
      if (!buffer_.empty()) {  // a last line without a newline
        line = buffer_;
        buffer_.clear();
        return ReadResult::kLine;
      }
      return ReadResult::kClosed;
    }
    buffer_.append(chunk, size_t(n));
  }
}

bool ChildProcess::reap(bool block) {
  if (pid_ <= 0) return false;
  if (reaped_) return true;
  for (;;) {
    const pid_t r = ::waitpid(pid_, &wait_status_, block ? 0 : WNOHANG);
    if (r < 0 && errno == EINTR) continue;
    if (r == pid_ || r < 0) {  // r < 0: someone else reaped it; count it as gone
      reaped_ = true;
      return true;
    }
    return false;
  }
}

bool ChildProcess::wait_exit(Clock::time_point deadline) {
  while (!reap(false)) {
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  close_pipes();
  return true;
}

void ChildProcess::kill() {
  if (pid_ > 0 && !reaped_) {
    if (!reap(false)) {
      ::kill(pid_, SIGKILL);
      reap(true);
    }
  }
  close_pipes();
}

void ChildProcess::close_pipes() {
  if (to_child_ >= 0) ::close(to_child_);
  if (from_child_ >= 0) ::close(from_child_);
  to_child_ = from_child_ = -1;
}

std::string ChildProcess::exit_description() {
  if (pid_ <= 0) return "not started";
  if (!reap(false)) return "still running";
  if (WIFEXITED(wait_status_))
    return "exited with status " + std::to_string(WEXITSTATUS(wait_status_));
  if (WIFSIGNALED(wait_status_)) {
    const int sig = WTERMSIG(wait_status_);
    return "killed by signal " + std::to_string(sig) + " (" + ::strsignal(sig) + ")";
  }
  return "ended";
}

}  // namespace base
