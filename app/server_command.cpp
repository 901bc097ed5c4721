// sashite server: the command line of the local CSA server (tools/server/server_command.h).
#include "tools/server/server_command.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "app/command_error.h"
#include "app/commands.h"
#include "tools/server/csa_server.h"

CommandRun add_server_options(CLI::App& sub) {
  auto options = std::make_shared<tools::ServerOptions>();
  tools::ServerOptions& o = *options;
  sub.add_option("--host", o.host, "address to bind (default: 127.0.0.1)");
  sub.add_option("--port", o.port, "TCP port; 0 picks a free one (default: 4081)")
      ->check(CLI::Range(0, 65535));
  sub.add_option("--records", o.records_dir, "write each game's CSA record into this directory");
  sub.add_option("--games", o.games, "exit after this many games (default: 0, run forever)")
      ->check(CLI::NonNegativeNumber);
  sub.add_option("--max-moves", o.max_moves, "Max_Moves; 0 for no limit (default: 256)")
      ->check(CLI::Range(0, 100000));
  sub.add_option("--least-time-per-move", o.least_time_per_move_s,
                 "Least_Time_Per_Move in seconds (default: 0, as floodgate)")
      ->check(CLI::Range(0, 3600));
  sub.add_flag("--time-roundup", o.time_roundup,
               "send Time_Roundup:YES and round elapsed times up (default: truncate)");
  sub.add_option("--colors", o.colors,
                 "random, or first: the first to log in plays Black (a -B/-W game name suffix "
                 "always wins) (default: random)")
      ->check(CLI::IsMember({"random", "first"}));
  sub.add_option("--event", o.event, "the first field of every Game_ID (default: local)");
  sub.add_flag("--log", o.log, "print every line sent and received, with times");
  sub.add_option("--delay-ms", o.delay_ms,
                 "delay every line sent by this many ms, to inject latency (default: 0)")
      ->check(CLI::Range(0, 60000));
  sub.add_option("--status-port", o.status_port,
                 "port of the live status page (games in progress and finished); 0 = off "
                 "(default: 0)")
      ->check(CLI::Range(0, 65535));
  sub.add_option("--status-bind", o.status_bind,
                 "address of the status page (default: 127.0.0.1; any other needs a token)");
  sub.add_option("--status-token", o.status_token,
                 "the status page's secret, required on every request (better: the environment "
                 "variable SASHITE_STATUS_TOKEN)");
  return [options] {
    if (const base::Status s = tools::run_server(*options, std::cout); !s)
      return command_failed("server", s.message());
    return 0;
  };
}
