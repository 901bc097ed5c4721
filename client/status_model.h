// StatusModel: what the live status page shows of a client or a server, as plain values.
#pragma once

// The client's loop (and the local server's) fill these under StatusBoard's lock; the status
// server's thread copies them out and renders them (status_render.h): JSON for the page and
// scripts, Prometheus text for monitoring. No secrets are ever put here: no password, no trip.
// Times: `*_steady_ms` are std::chrono::steady_clock milliseconds (for what counts down),
// `*_unix_ms` wall-clock milliseconds since 1970 (for dates shown to people).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace client {

// One move of the game shown.
struct StatusMove {
  std::string csa;       // "+7776FU"
  std::string usi;       // "7g7f"
  int64_t time_ms = -1;  // the time charged for it (its T), -1 when unknown
  // The mover's evaluation in centipawns from Black's (先手) point of view: ours from our
  // engine, the opponent's from its floodgate comment ("'* 30 -3334FU": Black's view too).
  std::optional<int> eval_cp;
  bool ours = false;  // played by us (the client's side); always false on the server
};

// One side's clock.
struct StatusClock {
  int64_t remaining_ms = 0;  // main time left before the current turn
  int64_t byoyomi_ms = 0;
  int64_t increment_ms = 0;
  bool unlimited = false;
};

// The game shown: in progress, or the last one played.
struct StatusGame {
  std::string game_id;
  std::string black_name, white_name;
  std::string our_color;   // "black", "white", or "" (the server: nobody's side)
  std::string time_rules;  // for people: "300 s + 10 s per move", "600 s, 10 s byoyomi"
  std::string start_sfen;  // the game's initial position
  std::string sfen;        // the position now (board, side to move, hands, ply)
  std::vector<StatusMove> moves;
  StatusClock clocks[2];  // Black, White
  // The side to move's turn began at this steady time; 0 when no clock runs (game over).
  int64_t turn_start_steady_ms = 0;
  std::vector<std::string> pv;    // our engine's last principal variation, CSA moves
  std::optional<int> pv_eval_cp;  // its value, Black's view
  // What the engine said about that move: a council's vote with every member's move and value
  // ("council: majority 7g7f 2/3 ... from a; a 7g7f 30, b 2g2f 90, c 7g7f 20"), a book's note.
  std::string engine_note;
  bool over = false;
  std::string result;  // once over: "win", "lose", "draw" for the client (ours); "black",
                       // "white", "draw" on the server (the winner); "" otherwise
  std::string reason;  // "RESIGN", "TIME_UP", "SENNICHITE", ... ("" while playing)
  int64_t start_unix_ms = 0;
  // Local paths of its records (never rendered): what /records/<Game_ID>.csa|.kifu serve.
  std::string csa_file, kif_file;
};

// A finished game, for the table of recent games.
struct StatusRecentGame {
  std::string game_id;
  std::string end_time;  // "2026-12-04T12:30:00" (local time, as results.txt)
  std::string black_name, white_name;
  std::string our_color;  // "black", "white", or "" (server)
  std::string result;     // "win", "lose", "draw", "censored", "chudan", "cut" (client);
                          // "black", "white", "draw", "aborted" (server)
  std::string reason;     // "RESIGN", "TIME_UP", ... or "" when none
  int plies = 0;
  bool has_csa = false;            // served at /records/<Game_ID>.csa
  bool has_kif = false;            // served at /records/<Game_ID>.kifu
  std::string csa_file, kif_file;  // their local paths (never rendered)
};

// Counters for /metrics; they only grow while the process runs.
struct StatusCounters {
  int64_t wins = 0, losses = 0, draws = 0, other = 0;  // other: censored, chudan, cut
  int64_t time_losses = 0;                             // games we lost on time (TIME_UP against us)
  int64_t reconnects = 0;                              // connections made after the first
  int64_t last_think_ms = -1;  // our last move's thinking time (its T); -1 none yet
  int64_t engine_nps = -1;     // our engine's nodes per second at its last move; -1 unknown
  int64_t engine_nodes = -1;   // and its nodes
};

// Everything one page shows.
struct StatusModel {
  std::string kind = "client";  // "client" or "server"
  std::string version;          // sashite's version
  std::string name;             // the client's login name ("" on the server)
  std::string server;           // "host:port" the client plays on, or the server listens on
  // Connection (client): "starting", "connecting", "logging in", "waiting" (for a game),
  // "in game", "game over", "reconnecting", "finished". Server: "listening".
  std::string connection = "starting";
  int64_t reconnect_at_steady_ms = 0;  // "reconnecting": the next attempt's time
  int64_t started_unix_ms = 0;         // when the process started
  bool has_game = false;
  StatusGame game;
  // The server: every game in progress, then the finished ones (newest first), shown as a
  // list; one of them is `game` when the page asks for it.
  std::vector<StatusGame> server_games;
  std::vector<StatusRecentGame> recent;  // newest first, at most kMaxRecentGames
  StatusCounters counters;

  static constexpr size_t kMaxRecentGames = 50;
};

}  // namespace client
