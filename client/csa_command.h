// sashite csa: the tournament client command (its options, and what runs it).
#pragma once

#include <string>

#include "base/status.h"

namespace client {

// Flags given on the command line; each one set overrides the configuration file.
struct CsaCommandOptions {
  std::string config_path;  // --config FILE (required)
  std::string host;         // --host H        (empty: not given)
  int port = 0;             // --port P        (0: not given)
  std::string name;         // --name N
  std::string game;         // --game G
  std::string trip;         // --trip T        (better: the environment, see csa_config.h)
  int games = -1;           // --games N       (-1: not given; 0: forever)
  int status_port = -1;     // --status-port P (-1: not given; 0: off)
};

// Loads the configuration, applies the environment and the flags, and plays. Returns an error
// for a configuration or set-up failure (exit code kExitSetup, 1), before any connection;
// otherwise `exit_code` is 0 when every game ended with a result, 2 for a protocol failure
// (LOGIN:incorrect), 3 for a connection failure (a game cut, or giving up connecting).
// SIGINT/SIGTERM: the first finishes the game (or resigns it, per on_quit), the second
// resigns, the third exits at once.
base::Status run_csa_command(const CsaCommandOptions& options, int& exit_code);

}  // namespace client
