// sashite csa: the command line of the CSA client (client/csa_command.h).
#include "client/csa_command.h"

#include <CLI/CLI.hpp>
#include <memory>

#include "app/command_error.h"
#include "app/commands.h"
#include "client/csa_client.h"

CommandRun add_csa_options(CLI::App& sub) {
  auto options = std::make_shared<client::CsaCommandOptions>();
  client::CsaCommandOptions& o = *options;
  // No CLI::ExistingFile check: a configuration file that cannot be read is a configuration
  // error, exit 1 (the systemd unit does not restart after it), not CLI11's 105.
  sub.add_option("--config", o.config_path, "TOML configuration (see config/*.toml)")->required();
  sub.add_option("--host", o.host, "server host (overrides server.host)");
  sub.add_option("--port", o.port, "server port (overrides server.port)")
      ->check(CLI::Range(1, 65535));
  sub.add_option("--name", o.name, "login name (overrides server.name)");
  sub.add_option("--game", o.game, "game name, e.g. floodgate-300-10F (overrides server.game)");
  sub.add_option("--trip", o.trip,
                 "floodgate trip (overrides server.trip; SASHITE_CSA_TRIP keeps it off the "
                 "command line)");
  sub.add_option("--games", o.games, "games to play, 0 = forever (overrides session.games)")
      ->check(CLI::Range(0, 1000000));
  sub.add_option("--status-port", o.status_port,
                 "port of the live status page on status.bind (127.0.0.1 by default); 0 = off "
                 "(overrides status.port)")
      ->check(CLI::Range(0, 65535));
  return [options] {
    int exit_code = 0;
    if (const base::Status s = client::run_csa_command(*options, exit_code); !s)
      return command_failed("csa", s.message(), client::kExitSetup);
    return exit_code;
  };
}
