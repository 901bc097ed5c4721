// `sashite learn train`: comparison training of the evaluation weights on teacher moves.
#include "tools/learn/learn_train_command.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <vector>

#include "engine/eval/weights.h"

namespace tools {

using base::Status;
namespace eval = engine::eval;

std::string learn_train_command_line(const LearnTrainCommandOptions& o) {
  const LearnOptions& l = o.learn;
  const TrainingSources& src = o.sources;
  std::ostringstream c;
  c << "sashite learn train";
  if (!src.records.empty()) c << " --records " << src.records;
  for (const std::string& t : src.teachers) c << " --teachers " << t;
  for (const std::string& r : src.train_records) c << " --train-records " << r;
  if (!src.train_player.empty()) c << " --train-player '" << src.train_player << "'";
  if (!src.train_records.empty()) c << " --train-skip-plies " << src.train_skip_plies;
  for (const std::string& t : src.train_teachers) c << " --train-teachers " << t;
  c << " --out " << o.out << " --init " << o.init;
  if (l.loss == LossKind::kSoftmax) c << " --loss softmax";
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

Status validate_learn_train_options(const LearnTrainCommandOptions& o) {
  if (o.learn.resume && o.learn.checkpoint_dir.empty())
    return Status::error("--resume needs --checkpoint");
  const TrainingSources& src = o.sources;
  if (src.records.empty() && src.teachers.empty() && src.train_records.empty() &&
      src.train_teachers.empty())
    return Status::error(
        "give --records DIR, --teachers FILE, --train-records DIR or --train-teachers FILE");
  if (src.train_records.empty() && (!src.train_player.empty() || src.train_skip_plies > 0))
    return Status::error(
        "--train-player and --train-skip-plies apply to --train-records, and none was given");
  return Status::ok();
}

Status run_learn_train(const LearnTrainCommandOptions& o) {
  if (Status s = validate_learn_train_options(o); !s) return s;
  const TrainingSources& src = o.sources;
  const auto start = std::chrono::steady_clock::now();
  std::vector<TrainingPosition> positions;
  TrainingCounts counts;
  if (Status s = gather_training_positions(o.sources, positions, counts, &std::cerr); !s) return s;
  thin_positions(positions, o.max_positions);
  std::fprintf(stderr,
               "%d records (%zu positions), %zu teacher positions, %zu training-only record "
               "positions, %zu training-only teacher positions; training on %zu\n",
               counts.records, counts.record_positions, counts.teacher_positions,
               counts.train_record_positions, counts.train_teacher_positions, positions.size());

  eval::Weights init = eval::Weights::hand_set();
  if (o.init != "hand-set")
    if (Status s = init.load(o.init); !s) return s;

  eval::Weights out;
  std::vector<IterationStats> stats;
  if (Status s = train_weights(o.learn, positions, init, out, stats, &std::cerr); !s) return s;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const std::string table_text = format_stats_table(stats);
  const IterationStats& last = stats.back();
  std::ostringstream header;
  header << "learned weights (sashite learn train: comparison training on teacher moves, "
            "docs/techniques.md §5)\n"
         << "command: " << learn_train_command_line(o) << '\n'
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

}  // namespace tools
