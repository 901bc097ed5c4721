// CouncilMember: the member's thread and the council's view of its searches.
#include "council/council_member.h"

#include <algorithm>
#include <utility>

#include "base/words.h"

namespace council {

using std::chrono::milliseconds;

CouncilMember::CouncilMember(CouncilMemberConfig config, milliseconds startup_timeout, Log log,
                             std::function<void()> on_change)
    : config_(std::move(config)),
      startup_timeout_(startup_timeout),
      log_(std::move(log)),
      on_change_(std::move(on_change)) {}

CouncilMember::~CouncilMember() { shutdown(); }

void CouncilMember::launch() {
  thread_ = std::thread([this] { run(); });
}

bool CouncilMember::ready() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return ready_;
}

std::optional<CouncilMember::Clock::time_point> CouncilMember::ready_since() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return ready_since_;
}

int CouncilMember::starts() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return starts_;
}

void CouncilMember::log(const std::string& text) const {
  if (log_) log_(config_.name + ": " + text);
}

bool CouncilMember::start_search(const std::string& position, const std::string& go,
                                 milliseconds stop_grace) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!ready_ || !process_ || restart_) return false;
  const auto now = Clock::now();
  if (pending_ > 0) {
    // An earlier search has not answered: it was stopped (late) or never stopped (a ponder
    // search nobody ended). Its bestmove may still come, and is dropped when it does; an
    // engine that does not answer a stop at all is started again.
    if (!stop_sent_) {
      process_->send_line("stop");
      stop_sent_ = true;
      stop_time_ = now;
    } else if (now - stop_time_ > stop_grace) {
      restart_ = true;
      restart_why_ =
          "no bestmove " +
          std::to_string(std::chrono::duration_cast<milliseconds>(now - stop_time_).count()) +
          " ms after stop";
      return false;
    }
  }
  search_ = MemberSearch();
  tracker_.reset();
  current_stopped_ = false;
  if (!process_->send_line(position) || !process_->send_line(go)) return false;
  ++pending_;
  search_.sent = true;
  go_time_ = now;
  return true;
}

void CouncilMember::stop_search() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!process_ || pending_ == 0 || search_.reply || current_stopped_) return;
  process_->send_line("stop");
  current_stopped_ = true;
  if (!stop_sent_) {
    stop_sent_ = true;
    stop_time_ = Clock::now();
  }
}

void CouncilMember::ponderhit() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!process_ || pending_ == 0 || search_.reply) return;
  process_->send_line("ponderhit");
  go_time_ = Clock::now();
}

void CouncilMember::send(const std::string& line) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (process_ && ready_) process_->send_line(line);
}

MemberSearch CouncilMember::search() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return search_;
}

void CouncilMember::restart(const std::string& why) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (shutdown_) return;
  restart_ = true;
  restart_why_ = why;
  wake_.notify_all();
}

void CouncilMember::request_shutdown() {
  std::lock_guard<std::mutex> lock(mutex_);
  shutdown_ = true;
  wake_.notify_all();
}

void CouncilMember::shutdown(milliseconds wait) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    shutdown_wait_ = wait;
  }
  request_shutdown();
  if (thread_.joinable()) thread_.join();
}

void CouncilMember::wait_backoff(milliseconds delay) {
  std::unique_lock<std::mutex> lock(mutex_);
  wake_.wait_for(lock, delay, [this] { return shutdown_ || restart_; });
  restart_ = false;
}

void CouncilMember::run() {
  int failures = 0;
  while (true) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (shutdown_) return;
    }
    if (run_engine()) {
      failures = 0;
      continue;
    }
    // A command that does not start is tried again, less and less often.
    ++failures;
    const milliseconds delay(std::min<int64_t>(30000, int64_t(500) << std::min(failures, 6)));
    log("trying again in " + std::to_string(delay.count()) + " ms");
    wait_backoff(delay);
  }
}

bool CouncilMember::run_engine() {
  auto process = std::make_unique<usi::UsiEngineProcess>();
  usi::EngineConfig engine;
  engine.command = config_.command;
  engine.args = config_.args;
  engine.working_dir = config_.working_dir;
  engine.stderr_path = config_.stderr_path;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++starts_;
  }
  if (base::Status st = process->start(engine); !st) {
    log("cannot start '" + config_.command + "': " + st.message());
    return false;
  }
  if (usi::EngineReply r = process->prepare_game(config_.options, startup_timeout_); !r.ok()) {
    process->stop(Clock::now());
    log("did not start: " + r.detail + " (" + process->exit_description() + ")");
    return false;
  }
  for (const std::string& e : process->ready_errors()) log(e);
  usi::UsiEngineProcess* engine_process = process.get();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    process_ = std::move(process);
    ready_ = true;
    if (!ready_since_) ready_since_ = Clock::now();
    pending_ = 0;
    stop_sent_ = false;
    search_ = MemberSearch();
  }
  log("ready (" + (engine_process->name().empty() ? config_.command : engine_process->name()) +
      ")");
  on_change_();

  // Only this thread replaces process_, so it reads without the lock while the council's
  // thread writes under it (the process allows one reader and one writer at once).
  bool exited = false;
  std::string line;
  while (true) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (shutdown_ || restart_) break;
    }
    const auto r = engine_process->read_line(line, Clock::now() + milliseconds(50));
    if (r == base::ChildProcess::ReadResult::kTimeout) continue;
    if (r == base::ChildProcess::ReadResult::kClosed) {
      exited = true;
      break;
    }
    on_line(line);
  }

  std::unique_ptr<usi::UsiEngineProcess> dead;
  bool shutting = false;
  std::string why;
  milliseconds wait;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ready_ = false;
    dead = std::move(process_);
    if (exited && pending_ > 0 && !search_.reply) search_.crashed = true;
    pending_ = 0;
    shutting = shutdown_;
    why = restart_why_;
    restart_ = false;
    wait = shutdown_wait_;
  }
  if (shutting) {
    if (!exited) dead->quit();
    dead->stop(Clock::now() + wait);
  } else {
    dead->stop(Clock::now() + milliseconds(exited ? 200 : 0));
    log(exited ? "exited (" + dead->exit_description() + "): starting it again"
               : "starting it again: " + why);
  }
  on_change_();
  return true;
}

void CouncilMember::on_line(const std::string& line) {
  const std::vector<std::string_view> words = base::split_words(line);
  if (words.empty()) return;
  bool changed = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (words[0] == "info") {
      // Only the current search's lines: a stopped search's last lines may still come.
      if (pending_ != 1 || search_.reply) return;
      tracker_.on_line(line);
      usi::UsiInfoLine info;
      if (usi::parse_usi_info(line, info) && info.multipv == 1) {
        auto pv = std::find(words.begin(), words.end(), "pv");
        if (pv != words.end() && pv + 1 != words.end()) search_.pv.assign(pv + 1, words.end());
      }
      return;
    }
    if (words[0] != "bestmove" && words[0] != "checkmate") return;
    if (pending_ == 0) return;   // an answer to nothing
    if (--pending_ > 0) return;  // an older search's
    stop_sent_ = false;
    MemberReply reply;
    if (words[0] == "checkmate") {
      const size_t at = line.find("checkmate") + 9;
      reply.move = std::string(base::trim_blanks(std::string_view(line).substr(at)));
    } else {
      if (words.size() > 1) reply.move = words[1];
      if (words.size() > 3 && words[2] == "ponder") reply.ponder = words[3];
    }
    reply.report = tracker_.report();
    reply.pv = search_.pv;
    reply.received = Clock::now();
    reply.elapsed_ms = std::chrono::duration_cast<milliseconds>(reply.received - go_time_).count();
    search_.reply = std::move(reply);
    changed = true;
  }
  if (changed) on_change_();
}

}  // namespace council
