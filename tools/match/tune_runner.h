// `sashite tune`: SPSA over an engine's USI options, game pairs played by the match machinery.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "base/status.h"
#include "tools/match/spsa.h"

namespace tools {

struct TuneOptions {
  std::string engine;                // the engine's command line
  std::vector<std::string> options;  // NAME=VALUE set on both sides before the parameters
  std::string params_path;           // the parameters to tune (see SpsaParam)
  std::string state_path;            // "": params_path + ".state"
  std::string out_path;              // "": params_path + ".tuned"
  int iterations = 0;                // game pairs; 0: those of the state being resumed
  // The limits of every game, as sashite match takes them: exactly one of a clock, nodes.
  std::string time_control;
  int byoyomi_ms = 0;
  int64_t nodes = 0;
  std::string openings_path;  // required: each pair plays one opening, drawn at random
  int jobs = 1;
  uint64_t seed = 1;
  int max_plies = 256;
  int time_margin_ms = 1000;
  int move_timeout_ms = 60000;
  int ready_timeout_ms = 30000;
  int report_every = 10;  // a progress line with theta every this many pairs
};

// The parameters of our own engine's search and time manager (engine/search_params.h) in the
// tuning file's form, from their declarations.
std::vector<SpsaParam> engine_search_params();

// `sashite tune --write-defaults FILE`: engine_search_params() with their defaults, in the form
// run_tune reads (replacing `path`), then "tune: wrote N parameters to FILE" on `out`.
base::Status write_spsa_defaults(const std::string& path, std::ostream& out);

// An error for options that are missing or do not go together (the command line; run_tune
// checks them too).
base::Status validate_tune_options(const TuneOptions& options);

// Runs the tuning: reads the parameters, resumes the state when its file exists (the same
// parameters, in the same order), plays the remaining pairs (options.jobs at a time; each
// pair's perturbation and opening drawn from the seed and its iteration number, so a resumed
// run draws what an uninterrupted one would), applies each pair's result as it finishes, and
// after every pair rewrites the state and the tuned parameter file (each through
// base::replace_file: a kill -9 loses at most the pairs under way). Prints a line per
// finished pair and, every report_every pairs and at the end, theta. Errors (bad options or
// files, an engine that cannot be run) are returned; what was finished is kept.
base::Status run_tune(const TuneOptions& options, std::ostream& out);

}  // namespace tools
