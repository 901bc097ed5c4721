// `sashite learn fit`: value fitting of the evaluation weights on engine games.
#include "tools/learn/learn_fit_command.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "base/shipped_file.h"
#include "engine/eval/weights.h"

namespace tools {

namespace eval = engine::eval;

std::string learn_fit_command_line(const LearnFitCommandOptions& o) {
  const FitOptions& f = o.fit;
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

base::Status run_learn_fit(const LearnFitCommandOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<ValueSample> samples;
  ValueSampleCounts total;
  int groups = 0;
  for (const std::string& dir : o.records) {
    const size_t first = samples.size();
    ValueSampleCounts counts;
    if (base::Status s = collect_value_samples(dir, o.samples, samples, counts); !s) return s;
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
    const std::string path = o.init == "default" ? base::linear_eval_file() : o.init;
    if (base::Status s = init.load(path); !s) return s;
  }
  eval::Weights out;
  std::vector<FitStats> stats;
  if (base::Status s = fit_weights(o.fit, samples, init, out, stats, &std::cerr); !s) return s;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string table = format_fit_table(stats);
  std::ostringstream header;
  header << "learned weights (sashite learn fit: the search values and results of engine games)\n"
         << "command: " << learn_fit_command_line(o) << '\n'
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

}  // namespace tools
