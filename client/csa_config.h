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
//   ponder = false            USI_Ponder; the client does not ponder yet (reserved)
//   weights = ""              evaluation weights file (EvalFile); "" = the shipped default
//   book = ""                 opening book directory (BookFile); "" = the shipped default,
//                             "off" = no book (USI_OwnBook false)
//   floodgate_comments = true send "'* <score> <pv>" after our moves
//   resign_threshold_cp = 0   resign when the score is below -this (ResignValue);
//                             0 = never, 0..100000
//   [engine.usi]              free-form USI options, NAME = value (string, integer or
//                             boolean), applied after the keys above; checked at start-up
//
//   [log]
//   log_dir = "logs"          where csa.log (rotating, 10 MiB x 5) is written
//   record_dir = "records"    where each game's record <Game_ID>.csa and results.txt go
//   console = true            also log to standard error
//
// Relative directories are taken from the working directory.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/status.h"

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
  // [log]
  std::string log_dir = "logs";
  std::string record_dir = "records";
  bool log_console = true;

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
engine::Status load_csa_config(const std::string& path, CsaConfig& out);
// The same from text; `name` stands for the path in errors.
engine::Status parse_csa_config(const std::string& text, const std::string& name, CsaConfig& out);
// Takes the password and trip from the environment when those variables are set and not empty.
void apply_environment(CsaConfig& config);
// Checks what only the merged configuration (file, flags, environment) can tell: a valid
// login name and password, and a game name in x1 mode.
engine::Status validate_for_login(const CsaConfig& config);

}  // namespace client
