// sashite learn train: the command line of tools/learn/learn_train_command.h.
#include "tools/learn/learn_train_command.h"

#include <CLI/CLI.hpp>
#include <map>
#include <memory>
#include <string>

#include "app/command_error.h"
#include "app/commands.h"
#include "tools/learn/learn_train.h"

CommandRun add_learn_train_options(CLI::App& sub) {
  auto o = std::make_shared<tools::LearnTrainCommandOptions>();
  tools::LearnOptions& l = o->learn;
  sub.add_option("--records", o->sources.records,
                 "directory of .csa records (recursive): every move "
                 "is a teacher move");
  sub.add_option("--teachers", o->sources.teachers,
                 "teacher file(s): lines '<SFEN> <TAB> <USI move>' (repeatable)");
  sub.add_option("--train-records", o->sources.train_records,
                 "directory of .csa records used for training only, never held out "
                 "(repeatable)");
  sub.add_option("--train-teachers", o->sources.train_teachers,
                 "teacher file(s) as --teachers, used for training only, never held out "
                 "(repeatable)");
  sub.add_option("--train-player", o->sources.train_player,
                 "with --train-records: only the moves of the side whose N+/N- name "
                 "contains this text (e.g. gpsshogi)");
  sub.add_option("--train-skip-plies", o->sources.train_skip_plies,
                 "with --train-records: skip the first N moves of each record (e.g. the "
                 "opening file's moves of a match; default 0)")
      ->check(CLI::NonNegativeNumber);
  sub.add_option("--out", o->out, "weight file to write")->required();
  sub.add_option("--init", o->init, "initial weights: a weight file or hand-set (default)");
  sub.add_option("--iterations", l.iterations, "search + passes rounds (default 10)")
      ->check(CLI::Range(0, 1000));
  sub.add_option("--passes-per-iteration", l.passes, "AdaGrad passes per round (default 8)")
      ->check(CLI::Range(1, 1000));
  sub.add_option("--learning-rate", l.learning_rate, "AdaGrad step scale in cp (default 4)")
      ->check(CLI::PositiveNumber);
  sub.add_option("--scale", l.scale_cp, "the loss's scale s in cp (default 60)")
      ->check(CLI::PositiveNumber);
  sub.add_option("--loss", l.loss,
                 "pairs: sum of log(1+exp(-(f(a)-f(b))/s)) over pairs (default); softmax: "
                 "-log of the teacher move's share of exp(f/s) over all moves")
      ->transform(CLI::CheckedTransformer(std::map<std::string, tools::LossKind>{
          {"pairs", tools::LossKind::kPairs}, {"softmax", tools::LossKind::kSoftmax}}));
  sub.add_option("--l1", l.l1, "L1 penalty per pawn of weight (default 0)")
      ->check(CLI::NonNegativeNumber);
  sub.add_option("--l2", l.l2, "L2 penalty per pawn^2 of weight (default 1e-4)")
      ->check(CLI::NonNegativeNumber);
  sub.add_option(
         "--min-count", l.min_count,
         "learn only features active in the leaves of at least N training positions (default 10)")
      ->check(CLI::NonNegativeNumber);
  sub.add_option("--holdout-every", l.holdout_every,
                 "hold out every Nth game (teacher line) for the measures (default 10; 0 none)")
      ->check(CLI::NonNegativeNumber);
  sub.add_option("--batch", l.batch_positions, "positions per AdaGrad step (default 128)")
      ->check(CLI::Range(1, 1000000));
  sub.add_option("--window", l.window_cp,
                 "keep for the passes only pairs with f(a)-f(b) <= W cp (default 700)")
      ->check(CLI::PositiveNumber);
  sub.add_option("--quiescence-depth", l.quiescence_depth,
                 "quiescence plies below the move (default 4)")
      ->check(CLI::Range(0, 32));
  sub.add_option("--threatmate-penalty", l.threatmate_penalty,
                 "see mates in one in the quiescence search: a side threatened with one "
                 "stands pat at its evaluation minus N cp (default 0: off)")
      ->check(CLI::Range(0, 20000));
  sub.add_flag("--threat-stand-pat", l.threat_stand_pat,
               "stand pat below the evaluation by what the enemy's captures threaten, as GPS "
               "Shogi's quiescence does");
  sub.add_option("--skip-plies", o->sources.skip_plies, "skip the first N moves of each record")
      ->check(CLI::NonNegativeNumber);
  sub.add_option("--max-positions", o->max_positions,
                 "use at most N positions, evenly spread (default 0: all)")
      ->check(CLI::NonNegativeNumber);
  sub.add_option("--seed", l.seed, "seed of the passes' order (default 1)");
  sub.add_option("--threads", l.threads, "searching threads (default 2)")
      ->check(CLI::Range(1, 256));
  sub.add_option("--freeze", l.frozen,
                 "keep a section's initial weights, e.g. mobility (both phases) or "
                 "opening_mobility (repeatable)");
  sub.add_option("--checkpoint", l.checkpoint_dir,
                 "directory for state.bin and weights.eval after every iteration");
  sub.add_flag("--resume", l.resume, "continue from the checkpoint directory's state");
  sub.add_flag("--progress", l.progress, "progress bar on stderr");
  return [o] {
    if (const base::Status s = tools::validate_learn_train_options(*o); !s)
      return command_failed("learn train", s.message(), kExitCommandLine);
    if (const base::Status s = tools::run_learn_train(*o); !s)
      return command_failed("learn train", s.message());
    return 0;
  };
}
