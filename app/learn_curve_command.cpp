// sashite learn curve: the command line of tools/learn/learn_curve.h.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "app/command_error.h"
#include "app/commands.h"
#include "tools/learn/learn_curve.h"

CommandRun add_learn_curve_options(CLI::App& sub) {
  auto o = std::make_shared<tools::CurveOptions>();
  auto no_agreement = std::make_shared<bool>(false);
  sub.add_option("--records", o->records_dir, "CSA records (a directory, searched recursively)")
      ->required();
  sub.add_option("--weights", o->weights,
                 "a weight file, an NNUE network (*.nnue), default (the engine's EvalFile "
                 "default, the shipped network), linear (the shipped linear weights) or hand-set")
      ->capture_default_str();
  sub.add_option("--png", o->png_path, "also plot the curve to this PNG file (runs gnuplot)");
  sub.add_option("--bucket", o->bucket_cp, "bucket width in cp")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  sub.add_option("--max-value", o->max_value_cp,
                 "values beyond +-CP go to two open-ended end buckets")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  sub.add_option("--min-ply", o->min_ply, "leave out the positions before this ply")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  sub.add_option("--held-out-every", o->held_out_every,
                 "N > 0: only the records learn train --holdout-every N holds out (the N-th, "
                 "2N-th, ... by sorted path); 0: all")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  sub.add_option("--depth", o->depth,
                 "0: the static evaluation; D: the value of our engine's search to depth D")
      ->check(CLI::Range(0, 64))
      ->capture_default_str();
  sub.add_option("--agreement-depth", o->agreement_depth,
                 "our engine's search depth for the agreement with the record moves")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  sub.add_flag("--no-agreement", *no_agreement, "do not measure the agreement rate");
  sub.add_option("--min-bucket-positions", o->min_bucket_positions,
                 "buckets with fewer positions are left out of the monotonicity count")
      ->check(CLI::Range(1, 1000000000))
      ->capture_default_str();
  sub.add_option("--hash", o->hash_mb, "the engine's hash table for the searches, MB")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  sub.add_option("--threads", o->threads,
                 "records measured side by side, one engine (and --hash table) each")
      ->check(CLI::Range(1, 512))
      ->capture_default_str();
  sub.add_option("--gnuplot", o->gnuplot, "the gnuplot program")->capture_default_str();
  sub.add_flag("--progress", o->progress,
               "draw the progress bar on stderr even when it is not a terminal");
  sub.footer(
      "Positions: those from which a record move was played, in games a side won (%TORYO, "
      "%TSUMI, %TIME_UP, %KACHI, illegal moves...); draws and unfinished games are left out. "
      "Values are for the side to move. Unreadable records are reported (file and line) and "
      "skipped. --png needs gnuplot (Debian: gnuplot-nox).");
  return [o, no_agreement] {
    o->agreement = !*no_agreement;
    tools::CurveStats stats;
    if (base::Status s = tools::run_learn_curve(*o, std::cout, std::cerr, stats); !s)
      return command_failed("learn curve", s.message());
    return 0;
  };
}
