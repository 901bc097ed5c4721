// sashite learn train: comparison training of the evaluation weights from teacher moves.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "app/command_error.h"
#include "app/commands.h"
#include "engine/eval/weights.h"
#include "tools/learn/learn_data.h"
#include "tools/learn/learn_train.h"

namespace {

using base::Status;
namespace eval = engine::eval;

struct TrainCommandOptions {
  tools::TrainingSources sources;
  std::string out;
  std::string init = "hand-set";
  int max_positions = 0;
  tools::LearnOptions learn;
};

// The command as run, every option spelled out with its effective value (defaults too), so
// that the header of the weight file tells exactly how to make them again.
std::string command_line(const TrainCommandOptions& o) {
  const tools::LearnOptions& l = o.learn;
  const tools::TrainingSources& src = o.sources;
  std::ostringstream c;
  c << "sashite learn train";
  if (!src.records.empty()) c << " --records " << src.records;
  for (const std::string& t : src.teachers) c << " --teachers " << t;
  for (const std::string& r : src.train_records) c << " --train-records " << r;
  if (!src.train_player.empty()) c << " --train-player '" << src.train_player << "'";
  if (!src.train_records.empty()) c << " --train-skip-plies " << src.train_skip_plies;
  for (const std::string& t : src.train_teachers) c << " --train-teachers " << t;
  c << " --out " << o.out << " --init " << o.init;
  if (l.loss == tools::LossKind::kSoftmax) c << " --loss softmax";
  c << " --iterations " << l.iterations << " --passes-per-iteration " << l.passes
    << " --learning-rate " << l.learning_rate << " --scale " << l.scale_cp << " --l1 " << l.l1
    << " --l2 " << l.l2 << " --min-count " << l.min_count << " --holdout-every " << l.holdout_every
    << " --batch " << l.batch_positions << " --window " << l.window_cp << " --quiescence-depth "
    << l.quiescence_depth;
  if (l.threatmate_penalty != 0) c << " --threatmate-penalty " << l.threatmate_penalty;
  if (l.threat_stand_pat) c << " --threat-stand-pat";
  c << " --skip-plies " << src.skip_plies << " --max-positions " << o.max_positions << " --seed "
    << l.seed << " --threads " << l.threads;
  for (const std::string& f : l.frozen) c << " --freeze " << f;
  if (!l.checkpoint_dir.empty()) c << " --checkpoint " << l.checkpoint_dir;
  return c.str();
}

Status run_train(const TrainCommandOptions& o) {
  if (o.learn.resume && o.learn.checkpoint_dir.empty())
    return Status::error("--resume needs --checkpoint");
  const tools::TrainingSources& src = o.sources;
  if (src.records.empty() && src.teachers.empty() && src.train_records.empty() &&
      src.train_teachers.empty())
    return Status::error(
        "give --records DIR, --teachers FILE, --train-records DIR or --train-teachers FILE");
  if (src.train_records.empty() && (!src.train_player.empty() || src.train_skip_plies > 0))
    return Status::error(
        "--train-player and --train-skip-plies apply to --train-records, and none was given");
  const auto start = std::chrono::steady_clock::now();
  std::vector<tools::TrainingPosition> positions;
  tools::TrainingCounts counts;
  if (Status s = tools::gather_training_positions(o.sources, positions, counts, &std::cerr); !s)
    return s;
  tools::thin_positions(positions, o.max_positions);
  std::fprintf(stderr,
               "%d records (%zu positions), %zu teacher positions, %zu training-only record "
               "positions, %zu training-only teacher positions; training on %zu\n",
               counts.records, counts.record_positions, counts.teacher_positions,
               counts.train_record_positions, counts.train_teacher_positions, positions.size());

  eval::Weights init = eval::Weights::hand_set();
  if (o.init != "hand-set")
    if (Status s = init.load(o.init); !s) return s;

  eval::Weights out;
  std::vector<tools::IterationStats> stats;
  if (Status s = tools::train_weights(o.learn, positions, init, out, stats, &std::cerr); !s)
    return s;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const std::string table_text = tools::format_stats_table(stats);
  const tools::IterationStats& last = stats.back();
  std::ostringstream header;
  header << "learned weights (sashite learn train: comparison training on teacher moves, "
            "docs/techniques.md §5)\n"
         << "command: " << command_line(o) << '\n'
         << "data: " << counts.records << " records (" << counts.record_positions << " positions)";
  if (!src.records.empty()) header << " under " << src.records;
  header << ", " << counts.teacher_positions << " teacher positions";
  if (!src.train_records.empty())
    header << ", " << counts.train_record_positions << " training-only record positions";
  if (!src.train_teachers.empty())
    header << ", " << counts.train_teacher_positions << " training-only teacher positions";
  header << "; " << positions.size() << " used: " << last.training_positions << " training, "
         << last.heldout_positions << " held out (every " << o.learn.holdout_every << "th game)\n"
         << "initial weights: " << o.init << "; iterations " << last.iteration << "; final loss "
         << last.loss << ", held-out agreement " << 100 * last.heldout_agreement << "%"
         << " (initial " << 100 * stats.front().heldout_agreement << "%); " << int(seconds)
         << " s\n"
         << table_text;
  out.set_header(header.str());
  if (Status s = out.save(o.out); !s) return s;
  std::fputs(table_text.c_str(), stdout);
  std::printf("wrote %s (%.0f s)\n", o.out.c_str(), seconds);
  return Status::ok();
}

}  // namespace

CommandRun add_learn_train_options(CLI::App& sub) {
  auto o = std::make_shared<TrainCommandOptions>();
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
    if (const Status s = run_train(*o); !s) return command_failed("learn train", s.message());
    return 0;
  };
}
