// One match game between two USI engines, each in its own process, refereed by our rules.
#pragma once

#include <cstdint>
#include <string>

#include "engine/csa_record.h"
#include "engine/status.h"
#include "tools/match_openings.h"
#include "tools/match_referee.h"
#include "tools/usi_engine_process.h"

namespace tools {

// Time and move limits of every game.
struct MatchLimits {
  int byoyomi_ms = 0;       // > 0: "go btime 0 wtime 0 byoyomi MS"
  int64_t nodes = 0;        // > 0 (and byoyomi_ms == 0): "go nodes N"
  // With byoyomi: a move not made within byoyomi_ms + time_margin_ms loses on time.
  int time_margin_ms = 1000;
  // With nodes: a move not made within this is a hang (the engine loses, no time loss).
  int move_timeout_ms = 60000;
  int ready_timeout_ms = 30000;  // for usiok and readyok
  int max_plies = 256;           // the game is drawn after this many moves (of the record)
};

// The USI go command for the limits: "go btime 0 wtime 0 byoyomi 1000" or "go nodes 10000".
std::string go_command(const MatchLimits& limits);
// How long to wait for a bestmove: byoyomi + margin, or the move timeout with nodes.
int64_t move_wait_ms(const MatchLimits& limits);

// Everything one game needs.
struct GameSetup {
  int number = 1;                  // 1-based, for messages and the record
  EngineConfig black, white;
  std::string black_label = "engine1", white_label = "engine2";  // whose engine plays which
  Opening opening;
  MatchLimits limits;
  std::string event;               // the record's $EVENT
  std::string log_path;            // the USI dialog of both engines goes here; "" for none
};

// How a game went.
struct GameOutcome {
  // Not ok when the game could not be played at all (an engine command cannot be run, the
  // opening is invalid): the match should stop. Everything else is in `end`.
  engine::Status error;
  GameEnd end;
  int plies = 0;  // moves in the record, opening moves included
  std::string black_name, white_name;  // as in the record (from "id name")
  engine::CsaRecord record;            // complete: names, info, moves, the special move
};

// Plays one game: starts both engines, runs the USI handshake, asks the side to move for
// each move (checked by a Referee), ends both engines, and returns the record. Engine faults
// (crash, hang, timeout) end the game as a loss for that engine. Blocks until the end.
GameOutcome play_game(const GameSetup& setup);

}  // namespace tools
