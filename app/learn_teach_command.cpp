// sashite learn teach: the command line of tools/learn/learn_teach.h.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "app/command_error.h"
#include "app/commands.h"
#include "tools/learn/learn_teach.h"

CommandRun add_learn_teach_options(CLI::App& sub) {
  auto o = std::make_shared<tools::TeachOptions>();
  sub.add_option("--engine", o->engines,
                 "an engine's command line (repeatable; numbered from 0; default: this "
                 "program's own `sashite usi`)");
  sub.add_option("--option", o->engine_options,
                 "I:NAME=VALUE: setoption for engine I (repeatable), e.g. 1:Thread=1");
  CLI::Option* sfens =
      sub.add_option("--sfens", o->sfens_path, "positions: a file, an SFEN a line");
  CLI::Option* records =
      sub.add_option("--records", o->records_dir, "positions: from the CSA records under DIR");
  sfens->excludes(records);
  sub.add_option("--positions-per-game", o->positions_per_game,
                 "with --records: positions per game, evenly spaced from --min-ply on")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  sub.add_option("--min-ply", o->min_ply, "with --records: positions from this ply on")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  sub.add_option("--max-positions", o->max_positions,
                 "search at most N positions this run (0: all)")
      ->check(CLI::Range(int64_t(0), int64_t(1) << 40));
  sub.add_option("--out", o->out_path, "the output file (SFEN, move, value, engines' moves)")
      ->required();
  sub.add_flag("--resume", o->resume, "carry on an existing --out: skip the positions it has");
  CLI::Option* byoyomi =
      sub.add_option("--byoyomi", o->byoyomi_ms,
                     "every search: go movetime MS (gpsusi: go byoyomi MS; >= 1000)")
          ->check(CLI::Range(1, 86400000));
  CLI::Option* depth = sub.add_option("--depth", o->depth, "every search: go depth D (default: 8)")
                           ->check(CLI::Range(1, 1000));
  depth->excludes(byoyomi);
  sub.add_option("--tree-depth", o->tree_depth,
                 "levels of the tree: 1 = the engines' best moves at the root, 2 = also every "
                 "engine after each of them, ...")
      ->check(CLI::Range(1, 8))
      ->capture_default_str();
  sub.add_option("--combine", o->combine, "how engines' scores combine at a leaf: mean or min")
      ->capture_default_str();
  sub.add_option("--jobs", o->jobs, "positions searched in parallel (each with its own engines)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  sub.add_option("--timeout", o->timeout_ms,
                 "ms without a bestmove before an engine counts as hung")
      ->check(CLI::Range(0, 86400000));
  sub.add_flag("--isolate-home", o->isolate_home,
               "give every engine a private temporary OSL_HOME (always done for gpsusi)");
  sub.add_option("--engine-stderr", o->engine_stderr, "append the engines' stderr to this file");
  sub.add_flag("--progress", o->progress,
               "draw the progress bar on stderr even when it is not a terminal");
  sub.footer(
      "Each line: SFEN <TAB> the root move with the best minimax value <TAB> its value (cp, "
      "side to move) <TAB> the engines' own best moves. '#' lines are comments (the settings; "
      "positions where no engine named a move). gpsusi needs --byoyomi (>= 1000) and gets "
      "BookDepth=0; our engine gets USI_OwnBook=false.");
  return [o] {
    if (base::Status s = tools::validate_teach_options(*o); !s)
      return command_failed("learn teach", s.message(), kExitCommandLine);
    if (base::Status s = tools::run_learn_teach(*o, std::cout, std::cerr); !s)
      return command_failed("learn teach", s.message());
    return 0;
  };
}
