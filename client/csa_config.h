// CsaConfig: the tournament client's settings, read from a TOML file (config/*.toml).
#pragma once

// Every key, its default and its unit. A key the loader does not know, a value of the wrong
// type or out of range is an error naming the file, the key and its line. The shipped files
// config/floodgate.toml, config/championship.toml and config/local.toml show them all.
//
//   [server]
//   host = "127.0.0.1"        server host name or address
//   port = 4081               TCP port, 1..65535
//   name = ""                 LOGIN name, [0-9A-Za-z_@.-]{1,32}; required
//   password = ""             the whole LOGIN password field, for servers that assign one;
//                             overridden by the environment variable SASHITE_CSA_PASSWORD.
//                             When empty the field is built from `game` and `trip`.
//   game = ""                 game name ("floodgate-300-10F"): CSA mode logs in with
//                             "<game>,<trip>", x1 mode asks for it with %%GAME
//   trip = ""                 floodgate's trip (the secret after the comma); overridden by
//                             the environment variable SASHITE_CSA_TRIP
//   login = "csa"             "csa" (LOGIN name password) or "x1" (extended mode)
//   x1_color = "*"            x1 mode: the colour asked for with %%GAME: "+", "-" or "*"
//   connect_timeout_s = 10    seconds for name resolution plus the TCP connect, 1..600
//   keep_alive_s = 40         seconds without sending before a blank keep-alive line;
//                             0 = never, else 30..3600 (the protocol's minimum is 30)
//   idle_timeout_s = 0        seconds without receiving anything after which the connection
//                             is taken as dead and closed; 0 = 3 x keep_alive_s (at least 120
//                             s) when keep-alives are on, never when they are off; else 60..86400
//
//   [session]
//   games = 1                 games to play, then exit; 0 = forever
//   time_margin_ms = 1000     ms kept in hand on every move on top of the measured round
//                             trip, 0..60000
//   reconnect_initial_s = 10  seconds before the first reconnection after a failure, 1..3600;
//                             doubled after each consecutive failure ...
//   reconnect_max_s = 300     ... up to this many seconds, reconnect_initial_s..86400
//   max_connect_failures = 0  consecutive failed connections or logins before giving up
//                             (exit status 3); 0 = never give up
//   on_quit = "finish"        on SIGINT/SIGTERM during a game: "finish" it, or "resign" at
//                             once (%TORYO). A second signal always resigns.
//
//   [engine]
//   threads = 1               search threads (USI Threads), 1..512
//   hash_mb = 256             transposition table in MiB (USI_Hash), 1..1048576
//   ponder = false            ponder: think on the opponent's time about the reply the
//                             engine expects (USI_Ponder, go ponder, ponderhit), built-in
//                             and external engines alike
//   weights = ""              the evaluation (EvalFile): a network (*.nnue), a weight file or
//                             "linear"; "" = the shipped default network
//   book = ""                 opening book directory (BookFile); "" = the shipped default,
//                             "off" = no book (USI_OwnBook false)
//   floodgate_comments = true send "'* <score> <pv>" after our moves
//   resign_threshold_cp = 0   resign when the score is below -this (ResignValue);
//                             0 = never, 0..100000
//   [engine.usi]              free-form USI options, NAME = value (string, integer or
//                             boolean), applied after the keys above; checked at start-up
//                             (an external engine gets those it offers; the others are
//                             logged once and skipped)
//   command = ""              an external USI engine to play with ("/path/to/engine");
//                             "" = the built-in engine. weights and book above are the
//                             built-in engine's; threads and hash_mb go to the external one
//                             as Threads or Thread (whichever it offers; a warning when
//                             neither) and USI_Hash (and Hash, when it offers that instead)
//   args = []                 the external engine's arguments, strings
//   working_dir = ""          where it runs; "" = our working directory
//   startup_timeout_s = 30    seconds from its start to usiok, 1..3600
//   isready_timeout_s = 120   seconds from isready to readyok (a large net loads), 1..3600
//   restart_engine_every_game = false   a new engine process for every game
//   send_increment = true     a Fischer increment as go binc/winc; false adds it to
//                             btime/wtime instead, for engines that die on binc (gpsusi)
//   budget_margin_ms = 100    the external engine is told a budget (btime plus byoyomi)
//                             that ends this many ms before the client's own hard stop at the
//                             move's deadline, 0..10000, until its answers have been
//                             measured; then the margin is 40 ms plus the most that any of its
//                             last 16 answers came after the end of its budget (an answer the
//                             hard stop had to stop counts double), never more than half the
//                             move's time; each change is logged
//
//   [book]                    the opening book in front of the engine
//   mode = "relation"         "relation" (similar positions by relation numbers),
//                             "simple", "exact" (the position itself), "off"
//   move_choice = ""          "play": the client plays the book's move itself (weighted)
//                             while the book has one, then hands over to the engine;
//                             "guide": the built-in engine's search gets the book's bonuses
//                             (built-in only); "" = guide for the built-in engine, play for
//                             an external one
//   min_weight = 0.0          play: a book move needs at least this share, 0..1
//   max_ply = 40              play: no book move after this ply, 0 = no limit
//   max_distance = 12         similar positions farther than this lend nothing
//   play_max_distance = 0     play: the book's move is played only in a position at most
//                             this far from a book position (0: the position itself), 0..200
//
//   [log]
//   log_dir = "logs"          where csa.log (rotating, 10 MiB x 5) is written
//   record_dir = "records"    where each game's record <Game_ID>.csa and results.txt go
//   record_formats = ["csa", "kif"]   the records written as the game goes: CSA
//                             (<Game_ID>.csa) and KIF (<Game_ID>.kifu, UTF-8); one at least
//   console = true            also log to standard error
//
//   [status]                  the live status page (read-only): /, /status.json, /metrics
//   port = 0                  TCP port of its HTTP server, 0 = no status page
//   bind = "127.0.0.1"        address it listens on; any other than a loopback address
//                             needs a token
//   token = ""                the secret every request must carry (?token=... or
//                             "Authorization: Bearer ..."); overridden by the environment
//                             variable SASHITE_STATUS_TOKEN
//
// Relative directories are taken from the working directory.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"

namespace client {

struct CsaConfig {
  // [server]
  std::string host = "127.0.0.1";
  int port = 4081;
  std::string name;
  std::string password;
  std::string game;
  std::string trip;
  bool x1 = false;
  char x1_color = '*';
  int connect_timeout_s = 10;
  int keep_alive_s = 40;
  int idle_timeout_s = 0;
  // [session]
  int games = 1;
  int time_margin_ms = 1000;
  int reconnect_initial_s = 10;
  int reconnect_max_s = 300;
  int max_connect_failures = 0;
  bool resign_on_quit = false;  // on_quit = "resign"
  // [engine]
  int threads = 1;
  int hash_mb = 256;
  bool ponder = false;
  std::string weights;
  std::string book;
  bool floodgate_comments = true;
  int resign_threshold_cp = 0;
  struct UsiOption {
    std::string name, value;
    std::string origin;  // "PATH:LINE", for errors found when the engine applies it
  };
  std::vector<UsiOption> usi_options;  // in key order
  std::string engine_command;
  std::vector<std::string> engine_args;
  std::string engine_working_dir;
  int engine_startup_timeout_s = 30;
  int engine_isready_timeout_s = 120;
  bool restart_engine_every_game = false;
  bool engine_send_increment = true;  // go binc/winc; false: inside btime/wtime
  int engine_budget_margin_ms = 100;  // the first margin before the hard stop (EngineMargin)
  // [book]
  std::string book_mode = "relation";
  std::string book_move_choice;  // "", "play" or "guide"
  double book_min_weight = 0.0;
  int book_max_ply = 40;
  int book_max_distance = 12;
  int book_play_max_distance = 0;
  // "play" or "guide", "" resolved by the engine in use.
  std::string effective_book_move_choice() const {
    if (!book_move_choice.empty()) return book_move_choice;
    return engine_command.empty() ? "guide" : "play";
  }
  // [log]
  std::string log_dir = "logs";
  std::string record_dir = "records";
  bool record_csa = true, record_kif = true;
  bool log_console = true;
  // [status]
  int status_port = 0;
  std::string status_bind = "127.0.0.1";
  std::string status_token;

  // The LOGIN password field: `password` if set, else "<game>,<trip>" in CSA mode ("<game>"
  // without a trip) and the trip in x1 mode.
  std::string login_password() const;
  // The idle timeout in effect (see idle_timeout_s above), in seconds; 0 = none.
  int effective_idle_timeout_s() const;
};

// Environment variables read by apply_environment.
constexpr const char* kPasswordEnv = "SASHITE_CSA_PASSWORD";
constexpr const char* kTripEnv = "SASHITE_CSA_TRIP";

// Reads the TOML file at `path` over the defaults above. Errors read
// "PATH:LINE: server.port: 70000 is out of range 1..65535", "PATH:LINE: unknown key
// 'server.hots'", or toml11's own message (with the line) for a syntax error.
base::Status load_csa_config(const std::string& path, CsaConfig& out);
// The same from text; `name` stands for the path in errors.
base::Status parse_csa_config(const std::string& text, const std::string& name, CsaConfig& out);
// Takes the password and trip from the environment when those variables are set and not empty.
void apply_environment(CsaConfig& config);
// Checks what only the merged configuration (file, flags, environment) can tell: a valid
// login name and password, and a game name in x1 mode.
base::Status validate_for_login(const CsaConfig& config);
// The [status] settings (validate_status_page in status_service.h).
base::Status validate_status_settings(const CsaConfig& config);

}  // namespace client
