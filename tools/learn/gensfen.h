// `sashite gensfen`: self-play training data at scale, written in the gensfen format.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "base/status.h"

namespace tools {

struct GensfenOptions {
  std::string out_dir;                 // batch files go here (created if missing)
  int depth = 0;                       // search depth per position, or
  uint64_t nodes = 0;                  // nodes per position (exactly one of the two)
  int threads = 1;                     // games played at once, one engine each
  int64_t positions = 0;               // stop after writing this many in this run (0: never)
  std::string openings_path;           // "": the start position
  int random_min = 0, random_max = 0;  // random legal moves after the opening, a count in range
  int min_ply = 16;                    // positions before this game ply are not written
  int max_plies = 256;                 // a game longer is a draw
  int eval_limit = 3000;               // |value| at or beyond this ends the game for that side
  int batch = 10000;                   // positions per file
  int shard = 0;                       // this machine's shard: files gensfen-s<shard>-*.bin
  uint64_t seed = 0;                   // 0: from the clock
  std::vector<std::string> engine_options;  // NAME=VALUE for every engine (EvalFile, ...)
  int hash_mb = 16;
  int dedup_mb = 64;  // the table of position keys already written
  int progress_seconds = 30;
  // Leaves: for each position written, up to `leaves` positions one random move away (any
  // legal move but the one played) and then along the linear evaluation's quiescence PV to a
  // quiet position, as the depth-1 searches that rank a position's moves see them; each
  // searched to the same limit and written to leaves_dir (its own numbered files), with the
  // game's result for its side to move. 0: none.
  int leaves = 0;
  std::string leaves_dir;
};

// Plays games and writes their positions until `positions` are written (or forever): each
// thread its own engine (book off, one search thread), games from a random opening of the
// file and a few random legal moves, each position searched to the limit and the best move
// played, until mate, a declaration, a repetition, the ply limit, or a value beyond
// eval_limit (the side it favours wins). Written: the positions from min_ply on that are not
// in check, not written before in this run (a table of keys), with the search value, move,
// depth and the game's result for the side to move. Files gensfen-s<shard>-<NNNNNN>.bin of
// `batch` records each are written whole as they fill (a kill loses at most the batches
// being filled); numbering continues after the files already in out_dir. Prints progress
// (positions, games, positions per hour) every progress_seconds and at the end. With leaves
// (above), positions and leaves share the table of keys; leaves in check, mated or without a
// search value are not written.
base::Status run_gensfen(const GensfenOptions& options, std::ostream& out);

// An error for options that are missing or do not go together (the command line; run_gensfen
// checks them too).
base::Status validate_gensfen_options(const GensfenOptions& options);

// `--random-plies N` or `MIN,MAX`: sets random_min and random_max (N: both). An error when a
// part is not a number.
base::Status parse_random_plies(const std::string& text, int& min, int& max);

// `sashite gensfen --inspect FILE`: the count, the result balance, and the first `limit`
// records as "sfen <SFEN> value V move M result R depth D", with " teacher T static S" when
// osl_label has labelled it.
base::Status inspect_gensfen(const std::string& path, int limit, std::ostream& out);

}  // namespace tools
