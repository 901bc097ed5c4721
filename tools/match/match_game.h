// One match game between two USI engines, each in its own process, refereed by our rules.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "shogi/csa_record.h"
#include "tools/match/match_engine.h"
#include "tools/match/match_openings.h"
#include "tools/match/match_referee.h"
#include "usi/usi_engine_process.h"

namespace tools {

// Time and move limits of every game.
struct MatchLimits {
  // A clock: main time, then byoyomi or a Fischer increment (credited before every move, the
  // first included, as floodgate does). Any of the three > 0 makes a timed game:
  // "go btime B wtime W byoyomi MS" or "go btime B wtime W binc I winc I".
  int64_t main_time_ms = 0;
  int64_t increment_ms = 0;
  int byoyomi_ms = 0;
  // Time odds: > 0, white's byoyomi (byoyomi_ms is then black's alone).
  int white_byoyomi_ms = 0;
  int64_t nodes = 0;  // > 0 (and no clock): "go nodes N"
  int depth = 0;      // > 0 (and no clock, no nodes): "go depth D"
  // Timed: a move that takes longer than the time available (main time left + increment +
  // byoyomi) + time_margin_ms loses on time.
  int time_margin_ms = 1000;
  // With nodes: a move not made within this is a hang (the engine loses, no time loss).
  int move_timeout_ms = 60000;
  int ready_timeout_ms = 30000;  // for usiok and readyok
  int max_plies = 256;           // the game is drawn after this many moves (of the record)

  bool timed() const { return main_time_ms > 0 || increment_ms > 0 || byoyomi_ms > 0; }
  // The byoyomi of the side c.
  int byoyomi(shogi::Color c) const {
    return c == shogi::kWhite && white_byoyomi_ms > 0 ? white_byoyomi_ms : byoyomi_ms;
  }
  // Whether the sides have different byoyomi (time odds).
  bool odds() const { return byoyomi(shogi::kBlack) != byoyomi(shogi::kWhite); }
};

// Both sides' main time in a timed game, kept by the match's rules: a move of the side `us`
// may take available_ms(us) (its main time left, its increment credited before the move, and
// the byoyomi); afterwards its main time is max(0, left + increment - elapsed).
class MatchClock {
 public:
  explicit MatchClock(const MatchLimits& limits);
  int64_t remaining_ms(shogi::Color c) const { return remaining_ms_[c]; }
  int64_t available_ms(shogi::Color us) const;
  // "go btime B wtime W byoyomi Y" (the mover's main time with this move's increment
  // credited; the opponent's as it stands) or, with an increment, "... binc I winc I".
  std::string go_command(shogi::Color us) const;
  void charge(shogi::Color us, int64_t elapsed_ms);

 private:
  MatchLimits limits_;
  int64_t remaining_ms_[shogi::kColorNb];
};

// The USI go command for the first move of a game: "go btime 0 wtime 0 byoyomi 1000",
// "go btime 10000 wtime 10000 binc 100 winc 100", "go nodes 10000" or "go depth 6".
std::string go_command(const MatchLimits& limits);
// How long to wait for the first bestmove of a game: the time available + margin, or the move
// timeout without a clock.
int64_t move_wait_ms(const MatchLimits& limits);

// Everything one game needs.
struct GameSetup {
  int number = 1;  // 1-based, for messages and the record
  usi::EngineConfig black, white;
  std::string black_label = "engine1", white_label = "engine2";  // whose engine plays which
  Opening opening;
  MatchLimits limits;
  std::string event;     // the record's $EVENT
  std::string log_path;  // the USI dialog of both engines goes here; "" for none
};

// What one side's engine said about its searches over a game (or a match, summed).
struct SearchStats {
  int moves = 0;        // moves it played (the record's, the opening's excluded)
  int depth_moves = 0;  // of those, the moves it reported a depth for
  int64_t depth_sum = 0;
  int nodes_moves = 0;  // of those, the moves it reported a node count for
  int64_t nodes_sum = 0;
  int64_t think_ms = 0;  // wall time from go to bestmove, summed over its moves

  void add(const usi::SearchReport& report, int64_t elapsed_ms = 0);
  void add(const SearchStats& other);
  // Averages over the moves with a report; empty when there were none.
  std::optional<double> average_depth() const;
  std::optional<double> average_nodes() const;
};

// How a game went.
struct GameOutcome {
  // Not ok when the game could not be played at all (an engine command cannot be run, the
  // opening is invalid): the match should stop. Everything else is in `end`.
  base::Status error;
  GameEnd end;
  int plies = 0;                       // moves in the record, opening moves included
  std::string black_name, white_name;  // as in the record (from "id name")
  shogi::CsaRecord record;             // complete: names, info, moves, the special move
  SearchStats search[2];               // by colour (shogi::kBlack, shogi::kWhite)
  bool restarted[2] = {false, false};  // by colour: see MatchEngine::restarted()
  // By colour: the engine's "info string error" lines before its readyok of this game.
  std::vector<std::string> ready_errors[2];
};

// Plays one game with `black` and `white` (started for the game or kept from the last, see
// MatchEngine): the USI handshake, then each move asked of the side to move and checked by a
// Referee, then gameover. Engine faults (crash, hang, time loss, illegal move) end the game
// as a loss for that engine, and its process is not kept. Every move gets a comment with
// the mover's search report (see search_comment). Blocks until the end of the game.
GameOutcome play_game(const GameSetup& setup, MatchEngine& black, MatchEngine& white);
// The same with a new process for each engine, ended with the game.
GameOutcome play_game(const GameSetup& setup);

}  // namespace tools
