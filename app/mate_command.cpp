// sashite mate: the command line of tools/mate/mate_command.h.
#include "tools/mate/mate_command.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "app/command_error.h"
#include "app/commands.h"

CommandRun add_mate_options(CLI::App& sub) {
  auto o = std::make_shared<tools::MateCommandOptions>();
  sub.add_option("--algo", o->algo, "pds or dfpn (default: pds)")
      ->check(CLI::IsMember({"pds", "dfpn"}));
  sub.add_option("--nodes", o->nodes,
                 "node limit per position (default: 1000000); a search "
                 "stopped by it answers unknown");
  sub.add_option("--svm", o->svm,
                 "mate-prediction model file for --control (default: the shipped "
                 "data/mate/svm.model)");
  sub.add_option("--control", o->control,
                 "SVM application: none; limit (the node limit scaled by the sigmoid of the "
                 "prediction, normalised by its running mean); init (initial proof and "
                 "disproof numbers, a = 5); threshold (PDS's threshold increments, a = 7; "
                 "PDS only) (default: none)")
      ->check(CLI::IsMember({"none", "limit", "init", "threshold"}));
  sub.add_option("--a", o->a, "the control's a (default: init 5, threshold 7)")
      ->check(CLI::Range(1, 1000));
  sub.add_option("--multiplier", o->multiplier,
                 "--control limit: total effort relative to --nodes (default: 1)")
      ->check(CLI::Range(0.01, 100.0));
  sub.add_option("--compare", o->compare,
                 "solve every position under each control of the comma-separated list "
                 "(e.g. none,init,threshold) and print the comparison tables (totals, "
                 "positions no run left unknown, answers); a fresh table per solve");
  sub.add_option("--details", o->details,
                 "with --compare: write line, then status nodes ms per control, as TSV");
  sub.add_option("--table-mb", o->table_mb,
                 "mate table size in MiB, one table reused by every position (default: 1024)")
      ->check(CLI::Range(1, 65536));
  sub.add_option("--time-ms", o->time_ms, "time limit per position in ms (default: none)");
  sub.add_option("--max-ply", o->max_ply, "longest path searched (default: 4000)")
      ->check(CLI::Range(1, 10000));
  sub.add_flag("--shortest", o->shortest,
               "after the first mate, search for shorter ones; each mate line is followed by "
               "'# N plies, proven shortest' (or why not proven)");
  sub.add_option("--epsilon", o->epsilon, "df-pn 1+epsilon trick (default: 0.25; 0 = plain df-pn)");
  return [o] {
    if (const base::Status s = tools::validate_mate_options(*o); !s)
      return command_failed("mate", s.message(), kExitCommandLine);
    bool every_problem_read = true;
    if (const base::Status s =
            tools::run_mate_command(*o, std::cin, std::cout, std::cerr, every_problem_read);
        !s)
      return command_failed("mate", s.message());
    return every_problem_read ? 0 : kExitFailed;
  };
}
