// sashite learn label: the command line of tools/learn/learn_label.h.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "app/command_error.h"
#include "app/commands.h"
#include "tools/learn/learn_label.h"

CommandRun add_learn_label_options(CLI::App& sub) {
  auto o = std::make_shared<tools::LabelOptions>();
  sub.add_option("--records", o->records, "directory of .csa records (repeatable)")->required();
  sub.add_option("--out", o->out_dir,
                 "output directory: OUT/<last component of DIR>/<record path under DIR>; "
                 "records already there are skipped")
      ->required();
  sub.add_option("--engine", o->engine, "the labelling engine's command, e.g. /usr/games/gpsusi")
      ->required();
  sub.add_option("--opt", o->engine_options,
                 "USI option NAME=VALUE sent at session start (repeatable), e.g. Thread=1");
  sub.add_option("--byoyomi", o->byoyomi_ms, "every search: go btime 0 wtime 0 byoyomi MS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub.add_option("--go", o->go, "the whole go command instead, e.g. 'go depth 4' (not for gpsusi)");
  sub.add_option("--first-ply", o->first_ply, "label the positions after moves N ...")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  sub.add_option("--last-ply", o->last_ply, "... through N (1 = the record's first move)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  sub.add_option("--jobs", o->jobs, "engine processes, each labelling whole records")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  sub.add_option("--timeout", o->think_timeout_ms,
                 "ms to wait for bestmove before restarting the engine (0: 2 * byoyomi + "
                 "30000)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  sub.add_option("--ready-timeout", o->ready_timeout_ms, "ms to wait for usiok and readyok")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub.add_flag("--progress", o->progress, "progress bar on stderr");
  return [o] {
    if (const base::Status s = tools::validate_label_options(*o); !s)
      return command_failed("learn label", s.message(), kExitCommandLine);
    tools::LabelCounts counts;
    const base::Status s = tools::run_learn_label(*o, counts, std::cerr);
    std::fputs(tools::format_label_summary(counts).c_str(), stdout);
    if (!s) return command_failed("learn label", s.message());
    return 0;
  };
}
