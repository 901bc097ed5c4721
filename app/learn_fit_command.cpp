// sashite learn fit: the command line of tools/learn/learn_fit_command.h.
#include "tools/learn/learn_fit_command.h"

#include <CLI/CLI.hpp>
#include <memory>

#include "app/command_error.h"
#include "app/commands.h"
#include "tools/learn/learn_fit.h"

CommandRun add_learn_fit_options(CLI::App& sub) {
  auto o = std::make_shared<tools::LearnFitCommandOptions>();
  tools::FitOptions& f = o->fit;
  sub.add_option("--records", o->records,
                 "directory of .csa records with value comments, e.g. sashite match's "
                 "(repeatable)")
      ->required();
  sub.add_option("--out", o->out, "weight file to write")->required();
  sub.add_option("--init", o->init, "initial weights: a weight file, default or hand-set")
      ->capture_default_str();
  sub.add_option("--iterations", f.iterations, "search + passes rounds")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  sub.add_option("--passes-per-iteration", f.passes, "AdaGrad passes per round")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  sub.add_option("--learning-rate", f.learning_rate, "AdaGrad step scale in cp")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub.add_option("--scale", f.scale_cp, "cp of the win-rate sigmoid: q = sigmoid(f / scale)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub.add_option("--lambda", f.lambda,
                 "the search value's share of the target, the result's is 1 - lambda")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  sub.add_option("--l2", f.l2, "L2 penalty per pawn^2 of weight")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  sub.add_flag("--anchor", f.anchor,
               "the L2 penalty pulls toward the initial weights instead of toward 0");
  sub.add_option("--min-count", f.min_count,
                 "learn only features active in at least N training leaves")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  sub.add_option("--holdout-every", f.holdout_every,
                 "hold out every Nth game for the measures (0: none)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  sub.add_option("--batch", f.batch, "samples per AdaGrad step")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  sub.add_option("--quiescence-depth", f.quiescence_depth, "quiescence plies below the move")
      ->check(CLI::Range(0, 32))
      ->capture_default_str();
  sub.add_option("--skip-plies", o->samples.skip_plies, "leave out the first N moves of a game")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  sub.add_option("--max-value", o->samples.max_value_cp,
                 "leave out moves whose search value is beyond +-N cp")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub.add_option("--player", o->samples.player,
                 "only the moves (values) of a side whose name (N+ or N-) contains this");
  sub.add_option("--seed", f.seed, "seed of the passes' order")->capture_default_str();
  sub.add_option("--threads", f.threads, "searching threads")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  sub.add_flag("--progress", f.progress, "progress bar on stderr");
  return [o] {
    if (const base::Status s = tools::run_learn_fit(*o); !s)
      return command_failed("learn fit", s.message());
    return 0;
  };
}
