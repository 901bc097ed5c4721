// `sashite learn teach`: teacher moves for learning, chosen by the multi-program search of
// docs/techniques.md §2 (the tree of `sashite book think`, tools/book/book_think_tree.h), written
// as a resumable text file the trainer reads.
//
// The output file, UTF-8 text, one position a line:
//   # sashite learn teach: go movetime 1000; tree-depth 2; combine mean; engine 0: ...
//   # columns: sfen <TAB> move <TAB> value_cp <TAB> the engines' best moves at the root
//   <SFEN>\t<USI move>\t<value cp>\t<engine 0's move> <engine 1's move> ...
//   # no move\t<SFEN>\t<the engines' words>      (no engine named a legal move: resign, win)
// The move is the root move with the highest minimax value; the value is from the side to
// move's point of view (mates: +-(32000 - plies), tools::kThinkMateValue). The trainer reads
// the first two fields of each line that does not start with '#'.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <unordered_set>
#include <vector>

#include "base/status.h"
#include "tools/book/book_think_tree.h"
#include "tools/book/book_think_work.h"

namespace tools {

// What `sashite learn teach` is asked to do. Defaults are those of the command line.
struct TeachOptions {
  // Engine command lines; default (empty): this program's own `sashite usi`.
  std::vector<std::string> engines;
  std::vector<std::string> engine_options;  // "I:NAME=VALUE", as book think takes them
  // Inputs (exactly one): a file of SFENs, or CSA records (a directory or a file).
  std::string sfens_path;
  std::string records_dir;
  int positions_per_game = 4;  // with records: positions taken per game, evenly spaced
  int min_ply = 20;            // with records: positions from this ply on
  int64_t max_positions = 0;   // stop after this many positions in all (0: every one)
  std::string out_path;
  bool resume = false;  // carry on an existing --out (skip the positions it has)
  int byoyomi_ms = 0;   // every search: go movetime MS (gpsusi: go byoyomi MS)
  int depth = 0;        // every search: go depth D; neither given: depth 8
  int tree_depth = 2;
  std::string combine = "mean";
  int jobs = 1;  // positions searched at once, each job with its own engine processes
  int timeout_ms = 0;
  int ready_timeout_ms = 30000;
  bool isolate_home = false;
  std::string engine_stderr;
  bool progress = false;
};

// The checks the command line cannot make: one input, --out, byoyomi or depth, gpsusi with
// a byoyomi, the combine rule, the engine options.
base::Status validate_teach_options(const TeachOptions& o);

// The positions of the records under `path`: per game, `per_game` positions evenly spaced
// over the plies [min_ply, moves) (positions from which the record played a move), in file
// order. Unreadable records are skipped with a line on `err` naming the file and line, and
// counted in `unreadable`. Errors only when the path does not exist.
base::Status pick_teach_positions(const std::string& path, int per_game, int min_ply,
                                  std::vector<ThinkWork>& out, std::ostream& err, int& unreadable);

// Reads an earlier output: the keys of the positions it has (lines with a move and "# no
// move" lines) and its settings line ("" when none). A final line without its newline (a
// killed run) is cut off the file. A missing file holds nothing.
base::Status read_teach_file(const std::string& path, std::unordered_set<uint64_t>& keys,
                             std::string& settings);

// One output line (with its newline) for a searched root: the best-valued root move, or a
// "# no move" line when none has a value.
std::string format_teach_line(const std::string& sfen, const ThinkNode& root,
                              const ThinkValuation& how);

// Runs `sashite learn teach`: the work (duplicates dropped, and what --out has with
// --resume), then `jobs` threads each with its own engines, appending one line per position
// as soon as it is done (flushed). An engine fault loses the position (left for a rerun);
// 3 in a row stop the run. Summary on `out`, progress and faults on `err`.
base::Status run_learn_teach(const TeachOptions& o, std::ostream& out, std::ostream& err);

}  // namespace tools
