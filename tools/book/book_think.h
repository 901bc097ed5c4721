// `sashite book think`: scores the moves of book positions by the multi-program search of
// docs/techniques.md §2 (see book_think_tree.h) and writes them to a new book directory.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "base/status.h"
#include "tools/book/book_think_tree.h"
#include "usi/usi_engine_process.h"

namespace tools {

// What `sashite book think` is asked to do. Defaults are those of the command line.
struct BookThinkOptions {
  // Engine command lines (split like a shell). Default (empty): this program's directory's
  // `sashite usi`.
  std::vector<std::string> engines;
  // "I:NAME=VALUE": setoption name NAME value VALUE for engine I (0-based), in order.
  std::vector<std::string> engine_options;
  int depth = 0;                 // "go depth D"; when neither depth nor movetime is given: 8
  int movetime_ms = 0;           // "go movetime MS"
  int tree_depth = 2;            // levels of the tree: 2 = the root and one reply level
  std::string combine = "mean";  // LeafCombine: "mean" or "min"
  // Inputs (at least one): a book's positions (with at least min_count moves' counts), a
  // file of SFENs.
  std::string book_dir;
  uint32_t min_count = 0;
  std::string sfens_path;
  // CSA records (files or directories) and the last ply whose positions are taken (0: all);
  // min_count applies to how often a position occurs in them.
  std::vector<std::string> record_paths;
  int records_max_ply = 30;
  std::string out_dir;        // the book the scored entries go to (created; resumed)
  std::string shard = "0/1";  // "I/N": this run's part of the work (see ThinkShard)
  int jobs = 1;               // positions thought about at once, each with its own engines
  int batch = 4;              // positions per WriteBatch (also written every 30 s)
  int64_t limit = 0;          // stop after this many positions this run (0: all)
  int timeout_ms = 0;         // per search (ThinkSearchLimits::timeout_ms)
  int ready_timeout_ms = 30000;
  bool progress = false;      // draw the progress bar even when stderr is not a terminal
  bool isolate_home = false;  // a private OSL_HOME for every engine (gpsusi always gets one)
  std::string engine_stderr;  // a file for the engines' stderr ("": discarded)
};

// The checks the parser cannot make: an input, --out, one of depth and movetime, the shard,
// the combine rule, the engine options' form and engine numbers, no gpsusi with a depth.
base::Status validate_book_think_options(const BookThinkOptions& o);

// Parses the engine list and the "I:NAME=VALUE" options. Errors name the bad option.
// gpsusi gets BookDepth=0 first (its own book off) unless an option sets BookDepth; our
// own engine (a program named sashite) gets USI_OwnBook=false the same way.
base::Status make_think_engine_configs(const BookThinkOptions& o,
                                       std::vector<usi::EngineConfig>& configs);

// The command of this program's own engine: "<directory of /proc/self/exe>/sashite usi"
// (quoted for base::split_command_line).
std::string default_think_engine_command();

// Runs book think: reads the work, skips what `out_dir` already holds, thinks about the rest
// with `jobs` threads, writes entries {moves with value, depth, sources = kSourceThink,
// count 0} in WriteBatches of `batch` positions. A kill loses at most the positions not yet
// written; a rerun with the same options carries on. Reports on `out` (one line per batch
// written, "batch: ..."; a summary at the end) and draws the progress bar on `err`.
// An engine fault loses only the position: the engines are restarted and the position is
// left for the next run; after 3 faults in a row the run stops with an error.
base::Status run_book_think(const BookThinkOptions& o, std::ostream& out, std::ostream& err);

}  // namespace tools
