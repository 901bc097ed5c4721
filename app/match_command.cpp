// sashite match: games between two USI engines (see tools/match/match_runner.h).
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "app/command_error.h"
#include "app/commands.h"
#include "tools/match/match_options.h"
#include "tools/match/match_runner.h"

// The exit code: 0 when every game was played, 1 when the match had to stop (an engine cannot
// be run), 2 for bad options.
CommandRun add_match_options(CLI::App& sub) {
  auto o = std::make_shared<tools::MatchOptions>();
  tools::add_match_options(sub, *o);
  return [o] {
    if (base::Status s = tools::validate_match_options(*o); !s)
      return command_failed("match", s.message(), 2);
    if (base::Status s = tools::run_match(*o, std::cout); !s)
      return command_failed("match", s.message());
    return 0;
  };
}
