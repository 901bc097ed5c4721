// sashite gensfen --out DIR (--depth D | --nodes N) [--threads T] [--positions N] ...: self-play
// positions with search values and results; --inspect FILE reads a file back.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "app/command_error.h"
#include "app/commands.h"
#include "tools/learn/gensfen.h"

namespace {

struct GensfenCommandOptions {
  tools::GensfenOptions run;
  std::string inspect;
  int limit = 5;
  std::string random_plies = "0,0";
};

int run_gensfen_command(GensfenCommandOptions& o) {
  if (!o.inspect.empty()) {
    if (base::Status s = tools::inspect_gensfen(o.inspect, o.limit, std::cout); !s)
      return command_failed("gensfen", s.message());
    return 0;
  }
  if (base::Status s =
          tools::parse_random_plies(o.random_plies, o.run.random_min, o.run.random_max);
      !s)
    return command_failed("gensfen", s.message(), kExitCommandLine);
  if (base::Status s = tools::validate_gensfen_options(o.run); !s)
    return command_failed("gensfen", s.message(), kExitCommandLine);
  if (base::Status s = tools::run_gensfen(o.run, std::cout); !s)
    return command_failed("gensfen", s.message());
  return 0;
}

}  // namespace

CommandRun add_gensfen_options(CLI::App& sub) {
  auto o = std::make_shared<GensfenCommandOptions>();
  tools::GensfenOptions& r = o->run;
  sub.add_option("--inspect", o->inspect,
                 "read a gensfen file back: its count, results, first records");
  sub.add_option("--limit", o->limit, "with --inspect: records to print")->capture_default_str();
  sub.add_option("--out", r.out_dir, "directory for the batch files gensfen-s<SHARD>-<N>.bin");
  sub.add_option("--depth", r.depth, "search depth per position")->check(CLI::Range(1, 60));
  sub.add_option("--nodes", r.nodes, "nodes per position");
  sub.add_option("--threads", r.threads, "games at once, one engine each")
      ->check(CLI::Range(1, 512))
      ->capture_default_str();
  sub.add_option("--positions", r.positions,
                 "stop after writing this many (default: run until killed)");
  sub.add_option("--openings", r.openings_path,
                 "openings file, as sashite match reads them (data/openings/taya36.sfen)");
  sub.add_option("--random-plies", o->random_plies,
                 "random legal moves after the opening: N, or MIN,MAX for a count drawn in range")
      ->capture_default_str();
  sub.add_option("--min-ply", r.min_ply, "write positions from this game ply on")
      ->capture_default_str();
  sub.add_option("--max-plies", r.max_plies, "a game longer than this is a draw")
      ->capture_default_str();
  sub.add_option("--eval-limit", r.eval_limit,
                 "a value this large ends the game for the side it favours")
      ->capture_default_str();
  sub.add_option("--batch", r.batch, "positions per file")
      ->check(CLI::Range(1, 100000000))
      ->capture_default_str();
  sub.add_option("--shard", r.shard, "this machine's shard number (file names; seeds)")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  sub.add_option("--seed", r.seed, "random seed (default: from the clock)");
  sub.add_option("--option", r.engine_options,
                 "engine option NAME=VALUE (EvalFile=..., repeatable)");
  sub.add_option("--hash", r.hash_mb, "transposition table per engine, MB")->capture_default_str();
  sub.add_option("--dedup-mb", r.dedup_mb, "memory for the keys of positions already written")
      ->capture_default_str();
  sub.add_option("--leaves", r.leaves,
                 "for each position written, up to N leaves (a random other move and the "
                 "quiescence PV after it, searched like the positions) into --leaves-out")
      ->check(CLI::Range(0, 64));
  sub.add_option("--leaves-out", r.leaves_dir, "directory for the leaves' batch files");
  sub.add_option("--progress", r.progress_seconds, "seconds between progress lines")
      ->capture_default_str();
  sub.footer(
      "Each file is written whole (a temporary file renamed into place) once it holds --batch "
      "positions: a killed run loses at most the batches being filled, and the next run "
      "numbers its files after the ones already there. The format is documented in "
      "tools/learn/gensfen_format.h.");
  return [o] { return run_gensfen_command(*o); };
}
