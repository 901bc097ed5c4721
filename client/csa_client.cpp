// CsaClient: the driver loop (see csa_client.h).
#include "client/csa_client.h"

#include <spdlog/logger.h>
#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <variant>

#include "shogi/notation.h"

namespace client {

namespace {

constexpr size_t kLogFileBytes = 10 * 1024 * 1024;
constexpr size_t kLogFiles = 5;

spdlog::level::level_enum spd_level(LogLevel l) {
  switch (l) {
    case LogLevel::kDebug:
      return spdlog::level::debug;
    case LogLevel::kInfo:
      return spdlog::level::info;
    case LogLevel::kWarning:
      return spdlog::level::warn;
    case LogLevel::kError:
      return spdlog::level::err;
  }
  return spdlog::level::info;
}

int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

SessionConfig session_config(const CsaConfig& c) {
  SessionConfig s;
  s.name = c.name;
  s.password = c.login_password();
  s.x1 = c.x1;
  s.x1_game_name = c.game;
  s.x1_color = c.x1_color;
  s.games = c.games;
  s.keep_alive_s = c.keep_alive_s;
  s.margin_ms = c.time_margin_ms;
  s.floodgate_comment = c.floodgate_comments;
  s.ponder = c.ponder;
  s.reconnect_delay_ms = int64_t(c.reconnect_initial_s) * 1000;
  return s;
}

}  // namespace

CsaClient::CsaClient(CsaConfig config, Transport& transport, EnginePlayer& engine,
                     std::function<void()> interrupt)
    : config_(std::move(config)),
      transport_(transport),
      engine_(engine),
      interrupt_(std::move(interrupt)),
      files_(config_.record_dir),
      start_ns_(steady_ns()) {
  files_.set_formats(config_.record_csa, config_.record_kif);
}

CsaClient::~CsaClient() {
  engine_.wait();   // no answer may arrive after this object is gone
  writer_.flush();  // the writer's jobs use files_ and log_
}

int64_t CsaClient::now_ms() const { return (steady_ns() - start_ns_) / 1000000; }

void CsaClient::request_quit(bool immediate) {
  if (immediate) quit_immediate_.store(true);
  quit_requests_.fetch_add(1);
}

int CsaClient::run() {
  // Logging: a rotating file, and the console unless turned off. The logger is this client's
  // own (not registered with spdlog), so that several clients can live in one process.
  std::vector<spdlog::sink_ptr> sinks;
  std::error_code ec;
  std::filesystem::create_directories(config_.log_dir, ec);
  try {
    sinks.push_back(std::make_shared<spdlog::sinks::rotating_file_sink_mt>(
        config_.log_dir + "/csa.log", kLogFileBytes, kLogFiles));
  } catch (const std::exception& e) {
    if (config_.log_console) {
      auto err = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
      spdlog::logger("csa", err).error("cannot open the log in {}: {}", config_.log_dir, e.what());
    }
    return kExitSetup;
  }
  if (config_.log_console) sinks.push_back(std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
  log_ = std::make_shared<spdlog::logger>("csa", sinks.begin(), sinks.end());
  // The login name on every line: clients sharing a log directory stay apart.
  log_->set_pattern("%Y-%m-%d %H:%M:%S.%e %^%-5l%$ [" + config_.name + "] %v");
  log_->set_level(spdlog::level::debug);
  log_->flush_on(spdlog::level::debug);  // a crash must not eat the last lines

  if (base::Status st = files_.init(); !st) {
    log_->error("{}", st.message());
    return kExitSetup;
  }
  if (status_board_) {
    status_ = std::make_unique<ClientStatus>(*status_board_, config_, start_ns_ / 1000000);
    status_->load_history(files_.results_path());
  }
  log_->info("sashite csa: {} at {}:{}, {} login, game '{}', {} game(s); records in {}",
             config_.name, config_.host, config_.port, config_.x1 ? "x1" : "CSA", config_.game,
             config_.games == 0 ? std::string("endless") : std::to_string(config_.games),
             config_.record_dir);
  engine_.set_log([log = log_](LogLevel level, const std::string& message) {
    log->log(spd_level(level), "{}", message);
  });
  if (base::Status st = engine_.prepare(); !st) {
    // A configured engine, weights file or book that cannot be loaded: playing for weeks
    // with less than the operator configured is worse than not starting.
    log_->error("engine: {}", st.message());
    engine_.set_log({});
    return kExitSetup;
  }

  session_ = std::make_unique<CsaSession>(session_config(config_));
  handle(event::Start{});
  while (!finished_) {
    drain_engine_answers();
    if (finished_) break;
    check_quit();
    if (finished_) break;
    const int64_t now = now_ms();
    if (connect_at_ms_ && now >= *connect_at_ms_) {
      connect_at_ms_.reset();
      do_connect();
      continue;
    }
    const int64_t wakeup = session_->next_wakeup_ms();
    if (now >= wakeup) {
      handle(event::Timer{});
      continue;
    }
    const int idle_s = config_.effective_idle_timeout_s();
    const int64_t idle_deadline = transport_.is_open() && idle_s > 0
                                      ? last_received_ms_ + 1000 * int64_t(idle_s)
                                      : CsaSession::kNever;
    if (now >= idle_deadline) {
      log_->error("nothing received for {} s: taking the connection as dead", idle_s);
      transport_.close();
      handle(event::Disconnected{});
      continue;
    }
    int64_t until = std::min({wakeup, idle_deadline, now + kPollMs});
    if (connect_at_ms_) until = std::min(until, *connect_at_ms_);
    wait_for_input(until);
  }
  engine_.stop(0);
  engine_.wait();
  engine_.set_log({});
  transport_.close();
  writer_.flush();
  for (const std::string& r : warnings_limit_.flush()) log_->warn("{}", r);
  for (const std::string& r : lines_limit_.flush()) log_->warn("lines {}", r);
  log_->info("finished: {}", finish_reason_);
  log_->flush();
  if (gave_up_) return kExitConnection;
  if (!finish_ok_) return kExitProtocol;
  if (game_cut_) return kExitConnection;
  return kExitOk;
}

void CsaClient::wait_for_input(int64_t until_ms) {
  const int64_t wait = std::max<int64_t>(0, until_ms - now_ms());
  if (!transport_.is_open()) {
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait_for(lock, std::chrono::milliseconds(wait), [&] { return !answers_.empty(); });
    return;
  }
  std::vector<std::string> lines;
  const Transport::ReceiveStatus status = transport_.receive_lines(wait, lines);
  closed_by_us_ = false;
  // Every line of the batch arrived now: handling one (writing the record after a move's
  // echo, say) must not delay the next one's time, the start of our turn's clock.
  const int64_t received_ms = now_ms();
  if (!lines.empty()) last_received_ms_ = received_ms;
  for (const std::string& line : lines) {
    log_line('<', line);
    handle(event::LineReceived{line}, received_ms);
    if (finished_) return;
  }
  if (status == Transport::ReceiveStatus::kClosed && !closed_by_us_) {
    log_->info("the server closed the connection");
    handle(event::Disconnected{});
  }
}

void CsaClient::do_connect() {
  log_->info("connecting to {}:{}", config_.host, config_.port);
  const base::Status st =
      transport_.connect(config_.host, config_.port, int64_t(config_.connect_timeout_s) * 1000);
  if (st) {
    ++connections_;
    if (status_) status_->connected();
    last_received_ms_ = now_ms();
    log_->info("connected");
    return handle(event::Connected{});
  }
  log_->error("{}", st.message());
  ++failures_;
  if (config_.max_connect_failures > 0 && failures_ >= config_.max_connect_failures) {
    log_->error("giving up after {} failed connection(s) in a row", failures_);
    gave_up_ = true;
    return handle(event::QuitRequested{true});
  }
  handle(event::Disconnected{});
}

void CsaClient::handle(const Event& event) { handle(event, now_ms()); }

void CsaClient::handle(const Event& event, int64_t at_ms) {
  const CsaSession::State before = session_->state();
  if (std::holds_alternative<event::Disconnected>(event) && before == CsaSession::State::kLoggingIn)
    ++failures_;  // dropped before the login completed (a game cut is no failed connection)
  for (const Action& a : session_->handle(at_ms, event)) execute(a);
  const CsaSession::State after = session_->state();
  if (status_) status_->connection(after, connect_at_ms_, now_ms());
  if (after >= CsaSession::State::kWaitingForGame && after <= CsaSession::State::kGameOver)
    failures_ = 0;
}

void CsaClient::execute(const Action& a) {
  if (auto* s = std::get_if<action::SendLine>(&a)) {
    log_line('>', s->line);
    if (!transport_.send_line(s->line)) log_->warn("not sent: the connection is closed");
  } else if (std::holds_alternative<action::Close>(a)) {
    closed_by_us_ = true;
    transport_.close();
  } else if (auto* c = std::get_if<action::Connect>(&a)) {
    int64_t delay = c->delay_ms;
    if (failures_ > 0) {
      const int64_t backoff = int64_t(config_.reconnect_initial_s) * 1000
                              << std::min(failures_ - 1, 20);
      delay = std::max(delay, std::min(backoff, int64_t(config_.reconnect_max_s) * 1000));
    }
    if (delay != c->delay_ms)
      log_->info("back-off after {} failure(s): the next connection in {} ms, not {}", failures_,
                 delay, c->delay_ms);
    connect_at_ms_ = now_ms() + delay;
  } else if (auto* s = std::get_if<action::StartSearch>(&a)) {
    if (s->request.limits.ponder)
      log_->debug("search {} started: pondering on {}", s->request.id,
                  shogi::format_usi_move(s->request.moves.back()));
    else
      log_->debug("search {} started; deadline in {} ms", s->request.id,
                  s->request.deadline_ms - now_ms());
    engine_.start(s->request,
                  [this](uint64_t id, EngineMove move) { on_engine_answer(id, std::move(move)); });
  } else if (auto* s = std::get_if<action::StopSearch>(&a)) {
    engine_.stop(s->search_id);
  } else if (auto* p = std::get_if<action::PonderHit>(&a)) {
    log_->debug("ponderhit: search {}; deadline in {} ms", p->search_id,
                p->request.deadline_ms - now_ms());
    engine_.ponderhit(p->search_id, p->request);
  } else if (auto* g = std::get_if<action::GameStarted>(&a)) {
    game_summary_ = g->summary;
    us_ = g->summary.your_turn;
    engine_.new_game(g->summary);
    if (status_) status_->game_started(*session_);
    // files_ and record_paths_ belong to the writer's thread from here on (run() flushes it).
    writer_.post([this, summary = g->summary] {
      files_.start_game(summary);
      record_paths_.push_back(files_.record_path());
      if (status_) status_->record_files(summary.game_id, files_.csa_path(), files_.kif_path());
      log_->info("record: {}", files_.record_path());
    });
  } else if (std::holds_alternative<action::RecordUpdated>(a)) {
    if (status_) status_->record_updated(*session_);
    writer_.post(
        [this, record = session_->record()] {
          if (base::Status st = files_.write_record(record); !st) log_->error("{}", st.message());
        },
        /*replaceable=*/true);
  } else if (auto* g = std::get_if<action::GameEnded>(&a)) {
    results_.push_back(g->result);
    if (!g->result.outcome) game_cut_ = true;
    engine_.game_over(g->result.outcome);
    // The last game: an external engine quits while the connection closes, not after it.
    if (!session_->wants_more_games()) engine_.quit();
    if (status_) status_->game_ended(*session_, g->result);
    if (g->result.ponder_searches > 0)
      log_->info("ponder: {} of {} hit, {} ms thought on the opponent's time before our turns",
                 g->result.ponder_hits, g->result.ponder_searches, g->result.ponder_hit_ms);
    writer_.post([this, result = g->result, summary = game_summary_, us = us_] {
      if (base::Status st = files_.append_result(result, summary, us); !st)
        log_->error("{}", st.message());
    });
  } else if (auto* r = std::get_if<action::GameRejected>(&a)) {
    log_->warn("game {} rejected by {}{}", r->game_id, r->by,
               r->reason.empty() ? "" : " (" + r->reason + ")");
  } else if (auto* l = std::get_if<action::Log>(&a)) {
    std::string report;
    if (l->level >= LogLevel::kWarning &&
        !warnings_limit_.allow(LogLimiter::kind_of(l->message), now_ms(), report)) {
      return;
    }
    if (!report.empty()) log_->warn("{}", report);
    log_->log(spd_level(l->level), "{}", session_->redact(l->message));
  } else if (auto* f = std::get_if<action::Finished>(&a)) {
    finished_ = true;
    finish_ok_ = f->ok;
    finish_reason_ = f->reason;
    if (!f->ok) log_->error("{}", f->reason);
  }
}

void CsaClient::on_engine_answer(uint64_t id, EngineMove move) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    answers_.push_back(event::EngineMoveReady{id, std::move(move)});
  }
  wake_.notify_one();
  if (interrupt_) interrupt_();
}

void CsaClient::drain_engine_answers() {
  std::vector<event::EngineMoveReady> answers;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    answers.swap(answers_);
  }
  for (event::EngineMoveReady& a : answers) {
    log_->debug("engine answered search {}", a.search_id);
    // Only the answer that becomes our move: not a stale one, nor a ponder search's miss.
    if (status_ && session_->awaits_answer(a.search_id)) status_->engine_answer(*session_, a.move);
    handle(std::move(a));
    if (finished_) return;
  }
}

void CsaClient::check_quit() {
  const int n = quit_requests_.load();
  if (n <= quit_seen_) return;
  const bool first = quit_seen_ == 0;
  quit_seen_ = n;
  const bool immediate = !first || n >= 2 || quit_immediate_.load() || config_.resign_on_quit;
  log_->warn("quit requested: {}",
             immediate ? "resigning any game in progress" : "finishing the game in progress");
  handle(event::QuitRequested{immediate});
}

void CsaClient::log_line(char direction, const std::string& line) {
  std::string report;
  const bool allowed = lines_limit_.allow(std::string(1, direction), now_ms(), report);
  if (!report.empty()) log_->warn("lines {}", report);
  if (allowed)
    log_->info("{} {}", direction, quote_line(session_->redact(line), kMaxLineLength + 1));
}

}  // namespace client
