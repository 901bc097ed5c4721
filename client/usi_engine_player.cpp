// UsiEnginePlayer: the engine thread and the USI dialog (see usi_engine_player.h).
#include "client/usi_engine_player.h"

#include <algorithm>
#include <charconv>
#include <climits>

#include "base/words.h"
#include "shogi/movegen.h"
#include "shogi/notation.h"
#include "usi/usi_info.h"

namespace client {

using base::Status;
using Milliseconds = std::chrono::milliseconds;
using base::split_words;
using Words = std::vector<std::string_view>;

namespace {

constexpr int64_t kPollMs = 10;  // the engine thread's longest wait for a line
constexpr int64_t kMaxRelaunchDelayMs = 30000;
constexpr int64_t kQuitWaitMs = 1000;  // for the engine to exit after quit

bool starts_with_word(std::string_view line, std::string_view word) {
  return line.substr(0, word.size()) == word &&
         (line.size() == word.size() || line[word.size()] == ' ' || line[word.size()] == '\t');
}

// "position startpos moves ..." or "position sfen ... moves ...".
std::string position_command(const SearchRequest& r) {
  std::string s = "position ";
  const std::string sfen = r.root.sfen();
  s += sfen == shogi::Position::kStartSfen ? std::string("startpos") : "sfen " + sfen;
  if (!r.moves.empty()) {
    s += " moves";
    for (shogi::Move m : r.moves) s += " " + shogi::format_usi_move(m);
  }
  return s;
}

// "go [ponder] btime B wtime W (byoyomi Y | binc I winc J)", from the client's clock. Without
// `with_increment` the increment is left out: the main time we pass already holds this move's
// increment, so an engine that cannot read binc/winc plays a safe sudden-death clock.
std::string go_command(const engine::SearchLimits& l, bool with_increment) {
  std::string s = "go";
  if (l.ponder) s += " ponder";
  if (!l.has_clock() && l.movetime_ms >= 0) {
    // No time limit: a fixed time per move, in the form every USI engine reads.
    return s + " btime 0 wtime 0 byoyomi " + std::to_string(l.movetime_ms);
  }
  s += " btime " + std::to_string(std::max<int64_t>(0, l.time_left_ms[shogi::kBlack]));
  s += " wtime " + std::to_string(std::max<int64_t>(0, l.time_left_ms[shogi::kWhite]));
  if (with_increment && (l.increment_ms[shogi::kBlack] > 0 || l.increment_ms[shogi::kWhite] > 0)) {
    s += " binc " + std::to_string(l.increment_ms[shogi::kBlack]);
    s += " winc " + std::to_string(l.increment_ms[shogi::kWhite]);
  }
  if (l.byoyomi_ms > 0 || !with_increment ||
      l.increment_ms[shogi::kBlack] + l.increment_ms[shogi::kWhite] == 0)
    s += " byoyomi " + std::to_string(std::max<int64_t>(0, l.byoyomi_ms));
  return s;
}

// A USI score as our Value (the side to move's view).
shogi::Value value_of(const usi::SearchScore& s) {
  if (!s.is_mate)
    return shogi::Value(
        std::clamp(s.cp, int(shogi::kValueMatedInMaxPly) + 1, int(shogi::kValueMateInMaxPly) - 1));
  const int plies = s.mate_plies >= 0 ? std::min(s.mate_plies, shogi::kMaxPly) : shogi::kMaxPly;
  return s.mating ? shogi::mate_in(plies) : shogi::mated_in(plies);
}

// The moves of a PV read over `pos`, up to the first one that is not legal there.
std::vector<shogi::Move> read_pv(shogi::Position pos, const Words& words, size_t first) {
  std::vector<shogi::Move> pv;
  for (size_t i = first; i < words.size() && pv.size() < 64; ++i) {
    shogi::Move m;
    if (!shogi::parse_usi_move(pos, words[i], m) || !shogi::legal_moves(pos).contains(m)) break;
    pv.push_back(m);
    pos.do_move(m);
  }
  return pv;
}

const char* gameover_word(std::optional<GameOutcome> outcome) {
  if (outcome == GameOutcome::kWin) return "win";
  if (outcome == GameOutcome::kLose) return "lose";
  return "draw";
}

}  // namespace

UsiEngineSettings usi_engine_settings(const CsaConfig& c) {
  UsiEngineSettings s;
  s.command = c.engine_command;
  s.args = c.engine_args;
  s.working_dir = c.engine_working_dir;
  for (const CsaConfig::UsiOption& o : c.usi_options) s.options.emplace_back(o.name, o.value);
  s.hash_mb = c.hash_mb;
  s.threads = c.threads;
  s.ponder = c.ponder;
  s.startup_timeout_ms = int64_t(c.engine_startup_timeout_s) * 1000;
  s.isready_timeout_ms = int64_t(c.engine_isready_timeout_s) * 1000;
  s.restart_every_game = c.restart_engine_every_game;
  s.send_increment = c.engine_send_increment;
  s.stderr_path = c.log_dir + "/engine-stderr.log";
  s.budget_margin_ms = c.engine_budget_margin_ms;
  return s;
}

UsiEnginePlayer::UsiEnginePlayer(UsiEngineSettings settings, EnginePlayer& fallback)
    : settings_(std::move(settings)),
      fallback_(fallback),
      margin_now_ms_(settings_.budget_margin_ms),
      increment_ok_(settings_.send_increment),
      margin_(settings_.budget_margin_ms) {}

UsiEnginePlayer::~UsiEnginePlayer() {
  if (thread_.joinable()) {
    stop(0);
    wait();
    post(Command(Command::Kind::kQuit));
    thread_.join();
  }
  fallback_.wait();
}

void UsiEnginePlayer::set_log(LogSink sink) {
  std::lock_guard<std::mutex> lock(mutex_);
  log_ = std::move(sink);
}

void UsiEnginePlayer::log(LogLevel level, const std::string& message) {
  LogSink sink;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    sink = log_;
  }
  if (sink) sink(level, "engine: " + message);
}

std::string UsiEnginePlayer::engine_name() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return engine_name_;
}
int UsiEnginePlayer::starts() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return starts_;
}
int UsiEnginePlayer::replaced_answers() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return replaced_;
}
int64_t UsiEnginePlayer::margin_ms() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return margin_now_ms_;
}

Status UsiEnginePlayer::prepare() {
  if (Status st = fallback_.prepare(); !st)
    return Status::error("built-in engine: " + st.message());
  if (settings_.command.empty()) return Status::error("engine.command is empty");
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  std::unique_lock<std::mutex> lock(mutex_);
  cv_.wait(lock, [&] { return launch_status_.has_value(); });
  return *launch_status_;
}

void UsiEnginePlayer::post(Command command) {
  command.posted = Clock::now();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (command.kind == Command::Kind::kStart) ++active_searches_;
    commands_.push_back(std::move(command));
  }
  cv_.notify_all();
}

void UsiEnginePlayer::new_game(const GameSummary& summary) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    answers_closed_ = false;
  }
  Command c(Command::Kind::kNewGame);
  c.summary = summary;
  post(std::move(c));
}

void UsiEnginePlayer::start(const SearchRequest& request, AnswerCallback answer) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    answers_closed_ = false;
  }
  Command c(Command::Kind::kStart);
  c.request = request;
  c.answer = std::move(answer);
  post(std::move(c));
}

void UsiEnginePlayer::ponderhit(uint64_t search_id, const SearchRequest& request) {
  Command c(Command::Kind::kPonderhit);
  c.search_id = search_id;
  c.request = request;
  post(std::move(c));
}

void UsiEnginePlayer::stop(uint64_t search_id) {
  Command c(Command::Kind::kStop);
  c.search_id = search_id;
  post(std::move(c));
}

void UsiEnginePlayer::game_over(std::optional<GameOutcome> outcome) {
  Command c(Command::Kind::kGameOver);
  c.outcome = outcome;
  post(std::move(c));
}

void UsiEnginePlayer::quit() { post(Command(Command::Kind::kRelease)); }

void UsiEnginePlayer::wait() {
  if (thread_.joinable()) {
    std::unique_lock<std::mutex> lock(mutex_);
    // Bounded: every search still running has been told to stop, and gets the fallback's
    // answer kStopGraceMs after that at the latest. busy_ is set only while commands run,
    // not while the engine thread waits for the engine's lines.
    cv_.wait_for(lock, Milliseconds(5000),
                 [&] { return active_searches_ == 0 && commands_.empty() && !busy_; });
    answers_closed_ = true;
  }
  fallback_.wait();
}

// ---- The engine thread ----

void UsiEnginePlayer::run() {
  launch();
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    std::deque<Command> commands;
    commands.swap(commands_);
    const bool ran = !commands.empty();
    busy_ = ran;
    lock.unlock();
    for (Command& c : commands) {
      if (c.kind == Command::Kind::kQuit) {
        if (alive_) {
          send("quit");
          process_->stop(Clock::now() + Milliseconds(kQuitWaitMs));
        }
        process_.reset();
        lock.lock();
        busy_ = false;
        cv_.notify_all();
        return;
      }
      execute(c);
    }
    if (ran) {
      lock.lock();
      busy_ = false;
      cv_.notify_all();
      lock.unlock();
    }
    if (!alive_ && Clock::now() >= next_launch_) launch();
    if (alive_) {
      std::string line;
      for (;;) {
        const auto r = process_->read_line(line, Clock::now() + Milliseconds(kPollMs));
        if (r == base::ChildProcess::ReadResult::kLine) {
          on_line(line);
          continue;
        }
        if (r == base::ChildProcess::ReadResult::kClosed)
          engine_lost("it closed its output (" + process_->exit_description() + ")");
        break;
      }
      if (alive_) check_stops();
    }
    lock.lock();
    if (commands_.empty() && !alive_)
      cv_.wait_for(lock, Milliseconds(kPollMs), [&] { return !commands_.empty(); });
  }
}

void UsiEnginePlayer::send(const std::string& line) {
  if (!alive_) return;
  if (!process_->send_line(line)) return;  // a dead engine is seen when its output closes
}

bool UsiEnginePlayer::handshake_line(const std::string& line) {
  const Words w = split_words(line);
  if (w.size() >= 3 && w[0] == "option" && w[1] == "name") {
    offered_.insert(std::string(w[2]));
    // "option name Thread type spin default 2 min 1 max 2": the range, where one is given.
    std::pair<int64_t, int64_t> range{INT64_MIN, INT64_MAX};
    for (size_t i = 3; i + 1 < w.size(); ++i) {
      int64_t v = 0;
      const std::string_view n = w[i + 1];
      if ((w[i] == "min" || w[i] == "max") &&
          std::from_chars(n.data(), n.data() + n.size(), v).ec == std::errc())
        (w[i] == "min" ? range.first : range.second) = v;
    }
    spin_ranges_[std::string(w[2])] = range;
    return true;
  }
  if (w.size() >= 3 && w[0] == "id" && w[1] == "name") {
    std::lock_guard<std::mutex> lock(mutex_);
    engine_name_ = line.substr(line.find("name") + 5);
    return true;
  }
  return false;
}

bool UsiEnginePlayer::wait_for(const std::string& word, int64_t timeout_ms, std::string& error) {
  const auto deadline = Clock::now() + Milliseconds(timeout_ms);
  std::string line;
  for (;;) {
    serve_commands_while_waiting();
    switch (process_->read_line(line, std::min(deadline, Clock::now() + Milliseconds(kPollMs)))) {
      case base::ChildProcess::ReadResult::kLine:
        if (starts_with_word(line, word)) return true;
        // What the engine could not set up (its weights, its book), once per distinct line: an
        // engine that plays without them must not go unnoticed over weeks of games.
        if (word == "readyok" && line.rfind("info string error", 0) == 0 &&
            ready_errors_logged_.insert(line).second)
          log(LogLevel::kWarning, "at isready: " + line);
        // A search stopped at the end of the last game may answer now.
        if (starts_with_word(line, "bestmove") || starts_with_word(line, "info")) {
          on_line(line);
          break;
        }
        if (!handshake_line(line)) log(LogLevel::kDebug, "< " + line);
        break;
      case base::ChildProcess::ReadResult::kTimeout:
        if (Clock::now() < deadline) break;
        error = "no " + word + " within " + std::to_string(timeout_ms) + " ms";
        return false;
      case base::ChildProcess::ReadResult::kClosed:
        process_->stop(Clock::now() + Milliseconds(500));
        error = "it closed its output while we waited for " + word + " (" +
                process_->exit_description() + ")";
        return false;
    }
  }
}

void UsiEnginePlayer::serve_commands_while_waiting() {
  const auto now = Clock::now();
  std::deque<Command> due;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto urgent = [&](const Command& c) {
      const bool search = (c.kind == Command::Kind::kStart && !c.request.limits.ponder) ||
                          c.kind == Command::Kind::kPonderhit;
      if (!search) return false;
      const auto time = Milliseconds(c.request.deadline_ms - c.request.started_ms);
      const auto margin = Milliseconds(kStopGraceMs + settings_.fallback_ms);
      return now >= c.posted + time / 4 || now + margin >= c.posted + time;
    };
    // The leading searches, ponderhits and stops, in order, once one of them is urgent.
    size_t n = 0;
    bool any_urgent = false;
    for (; n < commands_.size(); ++n) {
      const Command& c = commands_[n];
      if (c.kind != Command::Kind::kStart && c.kind != Command::Kind::kPonderhit &&
          c.kind != Command::Kind::kStop)
        break;
      any_urgent = any_urgent || urgent(c);
    }
    if (!any_urgent) return;
    for (size_t i = 0; i < n; ++i) {
      due.push_back(std::move(commands_.front()));
      commands_.pop_front();
    }
  }
  log(LogLevel::kWarning, "a search cannot wait for the engine to get ready");
  const bool was_alive = alive_;
  alive_ = false;  // nothing is sent to the engine; searches go to the built-in engine
  for (Command& c : due) execute(c);
  alive_ = was_alive;
}

bool UsiEnginePlayer::launch() {
  if (process_) {
    process_->stop(Clock::now());
    process_.reset();
  }
  alive_ = false;
  process_played_ = false;
  offered_.clear();
  spin_ranges_.clear();
  process_ = std::make_unique<usi::UsiEngineProcess>();
  usi::EngineConfig config;
  config.command = settings_.command;
  config.args = settings_.args;
  config.working_dir = settings_.working_dir;
  config.stderr_path = settings_.stderr_path;
  std::string error;
  const std::string what = "'" + settings_.command + "'";
  if (Status st = process_->start(config); !st) {
    error = st.message();
  } else {
    alive_ = true;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++starts_;
    }
    log(LogLevel::kInfo, "started " + what + " (pid " + std::to_string(process_->pid()) + ")");
    send("usi");
    if (wait_for("usiok", settings_.startup_timeout_ms, error)) {
      send_threads_and_hash();
      send(std::string("setoption name USI_Ponder value ") + (settings_.ponder ? "true" : "false"));
      for (const auto& [name, value] : settings_.options) {
        if (!offered_.empty() && !offered_.count(name) && name != "USI_Hash" &&
            name != "USI_Ponder") {
          if (skipped_logged_.insert(name).second)
            log(LogLevel::kWarning, "the engine does not offer option " + name + ": not sent");
          continue;
        }
        send("setoption name " + name + " value " + value);
      }
      if (game_) send_game_options();
      send("isready");
      if (wait_for("readyok", settings_.isready_timeout_ms, error)) {
        if (game_) send("usinewgame");
        log(LogLevel::kInfo, "ready: " + engine_name());
      }
    }
  }
  const bool ok = error.empty();
  if (!ok) {
    log(LogLevel::kError, "cannot start " + what + ": " + error);
    if (process_) process_->stop(Clock::now());
    alive_ = false;
    ++consecutive_failures_;
    next_launch_ =
        Clock::now() + Milliseconds(std::min<int64_t>(
                           kMaxRelaunchDelayMs, 1000LL << std::min(consecutive_failures_, 5)));
  } else {
    consecutive_failures_ = 0;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (!launch_status_) {
    launch_status_ = ok ? Status::ok() : Status::error("engine " + what + ": " + error);
    cv_.notify_all();
  }
  return ok;
}

void UsiEnginePlayer::send_threads_and_hash() {
  // An option the [engine.usi] table sets itself is left to it (it is sent after these).
  const auto configured = [&](const std::string& name) {
    return std::any_of(settings_.options.begin(), settings_.options.end(),
                       [&](const auto& o) { return o.first == name; });
  };
  const auto within_range = [&](const std::string& name, int64_t value) {
    const auto it = spin_ranges_.find(name);
    if (it == spin_ranges_.end()) return value;
    const int64_t v = std::clamp(value, it->second.first, it->second.second);
    if (v != value && skipped_logged_.insert(name + " range").second)
      log(LogLevel::kWarning, "the engine's " + name + " goes from " +
                                  std::to_string(it->second.first) + " to " +
                                  std::to_string(it->second.second) + ": " + std::to_string(value) +
                                  " sent as " + std::to_string(v));
    return v;
  };
  send("setoption name USI_Hash value " + std::to_string(settings_.hash_mb));
  if (offered_.count("Hash") && !offered_.count("USI_Hash") && !configured("Hash")) {
    const int64_t mb = within_range("Hash", settings_.hash_mb);
    send("setoption name Hash value " + std::to_string(mb));
    log(LogLevel::kInfo, "hash_mb = " + std::to_string(settings_.hash_mb) + " sent as Hash " +
                             std::to_string(mb) + " (the engine offers no USI_Hash)");
  }
  for (const char* name : {"Threads", "Thread"}) {
    if (!offered_.count(name)) continue;
    if (configured(name)) return;
    const int64_t n = within_range(name, settings_.threads);
    send(std::string("setoption name ") + name + " value " + std::to_string(n));
    log(LogLevel::kInfo, "threads = " + std::to_string(settings_.threads) + " sent as " + name +
                             " " + std::to_string(n));
    return;
  }
  if (skipped_logged_.insert("threads").second)
    log(LogLevel::kWarning, "the engine offers no Threads or Thread option: threads = " +
                                std::to_string(settings_.threads) +
                                " not told to it (it uses its own default)");
}

void UsiEnginePlayer::send_game_options() {
  struct Rule {
    const char* option;
    std::string value;
    std::string what;
  };
  std::vector<Rule> rules;
  rules.push_back({"MaxMovesToDraw", std::to_string(std::max(0, game_->max_moves)),
                   "Max_Moves " + std::to_string(game_->max_moves)});
  if (game_->declaration.empty() || game_->declaration == "Jishogi 1.1")
    rules.push_back({"EnteringKingRule", "CSARule27", "the 27-point declaration rule"});
  for (const Rule& r : rules) {
    if (offered_.count(r.option)) {
      send(std::string("setoption name ") + r.option + " value " + r.value);
    } else if (skipped_logged_.insert(r.option).second) {
      log(LogLevel::kInfo,
          std::string("the engine does not offer ") + r.option + ": " + r.what + " not told to it");
    }
  }
}

void UsiEnginePlayer::execute(Command& c) {
  switch (c.kind) {
    case Command::Kind::kNewGame: {
      game_ = c.summary;
      if (!alive_ || (settings_.restart_every_game && process_played_)) {
        if (alive_) {
          send("quit");
          process_->stop(Clock::now() + Milliseconds(kQuitWaitMs));
        }
        if (launch()) process_played_ = true;
        return;
      }
      process_played_ = true;
      send_game_options();
      send("isready");
      std::string error;
      if (!wait_for("readyok", settings_.isready_timeout_ms, error)) return engine_lost(error);
      send("usinewgame");
      return;
    }
    case Command::Kind::kStart:
      return go(c);
    case Command::Kind::kPonderhit: {
      for (auto it = gos_.begin(); it != gos_.end(); ++it) {
        if (it->request.id != c.search_id || !it->pondering) continue;
        it->pondering = false;
        it->request.limits = c.request.limits;
        it->deadline = c.posted + Milliseconds(c.request.deadline_ms - c.request.started_ms);
        if (it->held) {
          EngineMove m = *it->held;
          Go g = std::move(*it);
          gos_.erase(it);
          return answer(g, std::move(m));
        }
        // Counted from the client's ponderhit, not from when the engine reads it: the time
        // between is the engine's too.
        if (it->budget_ms > 0) it->budget_end = c.posted + Milliseconds(it->budget_ms);
        return send("ponderhit");
      }
      // The ponder search was lost with its engine: search the position afresh.
      for (auto it = orphans_.begin(); it != orphans_.end(); ++it) {
        if (it->request.id != c.search_id) continue;
        Go g = std::move(*it);
        orphans_.erase(it);
        // Expected, and not worth a warning, once the engine is known not to ponder.
        log(ponder_ok_ ? LogLevel::kWarning : LogLevel::kDebug,
            "ponderhit for search " + std::to_string(c.search_id) +
                (ponder_ok_ ? ", lost with the engine" : ", not pondered") + ": searching afresh");
        g.pondering = false;
        g.request.limits = c.request.limits;
        g.request.limits.ponder = false;
        g.deadline = c.posted + Milliseconds(c.request.deadline_ms - c.request.started_ms);
        return send_go(std::move(g));
      }
      return;
    }
    case Command::Kind::kStop: {
      bool stop_needed = false;
      for (auto it = gos_.begin(); it != gos_.end();) {
        if (c.search_id != 0 && it->request.id != c.search_id) {
          ++it;
          continue;
        }
        if (it->pondering) it->wanted = false;  // a ponder miss, or the game ended
        it->pondering = false;
        if (it->bestmove_read) {  // held: its bestmove came already
          Go g = std::move(*it);
          it = gos_.erase(it);
          if (g.wanted && g.held)
            answer(g, *g.held);
          else
            answer(g, EngineMove{});
          continue;
        }
        if (!it->stop_sent) {
          it->stop_sent = true;
          it->stop_time = Clock::now();
          stop_needed = true;
        }
        ++it;
      }
      if (stop_needed) send("stop");
      for (auto it = orphans_.begin(); it != orphans_.end();) {
        if (c.search_id != 0 && it->request.id != c.search_id) {
          ++it;
          continue;
        }
        Go g = std::move(*it);
        it = orphans_.erase(it);
        g.wanted = false;
        answer(g, EngineMove{});
      }
      return;
    }
    case Command::Kind::kGameOver:
      send(std::string("gameover ") + gameover_word(c.outcome));
      return;
    case Command::Kind::kRelease: {
      if (alive_) {
        const auto t0 = Clock::now();
        send("quit");
        process_->stop(t0 + Milliseconds(kQuitWaitMs));
        const auto ms = std::chrono::duration_cast<Milliseconds>(Clock::now() - t0).count();
        log(LogLevel::kInfo,
            "quit: " + process_->exit_description() + " after " + std::to_string(ms) + " ms");
      }
      alive_ = false;
      next_launch_ = Clock::time_point::max();  // until a new game starts it again
      // No search runs after a game's end; any left is answered, as unwanted or by the fallback.
      std::deque<Go> gos;
      gos.swap(gos_);
      for (Go& g : gos) {
        if (g.pondering) g.wanted = false;
        if (!g.wanted)
          answer(g, EngineMove{});
        else if (g.held)
          answer(g, *g.held);
        else
          fallback(g, "the engine was told to quit");
      }
      for (Go& g : orphans_) {
        g.wanted = false;
        answer(g, EngineMove{});
      }
      orphans_.clear();
      return;
    }
    case Command::Kind::kQuit:
      return;
  }
}

void UsiEnginePlayer::go(Command& c) {
  Go g;
  g.request = c.request;
  g.answer = std::move(c.answer);
  g.pondering = c.request.limits.ponder;
  g.deadline = g.pondering ? Clock::time_point::max()
                           : c.posted + Milliseconds(c.request.deadline_ms - c.request.started_ms);
  g.position = c.request.position();
  send_go(std::move(g));
}

void UsiEnginePlayer::send_go(Go g) {
  if (!alive_ || (g.pondering && !ponder_ok_)) {
    if (g.pondering) return orphans_.push_back(std::move(g));  // a ponderhit searches then
    return fallback(g, "the engine is not running");
  }
  const auto now = Clock::now();
  if (!g.pondering && now + Milliseconds(kStopGraceMs) >= g.deadline)
    return fallback(g, "no time left for the engine after its restart");
  const engine::SearchLimits told = told_limits(g, now);
  // The engine counts its time from the go, or from the ponderhit when it ponders.
  if (!g.pondering && g.budget_ms > 0) g.budget_end = now + Milliseconds(g.budget_ms);
  send(position_command(g.request));
  last_go_ = go_command(told, increment_ok_);
  last_go_time_ = Clock::now();
  send(last_go_);
  log(LogLevel::kDebug, "> " + last_go_);
  gos_.push_back(std::move(g));
}

engine::SearchLimits UsiEnginePlayer::told_limits(Go& g, Clock::time_point now) {
  const engine::SearchLimits& l = g.request.limits;
  const shogi::Color us = g.request.us;
  const int64_t budget = engine_budget_ms(l, us);
  if (budget <= 0) {
    g.budget_ms = 0;
    return l;
  }
  // The time to the hard stop. A ponder search's begins at its ponderhit, and is the whole
  // budget: the clocks are those of the opponent's move played at once.
  const int64_t available =
      g.pondering ? budget : std::chrono::duration_cast<Milliseconds>(g.deadline - now).count();
  // The engine keeps at least half of the time there is, whatever was measured.
  const int64_t margin = std::min(margin_.margin_ms(), std::max<int64_t>(0, available) / 2);
  const int64_t target = std::clamp<int64_t>(available - margin, 0, budget);
  const engine::SearchLimits told = cut_budget(l, us, budget - target);
  g.budget_ms = engine_budget_ms(told, us);
  return told;
}

void UsiEnginePlayer::measure(const Go& g) {
  if (g.budget_end == Clock::time_point::max()) return;
  // A stop before the budget's end (the game ended, a quit) measures nothing.
  if (g.stop_sent && g.stop_time < g.budget_end) return;
  const int64_t late =
      std::chrono::duration_cast<Milliseconds>(Clock::now() - g.budget_end).count();
  const int64_t before = margin_.margin_ms();
  if (!margin_.add(late, g.stop_sent)) return;
  const int64_t after = margin_.margin_ms();
  log(LogLevel::kDebug, "bestmove " + std::to_string(late) + " ms after the end of its " +
                            std::to_string(g.budget_ms) + " ms budget" +
                            (g.stop_sent ? ", stopped at the hard stop" : ""));
  if (after == before) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    margin_now_ms_ = after;
  }
  log(LogLevel::kInfo, "its budget ends " + std::to_string(after) +
                           " ms before the hard stop from now on (was " + std::to_string(before) +
                           "): its last " + std::to_string(margin_.measures()) +
                           " answer(s) measured");
}

void UsiEnginePlayer::on_line(const std::string& line) {
  if (starts_with_word(line, "bestmove")) return on_bestmove(line);
  if (starts_with_word(line, "info")) return on_info(line);
  if (!line.empty()) log(LogLevel::kDebug, "< " + line);
}

void UsiEnginePlayer::on_info(const std::string& line) {
  auto it = std::find_if(gos_.begin(), gos_.end(), [](const Go& g) { return !g.bestmove_read; });
  if (it == gos_.end()) return;
  constexpr std::string_view kCouncil = "info string council: ";
  if (line.compare(0, kCouncil.size(), kCouncil) == 0) {
    if (it->council_vote.empty()) it->council_vote = line.substr(12);
    return;
  }
  usi::UsiInfoLine info;
  if (!usi::parse_usi_info(line, info) || info.multipv != 1) return;
  if (info.score) it->score = value_of(*info.score);
  if (info.nodes) it->nodes = uint64_t(*info.nodes);
  if (info.nps) it->nps = uint64_t(*info.nps);
  const Words w = split_words(line);
  for (size_t i = 1; i < w.size(); ++i) {
    if (w[i] == "string") return;
    if (w[i] == "pv") {
      std::vector<shogi::Move> pv = read_pv(it->position, w, i + 1);
      if (!pv.empty()) it->pv = std::move(pv);
      return;
    }
  }
}

void UsiEnginePlayer::on_bestmove(const std::string& line) {
  auto it = std::find_if(gos_.begin(), gos_.end(), [](const Go& g) { return !g.bestmove_read; });
  if (it == gos_.end())
    return log(LogLevel::kWarning, "'" + line + "' with no search waiting for it: ignored");
  log(LogLevel::kDebug, "< " + line);
  const Words w = split_words(line);
  EngineMove m;
  m.note = it->council_vote;
  bool usable = true;
  std::string why;
  const std::string_view word = w.size() >= 2 ? w[1] : std::string_view();
  if (word == "resign") {
    m.kind = EngineMove::Kind::kResign;
  } else if (word == "win") {
    m.kind = EngineMove::Kind::kWin;
    if (!it->position.can_declare_win()) {
      usable = false;
      why = "'bestmove win' where the declaration is not valid";
    }
  } else {
    shogi::Move move;
    if (word.empty() || !shogi::parse_usi_move(it->position, word, move) ||
        !shogi::legal_moves(it->position).contains(move)) {
      usable = false;
      why = "'" + line + "' is not a legal move here";
    } else {
      m.kind = EngineMove::Kind::kMove;
      m.move = it->position.complete_move(move);
      m.score = it->score;
      m.nodes = it->nodes;
      m.nps = it->nps;
      if (!it->pv.empty() && it->pv.front() == m.move) {
        m.pv = it->pv;
      } else {
        m.pv.push_back(m.move);
      }
      // "bestmove X ponder Y": the reply the engine expects, when the PV did not give it.
      if (m.pv.size() == 1 && w.size() >= 4 && w[2] == "ponder") {
        shogi::Position after = it->position;
        after.do_move(m.move);
        const std::vector<shogi::Move> reply = read_pv(after, w, 3);
        if (!reply.empty()) m.pv.push_back(reply.front());
      }
    }
  }
  if (it->pondering) {
    // The engine may not answer a ponder search before ponderhit or stop. A legal move is
    // kept for the ponderhit; anything else is taken as a stray line (a second bestmove).
    if (!usable) return log(LogLevel::kWarning, "'" + line + "' while pondering: ignored");
    log(LogLevel::kWarning, "bestmove while pondering: kept until ponderhit or stop");
    it->bestmove_read = true;
    it->held = std::move(m);
    return;
  }
  Go g = std::move(*it);
  gos_.erase(it);
  if (g.wanted) measure(g);
  if (!usable) return fallback(g, why);
  answer(g, std::move(m));
}

void UsiEnginePlayer::check_stops() {
  const auto now = Clock::now();
  for (const Go& g : gos_)
    if (g.stop_sent && !g.bestmove_read && now - g.stop_time >= Milliseconds(kStopGraceMs))
      return engine_lost("no bestmove within " + std::to_string(kStopGraceMs) + " ms of stop");
}

void UsiEnginePlayer::engine_lost(const std::string& why) {
  log(LogLevel::kError, "engine lost: " + why + "; starting it again");
  // An engine that dies at once on a go it cannot read (gpsusi 0.7 on "go ponder" and on
  // binc) is not sent that form again: pondering off, or the increment inside the main time.
  if (!last_go_.empty() && Clock::now() - last_go_time_ < Milliseconds(kStopGraceMs * 5)) {
    if (ponder_ok_ && last_go_.starts_with("go ponder")) {
      ponder_ok_ = false;
      log(LogLevel::kWarning, "it died on '" + last_go_ + "': no pondering with it from now on");
    } else if (increment_ok_ && last_go_.find(" binc ") != std::string::npos) {
      increment_ok_ = false;
      log(LogLevel::kWarning,
          "it died on '" + last_go_ + "': the increment goes inside btime/wtime only from now on");
    }
  }
  last_go_.clear();
  if (process_) process_->stop(Clock::now());
  alive_ = false;
  next_launch_ = Clock::now();
  std::deque<Go> gos;
  gos.swap(gos_);
  for (Go& g : gos) {
    if (!g.wanted)
      answer(g, EngineMove{});
    else if (g.pondering)
      orphans_.push_back(std::move(g));  // a ponderhit searches afresh
    else if (g.held)
      answer(g, *g.held);
    else
      fallback(g, "the engine was lost (" + why + ")");
  }
}

void UsiEnginePlayer::answer(Go& g, EngineMove move) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (g.wanted && !answers_closed_ && g.answer) g.answer(g.request.id, std::move(move));
  if (active_searches_ > 0) --active_searches_;
  cv_.notify_all();
}

void UsiEnginePlayer::fallback(Go& g, const std::string& why) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++replaced_;
  }
  if (!g.wanted) return answer(g, EngineMove{});
  log(LogLevel::kError, why + ": the built-in engine moves instead");
  SearchRequest r = g.request;
  r.limits = engine::SearchLimits();
  r.limits.movetime_ms = settings_.fallback_ms;
  auto shared = std::make_shared<Go>(std::move(g));
  fallback_.start(r,
                  [this, shared](uint64_t, EngineMove move) { answer(*shared, std::move(move)); });
}

}  // namespace client
