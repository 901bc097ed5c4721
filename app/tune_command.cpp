// sashite tune: the command line of tools/match/tune_runner.h (SPSA, or --write-defaults FILE:
// our engine's tunable parameters as a starting file).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>

#include "app/command_error.h"
#include "app/commands.h"
#include "tools/match/tune_runner.h"

namespace {

struct TuneCommandOptions {
  tools::TuneOptions tune;
  std::string write_defaults;
};

// This program's own path, for the default engine "<this binary> usi".
std::string self_path() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "sashite";
  return std::string(buf, size_t(n));
}

int run_tune_command(TuneCommandOptions& o) {
  if (!o.write_defaults.empty()) {
    if (const base::Status s = tools::write_spsa_defaults(o.write_defaults, std::cout); !s)
      return command_failed("tune", s.message());
    return 0;
  }
  if (o.tune.engine.empty()) o.tune.engine = "'" + self_path() + "' usi";
  if (const base::Status s = tools::validate_tune_options(o.tune); !s)
    return command_failed("tune", s.message(), kExitCommandLine);
  if (const base::Status s = tools::run_tune(o.tune, std::cout); !s)
    return command_failed("tune", s.message());
  return 0;
}

}  // namespace

CommandRun add_tune_options(CLI::App& sub) {
  auto o = std::make_shared<TuneCommandOptions>();
  tools::TuneOptions& t = o->tune;
  sub.add_option("--write-defaults", o->write_defaults,
                 "write our engine's tunable parameters with their defaults to FILE and exit");
  sub.add_option("--params", t.params_path,
                 "the parameters: lines 'NAME, VALUE, MIN, MAX, C_END, R_END' (fishtest's form)");
  sub.add_option("--iterations", t.iterations, "game pairs to play (a new run)")
      ->check(CLI::Range(1, 100000000));
  sub.add_option("--engine", t.engine, "the engine's command line (default: this binary's usi)");
  sub.add_option("--opt", t.options, "USI option NAME=VALUE for both sides (repeatable)");
  sub.add_option("--openings", t.openings_path,
                 "openings file, as sashite match reads them (data/openings/taya36.sfen)");
  sub.add_option("--nodes", t.nodes, "nodes per move (go nodes)")
      ->check(CLI::Range(int64_t(1), int64_t(1) << 50));
  sub.add_option("--tc", t.time_control, "time control BASE[+INC] in seconds, as sashite match");
  sub.add_option("--byoyomi", t.byoyomi_ms, "byoyomi per move in ms")
      ->check(CLI::Range(1, 86400000));
  sub.add_option("--jobs", t.jobs, "pairs played at the same time")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  sub.add_option("--seed", t.seed, "the random stream of perturbations and openings")
      ->capture_default_str();
  sub.add_option("--state", t.state_path,
                 "the state file (default: PARAMS.state); resumed when it exists");
  sub.add_option("--out", t.out_path,
                 "the tuned parameters, rewritten after every pair (default: PARAMS.tuned)");
  sub.add_option("--max-plies", t.max_plies, "draw after this many plies")->capture_default_str();
  sub.add_option("--margin", t.time_margin_ms, "ms allowed beyond the time available")
      ->capture_default_str();
  sub.add_option("--report-every", t.report_every, "print theta every N pairs")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  sub.footer(
      "Each pair plays one opening twice, colours swapped, between theta + c_k delta and "
      "theta - c_k delta (every parameter perturbed at once, random signs); theta moves by "
      "R_k c_k (wins - losses) delta. The state is rewritten after every pair: kill the run "
      "and start it again with the same --params to resume. To use the result: sashite match "
      "--opt1 NAME=VALUE ..., or the values as the options' defaults.");
  return [o] { return run_tune_command(*o); };
}
