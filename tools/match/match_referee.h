// Referee: the rules side of a match game, without processes. It checks each engine reply
// with our rules, decides when and how the game ends, and keeps the CSA record.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "shogi/csa_record.h"
#include "shogi/position.h"
#include "tools/match/match_openings.h"

namespace tools {

enum class GameWinner { kBlack, kWhite, kDraw };

// Why a game ended. Each maps to a CSA special move (see Referee).
enum class EndReason {
  kResign,          // "bestmove resign"                       %TORYO
  kDeclaration,     // "bestmove win", valid entering-king declaration (入玉宣言)  %KACHI
  kBadDeclaration,  // "bestmove win" when the rules do not allow it: a loss  %ILLEGAL_MOVE
  kRepetition,      // sennichite (千日手): draw                %SENNICHITE
  kPerpetualCheck,  // repetition by perpetual check: the checking side loses  %OUTE_SENNICHITE
  kIllegalMove,     // a move that is not legal, or not a move: a loss  %ILLEGAL_MOVE
  kMaxPlies,        // the ply limit: draw                      %MAX_MOVES
  kTimeUp,          // no move within byoyomi + margin: a loss  %TIME_UP
  kCrash,           // the engine exited or closed its output: a loss  %CHUDAN
  kNoResponse,      // no reply within the timeout (other than a time loss): a loss  %CHUDAN
};

// "resign", "declaration", "bad_declaration", "repetition", "perpetual_check",
// "illegal_move", "max_plies", "time_up", "crash", "no_response".
const char* end_reason_name(EndReason reason);
// "1-0" (Black wins), "0-1" (White wins), "1/2-1/2".
const char* winner_result_text(GameWinner winner);

struct GameEnd {
  GameWinner winner = GameWinner::kDraw;
  EndReason reason = EndReason::kMaxPlies;
  std::string detail;  // what happened, for people: "illegal move 5e5d by White (...)"
};

// One game from an opening to its end. Holds the position with its whole history (for
// repetitions) and the CSA record: `initial`, every move with its time, and, once the game
// is over, the special move, its time and a comment saying why. Names and info lines are the
// caller's to fill. Not thread-safe; one per game.
class Referee {
 public:
  // Sets the opening position and plays the opening moves (recorded without times).
  // `max_plies` counts every move of the record, opening moves included.
  base::Status start(const Opening& opening, int max_plies);

  const shogi::Position& position() const { return pos_; }
  shogi::Color side_to_move() const { return pos_.side_to_move(); }
  int plies() const { return int(record_.moves.size()); }
  // The USI command for the current position: "position startpos moves 7g7f ..." or
  // "position sfen <SFEN> moves ...".
  std::string position_command() const;

  // Call before asking the side to move for a move: ends the game as a draw (kMaxPlies)
  // when max_plies moves have been played and the side to move has a legal move (a side
  // mated by the last move is still asked, and loses by resigning or moving illegally).
  // Returns over().
  bool check_ply_limit();
  // The side to move answered `reply` (the word after "bestmove") after `elapsed_ms`:
  // "resign", "win", or a USI move, which must be legal. Plays the move and ends the game
  // on a fourfold repetition. Returns over(). REQUIRES: !over().
  bool on_reply(std::string_view reply, int64_t elapsed_ms);
  // The side to move took too long. REQUIRES: !over().
  void on_time_up(int64_t elapsed_ms);
  // Engine `side` crashed (kCrash) or stopped answering (kNoResponse). REQUIRES: !over().
  void on_engine_fault(shogi::Color side, EndReason reason, const std::string& detail);

  bool over() const { return end_.has_value(); }
  const GameEnd& end() const { return *end_; }  // REQUIRES: over()
  const shogi::CsaRecord& record() const { return record_; }
  shogi::CsaRecord& record() { return record_; }

 private:
  void finish(GameWinner winner, EndReason reason, shogi::CsaSpecialMove special,
              std::string detail, std::optional<int64_t> time_ms);
  GameWinner loser_is(shogi::Color side) const;

  shogi::Position pos_;
  std::string base_command_;  // "position startpos" or "position sfen ..."
  std::vector<std::string> usi_moves_;
  int max_plies_ = 256;
  shogi::CsaRecord record_;
  std::optional<GameEnd> end_;
};

}  // namespace tools
