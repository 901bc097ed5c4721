// sashite sprt: the command line of tools/match/sprt_command.h.
#include "tools/match/sprt_command.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>

#include "app/command_error.h"
#include "app/commands.h"

CommandRun add_sprt_options(CLI::App& sub) {
  auto o = std::make_shared<tools::SprtCommandOptions>();
  sub.add_option("--sprt", o->bounds, "ELO0,ELO1")->capture_default_str();
  sub.add_option("--alpha", o->alpha, "false-positive rate")->capture_default_str();
  sub.add_option("--beta", o->beta, "false-negative rate")->capture_default_str();
  sub.add_option("--pentanomial", o->pentanomial,
                 "counts of game pairs LL,LD,DD,WD,WW (engine1 scored 0, 1/2, 1, 3/2, 2)");
  sub.add_option("--simulate", o->simulate_elo, "run the test on synthetic pairs at this true Elo")
      ->each([o](const std::string&) { o->simulate = true; });
  sub.add_option("--runs", o->runs, "with --simulate: tests to run")
      ->check(CLI::Range(1, 10000000))
      ->capture_default_str();
  sub.add_option("--draw-ratio", o->draw_ratio, "with --simulate: the chance of a draw per game")
      ->capture_default_str();
  sub.add_option("--max-pairs", o->max_pairs, "with --simulate: a run stops undecided here")
      ->check(CLI::Range(int64_t(1), int64_t(1) << 40))
      ->capture_default_str();
  sub.add_option("--seed", o->seed, "with --simulate: the random stream")->capture_default_str();
  return [o] {
    if (const base::Status s = tools::run_sprt_command(*o, std::cout); !s)
      return command_failed("sprt", s.message(), kExitCommandLine);
    return 0;
  };
}
