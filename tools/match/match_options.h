// The options of `sashite match`: what it is asked to do, and their checks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace tools {

// What `sashite match` is asked to do. Defaults are those of the command line.
struct MatchOptions {
  std::string engine1, engine2;       // command lines, split like a shell (no expansions)
  std::vector<std::string> options1;  // "NAME=VALUE": setoption name NAME value VALUE
  std::vector<std::string> options2;
  // 0: 2 games, or with an SPRT at most kSprtDefaultGames.
  int games = 0;
  // The clock: a time control "BASE[+INC]" in seconds (main time, Fischer increment), a
  // byoyomi, or both (main time then byoyomi; no increment then). Exactly one of a clock,
  // nodes and depth.
  std::string time_control;
  int byoyomi_ms = 0;
  // Time odds: > 0, engine2's byoyomi (engine1's is byoyomi_ms); needs byoyomi_ms.
  int byoyomi2_ms = 0;
  int64_t nodes = 0;
  int depth = 0;
  std::string openings_path;  // "": every game from the start position
  std::string out_dir;        // "": a new directory ./match-YYYYMMDD-HHMMSS
  int jobs = 1;               // games played at the same time
  int max_plies = 256;
  int time_margin_ms = 1000;     // a byoyomi move later than byoyomi + margin loses on time
  int move_timeout_ms = 60000;   // with --nodes or --depth: no bestmove within this is a hang
  int ready_timeout_ms = 30000;  // usiok and readyok
  bool isolate_home = false;     // a private OSL_HOME for every engine (gpsusi always has one)
  bool log = false;              // write each game's USI dialog to gNNN.log
  bool engine_stderr = false;    // keep each game's engine stderr in gNNN.stderr
  // Keep each job's two engine processes from one game to the next (see MatchEngine);
  // false: a new process for every game.
  bool reuse_engines = false;
  // "ELO0,ELO1": stop when the SPRT on game pairs decides (see tools/match/sprt.h); "" for none.
  std::string sprt;
  double sprt_alpha = 0.05, sprt_beta = 0.05;
  // Continue the match in out_dir: the games its summary.tsv lists count and are not played
  // again (see run_match).
  bool resume = false;
};

constexpr int kSprtDefaultGames = 100000;

// The number of games to plan: games, or its default.
int planned_games(const MatchOptions& o);

// "10+0.1" -> 10000 ms main time, 100 ms increment; "600" -> 600000, 0. Seconds, at most
// millisecond precision, BASE + INC > 0.
base::Status parse_time_control(const std::string& text, int64_t& main_time_ms,
                                int64_t& increment_ms);

// The checks the parser cannot make (one clock or --nodes or --depth, K=V forms, the time
// control and SPRT forms).
base::Status validate_match_options(const MatchOptions& o);

}  // namespace tools
