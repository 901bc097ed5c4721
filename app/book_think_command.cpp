// sashite book think / book merge: the command lines of tools/book/book_think.h and book_merge.h.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "app/command_error.h"
#include "app/commands.h"
#include "tools/book/book_merge.h"
#include "tools/book/book_think.h"

CommandRun add_book_think_options(CLI::App& sub) {
  auto o = std::make_shared<tools::BookThinkOptions>();
  sub.add_option("--engine", o->engines,
                 "an engine's command line (repeatable; engines are numbered from 0; "
                 "default: this program's own `sashite usi`)");
  sub.add_option("--option", o->engine_options,
                 "I:NAME=VALUE: setoption for engine I (repeatable), e.g. 0:Threads=1 or "
                 "1:UCI_Variant=shogi");
  CLI::Option* depth = sub.add_option("--depth", o->depth, "every search: go depth D (default: 8)")
                           ->check(CLI::Range(1, 1000));
  CLI::Option* movetime =
      sub.add_option("--movetime", o->movetime_ms, "every search: go movetime MS instead")
          ->check(CLI::Range(1, 86400000));
  depth->excludes(movetime);
  sub.add_option("--tree-depth", o->tree_depth,
                 "levels of the tree: 1 = the engines' best moves at the root with their own "
                 "scores, 2 = also every engine on each of them, ...")
      ->check(CLI::Range(1, 8))
      ->capture_default_str();
  sub.add_option("--combine", o->combine,
                 "how engines' scores combine at a leaf: mean (a reported mate is taken, not "
                 "averaged) or min (the most pessimistic for the side to move)")
      ->capture_default_str();
  sub.add_option("--book", o->book_dir, "think about the positions of this book");
  sub.add_option(
      "--min-count", o->min_count,
      "with --book or --records: only positions whose moves' counts add up to at least N");
  sub.add_option("--sfens", o->sfens_path,
                 "think about the positions of this file (an SFEN a line)");
  sub.add_option("--records", o->record_paths,
                 "think about the positions of these CSA records (files or directories)");
  sub.add_option("--records-max-ply", o->records_max_ply,
                 "with --records: positions up to this ply (0: all)")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  sub.add_option("--out", o->out_dir,
                 "the book directory the scored positions go to (created; a rerun resumes)")
      ->required();
  sub.add_option("--shard", o->shard, "I/N: only the I-th of N deterministic parts of the work")
      ->capture_default_str();
  sub.add_option("--jobs", o->jobs,
                 "positions thought about in parallel (each with its own engines)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  sub.add_option("--batch", o->batch, "positions per write (also written every 30 s)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  sub.add_option("--limit", o->limit, "stop after this many positions (0: all)")
      ->check(CLI::Range(int64_t(0), int64_t(1) << 40));
  sub.add_option("--timeout", o->timeout_ms,
                 "ms without a bestmove before an engine counts as hung (default: 600000 "
                 "with --depth, 2 * movetime + 60000 with --movetime)")
      ->check(CLI::Range(0, 86400000));
  sub.add_option("--ready-timeout", o->ready_timeout_ms, "ms to wait for usiok and readyok")
      ->check(CLI::Range(1, 86400000))
      ->capture_default_str();
  sub.add_flag("--progress", o->progress,
               "draw the progress bar on stderr even when it is not a terminal");
  sub.add_flag("--isolate-home", o->isolate_home,
               "give every engine a private temporary OSL_HOME (always done for gpsusi)");
  sub.add_option("--engine-stderr", o->engine_stderr, "append the engines' stderr to this file");
  sub.footer(
      "Each position's moves get value (centipawns, side to move) and depth (search depth + "
      "tree depth - 1) with source think and count 0. Merge the output into a book with "
      "`sashite book merge`.\n"
      "Engines: turn their own opening books off. gpsusi knows neither go depth nor go "
      "movetime: use --movetime (>= 1000; it gets go byoyomi) and it gets BookDepth=0 unless "
      "an --option sets it; fairy-stockfish needs --option I:UCI_Variant=shogi.");
  return [o] {
    if (base::Status s = tools::validate_book_think_options(*o); !s)
      return command_failed("book think", s.message(), kExitCommandLine);
    if (base::Status s = tools::run_book_think(*o, std::cout, std::cerr); !s)
      return command_failed("book think", s.message());
    return 0;
  };
}

CommandRun add_book_merge_options(CLI::App& sub) {
  struct MergeArgs {
    std::string out_dir;
    std::vector<std::string> inputs;
  };
  auto a = std::make_shared<MergeArgs>();
  sub.add_option("--out", a->out_dir, "the book to write (created, or merged into)")->required();
  sub.add_option("inputs", a->inputs, "the books to merge in, in order")->required();
  sub.footer(
      "Per position: counts, wins and losses add up, the deeper value wins (equal depths: the "
      "later input's), sources are or-ed.");
  return [a] {
    tools::BookMergeStats stats;
    if (base::Status s = tools::merge_books(a->inputs, a->out_dir, stats); !s)
      return command_failed("book merge", s.message());
    std::cout << "book merge: " << stats.entries_read << " entries read from " << a->inputs.size()
              << " books, " << stats.entries_merged
              << " merged with a position already there, into " << a->out_dir << "\n";
    return 0;
  };
}
