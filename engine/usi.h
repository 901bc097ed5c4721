// USI (Universal Shogi Interface): the protocol loop between a shogi GUI (ShogiHome,
// Shogidokoro 将棋所, ShogiGUI) and the Engine facade. The loop only parses and prints;
// everything it does goes through Engine. The parsers and formatters below are pure (strings
// in, values out) so that tests can check them without a search.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "engine/engine.h"
#include "engine/names.h"
#include "shogi/types.h"

namespace engine {

// Reads USI commands from `in`, one per line, and answers on `out` until `quit` or the end
// of `in` (which is treated as quit); returns the process exit code, 0.
//
// Commands: usi, isready, setoption name N [value V], usinewgame, position, go, stop,
// ponderhit, gameover win|lose|draw, quit, and `d` (or `display`) printing "sfen <SFEN>" for
// debugging. Errors in a command are reported as "info string error: ..." and never end the
// loop; unknown commands as "info string unknown command: ...".
//
// A search runs on the engine's threads while the loop keeps reading. Commands that change
// the engine (go, position, setoption, usinewgame, gameover, quit) first stop a running
// search and wait for its bestmove; isready, stop, ponderhit and d do not wait.
// Output is written through one mutex that also serialises the engine's callbacks, and
// every line is flushed.
//
// REQUIRES: no search is running on `engine` when called. On return the engine's info and
// result callbacks are replaced by ones that print nothing.
int run_usi(Engine& engine, std::istream& in, std::ostream& out);

// The arguments of `go`, parsed. Bad or unknown arguments are collected in `errors` and
// skipped, so that a GUI still gets a bestmove for a slightly malformed go.
struct UsiGoCommand {
  SearchLimits limits;
  bool mate = false;     // `go mate [ms|infinite]`: a mate search was asked for
  int64_t mate_ms = -1;  // its time limit; -1 for infinite or not given
  std::vector<std::string> errors;
};
// Parses what follows "go" (e.g. "btime 1000 wtime 1000 byoyomi 3000"). Negative clock
// times (some GUIs send them when a clock has run out) are read as 0.
UsiGoCommand parse_usi_go(std::string_view args);

// Parses what follows "setoption": "name <NAME...> [value <VALUE...>]". Names and values
// may contain spaces (kept as written, runs of spaces included; the ends are trimmed). A
// missing value gives "" (buttons); the value "<empty>" gives "" too, as Options::usi_lines
// prints an empty default that way.
Status parse_usi_setoption(std::string_view args, std::string& name, std::string& value);

// Parses what follows "position": "startpos [moves M...]" or "sfen <board> <side> <hands>
// [<move number>] [moves M...]". `sfen_or_startpos` receives "startpos" or the SFEN fields
// joined by single spaces, ready for Engine::set_position. Only the shape is checked here.
Status parse_usi_position(std::string_view args, std::string& sfen_or_startpos,
                          std::vector<std::string>& moves);

// "cp 35", "mate 5" (the side to move mates in 5 plies), "mate -4" (it is mated in 4 plies;
// "mate -0" when it is mated now), followed by " lowerbound" or " upperbound" for a bound.
std::string format_usi_score(Value score, SearchInfo::Bound bound = SearchInfo::Bound::kExact);
// "info depth D seldepth S score ... nodes N nps N time T hashfull H pv M...".
std::string format_usi_info(const SearchInfo& info);
// "bestmove 7g7f ponder 3c3d", "bestmove 7g7f", "bestmove resign" or "bestmove win".
std::string format_usi_bestmove(const SearchResult& result);
// go mate's info line: "info depth D seldepth S time T nodes N nps R", followed by
// " score mate D pv M..." when the report carries a mate just found.
std::string format_usi_mate_info(const MateSearchInfo& info);
// go mate's answer: "checkmate <moves>", "checkmate nomate", or "checkmate timeout" for a
// search that was stopped, ran out of time or out of the solver's bounded work. After a mate,
// "info string mate in N plies, proven shortest" (or why it is not proven) comes first.
std::vector<std::string> format_usi_checkmate(const MateSearchResult& result);

}  // namespace engine
