// CsaSession: the CSA client state machine (see csa_session.h).
#include "client/csa_session.h"

#include <algorithm>
#include <utility>

#include "base/words.h"
#include "shogi/csa_notation.h"
#include "shogi/movegen.h"
#include "shogi/notation.h"

namespace client {

namespace {

using shogi::Color;
using shogi::CsaSpecialMove;

constexpr size_t kRttSamples = 5;           // the round trip is the worst of the last few
constexpr int64_t kMaxRttSampleMs = 30000;  // a slower echo says nothing about the network
constexpr int kMinKeepAliveS = 30;
// LOGIN:incorrect after a login of this run succeeded: the server keeps our old session while
// its game goes on (its clock runs out at last), so the login is tried again, less and less
// often, for this long before it counts as a real refusal.
constexpr int64_t kLoginRetryWindowMs = 60 * 60 * 1000;
constexpr int64_t kMaxLoginRetryDelayMs = 60 * 1000;

// Seconds as the record's $TIME writes them: "600", or "0.5" for fractions.
std::string seconds_text(int64_t ms) {
  std::string s = std::to_string(ms / 1000);
  if (ms % 1000) {
    std::string frac = std::to_string(1000 + ms % 1000).substr(1);
    while (frac.back() == '0') frac.pop_back();
    s += "." + frac;
  }
  return s;
}

std::string time_info(const ClockRules& r) {
  return seconds_text(r.total_ms) + "+" + seconds_text(r.byoyomi_ms) + "+" +
         seconds_text(r.increment_ms);
}

}  // namespace

bool council_vote_of(std::string_view note, bool& unanimous) {
  constexpr std::string_view kPrefix = "council: ";
  if (note.substr(0, kPrefix.size()) != kPrefix) return false;
  // "council: RULE MOVE K/N ...": the third word after the prefix counts the voters.
  const std::vector<std::string_view> words = base::split_words(note.substr(kPrefix.size()));
  if (words.size() < 3) return false;
  const std::string_view count = words[2];
  const size_t slash = count.find('/');
  if (slash == std::string_view::npos || slash == 0 || slash + 1 == count.size()) return false;
  unanimous = count.substr(0, slash) == count.substr(slash + 1);
  return true;
}

std::string unsupported_reason(const GameSummary& s) {
  if (!s.protocol_mode.empty() && s.protocol_mode != "Server")
    return "Protocol_Mode:" + s.protocol_mode + " is not supported (only Server)";
  if (!s.protocol_version.empty() && !s.protocol_version.starts_with("1."))
    return "Protocol_Version:" + s.protocol_version + " is not supported (only 1.x)";
  if (!s.format.empty() && s.format != "Shogi 1.0")
    return "Format:" + s.format + " is not supported (only Shogi 1.0)";
  if (!s.declaration.empty() && s.declaration != "Jishogi 1.1")
    return "Declaration:" + s.declaration + " is not supported (only Jishogi 1.1)";
  if (s.rematch_on_draw) return "Rematch_On_Draw:YES is not supported";
  if (s.max_moves > 0 && int(s.moves.size()) >= s.max_moves)
    return "the game has already reached Max_Moves";
  return "";
}

CsaSession::CsaSession(SessionConfig config) : config_(std::move(config)) {}

std::vector<Action> CsaSession::handle(int64_t now_ms, const Event& e) {
  actions_.clear();
  now_ms_ = std::max(now_ms_, now_ms);
  std::visit(
      [&](const auto& ev) {
        using T = std::decay_t<decltype(ev)>;
        if constexpr (std::is_same_v<T, event::Start>) {
          if (state_ != State::kIdle) return log(LogLevel::kWarning, "Start ignored: started");
          if (!is_valid_login_name(config_.name) || !is_valid_password(config_.password))
            return finish(false, "invalid login name or password in the configuration");
          // In x1 mode the game name and colour go out in %%GAME: one token each.
          if (config_.x1 &&
              (!is_valid_password(config_.x1_game_name) ||
               std::string_view("+-*").find(config_.x1_color) == std::string_view::npos))
            return finish(false, "invalid x1 game name or colour in the configuration");
          state_ = State::kConnecting;
          actions_.push_back(action::Connect{0});
        } else if constexpr (std::is_same_v<T, event::Connected>) {
          on_connected();
        } else if constexpr (std::is_same_v<T, event::Disconnected>) {
          on_disconnected();
        } else if constexpr (std::is_same_v<T, event::LineReceived>) {
          on_line(ev.line);
        } else if constexpr (std::is_same_v<T, event::EngineMoveReady>) {
          on_engine_move(ev.search_id, ev.move);
        } else if constexpr (std::is_same_v<T, event::Timer>) {
          on_timer();
        } else if constexpr (std::is_same_v<T, event::QuitRequested>) {
          on_quit(ev.immediate);
        } else if constexpr (std::is_same_v<T, event::UserCommand>) {
          ClientLine parsed;
          if (!config_.x1 || !parse_client_line(ev.line, parsed) ||
              parsed.type != ClientLineType::kX1Command || state_ < State::kWaitingForGame ||
              state_ >= State::kLoggingOut)
            return log(LogLevel::kWarning, "command not sent: " + quote_line(ev.line) +
                                               " (x1 %% commands only, once logged in)");
          user_command_since_request_ = true;
          send(ev.line);
        }
      },
      e);
  return std::move(actions_);
}

int64_t CsaSession::next_wakeup_ms() const {
  int64_t t = close_deadline_ms_;
  if (searching_ && !stop_sent_) t = std::min(t, search_deadline_ms_);
  if (config_.keep_alive_s > 0 && state_ >= State::kWaitingForGame && state_ <= State::kGameOver)
    t = std::min(t, last_sent_ms_ + 1000 * int64_t(std::max(kMinKeepAliveS, config_.keep_alive_s)));
  return t;
}

std::string CsaSession::redact(std::string_view line) const {
  std::string s(line);
  if (config_.password.empty()) return s;
  for (size_t pos; (pos = s.find(config_.password)) != std::string::npos;)
    s.replace(pos, config_.password.size(), "*****");
  return s;
}

void CsaSession::send(std::string line) {
  last_sent_ms_ = now_ms_;
  actions_.push_back(action::SendLine{std::move(line)});
}

void CsaSession::log(LogLevel level, std::string message) {
  actions_.push_back(action::Log{level, std::move(message)});
}

void CsaSession::finish(bool ok, std::string reason) {
  stop_search();
  state_ = State::kFinished;
  close_deadline_ms_ = kNever;
  actions_.push_back(action::Finished{ok, std::move(reason)});
}

bool CsaSession::want_more_games() const {
  return !quit_requested_ && (config_.games <= 0 || games_played_ < config_.games);
}

void CsaSession::add_rtt_sample(int64_t ms) {
  if (ms < 0 || ms > kMaxRttSampleMs) return;
  rtt_samples_.push_back(ms);
  if (rtt_samples_.size() > kRttSamples) rtt_samples_.pop_front();
  rtt_ms_ = *std::max_element(rtt_samples_.begin(), rtt_samples_.end());
}

// ---- Connection and login ----

void CsaSession::on_connected() {
  if (state_ != State::kConnecting)
    return log(LogLevel::kWarning,
               std::string("Connected ignored in state ") + session_state_name(state_));
  x1_confirmed_ = false;
  state_ = State::kLoggingIn;
  login_sent_ms_ = now_ms_;
  send(format_login(config_.name, config_.password, config_.x1));
}

void CsaSession::on_disconnected() {
  const bool expected = state_ == State::kGameOver || state_ == State::kLoggingOut;
  switch (state_) {
    case State::kIdle:
    case State::kFinished:
      return;
    case State::kPlaying:
      log(LogLevel::kError,
          "connection lost during game " + summary_.game_id + ": the game cannot be resumed");
      end_game(std::nullopt);
      break;
    case State::kConnecting:
      log(LogLevel::kWarning, "could not connect");
      break;
    default:
      break;
  }
  after_disconnect(expected);
}

void CsaSession::on_login_refused() {
  if (!logged_in_before_)
    return finish(false,
                  "LOGIN:incorrect (wrong password, a game name the server refuses, "
                  "or our previous session still playing)");
  if (login_refusals_++ == 0) login_refused_since_ms_ = now_ms_;
  if (now_ms_ - login_refused_since_ms_ >= kLoginRetryWindowMs)
    return finish(false, "LOGIN:incorrect again and again for " +
                             std::to_string((now_ms_ - login_refused_since_ms_) / 60000) +
                             " minutes after earlier logins succeeded");
  // The same name and password logged in before: the server most likely still holds our
  // previous session (a game cut on our side goes on there until its clock runs out).
  const int64_t delay =
      std::min(kMaxLoginRetryDelayMs, std::max<int64_t>(1000, config_.reconnect_delay_ms)
                                          << std::min(login_refusals_ - 1, 6));
  reconnect(delay, LogLevel::kWarning,
            "LOGIN:incorrect after an earlier login: the server may still hold our previous "
            "session; logging in again");
}

void CsaSession::after_disconnect(bool expected) {
  reconnect(expected ? config_.next_game_delay_ms : config_.reconnect_delay_ms, LogLevel::kInfo,
            "reconnecting");
}

void CsaSession::reconnect(int64_t delay_ms, LogLevel level, const std::string& what) {
  stop_search();
  x1_confirmed_ = false;
  game_request_pending_ = false;
  close_deadline_ms_ = kNever;
  if (!want_more_games()) return finish(true, quit_requested_ ? "quit" : "all games played");
  state_ = State::kConnecting;
  log(level, what + " in " + std::to_string(delay_ms) + " ms");
  actions_.push_back(action::Connect{delay_ms});
}

void CsaSession::request_game() {
  state_ = State::kWaitingForGame;
  if (config_.x1 && x1_confirmed_) {
    send(format_x1_game(config_.x1_game_name, config_.x1_color));
    game_request_pending_ = true;
    user_command_since_request_ = false;
  }
}

void CsaSession::on_line(std::string_view raw) {
  if (state_ == State::kReadingSummary && !raw.starts_with("##[")) return on_summary_line(raw);
  ServerLine line;
  if (Status st = parse_server_line(raw, line); !st)
    return log(LogLevel::kWarning, "skipped: " + st.message());
  switch (line.type) {
    case ServerLineType::kKeepAlive:
      return;
    case ServerLineType::kLoginOk:
      if (state_ != State::kLoggingIn) break;
      if (line.name != config_.name)
        log(LogLevel::kWarning, "logged in as " + line.name + ", not " + config_.name);
      log(LogLevel::kInfo, "logged in as " + line.name);
      add_rtt_sample(now_ms_ - login_sent_ms_);
      logged_in_before_ = true;
      login_refusals_ = 0;
      return request_game();
    case ServerLineType::kLoginIncorrect:
      if (state_ != State::kLoggingIn) break;
      actions_.push_back(action::Close{});
      return on_login_refused();
    case ServerLineType::kLogoutCompleted:
      if (state_ != State::kLoggingOut) break;
      actions_.push_back(action::Close{});
      return finish(true, quit_requested_ ? "quit" : "all games played");
    case ServerLineType::kSummaryBegin:
      if (state_ != State::kWaitingForGame && state_ != State::kGameOver) break;
      summary_parser_.reset();
      close_deadline_ms_ = kNever;
      game_request_pending_ = false;
      state_ = State::kReadingSummary;
      return on_summary_line(raw);
    case ServerLineType::kStart:
      if (state_ != State::kAgreed) break;
      if (line.game_id != summary_.game_id)
        log(LogLevel::kWarning, "START for " + line.game_id + ", agreed " + summary_.game_id);
      return begin_game();
    case ServerLineType::kReject:
      if (state_ != State::kAgreed && state_ != State::kRejecting) break;
      log(LogLevel::kInfo, "game " + line.game_id + " rejected by " + line.name);
      actions_.push_back(action::GameRejected{line.game_id, line.name,
                                              state_ == State::kRejecting ? reject_reason_ : ""});
      return after_game();
    case ServerLineType::kMove:
    case ServerLineType::kSpecialMove:
    case ServerLineType::kEndReason:
    case ServerLineType::kOutcome:
      if (state_ != State::kPlaying) break;
      return on_game_line(line);
    case ServerLineType::kX1Reply:
      if (line.x1_tag == "LOGIN" && line.x1_body.starts_with("+OK") && config_.x1 &&
          !x1_confirmed_) {
        x1_confirmed_ = true;
        if (state_ == State::kWaitingForGame) request_game();
        return;
      }
      if (line.x1_tag == "ERROR" && state_ == State::kWaitingForGame && game_request_pending_ &&
          !user_command_since_request_) {
        // No game will come: waiting on would idle for ever, keeping the connection alive.
        actions_.push_back(action::Close{});
        return finish(false, "the server refused " +
                                 format_x1_game(config_.x1_game_name, config_.x1_color) + ": " +
                                 quote_line(raw));
      }
      return log(line.x1_tag == "ERROR" ? LogLevel::kWarning : LogLevel::kInfo,
                 "server: " + std::string(raw));
    case ServerLineType::kUnknown:
      return log(LogLevel::kWarning, "skipped unknown line " + quote_line(raw));
  }
  log(LogLevel::kWarning, "skipped " + quote_line(raw) + " in state " + session_state_name(state_));
}

// ---- Game_Summary, AGREE / REJECT ----

void CsaSession::on_summary_line(std::string_view line) {
  const SummaryParser::Result r = summary_parser_.feed(line);
  if (r == SummaryParser::Result::kNeedMore) return;
  for (const std::string& w : summary_parser_.warnings()) log(LogLevel::kWarning, w);
  if (r == SummaryParser::Result::kError) {
    if (!summary_parser_.finished()) return;  // swallow up to END Game_Summary
    log(LogLevel::kError, summary_parser_.error());
    return reject_game(summary_parser_.summary().game_id,
                       "unreadable Game_Summary: " + summary_parser_.error());
  }
  summary_ = summary_parser_.summary();
  std::string reason = unsupported_reason(summary_);
  if (reason.empty() && config_.game_filter) reason = config_.game_filter(summary_);
  if (reason.empty() && quit_requested_) reason = "quitting";
  if (!reason.empty()) return reject_game(summary_.game_id, reason);
  log(LogLevel::kInfo, "agreeing to game " + summary_.game_id);
  state_ = State::kAgreed;
  send(format_agree(config_.send_game_id ? summary_.game_id : ""));
}

void CsaSession::reject_game(const std::string& game_id, const std::string& reason) {
  log(LogLevel::kWarning, "rejecting game " + game_id + ": " + reason);
  reject_reason_ = reason;
  state_ = State::kRejecting;
  send(format_reject(config_.send_game_id ? game_id : ""));
}

// ---- The game ----

void CsaSession::begin_game() {
  state_ = State::kPlaying;
  us_ = summary_.your_turn;
  position_ = summary_.position();
  clock_ = GameClock::from_summary(summary_, config_.clock);
  // position_ is root_ with moves_ played. The summary's parser checked the setup.
  root_ = shogi::Position();
  (void)root_.set(summary_.initial);
  moves_.clear();
  record_ = shogi::CsaRecord();
  record_.black_name = summary_.names[shogi::kBlack];
  record_.white_name = summary_.names[shogi::kWhite];
  record_.info.push_back({"EVENT", summary_.game_id});
  if (summary_.per_side_time) {
    record_.info.push_back({"TIME+", time_info(clock_.rules(shogi::kBlack))});
    record_.info.push_back({"TIME-", time_info(clock_.rules(shogi::kWhite))});
  } else {
    record_.info.push_back({"TIME", time_info(clock_.rules(shogi::kBlack))});
  }
  if (summary_.max_moves > 0)
    record_.info.push_back({"MAX_MOVES", std::to_string(summary_.max_moves)});
  if (summary_.declaration == "Jishogi 1.1") record_.info.push_back({"JISHOGI", "27"});
  record_.initial = summary_.initial;
  for (const SummaryMove& m : summary_.moves) {
    moves_.push_back(m.move);
    shogi::CsaRecordMove rm{m.move, m.text, std::nullopt, {}};
    if (m.t_milli) rm.time_ms = clock_.t_to_ms(*m.t_milli);
    record_.moves.push_back(std::move(rm));
  }
  reason_ = GameEndReason::kNone;
  last_special_ = CsaSpecialMove::kNone;
  last_special_t_.reset();
  sent_move_.clear();
  searching_ = false;
  pondering_ = false;
  resign_on_our_turn_ = false;
  expected_reply_ = shogi::kMoveNone;
  ponder_searches_ = ponder_hits_ = 0;
  council_votes_ = council_agreed_ = 0;
  ponder_hit_ms_ = 0;
  turn_start_ms_ = now_ms_;
  log(LogLevel::kInfo, std::string("game ") + summary_.game_id + " started; we play " +
                           (us_ == shogi::kBlack ? "Black (+)" : "White (-)"));
  actions_.push_back(action::GameStarted{summary_});
  actions_.push_back(action::RecordUpdated{});
  if (quit_requested_ && quit_immediate_) return abandon_game();
  if (position_.side_to_move() == us_) start_search();
}

SearchRequest CsaSession::search_request() {
  SearchRequest r;
  r.id = search_id_;
  r.root = root_;
  r.moves = moves_;
  r.us = us_;
  r.limits = clock_.search_limits(us_, rtt_ms_, config_.margin_ms, config_.unlimited_move_ms);
  const int64_t limit = clock_.rules(us_).unlimited
                            ? config_.unlimited_move_ms + config_.margin_ms
                            : clock_.think_limit_ms(us_, rtt_ms_, config_.margin_ms);
  r.started_ms = turn_start_ms_;
  r.deadline_ms = turn_start_ms_ + limit;
  return r;
}

shogi::Position SearchRequest::position() const {
  shogi::Position pos = root;
  for (shogi::Move m : moves) pos.do_move(m);
  return pos;
}

void CsaSession::start_search() {
  ++search_id_;
  searching_ = true;
  stop_sent_ = false;
  SearchRequest r = search_request();
  search_deadline_ms_ = r.deadline_ms;
  actions_.push_back(action::StartSearch{std::move(r)});
}

void CsaSession::stop_search() {
  if (pondering_) {
    pondering_ = false;
    actions_.push_back(action::StopSearch{search_id_});
  }
  if (!searching_) return;
  searching_ = false;
  if (!stop_sent_) actions_.push_back(action::StopSearch{search_id_});
  stop_sent_ = true;
}

void CsaSession::start_ponder() {
  const shogi::Move reply = expected_reply_;
  expected_reply_ = shogi::kMoveNone;
  if (!config_.ponder || !reply.is_ok() || state_ != State::kPlaying) return;
  // The engine's reply must be a move the opponent can make here (after a mate there is none).
  shogi::Move legal_reply = shogi::kMoveNone;
  for (shogi::Move m : shogi::legal_moves(position_))
    if (shogi::format_usi_move(m) == shogi::format_usi_move(reply)) legal_reply = m;
  if (!legal_reply.is_ok()) return;
  ++search_id_;
  pondering_ = true;
  ++ponder_searches_;
  ponder_start_ms_ = now_ms_;
  ponder_move_usi_ = shogi::format_usi_move(legal_reply);
  // The clocks as they will be if the opponent plays it at once: ours is what it is now.
  SearchRequest r = search_request();
  r.moves.push_back(legal_reply);
  r.limits.ponder = true;
  r.deadline_ms = kNever;
  actions_.push_back(action::StartSearch{std::move(r)});
}

void CsaSession::on_engine_move(uint64_t id, const EngineMove& em) {
  if (state_ != State::kPlaying || !searching_ || id != search_id_)
    return log(LogLevel::kDebug, "engine answer for search " + std::to_string(id) + " ignored");
  searching_ = false;
  if (last_special_ == CsaSpecialMove::kToryo || last_special_ == CsaSpecialMove::kChudan)
    return log(LogLevel::kDebug, "engine answer after our resignation ignored");
  if (now_ms_ >= search_deadline_ms_)
    log(LogLevel::kWarning, "engine answered " + std::to_string(now_ms_ - search_deadline_ms_) +
                                " ms after the deadline");
  if (em.kind == EngineMove::Kind::kResign) {
    last_special_ = CsaSpecialMove::kToryo;
    return send(format_special_move(CsaSpecialMove::kToryo));
  }
  if (em.kind == EngineMove::Kind::kWin) {
    if (!position_.can_declare_win())
      log(LogLevel::kWarning, "declaring %KACHI although our rules say it is not valid");
    return send(format_special_move(CsaSpecialMove::kKachi));
  }
  shogi::Move m = em.move;
  const bool legal = m.is_ok() && shogi::legal_moves(position_).contains(m);
  if (legal && m.piece_after() == shogi::kNoPiece) m = position_.complete_move(m);
  if (!m.is_ok() || m.piece_after() == shogi::kNoPiece) {
    log(LogLevel::kError, "engine gave no usable move: resigning");
    return send(format_special_move(CsaSpecialMove::kToryo));
  }
  const std::string text = shogi::format_csa_move(m);
  if (!legal)
    log(LogLevel::kError,
        "engine move " + text + " is not legal by our rules; sent anyway (the server decides)");
  sent_comment_ = (config_.floodgate_comment && em.score)
                      ? format_floodgate_comment(*em.score, us_, m, em.pv, config_.pv_max_moves)
                      : "";
  sent_move_ = text;
  sent_note_ = em.note;
  bool unanimous = false;
  if (council_vote_of(em.note, unanimous)) {
    ++council_votes_;
    if (unanimous) ++council_agreed_;
  }
  sent_move_ms_ = now_ms_;
  expected_reply_ = em.pv.size() >= 2 && em.pv.front() == em.move ? em.pv[1] : shogi::kMoveNone;
  send(format_move_line(text, sent_comment_));
}

void CsaSession::on_game_line(const ServerLine& line) {
  switch (line.type) {
    case ServerLineType::kMove:
      return apply_move(line);
    case ServerLineType::kSpecialMove:
      stop_search();
      if (!line.warning.empty()) log(LogLevel::kWarning, line.warning);
      last_special_ = line.special;
      if (line.move.t_milli) last_special_t_ = line.move.t_milli;
      return;
    case ServerLineType::kEndReason:
      stop_search();
      reason_ = line.reason;
      return;
    case ServerLineType::kOutcome:
      end_game(line.outcome);
      return after_game();
    default:
      return;
  }
}

void CsaSession::apply_move(const ServerLine& line) {
  const std::string& text = line.move.move;
  const Color mover = text[0] == '+' ? shogi::kBlack : shogi::kWhite;
  shogi::Move m;
  if (Status st = shogi::parse_csa_move(position_, text, m); !st) {
    log(LogLevel::kError, "the server played " + text + " but our rules refuse it (" +
                              st.message() + "): resigning, we cannot follow the game");
    stop_search();
    last_special_ = CsaSpecialMove::kToryo;
    return send(format_special_move(CsaSpecialMove::kToryo));
  }
  // A ponder search on the move just played becomes our move's search below; on another
  // move it is stopped.
  const bool ponder_hit =
      pondering_ && mover != us_ && shogi::format_usi_move(m) == ponder_move_usi_;
  if (ponder_hit) pondering_ = false;
  stop_search();  // a search only runs when the server played for us, or out of turn
  shogi::CsaRecordMove rm{m, text, std::nullopt, {}};
  if (!line.warning.empty()) log(LogLevel::kWarning, line.warning);
  if (line.move.t_milli) {
    rm.time_ms = clock_.t_to_ms(*line.move.t_milli);
    clock_.charge_ms(mover, *rm.time_ms);
  } else {
    // Charged what we measured between the two echoes, as the server rounds it: about what
    // the server counted. Charging nothing would let our clock run ahead of the server's.
    const int64_t measured = clock_.charged_ms(mover, now_ms_ - turn_start_ms_);
    clock_.charge_ms(mover, measured);
    log(LogLevel::kWarning, "move " + text + " without its time (,T): charged " +
                                std::to_string(measured) + " ms as measured here");
  }
  if (mover == us_) {
    if (sent_move_.empty() || sent_move_ != text)
      log(LogLevel::kWarning, "the server played " + text + " for us; we sent " +
                                  (sent_move_.empty() ? std::string("nothing") : sent_move_));
    else
      add_rtt_sample(now_ms_ - sent_move_ms_);
    if (!sent_comment_.empty() && sent_move_ == text) rm.comments.push_back(sent_comment_);
    if (!sent_note_.empty() && sent_move_ == text) rm.comments.push_back(sent_note_);
    if (sent_move_ != text) expected_reply_ = shogi::kMoveNone;
    sent_move_.clear();
  } else if (!line.move.comment.empty()) {
    rm.comments.push_back(
        line.move.comment);  // the opponent's floodgate comment, as floodgate keeps it
  }
  position_.do_move(m);
  moves_.push_back(m);
  record_.moves.push_back(std::move(rm));
  actions_.push_back(action::RecordUpdated{});
  turn_start_ms_ = now_ms_;
  // At Max_Moves the server ends the game (#MAX_MOVES): no search for a move it would refuse.
  const bool at_max = summary_.max_moves > 0 && int(record_.moves.size()) >= summary_.max_moves;
  if (position_.side_to_move() != us_) {
    if (mover == us_ && !at_max) start_ponder();
    return;
  }
  if (at_max) {
    if (ponder_hit) actions_.push_back(action::StopSearch{search_id_});
    return;
  }
  if (resign_on_our_turn_) {
    if (ponder_hit) actions_.push_back(action::StopSearch{search_id_});
    return abandon_game();
  }
  if (!ponder_hit) return start_search();
  ++ponder_hits_;
  ponder_hit_ms_ += now_ms_ - ponder_start_ms_;
  searching_ = true;
  stop_sent_ = false;
  SearchRequest r = search_request();
  search_deadline_ms_ = r.deadline_ms;
  log(LogLevel::kDebug,
      "ponderhit after " + std::to_string(now_ms_ - ponder_start_ms_) + " ms of pondering");
  actions_.push_back(action::PonderHit{search_id_, std::move(r)});
}

void CsaSession::abandon_game() {
  stop_search();
  if (last_special_ == CsaSpecialMove::kToryo || last_special_ == CsaSpecialMove::kChudan) return;
  // A special move is a move: on the opponent's turn the server refuses it (and we would
  // play on). It goes out when our turn comes.
  if (position_.side_to_move() != us_) {
    if (!resign_on_our_turn_) log(LogLevel::kInfo, "resigning when our turn comes");
    resign_on_our_turn_ = true;
    return;
  }
  const CsaSpecialMove s =
      config_.chudan_on_quit ? CsaSpecialMove::kChudan : CsaSpecialMove::kToryo;
  log(LogLevel::kWarning, std::string("abandoning the game: ") + shogi::csa_special_move_name(s));
  last_special_ = s;
  send(format_special_move(s));
}

void CsaSession::end_game(std::optional<GameOutcome> outcome) {
  stop_search();
  GameResult result{summary_.game_id, outcome, reason_, int(record_.moves.size())};
  result.ponder_searches = ponder_searches_;
  result.ponder_hits = ponder_hits_;
  result.council_votes = council_votes_;
  result.council_agreed = council_agreed_;
  result.ponder_hit_ms = ponder_hit_ms_;
  CsaSpecialMove special = CsaSpecialMove::kNone;
  switch (reason_) {
    case GameEndReason::kResign:
      special = CsaSpecialMove::kToryo;
      break;
    case GameEndReason::kSennichite:
      special = CsaSpecialMove::kSennichite;
      break;
    case GameEndReason::kOuteSennichite:
      special = CsaSpecialMove::kOuteSennichite;
      break;
    case GameEndReason::kIllegalMove:
      special = CsaSpecialMove::kIllegalMove;
      break;
    case GameEndReason::kTimeUp:
      special = CsaSpecialMove::kTimeUp;
      break;
    case GameEndReason::kMaxMoves:
      special = CsaSpecialMove::kMaxMoves;
      break;
    case GameEndReason::kJishogi:
      special = last_special_ == CsaSpecialMove::kKachi ? CsaSpecialMove::kKachi
                                                        : CsaSpecialMove::kJishogi;
      break;
    case GameEndReason::kIllegalAction: {
      const Color loser = outcome == GameOutcome::kLose ? us_ : ~us_;
      special = loser == shogi::kBlack ? CsaSpecialMove::kBlackIllegalAction
                                       : CsaSpecialMove::kWhiteIllegalAction;
      break;
    }
    case GameEndReason::kNone:
      if (outcome == GameOutcome::kChudan) special = CsaSpecialMove::kChudan;
      break;
  }
  record_.result = special;
  if (last_special_t_) record_.result_time_ms = clock_.t_to_ms(*last_special_t_);
  if (reason_ == GameEndReason::kIllegalMove && !sent_move_.empty())
    record_.rejected_last_move = shogi::CsaRecordMove{shogi::kMoveNone, sent_move_, {}, {}};
  if (reason_ == GameEndReason::kIllegalMove && last_special_ != CsaSpecialMove::kNone &&
      last_special_ != CsaSpecialMove::kToryo)
    record_.result_comments.push_back(std::string(shogi::csa_special_move_name(last_special_)) +
                                      " refused by the server");
  if (reason_ == GameEndReason::kTimeUp && !sent_move_.empty())
    record_.result_comments.push_back("our move " + sent_move_ + " came after the time was up");
  if (!outcome)
    record_.result_comments.push_back("connection lost before the result");
  else
    record_.result_comments.push_back(
        std::string("result: ") +
        (reason_ == GameEndReason::kNone ? "" : std::string(game_end_reason_name(reason_)) + " ") +
        game_outcome_name(*outcome));
  sent_move_.clear();
  ++games_played_;
  state_ = State::kGameOver;
  log(LogLevel::kInfo, "game " + summary_.game_id + " ended: " +
                           (outcome ? game_outcome_name(*outcome) : "connection lost") + " " +
                           game_end_reason_name(reason_));
  actions_.push_back(action::GameEnded{std::move(result)});
  actions_.push_back(action::RecordUpdated{});
}

// After a result or a REJECT, still connected.
void CsaSession::after_game() {
  if (config_.x1) {
    if (want_more_games()) return request_game();
    state_ = State::kLoggingOut;
    close_deadline_ms_ = now_ms_ + config_.close_wait_ms;
    return send(format_logout());
  }
  // CSA mode: the server closes the socket after each game; the next one needs a new login.
  // shogi-server closes it at once only when our line ended the game: otherwise its reader
  // notices the game's end only when it reads our next line (or after its 60 s read timeout).
  // So after the last game, a LOGOUT follows unless the server closed within
  // logout_after_game_ms (on_timer).
  state_ = State::kGameOver;
  close_deadline_ms_ =
      now_ms_ + (want_more_games() ? config_.close_wait_ms
                                   : std::min(config_.logout_after_game_ms, config_.close_wait_ms));
}

void CsaSession::on_timer() {
  if (searching_ && !stop_sent_ && now_ms_ >= search_deadline_ms_) {
    log(LogLevel::kWarning, "engine still thinking at the deadline: stopping it");
    stop_sent_ = true;
    actions_.push_back(action::StopSearch{search_id_});
  }
  if (now_ms_ >= close_deadline_ms_) {
    close_deadline_ms_ = kNever;
    if (state_ == State::kGameOver && !want_more_games()) {
      // The last game: the LOGOUT wakes shogi-server's reader, which then closes (a server
      // that reads the session answers LOGOUT:completed).
      log(LogLevel::kInfo, "the server did not close after the last game: logging out");
      state_ = State::kLoggingOut;
      close_deadline_ms_ = now_ms_ + config_.close_wait_ms;
      send(format_logout());
    } else if (state_ == State::kGameOver) {
      // More games to come: the server may send the next Game_Summary on this connection
      // (championship servers do), so it is only closed, with no LOGOUT.
      log(LogLevel::kInfo, "the server did not close after the game: closing the connection");
      actions_.push_back(action::Close{});
      after_disconnect(true);
    } else if (state_ == State::kLoggingOut) {
      actions_.push_back(action::Close{});
      after_disconnect(true);  // CSA mode, the server never closed: next game if any
    }
  }
  if (config_.keep_alive_s > 0 && state_ >= State::kWaitingForGame && state_ <= State::kGameOver &&
      now_ms_ >= last_sent_ms_ + 1000 * int64_t(std::max(kMinKeepAliveS, config_.keep_alive_s)))
    send(format_keep_alive());
}

void CsaSession::on_quit(bool immediate) {
  quit_requested_ = true;
  quit_immediate_ = quit_immediate_ || immediate;
  switch (state_) {
    case State::kIdle:
    case State::kConnecting:
      return finish(true, "quit");
    case State::kLoggingIn:
      actions_.push_back(action::Close{});
      return finish(true, "quit");
    case State::kWaitingForGame:
    case State::kGameOver:
      state_ = State::kLoggingOut;
      close_deadline_ms_ = now_ms_ + config_.close_wait_ms;
      return send(format_logout());
    case State::kPlaying:
      if (immediate) return abandon_game();
      return log(LogLevel::kInfo, "will log out after this game");
    default:  // reading a summary (it will be rejected), agreed, rejecting, logging out
      return;
  }
}

const char* session_state_name(CsaSession::State s) {
  switch (s) {
    case CsaSession::State::kIdle:
      return "idle";
    case CsaSession::State::kConnecting:
      return "connecting";
    case CsaSession::State::kLoggingIn:
      return "logging in";
    case CsaSession::State::kWaitingForGame:
      return "waiting for a game";
    case CsaSession::State::kReadingSummary:
      return "reading the game summary";
    case CsaSession::State::kAgreed:
      return "agreed";
    case CsaSession::State::kRejecting:
      return "rejecting";
    case CsaSession::State::kPlaying:
      return "playing";
    case CsaSession::State::kGameOver:
      return "game over";
    case CsaSession::State::kLoggingOut:
      return "logging out";
    case CsaSession::State::kFinished:
      return "finished";
  }
  return "?";
}

}  // namespace client
