// MatchRunner: the games of a match, scheduled over worker threads, with the running score,
// the records, the summary table and the Elo estimate.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "base/status.h"
#include "tools/match/match_game.h"
#include "tools/match/match_options.h"
#include "tools/match/sprt.h"

namespace tools {

// A match score from engine1's point of view.
struct MatchScore {
  int wins = 0, losses = 0, draws = 0;
  int games() const { return wins + losses + draws; }
  // Adds a game where engine1 had `engine1_color`.
  void add(GameWinner winner, shogi::Color engine1_color);
};

// One line of summary.tsv.
struct MatchGameRow {
  int number = 0;
  std::string black, white, result, reason;  // result: "1-0", "0-1", "1/2-1/2"
  int plies = 0;
  // Each side's average search depth per move in the game; empty when it reported none.
  std::optional<double> black_depth, white_depth;
  // With an SPRT: the test's state when this game finished.
  struct Sprt {
    int64_t pairs = 0;
    SprtState state;
    EloEstimate elo;  // from the pairs
  };
  std::optional<Sprt> sprt;
};

// What one engine did over a match.
struct MatchEngineStats {
  SearchStats search;
  int time_losses = 0;
  int restarts = 0;  // processes replaced with --reuse-engines (see MatchEngine::restarted)
};

// "engine1 search: 40 moves, depth 9.35 avg (40 moves), nodes 81234 avg (40 moves), time
// losses 0" and, when `with_restarts`, ", restarts 0"; "-" for an average without moves.
// "think time: engine1 T1 ms (A1 ms/move), engine2 T2 ms (A2 ms/move), ratio per move R":
// wall time from go to bestmove as the match saw it (engine start-up excluded).
std::string format_think_time(const SearchStats& engine1, const SearchStats& engine2);
std::string format_engine_stats(const std::string& label, const MatchEngineStats& stats,
                                bool with_restarts);

// The games of a match, in order: game i (0-based) uses opening (i / 2) mod the number of
// openings (the start position when there are none) and gives engine1 Black when i is even,
// so each opening is played twice with colours swapped.
std::vector<GameSetup> plan_games(const MatchOptions& options,
                                  const std::vector<Opening>& openings);

// The summary table: a header
// "game\tblack\twhite\tresult\tplies\treason\tblack_depth\twhite_depth" then one row per
// game, sorted by game number; depths with two decimals, "-" when empty. With `with_sprt`
// the columns "pairs\tllr\tllr_lower\tllr_upper\telo\telo_lower\telo_upper" follow (the
// LLR with three decimals, Elo with one, "inf"/"-inf" when infinite).
std::string format_summary_tsv(std::vector<MatchGameRow> rows, bool with_sprt = false);

// Reads a summary table as format_summary_tsv writes it (with or without the SPRT columns):
// the rows of the games it lists. Errors name the file and line.
base::Status parse_summary_tsv(const std::string& text, const std::string& input_name,
                               std::vector<MatchGameRow>& rows);

// Game pairs for the SPRT: game i (0-based) and its twin i ^ 1 share an opening with colours
// swapped; a pair counts once both are over.
class PairTally {
 public:
  explicit PairTally(int games)
      : half_points_(size_t(games + 1) / 2, 0), done_(size_t(games + 1) / 2, 0) {}
  // Game `index` ended with engine1 scoring `half_points` (0, 1 or 2); true when this
  // completed its pair, which is then in pentanomial().
  bool add(int index, int half_points);
  const Pentanomial& pentanomial() const { return pentanomial_; }

 private:
  std::vector<int> half_points_, done_;
  Pentanomial pentanomial_;
};

// Runs the match: checks the options, reads the openings, creates the output directory,
// plays the games (options.jobs at a time, each job with its own two engines, new processes
// for each game or, with reuse_engines, kept between games), writes gNNNN.csa (CSA V3.0, move times
// in ms) after each game and rewrites summary.tsv, and prints to `out` one line per finished game
// with the running score, then each engine's search statistics (format_engine_stats), the
// final score and the Elo difference of engine1 over engine2 with its 95% interval (see
// estimate_elo). With an SPRT, the test's state after each finished pair, and the match stops
// starting games once it decides. With resume, the games out_dir's summary.tsv lists count
// (results, time losses, pairs; not their search statistics) and are not played again.
// Errors (bad options, an engine that cannot be run) are returned; the games
// finished by then are kept.
base::Status run_match(const MatchOptions& options, std::ostream& out);

}  // namespace tools
