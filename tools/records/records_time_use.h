// `sashite records time-use`: how long the moves of CSA records took, by ply, and how close
// each side came to its time limit.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "base/status.h"
#include "shogi/csa_record.h"

namespace tools {

struct TimeUseOptions {
  std::vector<std::string> paths;  // files, or directories searched recursively for *.csa
  int bucket = 10;                 // plies per line of the table
  std::string player;              // "": every move; else only the side whose N+/N- name holds it
  // The clock the games were played under ("300+10", "600" with byoyomi_ms): each side's
  // least time left before a move is reported. "": times only.
  std::string time_control;
  int64_t byoyomi_ms = 0;
};

// What the records say about time.
struct TimeUse {
  struct Bucket {
    int first_ply = 0;  // 1-based, as the record counts moves
    int64_t moves = 0;
    int64_t total_ms = 0, max_ms = 0;
  };
  int games = 0;
  int time_losses = 0;           // games that ended %TIME_UP
  std::vector<Bucket> buckets;   // by ply, every `bucket` plies
  std::vector<int64_t> game_ms;  // per game and side counted: the whole time used
  // With a clock: the closest call, the least time a counted move left to spare (the time
  // available for it, less what it took), and where.
  bool clocked = false;
  int64_t least_spare_ms = 0;
  std::string least_spare_where;  // "FILE ply N"
};

// Adds one record's counted moves (those without a time are skipped) to `use`.
// `black`/`white`: which sides count. `main_ms`, `inc_ms`, `byoyomi_ms`: the clock, replayed
// as the match and floodgate keep it (the increment credited before each move), when
// use.clocked.
void add_time_use(const shogi::CsaRecord& record, const std::string& name, int bucket, bool black,
                  bool white, int64_t main_ms, int64_t inc_ms, int64_t byoyomi_ms, TimeUse& use);

// "plies  moves  mean_s  max_s" lines, the total per game, the time losses and, with a clock,
// the closest call.
std::string format_time_use(const TimeUse& use, int bucket);

// Whether the options can run: --bucket at least 1, --tc as sashite match reads it.
base::Status validate_time_use_options(const TimeUseOptions& options);

// Reads every record and prints format_time_use; a record that cannot be read, or a directory
// without records, is one line naming it (and the exit code is 1).
// REQUIRES: validate_time_use_options(options) is ok.
int run_records_time_use(const TimeUseOptions& options, std::ostream& out);

}  // namespace tools
