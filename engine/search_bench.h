// The search benchmark: fixed positions searched to a fixed depth on one thread.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "base/status.h"
#include "engine/names.h"

namespace engine {

class Engine;

// About a dozen positions: openings, middle games, endgames and mate problems.
const std::vector<std::string>& search_bench_positions();

// Sets each NAME=VALUE option on the engine; the first that cannot be set (not name=value, a
// misspelt name, a value out of range) is the error. Shared by the benchmarks that take
// --option.
Status set_bench_options(Engine& engine, const std::vector<std::string>& options);

struct SearchBenchResult {
  uint64_t nodes = 0;
  double seconds = 0;
  std::string error;  // not empty: an option could not be set, and nothing was searched
  // Not empty: a file the options name (or the shipped one) could not be loaded
  // (Engine::prepare), and nothing was searched.
  std::string load_error;
};

// Searches every position to `depth` on one thread with a 64 MB table, each after a
// new-game reset, and prints one line per position, then "Nodes searched: N" and
// "Nodes/second: R". N is the bench signature: the same in debug, release and sanitizer
// builds. Options are given as name=value pairs (e.g. "FutilityMode=off"); one that cannot be
// set (a misspelt name, a value out of range) is returned as the error, a file that cannot be
// loaded (weights, the mate model) as the load error; then nothing is searched.
SearchBenchResult run_search_bench(std::ostream& out, int depth,
                                   const std::vector<std::string>& options = {});

}  // namespace engine
