// CSA server protocol (shogi-server, floodgate): parsing and formatting every line of it.
#pragma once

// Pure: strings in, structs out, no I/O. The protocol as floodgate's server really behaves is
// described in docs/csa-protocol.md; references below are to its sections.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "shogi/csa_record.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace client {

using base::Status;

// Limits on hostile input. A longer line is an error; so is a Game_Summary with more lines.
constexpr std::size_t kMaxLineLength = 4096;
constexpr int kMaxSummaryLines = 2048;         // fields, 9 board ranks and up to ~2000 moves played
constexpr int64_t kMaxTimeValue = 1000000000;  // Total_Time, Byoyomi, ... in Time_Unit
constexpr int64_t kMaxTimeMs = int64_t(1) << 45;  // ~1100 years: larger times are absurd
constexpr int kMaxMovesLimit = 1000000;           // Max_Moves above this is absurd

// Why a game ended: the '#' line the server sends before the outcome (section 1.6).
enum class GameEndReason {
  kNone,
  kResign,          // #RESIGN (after %TORYO, or when the opponent's connection dropped)
  kSennichite,      // #SENNICHITE: repetition (千日手), a draw
  kOuteSennichite,  // #OUTE_SENNICHITE: perpetual check, the checking side loses
  kIllegalMove,     // #ILLEGAL_MOVE (also a rejected %KACHI, and %CHUDAN on shogi-server)
  kIllegalAction,   // #ILLEGAL_ACTION (in the spec; shogi-server never sends it)
  kTimeUp,          // #TIME_UP
  kJishogi,         // #JISHOGI: a valid entering-king declaration (入玉宣言)
  kMaxMoves,        // #MAX_MOVES: Max_Moves reached, followed by #CENSORED
};
// The final '#' line: the game is over for us.
enum class GameOutcome {
  kWin,       // #WIN
  kLose,      // #LOSE
  kDraw,      // #DRAW
  kCensored,  // #CENSORED (the game hit Max_Moves: neither win nor draw)
  kChudan,    // #CHUDAN: suspended (in the spec; shogi-server never sends it)
};
const char* game_end_reason_name(GameEndReason r);  // "#RESIGN"; "" for kNone
const char* game_outcome_name(GameOutcome o);       // "#WIN"

// A move as a line carries it: "+7776FU", "+7776FU,T12" (the server's echo with the time
// charged), "+7776FU,'* 30 -3334FU" (ours with a floodgate comment). Also a special move with
// its optional time: "%TORYO", "%KACHI,T0".
struct MoveLine {
  std::string move;  // "+7776FU" or "%KACHI"
  // The T value times 1000: T12 -> 12000, T3.5 -> 3500 (CSA V3 fractions). Milliseconds when
  // T counts seconds, as shogi-server's does whatever the Time_Unit (see GameClock).
  std::optional<int64_t> t_milli;
  std::string comment;  // after ",'", without the quote: "* 30 -3334FU"
};
// Reads a T value ("12", "3.5", "1."); nullopt when it is not a non-negative decimal number
// or is absurd (more than kMaxTimeValue).
std::optional<int64_t> parse_t_milli(std::string_view digits);

// What the server sends. kUnknown lines are well-formed text we do not know: log and skip.
enum class ServerLineType {
  kKeepAlive,        // "": the answer to our blank line
  kLoginOk,          // LOGIN:<name> OK                      -> name
  kLoginIncorrect,   // LOGIN:incorrect
  kLogoutCompleted,  // LOGOUT:completed (x1 mode only)
  kSummaryBegin,     // BEGIN Game_Summary: feed it and what follows to a SummaryParser
  kStart,            // START:<Game_ID>                      -> game_id
  kReject,           // REJECT:<Game_ID> by <name>           -> game_id, name
  kMove,             // +7776FU,T12                          -> move
  kSpecialMove,      // %TORYO, %KACHI,T0                    -> special, move (text and T)
  kEndReason,        // #RESIGN, #TIME_UP, ...               -> reason
  kOutcome,          // #WIN, #LOSE, #DRAW, #CENSORED, #CHUDAN -> outcome
  kX1Reply,          // ##[TAG] body (x1 mode)               -> x1_tag, x1_body
  kUnknown,
};
struct ServerLine {
  ServerLineType type = ServerLineType::kUnknown;
  std::string name;
  std::string game_id;
  MoveLine move;
  shogi::CsaSpecialMove special = shogi::CsaSpecialMove::kNone;
  GameEndReason reason = GameEndReason::kNone;
  GameOutcome outcome = GameOutcome::kWin;
  std::string x1_tag;   // "LOGIN", "WHO", "ERROR", ...
  std::string x1_body;  // the rest after "] ": "+OK x1"
  // A move whose own 7 characters are well formed but whose suffix is not ("+7776FU,Tabc"),
  // or a known special move with a broken suffix ("%TORYO,Tx"): the move is kept without its
  // time (move.t_milli empty) and this says what was wrong. Dropping the line would leave us
  // a move behind the server for the rest of the game.
  std::string warning;
};
// Parses one line without its LF (a trailing CR is dropped). Errors for a line that is too
// long, holds control bytes, or starts like a known line but is malformed ("+77X6FU",
// "#WHATEVER", "START:"). Moves are checked for form only; legality is the caller's business.
Status parse_server_line(std::string_view line, ServerLine& out);

// What a client sends.
enum class ClientLineType {
  kKeepAlive,    // "" (a lone space counts too: shogi-server ignores it)
  kLogin,        // LOGIN <name> <password> [x1]  -> name, password, x1
  kLogout,       // LOGOUT
  kAgree,        // AGREE [<Game_ID>]             -> game_id ("" when absent)
  kReject,       // REJECT [<Game_ID>]            -> game_id
  kMove,         // +7776FU[,'comment]            -> move
  kSpecialMove,  // %TORYO, %KACHI, %CHUDAN        -> special
  kX1Command,    // %%GAME floodgate-300-10F *    -> command "GAME", args "floodgate-300-10F *"
  kUnknown,
};
struct ClientLine {
  ClientLineType type = ClientLineType::kUnknown;
  std::string name, password;
  bool x1 = false;
  std::string game_id;
  MoveLine move;
  shogi::CsaSpecialMove special = shogi::CsaSpecialMove::kNone;
  std::string command, args;
};
Status parse_client_line(std::string_view line, ClientLine& out);

// ---- Formatting (the transport adds the LF) ----

// Player names: [0-9A-Za-z_@.-]{1,32} (the spec's set plus what shogi-server accepts).
bool is_valid_login_name(std::string_view name);
// Passwords: 1-256 printable ASCII characters without spaces ("floodgate-300-10F,trip").
bool is_valid_password(std::string_view password);
// "LOGIN <name> <password>" and " x1" for extended mode. REQUIRES: both valid (above).
std::string format_login(std::string_view name, std::string_view password, bool x1);
std::string format_logout();                          // "LOGOUT"
std::string format_agree(std::string_view game_id);   // "AGREE <id>", or "AGREE" for ""
std::string format_reject(std::string_view game_id);  // "REJECT <id>", or "REJECT" for ""
std::string format_keep_alive();                      // "" (the server answers with LF)
// "%TORYO", "%KACHI", "%CHUDAN" (never send %CHUDAN to floodgate: it loses, section 1.6).
// REQUIRES: s is a special move a client may send (those three).
std::string format_special_move(shogi::CsaSpecialMove s);
// "+7776FU" or "+7776FU,'<comment>". The server ends a comment at its first comma, so commas
// and control bytes in the comment are replaced by spaces; it is cut to fit kMaxLineLength.
std::string format_move_line(std::string_view move, std::string_view comment);
// The floodgate comment (section 1.8): "* <score> <pv...>", the score positive when good for
// Black (先手) whoever we are, the PV in CSA moves starting with the opponent's reply.
// `score` is from the side to move's point of view (ours, before our move); `us` is our colour.
// `pv` is the engine's PV from the root: its first move, when equal to `played`, is dropped.
// At most `max_pv_moves` moves are written.
std::string format_floodgate_comment(shogi::Value score, shogi::Color us, shogi::Move played,
                                     const std::vector<shogi::Move>& pv, int max_pv_moves);
// "%%GAME <game name> <+|-|*>" (x1 mode).
std::string format_x1_game(std::string_view game_name, char color);

// Server-side lines, for the fake servers of tests and the local server tool.
std::string format_login_ok(std::string_view name);  // "LOGIN:<name> OK"
std::string format_start(std::string_view game_id);  // "START:<id>"
std::string format_reject_by(std::string_view game_id, std::string_view name);
std::string format_move_echo(std::string_view move, int64_t t);  // "+7776FU,T12"

// A line made safe to quote in an error or a log: control bytes and bytes >= 0x80 become
// \xNN, and the text is cut to `max_chars` with "..." appended.
std::string quote_line(std::string_view line, std::size_t max_chars = 80);

// The time control named by a shogi-server game name (section 1.10):
// "<name>-<total s>-<byoyomi s>" or "<name>-<total s>-<increment s>F"; a byoyomi field
// starting with 0 ("-600-060") makes a stop-watch game.
struct GameNameTime {
  int64_t total_s = 0, byoyomi_s = 0, increment_s = 0;
  bool stop_watch = false;
};
std::optional<GameNameTime> parse_game_name_time(std::string_view game_name);
// The game name inside a Game_ID "<event>+<game name>+<black>+<white>+<YYYYMMDDhhmmss>";
// "" when the id does not have that shape.
std::string game_name_from_id(std::string_view game_id);

// ---- Game_Summary ----

// One side's time rules, as a BEGIN Time block (or Time+ / Time-) gives them. Values are in
// Time_Unit, as written; GameClock turns them into milliseconds.
struct TimeRules {
  std::string time_unit = "1sec";  // "<n>sec", "<n>min" or "<n>msec"
  int64_t unit_ms = 1000;
  int64_t least_time_per_move = 0;
  bool time_roundup = false;  // YES: elapsed time rounded up to the unit; NO: truncated
  int64_t total_time = 0;
  int64_t byoyomi = 0;
  int64_t delay = 0;
  int64_t increment = 0;  // Fischer, credited before every move (section 1.5)
  // All zero: no time limit at all (shogi-server's rule).
  bool unlimited() const { return total_time == 0 && byoyomi == 0 && increment == 0; }
};

// A move played before the game starts (buoy or resumed games), with its T.
struct SummaryMove {
  std::string text;  // "+7776FU"
  shogi::Move move;
  std::optional<int64_t> t_milli;
};

// Everything a Game_Summary block says (section 1.3). A plain value type.
// Invariant after SummaryParser::kDone: `initial` is a valid position, `moves` are legal in turn
// from it, and to_move is the side to move after them (or before them: both forms are seen).
struct GameSummary {
  std::string protocol_version;  // "1.2" (shogi-server), "1.2.1", "1.1"
  std::string protocol_mode;     // "Server"
  std::string format;            // "Shogi 1.0"
  std::string declaration;       // "Jishogi 1.1"; "" when absent
  std::string game_id;
  std::string names[shogi::kColorNb];  // Name+ (Black, 先手), Name- (White, 後手)
  shogi::Color your_turn = shogi::kBlack;
  shogi::Color to_move = shogi::kBlack;
  bool rematch_on_draw = false;
  int max_moves = 0;  // 0: no limit
  TimeRules time[shogi::kColorNb];
  bool per_side_time = false;  // Time+ / Time- blocks were given instead of Time
  shogi::PositionSetup initial;
  std::vector<SummaryMove> moves;
  // Fields we do not know, in order (name, value), from any part of the block; each was also
  // reported in SummaryParser::warnings().
  std::vector<std::pair<std::string, std::string>> unknown_fields;

  // The position after `moves`, from which the game goes on.
  shogi::Position position() const;
  shogi::Color side_to_move() const;
};

// Reads a Game_Summary one line at a time, from "BEGIN Game_Summary" through
// "END Game_Summary". Fed lines that are too long, control bytes, a missing or duplicated
// field, an unknown section, a bad number, an illegal position or move, or a line that
// belongs outside a summary ("START:...", "#WIN": END Game_Summary was missing) all give
// kError, with error() naming the summary line ("Game_Summary line 14 'Total_Time:x': ...").
// After an error the parser swallows lines until END Game_Summary (or the line limit) so that
// the caller can reject the game and stay in step; feed() keeps returning kError.
// Not thread-safe.
class SummaryParser {
 public:
  enum class Result { kNeedMore, kDone, kError };

  // REQUIRES: the previous summary, if any, is finished (kDone, or kError after its END line),
  // or reset() was called.
  Result feed(std::string_view line);
  void reset() { *this = SummaryParser(); }

  bool in_progress() const { return line_count_ > 0 && !finished_; }
  bool finished() const { return finished_; }  // END Game_Summary seen (or the limit hit)
  const GameSummary& summary() const { return summary_; }
  const std::string& error() const { return error_; }
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  enum class Section { kNone, kTop, kTime, kTimeBlack, kTimeWhite, kPosition };
  Result fail(std::string_view line, const std::string& message);
  Result feed_top(std::string_view line);
  Result feed_time(std::string_view line, bool black, bool white);
  Result feed_position(std::string_view line);
  Result finish(std::string_view line);

  Section section_ = Section::kNone;
  int line_count_ = 0;
  bool finished_ = false;
  bool failed_ = false;
  std::vector<std::string> seen_;  // fields and sections seen, to refuse duplicates
  std::vector<std::string> position_lines_;
  int position_first_line_ = 0;
  bool side_line_seen_ = false;
  std::vector<std::pair<int, std::string>> move_lines_;  // (summary line number, text)
  GameSummary summary_;
  std::string error_;
  std::vector<std::string> warnings_;
};

// Writes a summary as shogi-server sends it (BEGIN Game_Summary ... END Game_Summary), one
// string per line, with a BEGIN Time block (or Time+ / Time- when per_side_time). For tests
// and a local server.
std::vector<std::string> format_game_summary(const GameSummary& summary);

// Helpers shared by csa_protocol.cpp and csa_protocol_summary.cpp; not part of the API.
namespace detail {
std::string_view strip_cr(std::string_view line);
// False (with `error` set) for a line longer than kMaxLineLength or holding control bytes.
bool line_is_clean(std::string_view line, std::string& error);
// A non-negative decimal integer of at most `max`; nullopt otherwise.
std::optional<int64_t> parse_number(std::string_view s, int64_t max = kMaxTimeValue);
// "+7776FU" and what may follow (",T<n>", ",'<comment>"); false with `why` when malformed.
bool parse_move_fields(std::string_view s, MoveLine& out, std::string& why);
bool split_field(std::string_view line, std::string_view& key, std::string_view& value);
std::string format_t(int64_t t_milli);  // 12000 -> "12", 3500 -> "3.500"
}  // namespace detail

}  // namespace client
