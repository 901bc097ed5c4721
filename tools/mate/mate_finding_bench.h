// How soon the main search proves the mates of a problem file (`sashite bench --mate-file`):
// the depth, nodes and time at which its score first shows a mate, with or without the mate
// solver's calls inside the search (MateSearch), at equal nodes.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace tools {

struct MateFindingOptions {
  std::string path;                  // one SFEN a line (read_mate_problems)
  uint64_t nodes = 1000000;          // the search's node limit per problem
  std::vector<std::string> options;  // NAME=VALUE engine options
};

struct MateFindingTotals {
  int problems = 0, proven = 0, errors = 0;
  uint64_t nodes = 0;          // all nodes searched (mate solver nodes included)
  uint64_t nodes_to_mate = 0;  // summed over the proven problems: nodes at the first mate score
  double seconds_to_mate = 0;  // the same in seconds
  uint64_t mate_calls = 0, mate_nodes = 0;  // the mate solver's calls inside the search
  // Not empty: an option could not be set (a misspelt name, a value out of range); nothing
  // was searched.
  std::string option_error;
  // Not empty: the file could not be read, or a file the options name (weights, the mate
  // model) could not be loaded; nothing was searched.
  std::string error;
};

// Searches every problem of the file on one thread (64 MB table, a new game each), to the
// node limit or until the search stops on its proven mate. One line a problem:
// "line L: mate N plies depth D nodes X ms T (searched Y, mate calls C with M nodes)" at the
// first report whose score is a mate for the side to move, else "line L: none (score S depth
// D, searched ...)"; then "Mates proven: P of N", "Nodes to the mates: X", "Seconds to the
// mates: T", "Mate calls: C with M nodes" and "Nodes searched: Y". A bad SFEN is reported on its
// line and counted as an error.
MateFindingTotals run_mate_finding_bench(const MateFindingOptions& options, std::ostream& out);

}  // namespace tools
