// UsiEngineProcess: the USI dialog (usi, setoption, isready, usinewgame, position, go) with
// deadlines, and a private OSL_HOME for gpsshogi.
#include "usi/usi_engine_process.h"

#include <stdlib.h>

#include <cstdlib>
#include <system_error>

namespace usi {

using base::Status;
namespace fs = std::filesystem;

namespace {

// True when `line` is `word` or starts with `word` and a blank.
bool starts_with_word(std::string_view line, std::string_view word) {
  return line.substr(0, word.size()) == word &&
         (line.size() == word.size() || line[word.size()] == ' ' || line[word.size()] == '\t');
}

// The gpsshogi data directory to link from a private OSL_HOME; empty when none exists.
fs::path gpsshogi_data_dir() {
  std::error_code ec;
  if (const char* home = std::getenv("OSL_HOME")) {
    fs::path p = fs::path(home) / "data";
    if (fs::is_directory(p, ec)) return p;
  }
  fs::path p = "/usr/share/gpsshogi-data/data";
  return fs::is_directory(p, ec) ? p : fs::path();
}

// Creates a temporary OSL_HOME; empty path and an error message on failure.
fs::path make_temp_home(std::string& error) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/sashite-osl-home-XXXXXX";
  if (!::mkdtemp(pattern.data())) {
    error = "cannot create a temporary OSL_HOME under " + pattern;
    return {};
  }
  const fs::path home = pattern;
  if (const fs::path data = gpsshogi_data_dir(); !data.empty()) {
    std::error_code ec;
    fs::create_directory_symlink(data, home / "data", ec);
  }
  return home;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> split_usi_options(
    const std::vector<std::string>& kvs) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& kv : kvs) {
    const size_t eq = kv.find('=');
    out.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  return out;
}

bool is_gpsusi_command(std::string_view command) {
  std::vector<std::string> argv;
  if (!base::split_command_line(command, argv)) return false;
  return fs::path(argv[0]).filename() == "gpsusi";
}

UsiEngineProcess::~UsiEngineProcess() {
  child_.kill();
  if (!temp_home_.empty()) {
    std::error_code ec;
    fs::remove_all(temp_home_, ec);
  }
}

Status UsiEngineProcess::start(const EngineConfig& config) {
  std::vector<std::string> argv;
  if (Status s = base::split_command_line(config.command, argv); !s) return s;
  argv.insert(argv.end(), config.args.begin(), config.args.end());
  std::vector<std::string> env;
  if (config.isolate_home || is_gpsusi_command(config.command)) {
    std::string error;
    temp_home_ = make_temp_home(error);
    if (temp_home_.empty()) return Status::error(error);
    env.push_back("OSL_HOME=" + temp_home_.string());
  }
  return child_.start(argv, env, config.stderr_path, config.working_dir);
}

bool UsiEngineProcess::send(std::string_view line) {
  if (log_) log_(std::string("> ") + std::string(line));
  return child_.write_line(line);
}

EngineReply UsiEngineProcess::wait_for(std::string_view word, Clock::time_point deadline,
                                       Milliseconds timeout, std::string& line,
                                       SearchInfoTracker* tracker) {
  for (;;) {
    switch (child_.read_line(line, deadline)) {
      case base::ChildProcess::ReadResult::kLine:
        if (log_) log_("< " + line);
        if (tracker) tracker->on_line(line);
        if (starts_with_word(line, "id") && line.size() > 8 && line.compare(3, 5, "name ") == 0)
          name_ = line.substr(8);
        if (collect_ready_errors_ && line.rfind("info string error", 0) == 0)
          ready_errors_.push_back(line);
        if (starts_with_word(line, word)) return {};
        break;
      case base::ChildProcess::ReadResult::kTimeout:
        return {EngineFault::kTimeout,
                "no " + std::string(word) + " within " + std::to_string(timeout.count()) + " ms"};
      case base::ChildProcess::ReadResult::kClosed: {
        child_.wait_exit(Clock::now() + Milliseconds(500));
        return {EngineFault::kExited, "closed its output while we waited for " + std::string(word) +
                                          " (" + exit_description() + ")"};
      }
    }
  }
}

EngineReply UsiEngineProcess::exited() {
  child_.wait_exit(Clock::now() + Milliseconds(500));
  return EngineReply{EngineFault::kExited,
                     "stopped reading its input (" + exit_description() + ")"};
}

EngineReply UsiEngineProcess::start_session(
    const std::vector<std::pair<std::string, std::string>>& options, Milliseconds timeout) {
  std::string line;
  if (!send("usi")) {
    // An engine that exits at once (not a USI engine, a bad argument) may be gone before the
    // write: say how it ended, as when it exits while we wait for usiok.
    constexpr Milliseconds kGrace{500};
    EngineReply r = wait_for("usiok", Clock::now() + kGrace, kGrace, line);
    return r.fault == EngineFault::kExited ? r : exited();
  }
  if (EngineReply r = wait_for("usiok", Clock::now() + timeout, timeout, line); !r.ok()) return r;
  for (const auto& [key, value] : options)
    if (!send("setoption name " + key + " value " + value)) return exited();
  return {};
}

EngineReply UsiEngineProcess::new_game(Milliseconds timeout) {
  std::string line;
  ready_errors_.clear();
  if (!send("isready")) return exited();
  collect_ready_errors_ = true;
  const EngineReply r = wait_for("readyok", Clock::now() + timeout, timeout, line);
  collect_ready_errors_ = false;
  if (!r.ok()) return r;
  if (!send("usinewgame")) return exited();
  return {};
}

EngineReply UsiEngineProcess::prepare_game(
    const std::vector<std::pair<std::string, std::string>>& options, Milliseconds timeout) {
  if (EngineReply r = start_session(options, timeout); !r.ok()) return r;
  return new_game(timeout);
}

BestMove UsiEngineProcess::think(const std::string& position, const std::string& go,
                                 Milliseconds timeout) {
  BestMove result;
  const auto start = Clock::now();
  std::string line;
  if (!send(position) || !send(go)) {
    const EngineReply r = exited();
    result.fault = r.fault;
    result.detail = r.detail;
    return result;
  }
  SearchInfoTracker tracker;
  EngineReply r = wait_for("bestmove", start + timeout, timeout, line, &tracker);
  result.elapsed_ms = std::chrono::duration_cast<Milliseconds>(Clock::now() - start).count();
  result.search = tracker.report();
  if (!r.ok()) {
    result.fault = r.fault;
    result.detail = r.detail;
    return result;
  }
  // "bestmove 7g7f ponder 3c3d": the word after bestmove.
  size_t begin = line.find_first_not_of(" \t", 8);
  if (begin != std::string::npos) {
    const size_t end = line.find_first_of(" \t", begin);
    result.move = line.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  }
  return result;
}

void UsiEngineProcess::send_gameover(std::string_view result) {
  if (!child_.started() || quit_sent_) return;
  send("gameover " + std::string(result));
}

void UsiEngineProcess::quit() {
  if (!child_.started() || quit_sent_) return;
  quit_sent_ = true;
  send("quit");
}

void UsiEngineProcess::end_game(std::string_view result) {
  send_gameover(result);
  quit();
}

void UsiEngineProcess::stop(Clock::time_point deadline) {
  if (!child_.started()) return;
  if (!child_.wait_exit(deadline)) child_.kill();
}

}  // namespace usi
