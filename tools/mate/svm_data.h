// The mate-prediction dataset: positions from the ends of game records, from a shallow
// random line below them and from where a search below them calls the mate solver, each
// labelled mate / nomate by a mate solver at a fixed node budget.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "shogi/position.h"

namespace tools {

enum class MateLabel { kMate, kNoMate, kUnknown };

// A mate solver seen from outside: is there a mate for the side to move (the attacker, who
// must give check with every move) within `nodes` nodes? kUnknown when the budget runs out
// or the solver cannot take the position. Called from one thread.
using MateLabeller = std::function<MateLabel(const shogi::Position&, uint64_t nodes)>;

// The labellers this build has, by name: "osl" (OpenShogiLib's df-pn; only in builds made
// with -DSASHITE_WITH_OSL and -losl), "dfpn" (our engine/mate/solver.h, built in whenever
// that header is in the tree; the default then).
// Returns an empty function and an error naming the choices when `name` is not built in.
MateLabeller find_mate_labeller(std::string_view name, base::Status& status);
// The names find_mate_labeller accepts in this build, comma-separated; the first is the
// default of `sashite svm data`.
std::string mate_labeller_names();

struct SvmDataOptions {
  std::string records_dir;  // CSA files under it, recursively (sorted by path)
  // The solver's node budget per position. Default: 1,000,000 (data/mate/README.md says why)
  uint64_t nodes = 1000000;
  int positions_per_game = 10;  // the last N positions of each record (the final one included)
  int max_search_plies = 3;     // the random shallow line: 1..max plies of legal moves
  uint64_t seed = 1;
  int max_games = 0;          // 0: every record
  int skip_games = 0;         // start after the first N records (to resume a run)
  double slow_seconds = 5.0;  // log positions whose labelling takes longer
  // The positions the playing engine's mate calls see: from each record position a search of
  // insearch_nodes nodes (one thread, MateSearch on, no book), and insearch_samples of the
  // positions where it called the mate solver, drawn at random. 0: none (Default).
  uint64_t insearch_nodes = 0;
  int insearch_samples = 2;
  // Searched from as well: every Nth position of the whole record (plies N, 2N, ...), not
  // only its last positions_per_game, since the engine calls the solver in every phase of a
  // game. 0: the last positions only (Default).
  int insearch_every = 0;
  // Write the positions only, one SFEN per line, unlabelled (no solver runs): the input of
  // `sashite mate --compare`, which needs the hard positions the labelling would drop.
  bool sfen_only = false;
};

struct SvmDataStats {
  int records = 0;
  int records_unreadable = 0;
  int record_positions = 0;    // labelled positions from the records themselves
  int search_positions = 0;    // labelled positions from the random shallow lines
  int insearch_positions = 0;  // labelled positions from the mate calls of searches
  int duplicates = 0;          // positions seen before (same key), skipped
  int mate = 0;
  int nomate = 0;
  int unknown = 0;  // dropped: the solver could not decide within the budget
};

// One row of the dataset file.
struct SvmExample {
  bool mate = false;
  std::string source;  // "record", "search" or "insearch"
  std::string sfen;
};

// The dataset file: comment lines start with '#'; each other line is
//   LABEL<TAB>SOURCE<TAB>SFEN
// with LABEL "mate" or "nomate" and SOURCE "record", "search" or "insearch". The features are
// not stored: they are recomputed from the SFEN when training (cheap), so the file stays valid
// when the feature set changes.
//
// Builds the dataset: for each record, its last positions_per_game positions, and from each of
// them one node at the end of a random line of 1..max_search_plies legal moves (the document's
// "random node of a shallow search"), and with options.insearch_nodes the sampled mate-call
// positions of a search from each; each labelled by `label` at options.nodes. Unknown
// results are dropped and counted. Progress goes to `log` when not null. With
// options.sfen_only the lines are bare SFENs and `label` is not called (it may be empty).
base::Status make_svm_data(const SvmDataOptions& options, const MateLabeller& label,
                           std::ostream& out, SvmDataStats& stats, std::ostream* log);

// Reads a dataset file. Errors read "PATH:LINE: message".
base::Status read_svm_data(const std::string& path, std::vector<SvmExample>& out);
base::Status parse_svm_data(std::string_view text, std::string_view name,
                            std::vector<SvmExample>& out);

}  // namespace tools
