// The local CSA server (`sashite server`): floodgate's shogi-server in CSA mode, for tests, the
// demo and local tournaments.
#pragma once

// What it does (docs/csa-protocol.md; each point checked against the shogi-server transcripts):
//   - LOGIN <name> <password>, the password "<game name>[-B|-W][,<trip>]"; LOGIN:<name> OK, or
//     LOGIN:incorrect and the connection closed (a bad line, a name already logged in, x1 mode,
//     no LOGIN within login_timeout_s).
//   - Two players who asked for the same game name are paired (first come, first served) and
//     each gets its Game_Summary; then ServerGame (csa_server_game.h) referees the game.
//   - After the game, or a REJECT, the server closes both connections (no LOGOUT:completed).
//     shogi-server closes at once only the one whose line ended the game, the other once it
//     reads a line from it (docs/csa-protocol.md section 1.2).
//   - A blank line is answered with a blank line (and triggers the clock check); a lone space is
//     ignored; other unknown lines get "##[ERROR] unknown command: <line>".
//   - Each game's record (CSA V2.2, $EVENT, $START_TIME, $END_TIME, T lines, the result and a
//     "summary:" comment) is written to records_dir/<Game_ID>.csa.
// Unlike shogi-server, a silent side to move loses on time at the exact moment its time runs
// out (shogi-server notices on its next 60 s read timeout), and x1 mode is not offered.

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>

#include "base/status.h"

namespace client {
class StatusBoard;
}

namespace tools {

// What `sashite server` is asked to do. Defaults are those of the command line.
struct ServerOptions {
  std::string host = "127.0.0.1";  // address to bind
  int port = 4081;                 // 0: any free port (printed on the first line)
  std::string records_dir;         // "": records are not written
  int games = 0;                   // exit after this many games have started; 0: run forever
  int max_moves = 256;             // Max_Moves; 0: no limit
  int least_time_per_move_s = 0;   // Least_Time_Per_Move (floodgate: 0)
  bool time_roundup = false;       // Time_Roundup:YES: elapsed time rounded up, not truncated
  std::string colors = "random";   // "random", or "first": the first to log in plays Black.
                                   // A -B / -W game name suffix always wins.
  std::string event = "local";     // the first field of every Game_ID
  bool log = false;                // print every line sent and received, with times
  int agree_timeout_s = 120;       // no AGREE from both: "REJECT:<id> by the Server (timed out)"
  int login_timeout_s = 300;       // no LOGIN after connecting: the connection is closed
  int delay_ms = 0;                // every line sent leaves this much later (order kept), to
                                   // inject network latency in tests; 0: sent at once
  int status_port = 0;             // the live status page's port; 0: none
  std::string status_bind = "127.0.0.1";  // its address (other than loopback: a token)
  std::string status_token;               // its secret (SASHITE_STATUS_TOKEN), "" for none
};

// The server. Runs on the thread that calls run(); stop() may be called from any thread.
class CsaServer {
 public:
  // `out` gets one line per game result and, with options.log, every protocol line.
  CsaServer(const ServerOptions& options, std::ostream& out);
  ~CsaServer();
  CsaServer(const CsaServer&) = delete;
  CsaServer& operator=(const CsaServer&) = delete;

  // Binds and listens; creates records_dir. With handle_signals, SIGINT and SIGTERM stop the
  // server (installed here, before the caller announces the port, so no signal is missed).
  // Errors name the address or the directory.
  base::Status listen(bool handle_signals = false);
  int port() const;  // REQUIRES: listen() succeeded
  // Keeps `board` (a status page's model) up to date with the games. REQUIRES: listen()
  // succeeded, run() not started; the board outlives the server.
  void set_status_board(client::StatusBoard* board);
  // Serves until options.games games have started and ended, or stop(), or a signal (see
  // listen). Games still running at a stop are aborted (their records end in %CHUDAN) and
  // every connection is closed. An error when a game's record could not be written (each
  // also reported on `out` when it happens).
  base::Status run();
  void stop();
  int games_started() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tools
