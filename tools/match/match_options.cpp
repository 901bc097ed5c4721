// The command line of `sashite match`.
#include "tools/match/match_options.h"

#include <CLI/CLI.hpp>
#include <algorithm>

#include "tools/match/sprt.h"

namespace tools {

using base::Status;

void add_match_options(CLI::App& sub, MatchOptions& o) {
  sub.add_option("--engine1", o.engine1, "first engine's command line (may hold arguments)")
      ->required();
  sub.add_option("--engine2", o.engine2, "second engine's command line")->required();
  sub.add_option("--opt1", o.options1, "USI option NAME=VALUE for engine1 (repeatable)");
  sub.add_option("--opt2", o.options2, "USI option NAME=VALUE for engine2 (repeatable)");
  sub.add_option("--games", o.games,
                 "number of games; colours alternate (default 2; with --sprt the most to play, "
                 "default " +
                     std::to_string(kSprtDefaultGames) + ")")
      ->check(CLI::Range(1, 1000000));
  CLI::Option* tc = sub.add_option(
      "--tc", o.time_control,
      "time control BASE[+INC] in seconds: main time and a Fischer increment credited before "
      "every move (10+0.1, 300+10); with --byoyomi, main time then byoyomi (600 --byoyomi 10000)");
  CLI::Option* byoyomi =
      sub.add_option("--byoyomi", o.byoyomi_ms, "byoyomi per move in ms (go byoyomi)")
          ->check(CLI::Range(1, 86400000));
  CLI::Option* nodes = sub.add_option("--nodes", o.nodes, "nodes per move (go nodes)")
                           ->check(CLI::Range(int64_t(1), int64_t(1) << 50));
  CLI::Option* depth =
      sub.add_option("--depth", o.depth, "depth per move (go depth)")->check(CLI::Range(1, 200));
  byoyomi->excludes(nodes);
  byoyomi->excludes(depth);
  tc->excludes(nodes);
  tc->excludes(depth);
  nodes->excludes(depth);
  sub.add_option("--sprt", o.sprt,
                 "ELO0,ELO1: a sequential probability ratio test on game pairs (pentanomial, "
                 "logistic Elo, as fishtest): stop as soon as it accepts H0 (elo = ELO0) or H1 "
                 "(elo = ELO1)");
  sub.add_option("--alpha", o.sprt_alpha, "with --sprt: the false-positive rate")
      ->check(CLI::Range(1e-6, 0.5))
      ->capture_default_str();
  sub.add_option("--beta", o.sprt_beta, "with --sprt: the false-negative rate")
      ->check(CLI::Range(1e-6, 0.5))
      ->capture_default_str();
  sub.add_option("--openings", o.openings_path,
                 "file of openings, one per line (SFEN, startpos moves ..., or USI moves); "
                 "each is played twice with colours swapped");
  sub.add_option("--out", o.out_dir, "directory for the records (default: ./match-DATE-TIME)");
  sub.add_option("--jobs", o.jobs, "games played in parallel")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  sub.add_option("--max-plies", o.max_plies, "draw after this many plies")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  sub.add_option("--margin", o.time_margin_ms,
                 "ms allowed beyond the time available (main time left, increment, byoyomi) "
                 "before a time loss")
      ->check(CLI::Range(0, 86400000))
      ->capture_default_str();
  sub.add_option("--move-timeout", o.move_timeout_ms,
                 "with --nodes or --depth: ms without a bestmove before the engine loses as hung")
      ->check(CLI::Range(1, 86400000))
      ->capture_default_str();
  sub.add_option("--ready-timeout", o.ready_timeout_ms, "ms to wait for usiok and readyok")
      ->check(CLI::Range(1, 86400000))
      ->capture_default_str();
  sub.add_flag("--isolate-home", o.isolate_home,
               "give every engine a private temporary OSL_HOME (always done for gpsusi)");
  sub.add_flag("--log", o.log, "write each game's USI dialog to gNNN.log in the output directory");
  sub.add_flag("--engine-stderr", o.engine_stderr,
               "keep the engines' stderr in gNNN.stderr (default: discarded; with "
               "--reuse-engines a process's stderr goes to the file of its first game)");
  sub.add_flag("--resume", o.resume,
               "continue the match in --out DIR (the same options): the games its summary.tsv "
               "lists are counted, score and SPRT included, and only the others are played");
  sub.add_flag("--reuse-engines", o.reuse_engines,
               "keep each job's two engine processes from one game to the next: isready and "
               "usinewgame before each game, gameover win|lose|draw after it, as GUIs do, so "
               "engines keep their state over the session; an engine is restarted only after "
               "it crashed, hung, lost on time or played an illegal move, or when it fails the "
               "next isready (default: a new process for every game)");
  sub.footer(
      "With --sprt, each finished pair (the two games of an opening) prints the LLR with its "
      "bounds, the pentanomial counts and the Elo estimate from the pairs; summary.tsv gets "
      "the test's state when each game finished (pairs, llr, llr_lower, llr_upper, elo, "
      "elo_lower, elo_upper). Games already under way when the test decides are finished and "
      "counted.\n"
      "Records: gNNNN.csa (CSA V3.0, move times in ms) and summary.tsv in the output directory. "
      "Each move made "
      "after a search report gets a floodgate-style comment\n"
      "  '** <score> depth <d> nodes <n>\n"
      "from the engine's last 'info' line with a depth (multipv 1) before its bestmove; "
      "nodes is the largest count of any info line. The score is from Black's point of view: "
      "centipawns ('30', '-120'), or a mate as '+M5' (Black mates in 5 plies), '-M4' (White "
      "mates in 4), '+M'/'-M' without a distance; '?' when the engine gave a depth but no "
      "score.\n"
      "At the end the match prints, for each engine, the average depth (over the moves with a "
      "depth) and nodes (over the moves with a node count) per move, its time losses and "
      "(with --reuse-engines) its restarts; summary.tsv has each side's average depth per "
      "game.");
}

int planned_games(const MatchOptions& o) {
  if (o.games > 0) return o.games;
  return o.sprt.empty() ? 2 : kSprtDefaultGames;
}

namespace {
// Seconds with up to three decimals ("10", "0.1", "2.25") as whole milliseconds.
bool parse_seconds(const std::string& t, int64_t& ms) {
  if (t.empty() || t.size() > 12 || t.front() == '.' || t.back() == '.') return false;
  int64_t whole = 0, frac = 0;
  int frac_digits = -1;
  for (char ch : t) {
    if (ch == '.') {
      if (frac_digits >= 0) return false;
      frac_digits = 0;
    } else if (ch >= '0' && ch <= '9') {
      if (frac_digits < 0) {
        whole = whole * 10 + (ch - '0');
      } else {
        if (++frac_digits > 3) return false;
        frac = frac * 10 + (ch - '0');
      }
    } else {
      return false;
    }
  }
  for (int d = std::max(frac_digits, 0); d < 3; ++d) frac *= 10;
  ms = whole * 1000 + frac;
  return true;
}
}  // namespace

Status parse_time_control(const std::string& text, int64_t& main_time_ms, int64_t& increment_ms) {
  auto bad = [&](const std::string& why) {
    return Status::error("--tc '" + text + "': " + why +
                         " (expected BASE[+INC] in seconds, like 10+0.1 or 300+10)");
  };
  const size_t plus = text.find('+');
  int64_t base = 0, inc = 0;
  if (!parse_seconds(text.substr(0, plus), base)) return bad("bad main time");
  if (plus != std::string::npos && !parse_seconds(text.substr(plus + 1), inc))
    return bad("bad increment");
  if (base + inc <= 0) return bad("no time at all");
  if (base > int64_t(86400000) * 7 || inc > 86400000) return bad("too long");
  main_time_ms = base;
  increment_ms = inc;
  return Status::ok();
}

Status validate_match_options(const MatchOptions& o) {
  const bool clock = o.byoyomi_ms > 0 || !o.time_control.empty();
  if (clock + (o.nodes > 0) + (o.depth > 0) != 1)
    return Status::error("give exactly one of a clock (--tc, --byoyomi), --nodes N and --depth D");
  if (!o.time_control.empty()) {
    int64_t main_ms = 0, inc_ms = 0;
    if (Status s = parse_time_control(o.time_control, main_ms, inc_ms); !s) return s;
    if (inc_ms > 0 && o.byoyomi_ms > 0)
      return Status::error("--tc " + o.time_control +
                           " with --byoyomi: a Fischer increment and a byoyomi do not mix");
  }
  if (!o.sprt.empty()) {
    SprtConfig c;
    if (Status s = parse_sprt_bounds(o.sprt, c); !s) return s;
    c.alpha = o.sprt_alpha;
    c.beta = o.sprt_beta;
    if (Status s = validate_sprt(c); !s) return s;
  }
  if (o.engine1.empty() || o.engine2.empty())
    return Status::error("both --engine1 and --engine2 are required");
  for (const auto* list : {&o.options1, &o.options2})
    for (const std::string& kv : *list)
      if (kv.find('=') == std::string::npos || kv.front() == '=')
        return Status::error("USI option '" + kv + "': expected NAME=VALUE");
  if (o.games < 0) return Status::error("--games must be at least 1");
  if (o.resume && o.out_dir.empty())
    return Status::error("--resume needs --out DIR, the match to continue");
  if (o.jobs < 1) return Status::error("--jobs must be at least 1");
  return Status::ok();
}

}  // namespace tools
