// sashite learn fit: the command line of tools/learn/learn_fit.h.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "app/command_error.h"
#include "app/commands.h"
#include "base/shipped_file.h"
#include "engine/eval/weights.h"
#include "tools/learn/learn_fit.h"

namespace {

namespace eval = engine::eval;

struct FitCommandOptions {
  std::vector<std::string> records;
  std::string out;
  std::string init = "default";
  tools::ValueSampleOptions samples;
  tools::FitOptions fit;
};

// The command as run, every option with its effective value, for the weight file's header.
std::string command_line(const FitCommandOptions& o) {
  const tools::FitOptions& f = o.fit;
  std::ostringstream c;
  c << "sashite learn fit";
  for (const std::string& r : o.records) c << " --records " << r;
  c << " --out " << o.out << " --init " << o.init << " --iterations " << f.iterations
    << " --passes-per-iteration " << f.passes << " --learning-rate " << f.learning_rate
    << " --scale " << f.scale_cp << " --lambda " << f.lambda << " --l2 " << f.l2
    << (f.anchor ? " --anchor" : "") << " --min-count " << f.min_count << " --holdout-every "
    << f.holdout_every << " --batch " << f.batch << " --quiescence-depth " << f.quiescence_depth
    << " --skip-plies " << o.samples.skip_plies << " --max-value " << o.samples.max_value_cp;
  if (!o.samples.player.empty()) c << " --player '" << o.samples.player << "'";
  c << " --seed " << f.seed << " --threads " << f.threads;
  return c.str();
}

base::Status run_fit(const FitCommandOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<tools::ValueSample> samples;
  tools::ValueSampleCounts total;
  int groups = 0;
  for (const std::string& dir : o.records) {
    const size_t first = samples.size();
    tools::ValueSampleCounts counts;
    if (base::Status s = tools::collect_value_samples(dir, o.samples, samples, counts); !s)
      return s;
    for (size_t i = first; i < samples.size(); ++i) samples[i].group += groups;
    groups += counts.records;
    std::fprintf(stderr,
                 "%s: %d records (%d decided, %d drawn, %d unfinished and not used), %zu samples\n",
                 dir.c_str(), counts.records, counts.decided, counts.drawn, counts.unfinished,
                 counts.samples);
    total.records += counts.records, total.decided += counts.decided;
    total.drawn += counts.drawn, total.samples += counts.samples;
  }
  eval::Weights init = eval::Weights::hand_set();
  if (o.init != "hand-set") {
    const std::string path = o.init == "default" ? base::default_eval_file() : o.init;
    if (base::Status s = init.load(path); !s) return s;
  }
  eval::Weights out;
  std::vector<tools::FitStats> stats;
  if (base::Status s = tools::fit_weights(o.fit, samples, init, out, stats, &std::cerr); !s)
    return s;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string table = tools::format_fit_table(stats);
  std::ostringstream header;
  header << "learned weights (sashite learn fit: the search values and results of engine games)\n"
         << "command: " << command_line(o) << '\n'
         << "data: " << total.records << " records (" << total.decided << " decided, "
         << total.drawn << " drawn), " << total.samples
         << " samples: " << stats.back().training_samples << " training, "
         << stats.back().heldout_samples << " held out (every " << o.fit.holdout_every
         << "th game); " << int(seconds) << " s\n"
         << table;
  out.set_header(header.str());
  if (base::Status s = out.save(o.out); !s) return s;
  std::fputs(table.c_str(), stdout);
  std::printf("wrote %s (%.0f s)\n", o.out.c_str(), seconds);
  return base::Status::ok();
}

}  // namespace

CommandRun add_learn_fit_options(CLI::App& sub) {
  auto o = std::make_shared<FitCommandOptions>();
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
    if (const base::Status s = run_fit(*o); !s) return command_failed("learn fit", s.message());
    return 0;
  };
}
