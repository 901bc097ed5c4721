// CsaSession: the CSA tournament client as a pure state machine: events in, actions out.
#pragma once

// No I/O, no threads, no clock of its own: every event carries the time (monotonic ms) and
// the caller carries out the actions (send a line, start or stop the engine, connect, write the
// record). A driver loop around a Transport and the Engine (later: Boost.Asio) does that.
//
// The flow (docs/csa-protocol.md):
//   Start -> Connect; Connected -> LOGIN; LOGIN:<name> OK -> (x1: %%GAME after ##[LOGIN] +OK)
//   BEGIN Game_Summary ... END -> AGREE, or REJECT when we cannot or will not play it
//   START -> the game: StartSearch on our turns, our move sent with its floodgate comment, every
//   echoed move (with its T) applied to the position, the clocks and the record
//   #<reason> #<outcome> -> GameEnded; then CSA mode waits for the server to close the socket
//   and reconnects for the next game (after the last one: LOGOUT unless the server closed at
//   once), x1 mode sends %%GAME again or LOGOUT.
// Blank keep-alive lines go out when nothing was sent for keep_alive_s (at least 30 s).

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "client/csa_protocol.h"
#include "client/game_clock.h"
#include "engine/engine.h"
#include "shogi/csa_record.h"
#include "shogi/position.h"

namespace client {

enum class LogLevel { kDebug, kInfo, kWarning, kError };

struct SessionConfig {
  std::string name;          // LOGIN name
  std::string password;      // CSA mode: "<game name>,<trip>"; x1 mode: the trip
  bool x1 = false;           // extended mode: LOGIN ... x1, then %%GAME
  std::string x1_game_name;  // x1: the game to ask for ("floodgate-300-10F")
  char x1_color = '*';       // x1: '+', '-' or '*'
  // Games to play (START received) before logging out; 0 for no limit. Default: 1.
  int games = 1;
  // AGREE <Game_ID> / REJECT <Game_ID>; false sends the bare word (the server accepts both).
  bool send_game_id = true;
  // A blank line after this many seconds without sending anything; 0 never. Values below 30
  // are raised to 30 (the protocol's minimum interval). Default: 40 (ShogiHome's).
  int keep_alive_s = 40;
  // Kept in hand on every move on top of the measured round trip. Default: 1000 ms.
  int64_t margin_ms = 1000;
  // Think time per move when the game has no time limit. Default: 10000 ms.
  int64_t unlimited_move_ms = 10000;
  // Ponder: after our move, search the reply the engine expects (its PV's second move) on the
  // opponent's time; a ponderhit when the opponent plays it, else a stop and a new search.
  // Default: false.
  bool ponder = false;
  // Send "'* <score> <pv>" after our moves (floodgate). Default: true, at most 16 PV moves.
  bool floodgate_comment = true;
  int pv_max_moves = 16;
  // An immediate quit during a game sends %CHUDAN instead of %TORYO. shogi-server treats
  // %CHUDAN as an illegal move (we lose); only for servers that suspend games. Default: false.
  bool chudan_on_quit = false;
  int64_t reconnect_delay_ms = 10000;  // after a lost connection
  int64_t next_game_delay_ms = 1000;   // CSA mode: after the server closed at a game's end
  // CSA mode: how long to wait for the server to close after a game before closing ourselves
  // (no LOGOUT: the server may send the next game's summary on this connection), and for the
  // close or LOGOUT:completed after a LOGOUT. Default: 10000 ms.
  int64_t close_wait_ms = 10000;
  // CSA mode, after the last game: a LOGOUT when the server has not closed within this long.
  // shogi-server closes a session after its game only once it reads another line from it
  // (when the opponent's line ended the game). Default: 300 ms.
  int64_t logout_after_game_ms = 300;
  ClockOptions clock;
  // Our policy on offered games: returns "" to accept, else the reason to reject.
  std::function<std::string(const GameSummary&)> game_filter;
};

// Why we cannot play the game the summary offers ("" when we can): Protocol_Mode other than
// Server, a Protocol_Version other than 1.x, a Format other than Shogi 1.0, a Declaration
// other than Jishogi 1.1, Rematch_On_Draw:YES, Max_Moves already reached.
std::string unsupported_reason(const GameSummary& summary);

// What the engine must search for our move.
struct SearchRequest {
  uint64_t id = 0;
  shogi::Position root;            // the game's base position (Engine::set_position)
  std::vector<shogi::Move> moves;  // every move since; the session played each (legal)
  shogi::Color us = shogi::kBlack;
  engine::SearchLimits limits;  // GameClock::search_limits
  int64_t started_ms = 0;       // local time our turn began
  int64_t deadline_ms = 0;      // the move must be sent before this (StopSearch then)

  // The position to search: root with the moves played.
  shogi::Position position() const;
};

// The engine's answer to a SearchRequest.
struct EngineMove {
  enum class Kind { kMove, kResign, kWin };  // kWin: declare the entering-king win (%KACHI)
  Kind kind = Kind::kMove;
  shogi::Move move;
  std::optional<shogi::Value> score;  // side to move's view; none: no floodgate comment
  std::vector<shogi::Move> pv;        // from the root, the move first
  std::string note;  // said about the move ("book ..."): logged and kept in the record
  // The search's size, when the engine said (for the status page): nodes, nodes per second.
  std::optional<uint64_t> nodes, nps;
};

struct GameResult {
  std::string game_id;
  std::optional<GameOutcome> outcome;  // none: the connection was lost before a result
  GameEndReason reason = GameEndReason::kNone;
  int plies = 0;  // moves in the record
  // Pondering in this game: searches started on the opponent's time, how many the opponent's
  // move hit, and the time those hits had thought before our turn began (ms, all together).
  int ponder_searches = 0;
  int ponder_hits = 0;
  int64_t ponder_hit_ms = 0;
  // A council behind the client (sashite council): our moves it voted on, and those where
  // every member that voted chose the same move.
  int council_votes = 0;
  int council_agreed = 0;
};

// True when `note` is a council's vote ("council: majority 7g7f 2/3 ..."); `unanimous` says
// whether all its voters chose the move (K/N with K = N).
bool council_vote_of(std::string_view note, bool& unanimous);

namespace event {
struct Start {};         // begin: the session asks to connect
struct Connected {};     // the transport connected
struct Disconnected {};  // the connection closed or a connect attempt failed
struct LineReceived {
  std::string line;
};
struct EngineMoveReady {
  uint64_t search_id = 0;
  EngineMove move;
};
struct Timer {};  // next_wakeup_ms() has come
// The operator wants to stop: after the current game, or at once (abandoning it).
struct QuitRequested {
  bool immediate = false;
};
struct UserCommand {  // an x1 "%%..." command from the operator, sent as is
  std::string line;
};
}  // namespace event
using Event =
    std::variant<event::Start, event::Connected, event::Disconnected, event::LineReceived,
                 event::EngineMoveReady, event::Timer, event::QuitRequested, event::UserCommand>;

namespace action {
struct Connect {
  int64_t delay_ms = 0;  // then report Connected or Disconnected
};
struct Close {};  // close the connection; no Disconnected event is needed
struct SendLine {
  std::string line;  // without LF
};
struct StartSearch {
  SearchRequest request;
};
struct StopSearch {
  uint64_t search_id = 0;
};
// The opponent played the move the ponder search `search_id` assumed: it becomes the search
// for our move, with `request`'s limits and deadline.
struct PonderHit {
  uint64_t search_id = 0;
  SearchRequest request;
};
struct GameStarted {
  GameSummary summary;
};
struct GameEnded {
  GameResult result;
};
struct GameRejected {
  std::string game_id;
  std::string by;      // the name in REJECT:<id> by <name>
  std::string reason;  // ours, when we rejected
};
struct RecordUpdated {};  // CsaSession::record() changed: write it out now
struct Log {
  LogLevel level = LogLevel::kInfo;
  std::string message;
};
struct Finished {
  bool ok = true;
  std::string reason;
};
}  // namespace action
using Action =
    std::variant<action::Connect, action::Close, action::SendLine, action::StartSearch,
                 action::StopSearch, action::PonderHit, action::GameStarted, action::GameEnded,
                 action::GameRejected, action::RecordUpdated, action::Log, action::Finished>;

// The client session. Not thread-safe: one driver feeds it.
class CsaSession {
 public:
  enum class State {
    kIdle,            // before Start
    kConnecting,      // Connect asked
    kLoggingIn,       // LOGIN sent
    kWaitingForGame,  // logged in (x1: %%GAME sent once confirmed)
    kReadingSummary,  // inside BEGIN Game_Summary ... END Game_Summary
    kAgreed,          // AGREE sent, waiting for START or REJECT
    kRejecting,       // REJECT sent, waiting for REJECT:<id> by <name>
    kPlaying,
    kGameOver,    // result received; CSA mode waits for the server to close
    kLoggingOut,  // LOGOUT sent
    kFinished,
  };
  static constexpr int64_t kNever = INT64_MAX;

  explicit CsaSession(SessionConfig config);

  // Feeds one event at local monotonic time now_ms (earlier times are taken as the latest seen).
  std::vector<Action> handle(int64_t now_ms, const Event& event);
  // When the next Timer event is due; kNever when nothing is timed.
  int64_t next_wakeup_ms() const;

  State state() const { return state_; }
  // Whether another game is to be played after the current one (no quit, games left).
  bool wants_more_games() const { return want_more_games(); }
  const SessionConfig& config() const { return config_; }
  // The current (or last) game: summary, position, clocks and record.
  const GameSummary& summary() const { return summary_; }
  const shogi::Position& position() const { return position_; }
  const GameClock& clock() const { return clock_; }
  const shogi::CsaRecord& record() const { return record_; }
  shogi::Color us() const { return us_; }
  int games_played() const { return games_played_; }
  int64_t rtt_ms() const { return rtt_ms_; }
  // When the side to move's turn began (the last move's echo, or START), in the events' time.
  int64_t turn_start_ms() const { return turn_start_ms_; }
  // Whether an answer to search `id` would be played now (our move's search, in a game).
  bool awaits_answer(uint64_t id) const {
    return state_ == State::kPlaying && searching_ && id == search_id_;
  }
  // The line with the password masked, for logs.
  std::string redact(std::string_view line) const;

 private:
  void send(std::string line);
  void log(LogLevel level, std::string message);
  void on_connected();
  void on_disconnected();
  void on_line(std::string_view line);
  void on_summary_line(std::string_view line);
  void on_game_line(const ServerLine& line);
  void on_engine_move(uint64_t id, const EngineMove& move);
  void on_timer();
  void on_quit(bool immediate);
  void begin_game();
  // The request for our move's search, its clock counted from turn_start_ms_.
  SearchRequest search_request();
  void start_search();
  // Stops the search for our move and the ponder search, whichever runs.
  void stop_search();
  // After our move's echo: ponder on the reply the engine expected, when it is legal.
  void start_ponder();
  void apply_move(const ServerLine& line);
  void abandon_game();
  void reject_game(const std::string& game_id, const std::string& reason);
  void end_game(std::optional<GameOutcome> outcome);
  void after_game();
  void after_disconnect(bool expected);
  // Leaves the connection's state and connects again after delay_ms (logged as "<what> in
  // <delay> ms"), or finishes when no more games are wanted.
  void reconnect(int64_t delay_ms, LogLevel level, const std::string& what);
  // LOGIN:incorrect: fatal on the run's first login; after a successful one, tried again.
  void on_login_refused();
  void request_game();
  void finish(bool ok, std::string reason);
  bool want_more_games() const;
  void add_rtt_sample(int64_t ms);

  SessionConfig config_;
  State state_ = State::kIdle;
  std::vector<Action> actions_;
  int64_t now_ms_ = 0;
  int64_t last_sent_ms_ = 0;
  int64_t login_sent_ms_ = 0;
  int64_t close_deadline_ms_ = kNever;
  bool x1_confirmed_ = false;
  // x1: %%GAME is sent and no game summary has come since. An ##[ERROR] then is the server
  // refusing it (bad game name, a colour floodgate does not allow...), unless the operator
  // sent a %% command meanwhile, whose reply it may be.
  bool game_request_pending_ = false;
  bool user_command_since_request_ = false;
  bool logged_in_before_ = false;  // a LOGIN of this run succeeded
  int login_refusals_ = 0;         // LOGIN:incorrect in a row since then
  int64_t login_refused_since_ms_ = 0;
  bool quit_requested_ = false;
  bool quit_immediate_ = false;
  int games_played_ = 0;
  std::deque<int64_t> rtt_samples_;
  int64_t rtt_ms_ = 0;

  SummaryParser summary_parser_;
  GameSummary summary_;
  std::string reject_reason_;
  shogi::Position position_;
  GameClock clock_;
  shogi::CsaRecord record_;
  shogi::Color us_ = shogi::kBlack;
  shogi::Position root_;            // the game's base position
  std::vector<shogi::Move> moves_;  // every move since
  // The search for our move, and the move sent while waiting for its echo.
  uint64_t search_id_ = 0;
  bool searching_ = false;
  bool stop_sent_ = false;
  int64_t turn_start_ms_ = 0;
  int64_t search_deadline_ms_ = kNever;
  std::string sent_move_, sent_comment_, sent_note_;
  int64_t sent_move_ms_ = 0;
  // Pondering: the reply the engine expected after the move we sent, and the ponder search
  // on it (search_id_ while pondering_; searching_ is false until the ponderhit).
  shogi::Move expected_reply_ = shogi::kMoveNone;
  bool pondering_ = false;
  bool resign_on_our_turn_ = false;  // an immediate quit on the opponent's turn
  std::string ponder_move_usi_;
  int64_t ponder_start_ms_ = 0;
  int ponder_searches_ = 0, ponder_hits_ = 0;
  int council_votes_ = 0, council_agreed_ = 0;  // our moves a council voted on, unanimously
  int64_t ponder_hit_ms_ = 0;
  // How the game is ending: the '#' reason and the last special move line.
  GameEndReason reason_ = GameEndReason::kNone;
  shogi::CsaSpecialMove last_special_ = shogi::CsaSpecialMove::kNone;
  std::optional<int64_t> last_special_t_;
};

const char* session_state_name(CsaSession::State s);

}  // namespace client
