// sashite match: games between two USI engines (see tools/match/match_runner.h).
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>

#include "app/command_error.h"
#include "app/commands.h"
#include "tools/match/match_options.h"
#include "tools/match/match_runner.h"

// The exit code: 0 when every game was played, 1 when the match had to stop (an engine cannot
// be run), 2 for bad options.
CommandRun add_match_options(CLI::App& sub) {
  auto options = std::make_shared<tools::MatchOptions>();
  tools::MatchOptions& o = *options;
  sub.add_option("--engine1", o.engine1, "first engine's command line (may hold arguments)")
      ->required();
  sub.add_option("--engine2", o.engine2, "second engine's command line")->required();
  sub.add_option("--opt1", o.options1, "USI option NAME=VALUE for engine1 (repeatable)");
  sub.add_option("--opt2", o.options2, "USI option NAME=VALUE for engine2 (repeatable)");
  sub.add_option("--games", o.games,
                 "number of games; colours alternate (default 2; with --sprt the most to play, "
                 "default " +
                     std::to_string(tools::kSprtDefaultGames) + ")")
      ->check(CLI::Range(1, 1000000));
  CLI::Option* tc = sub.add_option(
      "--tc", o.time_control,
      "time control BASE[+INC] in seconds: main time and a Fischer increment credited before "
      "every move (10+0.1, 300+10); with --byoyomi, main time then byoyomi (600 --byoyomi 10000)");
  CLI::Option* byoyomi =
      sub.add_option("--byoyomi", o.byoyomi_ms, "byoyomi per move in ms (go byoyomi)")
          ->check(CLI::Range(1, 86400000));
  sub.add_option("--byoyomi2", o.byoyomi2_ms,
                 "time odds: engine2's byoyomi per move in ms (--byoyomi is then engine1's)")
      ->check(CLI::Range(1, 86400000))
      ->needs(byoyomi);
  CLI::Option* nodes = sub.add_option("--nodes", o.nodes, "nodes per move (go nodes)")
                           ->check(CLI::Range(int64_t(1), int64_t(1) << 50));
  CLI::Option* depth =
      sub.add_option("--depth", o.depth, "depth per move (go depth)")->check(CLI::Range(1, 200));
  byoyomi->excludes(nodes);
  byoyomi->excludes(depth);
  tc->excludes(nodes);
  tc->excludes(depth);
  nodes->excludes(depth);
  sub.add_option("--sprt", o.sprt,
                 "ELO0,ELO1: a sequential probability ratio test on game pairs (pentanomial, "
                 "logistic Elo, as fishtest): stop as soon as it accepts H0 (elo = ELO0) or H1 "
                 "(elo = ELO1)");
  sub.add_option("--alpha", o.sprt_alpha, "with --sprt: the false-positive rate")
      ->check(CLI::Range(1e-6, 0.5))
      ->capture_default_str();
  sub.add_option("--beta", o.sprt_beta, "with --sprt: the false-negative rate")
      ->check(CLI::Range(1e-6, 0.5))
      ->capture_default_str();
  sub.add_option("--openings", o.openings_path,
                 "file of openings, one per line (SFEN, startpos moves ..., or USI moves); "
                 "each is played twice with colours swapped");
  sub.add_option("--out", o.out_dir, "directory for the records (default: ./match-DATE-TIME)");
  sub.add_option("--jobs", o.jobs, "games played in parallel")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  sub.add_option("--max-plies", o.max_plies, "draw after this many plies")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  sub.add_option("--margin", o.time_margin_ms,
                 "ms allowed beyond the time available (main time left, increment, byoyomi) "
                 "before a time loss")
      ->check(CLI::Range(0, 86400000))
      ->capture_default_str();
  sub.add_option("--move-timeout", o.move_timeout_ms,
                 "with --nodes or --depth: ms without a bestmove before the engine loses as hung")
      ->check(CLI::Range(1, 86400000))
      ->capture_default_str();
  sub.add_option("--ready-timeout", o.ready_timeout_ms, "ms to wait for usiok and readyok")
      ->check(CLI::Range(1, 86400000))
      ->capture_default_str();
  sub.add_flag("--isolate-home", o.isolate_home,
               "give every engine a private temporary OSL_HOME (always done for gpsusi)");
  sub.add_flag("--log", o.log, "write each game's USI dialog to gNNN.log in the output directory");
  sub.add_flag("--engine-stderr", o.engine_stderr,
               "keep the engines' stderr in gNNN.stderr (default: discarded; with "
               "--reuse-engines a process's stderr goes to the file of its first game)");
  sub.add_flag("--resume", o.resume,
               "continue the match in --out DIR (the same options): the games its summary.tsv "
               "lists are counted, score and SPRT included, and only the others are played");
  sub.add_flag("--reuse-engines", o.reuse_engines,
               "keep each job's two engine processes from one game to the next: isready and "
               "usinewgame before each game, gameover win|lose|draw after it, as GUIs do, so "
               "engines keep their state over the session; an engine is restarted only after "
               "it crashed, hung, lost on time or played an illegal move, or when it fails the "
               "next isready (default: a new process for every game)");
  sub.footer(
      "With --sprt, each finished pair (the two games of an opening) prints the LLR with its "
      "bounds, the pentanomial counts and the Elo estimate from the pairs; summary.tsv gets "
      "the test's state when each game finished (pairs, llr, llr_lower, llr_upper, elo, "
      "elo_lower, elo_upper). Games already under way when the test decides are finished and "
      "counted.\n"
      "Records: gNNNN.csa (CSA V3.0, move times in ms) and summary.tsv in the output directory. "
      "Each move made "
      "after a search report gets a floodgate-style comment\n"
      "  '** <score> depth <d> nodes <n>\n"
      "from the engine's last 'info' line with a depth (multipv 1) before its bestmove; "
      "nodes is the largest count of any info line. The score is from Black's point of view: "
      "centipawns ('30', '-120'), or a mate as '+M5' (Black mates in 5 plies), '-M4' (White "
      "mates in 4), '+M'/'-M' without a distance; '?' when the engine gave a depth but no "
      "score.\n"
      "At the end the match prints, for each engine, the average depth (over the moves with a "
      "depth) and nodes (over the moves with a node count) per move, its time losses and "
      "(with --reuse-engines) its restarts; summary.tsv has each side's average depth per "
      "game.");
  return [options] {
    if (base::Status s = tools::validate_match_options(*options); !s)
      return command_failed("match", s.message(), kExitCommandLine);
    if (base::Status s = tools::run_match(*options, std::cout); !s)
      return command_failed("match", s.message());
    return 0;
  };
}
