// ServerGame: one game of the local CSA server as floodgate's shogi-server referees it, from
// the Game_Summary to the result lines. Pure: lines and times in, lines out; no I/O.
#pragma once

// The rules followed (docs/csa-protocol.md; shogi_server/game.rb, game_result.rb):
//   - AGREE from both sides gives START:<id> to both; REJECT from either gives
//     "REJECT:<id> by <name>" to both (section 1.4).
//   - Each move is checked with our rules (shogi::parse_csa_move: nifu, dead pieces, leaving
//     the king in check, pawn-drop mate (打ち歩詰め)). A legal move is echoed to both as
//     "+7776FU,T<n>"; an illegal one is not echoed and gives #ILLEGAL_MOVE (section 1.6).
//   - The clock is client::GameClock with shogi-server's rules (section 1.5). The time-up check
//     comes first, before the line is even read, as in game.rb handle_one_move.
//   - A line from the side not to move is deferred and played when its turn comes, charged
//     from that moment (section 1.5 "Early moves"); a repeat of one's own last move is ignored.
//   - After the move: fourfold repetition (千日手) #SENNICHITE/#DRAW, perpetual check
//     #OUTE_SENNICHITE (the checking side loses), then Max_Moves #MAX_MOVES/#CENSORED.
//   - %TORYO: %TORYO #RESIGN; %KACHI: echoed "%KACHI,T<n>", then %KACHI #JISHOGI when
//     Position::can_declare_win holds, else %KACHI #ILLEGAL_MOVE; %CHUDAN and any other '%'
//     line: #ILLEGAL_MOVE (shogi-server has no #CHUDAN).
//   - A dropped connection: the other side gets %TORYO #RESIGN #WIN (section 1.6). Unlike
//     shogi-server, which waits for the mover's next move when the side not to move leaves,
//     the game ends at once either way.

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/csa_protocol.h"
#include "client/game_clock.h"
#include "shogi/csa_record.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace tools {

struct ServerGameConfig {
  std::string event = "local";  // the Game_ID's first field (shogi-server's event name)
  std::string game_name;        // "demo-60-5" or "demo-300-10F". REQUIRES: parse_game_name_time
  std::string names[shogi::kColorNb];  // Black (先手), White (後手)
  std::string id_time;                 // the Game_ID's last field, "YYYYMMDDhhmmss"
  int max_moves = 256;                 // 0: no limit
  int64_t least_time_per_move_s = 0;   // Least_Time_Per_Move
  bool time_roundup = false;           // Time_Roundup:YES (elapsed time rounded up)
  // The position to start from; the start position (平手) when absent. shogi-server has no
  // such option (only handicap and buoy names); tests use it to reach declarations.
  std::optional<shogi::PositionSetup> initial;
};

// How a game ended, for logs and the record's summary comment.
struct ServerGameResult {
  std::string kind;  // "toryo", "time up", "illegal move", "kachi", "illegal kachi",
                     // "sennichite", "oute_sennichite", "max_moves", "abnormal",
                     // "rejected", "aborted"
  std::optional<shogi::Color> winner;  // none: a draw, or no game
  std::string detail;                  // for people: "illegal move +7775FU by Black: ..."
};

// Not thread-safe; one per game.
class ServerGame {
 public:
  enum class Phase { kAgreeWaiting, kPlaying, kOver };
  // Lines to send to each side (Black, White), without LF, in order.
  using Lines = std::array<std::vector<std::string>, shogi::kColorNb>;

  // Max lines deferred for a side; more are dropped (shogi-server keeps them all).
  static constexpr size_t kMaxDeferred = 16;

  explicit ServerGame(const ServerGameConfig& config);

  const std::string& game_id() const { return summary_.game_id; }
  const ServerGameConfig& config() const { return config_; }
  Phase phase() const { return phase_; }
  bool over() const { return phase_ == Phase::kOver; }
  shogi::Color side_to_move() const { return pos_.side_to_move(); }
  const shogi::Position& position() const { return pos_; }
  const client::GameClock& clock() const { return clock_; }
  // When the side to move's turn began (START, or the last move), in the calls' time.
  int64_t turn_start_ms() const { return turn_start_ms_; }
  // REQUIRES: over().
  const ServerGameResult& result() const { return result_; }
  // The record so far: N+/N-, $EVENT, the position, every move with its T and, once over, the
  // result with a "summary:..." comment. The caller adds $START_TIME / $END_TIME.
  const shogi::CsaRecord& record() const { return record_; }
  shogi::CsaRecord& record() { return record_; }

  // The Game_Summary for side c, exactly as shogi-server sends it (section 1.3).
  std::vector<std::string> summary(shogi::Color c) const;

  // AGREE from c; START to both once both agreed (the clock starts at now_ms).
  Lines agree(shogi::Color c, int64_t now_ms);
  // REJECT from c, or the server's own when `by_server` (agreement timed out).
  Lines reject(shogi::Color c, bool by_server = false);
  // A move or special move line from c ("+7776FU,'* 30", "%TORYO"). REQUIRES: kPlaying.
  Lines play(shogi::Color c, std::string_view line, int64_t now_ms);
  // The clock check shogi-server makes on a keep-alive or a read timeout: ends the game when
  // the side to move is out of time. Nothing when not kPlaying.
  Lines check_time(int64_t now_ms);
  // When the side to move loses on time if it has not moved: the turn start plus the least
  // elapsed time the time-up rule flags. None when not kPlaying or without a time limit.
  std::optional<int64_t> time_up_at_ms() const;
  // Side c's connection dropped: a reject before START, an abnormal loss after it.
  Lines disconnect(shogi::Color c, int64_t now_ms);
  // Ends the game without a result (server shutdown); nothing is sent.
  void abort(const std::string& why);

 private:
  // Plays one line of the side to move; the game may end.
  void play_now(std::string_view line, int64_t now_ms, Lines& out);
  void send_both(Lines& out, const std::string& line);
  // Ends the game: `winner` none for a draw; the record gets `special` and a summary comment.
  void finish(Lines& out, const std::vector<std::string>& reason_lines,
              std::optional<shogi::Color> winner, const char* draw_line, std::string kind,
              shogi::CsaSpecialMove special, std::string detail);

  ServerGameConfig config_;
  client::GameSummary summary_;
  client::GameClock clock_;
  shogi::Position pos_;
  shogi::CsaRecord record_;
  Phase phase_ = Phase::kAgreeWaiting;
  bool agreed_[shogi::kColorNb] = {false, false};
  int64_t turn_start_ms_ = 0;
  std::string last_move_[shogi::kColorNb];  // each side's last move text, for repeats
  std::deque<std::string> deferred_[shogi::kColorNb];
  ServerGameResult result_;
};

// The board rows of a Game_Summary's position block as shogi-server writes them: always
// P1..P9, then P+ / P- hand lines ("P+00KA00FU"), then the side to move.
std::vector<std::string> summary_position_lines(const shogi::PositionSetup& setup);

}  // namespace tools
