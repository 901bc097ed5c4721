// USI front end: the pure parsers and formatters, the loop in-process over string streams,
// and (slow suite) the real binary `sashite usi` driven through pipes as a GUI drives it.
#include "engine/usi.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/version.h"
#include "engine/engine.h"
#include "shogi/notation.h"
#include "shogi/position.h"
#include "tools/mate/mate_bench.h"

#ifndef SASHITE_BINARY
#define SASHITE_BINARY SASHITE_TEST_DATA_DIR "/../../build/sashite"
#endif

namespace usi_test {

using namespace engine;

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::vector<std::string> split_words(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  std::string w;
  while (in >> w) words.push_back(w);
  return words;
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

// Runs the USI loop on `script` and returns what it printed, line by line.
// A missing weights file is reported at isready and does not matter to these tests: such
// lines are left out.
std::vector<std::string> run_script(Engine& engine, const std::string& script, int* rc = nullptr) {
  std::istringstream in(script);
  std::ostringstream out;
  int code = run_usi(engine, in, out);
  if (rc) *rc = code;
  std::vector<std::string> lines;
  for (const std::string& line : split_lines(out.str()))
    if (!starts_with(line, "info string error: isready: ")) lines.push_back(line);
  return lines;
}

int count_prefix(const std::vector<std::string>& lines, const std::string& prefix) {
  int n = 0;
  for (const std::string& l : lines) n += starts_with(l, prefix);
  return n;
}

std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

// The position a GUI means by "startpos"/an SFEN plus USI moves. REQUIRES: all legal.
Position position_after(const std::string& sfen, const std::vector<std::string>& moves) {
  Position pos;
  REQUIRE(pos.set_sfen(sfen).is_ok());
  for (const std::string& text : moves) {
    Move m;
    REQUIRE(parse_usi_move(pos, text, m).is_ok());
    pos.do_move(m);
  }
  return pos;
}

Move usi_move(const Position& pos, const std::string& text) {
  Move m;
  REQUIRE(parse_usi_move(pos, text, m).is_ok());
  return m;
}

bool is_integer(const std::string& s, bool allow_sign) {
  size_t i = 0;
  if (allow_sign && !s.empty() && (s[0] == '-' || s[0] == '+')) i = 1;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

// Checks one "info ..." line: every known key has a well-formed value, and the pv is a
// legal sequence of moves from `root`. Returns an empty string or what is wrong.
std::string check_info_line(const std::string& line, const Position& root, int max_depth = 0) {
  std::vector<std::string> w = split_words(line);
  if (w.empty() || w[0] != "info") return "not an info line";
  bool has_score = false, has_depth = false, counts_only = true;
  for (size_t i = 1; i < w.size(); ++i) {
    const std::string& key = w[i];
    if (key != "nodes" && key != "nps" && key != "time") counts_only = false;
    if (key == "string") return "";  // free text to the end
    if (key == "depth" || key == "seldepth" || key == "nodes" || key == "nps" || key == "time" ||
        key == "hashfull" || key == "multipv" || key == "currmovenumber") {
      if (i + 1 >= w.size() || !is_integer(w[i + 1], false)) return key + " without a number";
      if (key == "depth") {
        has_depth = true;
        if (max_depth > 0 && std::stoi(w[i + 1]) > max_depth) return "depth beyond the limit";
      }
      if (key == "hashfull" && std::stoi(w[i + 1]) > 1000) return "hashfull above 1000";
      ++i;
    } else if (key == "score") {
      if (i + 2 >= w.size()) return "score without a value";
      if (w[i + 1] == "cp") {
        if (!is_integer(w[i + 2], true)) return "score cp without a number";
      } else if (w[i + 1] == "mate") {
        if (!is_integer(w[i + 2], true) && w[i + 2] != "+" && w[i + 2] != "-")
          return "score mate without a number";
      } else {
        return "score neither cp nor mate";
      }
      i += 2;
      if (i + 1 < w.size() && (w[i + 1] == "lowerbound" || w[i + 1] == "upperbound")) ++i;
      has_score = true;
    } else if (key == "currmove") {
      if (i + 1 >= w.size()) return "currmove without a move";
      Move m;
      if (!parse_usi_move(root, w[i + 1], m)) return "currmove not legal: " + w[i + 1];
      ++i;
    } else if (key == "pv") {
      if (i + 1 >= w.size()) return "empty pv";
      Position pos = root;
      for (++i; i < w.size(); ++i) {
        Move m;
        if (!parse_usi_move(pos, w[i], m)) return "pv move not legal: " + w[i];
        pos.do_move(m);
      }
    } else {
      return "unknown key " + key;
    }
  }
  // The closing "info nodes N" before bestmove carries only the search's counts.
  if (counts_only && w.size() > 1) return "";
  if (!has_depth || !has_score) return "no depth or no score";
  return "";
}

// Checks "bestmove M [ponder P]": M legal in root, P legal after M.
std::string check_bestmove_line(const std::string& line, const Position& root) {
  std::vector<std::string> w = split_words(line);
  if (w.size() < 2 || w[0] != "bestmove") return "not a bestmove line";
  Move m;
  if (!parse_usi_move(root, w[1], m)) return "bestmove not legal: " + w[1];
  if (w.size() == 2) return "";
  if (w.size() != 4 || w[2] != "ponder") return "junk after the move";
  Position pos = root;
  pos.do_move(m);
  Move p;
  if (!parse_usi_move(pos, w[3], p)) return "ponder move not legal: " + w[3];
  return "";
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Pure parsers and formatters.

TEST_CASE("usi: parse_usi_setoption keeps spaces in names and values") {
  std::string name, value;
  REQUIRE(parse_usi_setoption(" name USI_Hash value 256", name, value).is_ok());
  CHECK(name == "USI_Hash");
  CHECK(value == "256");
  REQUIRE(parse_usi_setoption(" name Eval Dir value C:\\My Documents\\eval  files ", name, value));
  CHECK(name == "Eval Dir");
  CHECK(value == "C:\\My Documents\\eval  files");
  REQUIRE(parse_usi_setoption("name Clear Hash", name, value));  // a button: no value
  CHECK(name == "Clear Hash");
  CHECK(value.empty());
  REQUIRE(parse_usi_setoption("name BookFile value <empty>", name, value));
  CHECK(value.empty());
  REQUIRE(parse_usi_setoption("name X value", name, value));
  CHECK(value.empty());
  CHECK_FALSE(parse_usi_setoption("", name, value).is_ok());
  CHECK_FALSE(parse_usi_setoption("name", name, value).is_ok());
  CHECK_FALSE(parse_usi_setoption("name value 3", name, value).is_ok());
  CHECK_FALSE(parse_usi_setoption("USI_Hash 256", name, value).is_ok());
}

TEST_CASE("usi: parse_usi_position") {
  std::string sfen;
  std::vector<std::string> moves;
  REQUIRE(parse_usi_position("startpos", sfen, moves).is_ok());
  CHECK(sfen == "startpos");
  CHECK(moves.empty());
  REQUIRE(parse_usi_position(" startpos moves 7g7f  3c3d ", sfen, moves));
  CHECK(moves == std::vector<std::string>{"7g7f", "3c3d"});
  REQUIRE(parse_usi_position("startpos moves", sfen, moves));
  CHECK(moves.empty());
  REQUIRE(parse_usi_position(
      "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 2g2f", sfen,
      moves));
  CHECK(sfen == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
  CHECK(moves == std::vector<std::string>{"2g2f"});
  REQUIRE(parse_usi_position("sfen 4k4/9/9/9/9/9/9/9/4K4 b G", sfen, moves));  // no move number
  CHECK(sfen == "4k4/9/9/9/9/9/9/9/4K4 b G");
  CHECK_FALSE(parse_usi_position("", sfen, moves).is_ok());
  CHECK_FALSE(parse_usi_position("startfen", sfen, moves).is_ok());
  CHECK_FALSE(parse_usi_position("startpos 7g7f", sfen, moves).is_ok());
  CHECK_FALSE(parse_usi_position("sfen 4k4/9/9/9/9/9/9/9/4K4 b", sfen, moves).is_ok());
  CHECK_FALSE(parse_usi_position("sfen a b c d e moves 7g7f", sfen, moves).is_ok());
}

TEST_CASE("usi: parse_usi_go") {
  UsiGoCommand go = parse_usi_go(" btime 1000 wtime 2000 byoyomi 3000 binc 10 winc 20");
  CHECK(go.errors.empty());
  CHECK(go.limits.time_left_ms[kBlack] == 1000);
  CHECK(go.limits.time_left_ms[kWhite] == 2000);
  CHECK(go.limits.byoyomi_ms == 3000);
  CHECK(go.limits.increment_ms[kBlack] == 10);
  CHECK(go.limits.increment_ms[kWhite] == 20);
  CHECK(go.limits.has_clock());
  CHECK_FALSE(go.limits.ponder);
  CHECK_FALSE(go.limits.infinite);
  CHECK_FALSE(go.mate);

  go = parse_usi_go("ponder btime 0 wtime 0 byoyomi 10000");
  CHECK(go.limits.ponder);
  CHECK(go.limits.time_left_ms[kBlack] == 0);

  go = parse_usi_go("infinite");
  CHECK(go.limits.infinite);
  CHECK_FALSE(go.limits.has_clock());

  go = parse_usi_go("depth 5 nodes 100000 movetime 300");
  CHECK(go.errors.empty());
  CHECK(go.limits.depth == 5);
  CHECK(go.limits.nodes == 100000);
  CHECK(go.limits.movetime_ms == 300);

  go = parse_usi_go("mate 1000");
  CHECK(go.mate);
  CHECK(go.mate_ms == 1000);
  go = parse_usi_go("mate infinite");
  CHECK(go.mate);
  CHECK(go.mate_ms == -1);
  CHECK(go.errors.empty());

  go = parse_usi_go("btime -300 wtime 1000");  // an overdrawn clock reads as 0
  CHECK(go.limits.time_left_ms[kBlack] == 0);

  go = parse_usi_go("btime abc wtime 1000 frobnicate depth");
  CHECK(go.errors.size() == 3);  // btime abc, frobnicate, depth without a number
  CHECK(go.limits.time_left_ms[kBlack] == -1);
  CHECK(go.limits.time_left_ms[kWhite] == 1000);
  go = parse_usi_go("btime wtime 500");  // a missing value does not swallow the next key
  CHECK(go.errors.size() == 1);
  CHECK(go.limits.time_left_ms[kBlack] == -1);
  CHECK(go.limits.time_left_ms[kWhite] == 500);
}

TEST_CASE("usi: scores, info and bestmove lines") {
  using Bound = SearchInfo::Bound;
  CHECK(format_usi_score(35) == "cp 35");
  CHECK(format_usi_score(-120) == "cp -120");
  CHECK(format_usi_score(mate_in(5)) == "mate 5");
  CHECK(format_usi_score(mated_in(4)) == "mate -4");
  CHECK(format_usi_score(-kValueMate) == "mate -0");
  CHECK(format_usi_score(100, Bound::kLower) == "cp 100 lowerbound");
  CHECK(format_usi_score(mate_in(3), Bound::kUpper) == "mate 3 upperbound");

  Position pos;
  Move m1 = usi_move(pos, "7g7f");
  pos.do_move(m1);
  Move m2 = usi_move(pos, "3c3d");
  SearchInfo info;
  info.depth = 7;
  info.seldepth = 12;
  info.score = 42;
  info.nodes = 123456;
  info.nps = 1000000;
  info.time_ms = 123;
  info.hashfull = 17;
  info.pv = {m1, m2};
  CHECK(format_usi_info(info) ==
        "info depth 7 seldepth 12 score cp 42 nodes 123456 nps 1000000 time 123 hashfull 17 "
        "pv 7g7f 3c3d");
  info.pv.clear();
  info.bound = Bound::kLower;
  CHECK(format_usi_info(info) ==
        "info depth 7 seldepth 12 score cp 42 lowerbound nodes 123456 nps 1000000 time 123 "
        "hashfull 17");
  CHECK(check_info_line(format_usi_info(info), Position()).empty());

  SearchResult r;
  r.kind = SearchResult::Kind::kMove;
  r.best = m1;
  r.ponder = m2;
  CHECK(format_usi_bestmove(r) == "bestmove 7g7f ponder 3c3d");
  r.ponder = kMoveNone;
  CHECK(format_usi_bestmove(r) == "bestmove 7g7f");
  r.kind = SearchResult::Kind::kResign;
  CHECK(format_usi_bestmove(r) == "bestmove resign");
  r.kind = SearchResult::Kind::kWin;
  CHECK(format_usi_bestmove(r) == "bestmove win");
  r.kind = SearchResult::Kind::kMove;
  r.best = kMoveNone;
  CHECK(format_usi_bestmove(r) == "bestmove resign");  // never a malformed move
}

// ---------------------------------------------------------------------------------------
// The loop in-process.

TEST_CASE("usi: the engine registers the standard options") {
  Engine engine;
  const Option* hash = engine.options().find("USI_Hash");
  const Option* ponder = engine.options().find("USI_Ponder");
  const Option* threads = engine.options().find("Threads");
  REQUIRE(hash);
  REQUIRE(ponder);
  REQUIRE(threads);
  CHECK(hash->type == Option::Type::kSpin);
  CHECK(ponder->type == Option::Type::kCheck);
  CHECK(threads->type == Option::Type::kSpin);
  CHECK(threads->min >= 1);

  std::vector<std::string> out = run_script(engine, "usi\n");
  INFO(join(out));
  REQUIRE(out.size() >= 4);
  CHECK(out.front() == std::string("id name sashite ") + build_version());
  CHECK(starts_with(out[1], "id author "));
  CHECK(out.back() == "usiok");
  CHECK(count_prefix(out, "option name USI_Hash type spin ") == 1);
  CHECK(count_prefix(out, "option name USI_Ponder type check ") == 1);
  CHECK(count_prefix(out, "option name Threads type spin ") == 1);
  CHECK(count_prefix(out, "option name ") == int(engine.options().all().size()));
}

TEST_CASE("usi: isready, setoption and errors that are not fatal") {
  Engine engine;
  int rc = -1;
  std::vector<std::string> out = run_script(engine,
                                            "isready\r\n"
                                            "\n"
                                            "   \n"
                                            "setoption name USI_Hash value 16\n"
                                            "setoption name  USI_Ponder  value  true \n"
                                            "setoption name No Such Option value 1 2 3\n"
                                            "setoption name USI_Hash value lots\n"
                                            "setoption name USI_Hash value 0\n"
                                            "setoption USI_Hash 16\n"
                                            "setoption\n"
                                            "frobnicate the engine\n"
                                            "gameover maybe\n"
                                            "gameover win\n"
                                            "stop\n"
                                            "ponderhit\n"
                                            "go mate 1000\n"
                                            "isready\n",
                                            &rc);
  INFO(join(out));
  CHECK(rc == 0);
  CHECK(engine.options().get_int("USI_Hash") == 16);
  CHECK(engine.options().get_bool("USI_Ponder"));
  std::vector<std::string> expected_prefixes = {
      "readyok",
      "info string error: ",  // No Such Option
      "info string error: ",  // lots
      "info string error: ",  // 0 is below the minimum
      "info string error: ",  // no name keyword
      "info string error: ",  // nothing
      "info string unknown command: frobnicate the engine",
      "info string error: ",  // gameover maybe
      "checkmate nomate",
      "readyok",
  };
  REQUIRE(out.size() == expected_prefixes.size());
  for (size_t i = 0; i < out.size(); ++i) CHECK(starts_with(out[i], expected_prefixes[i]));
  CHECK(out[1].find("No Such Option") != std::string::npos);
  CHECK(out[6] == "info string unknown command: frobnicate the engine");
}

TEST_CASE("usi: position, bad positions and bad moves keep the last good position") {
  Engine engine;
  const std::string start = Position::kStartSfen;
  const std::string after_two = position_after(start, {"7g7f", "3c3d"}).sfen();
  const std::string custom = "4k4/9/9/9/9/9/9/9/4K4 b G 1";
  const std::string custom_after = position_after(custom, {"G*5b"}).sfen();

  std::vector<std::string> out =
      run_script(engine,
                 "position startpos moves 7g7f 3c3d\n"
                 "d\n"
                 "position startpos moves 7g7f 7g7f\n"  // illegal
                 "display\n"
                 "position startpos moves 7g7x\n"     // not a move
                 "position sfen lnsgkgsnl/9 b - 1\n"  // bad board
                 "position sfen 4k4/9/9/9/9/9/9/9/4K4 x G 1\n"
                 "position sfen 4k4/9/9/9/9/9/9/9/4K4 b\n"
                 "position\n"
                 "position startpos junk\n"
                 "d\n"
                 "position sfen " +
                     custom +
                     " moves G*5b\n"
                     "d\n"
                     "position sfen 4k4/9/9/9/9/9/9/9/4K4 b G\n"  // 3 fields
                     "quit\n"
                     "d\n");  // after quit: not read
  INFO(join(out));
  REQUIRE(out.size() == 11);
  CHECK(out[0] == "sfen " + after_two);
  CHECK(starts_with(out[1], "info string error: "));
  CHECK(out[2] == "sfen " + after_two);
  for (int i = 3; i <= 8; ++i) CHECK(starts_with(out[i], "info string error: "));
  CHECK(out[9] == "sfen " + after_two);
  CHECK(out[10] == "sfen " + custom_after);
  CHECK(engine.position().sfen(false) == "4k4/9/9/9/9/9/9/9/4K4 b G");
}

TEST_CASE("usi: a go after a rejected position resigns, never plays for the stale one") {
  Engine engine;
  engine.set_option("USI_Hash", "16");
  std::vector<std::string> out = run_script(engine,
                                            "position startpos moves 7g7f\n"
                                            "position startpos moves 7g7f 7g7f\n"  // rejected
                                            "go btime 0 wtime 0 byoyomi 100\n"
                                            "go mate 100\n"
                                            "position startpos moves 7g7f\n"  // good again
                                            "go depth 1\n"
                                            "quit\n");
  INFO(join(out));
  CHECK(count_prefix(out, "info string error: go: the last position command was rejected") == 2);
  CHECK(std::find(out.begin(), out.end(), "bestmove resign") != out.end());
  CHECK(std::find(out.begin(), out.end(), "checkmate timeout") != out.end());
  // The last bestmove is White's reply to 7g7f.
  const std::string last = out.back();
  REQUIRE(starts_with(last, "bestmove "));
  CHECK(check_bestmove_line(last, position_after(Position::kStartSfen, {"7g7f"})) == "");
}

TEST_CASE("usi: go mate solves in a table of MateHash megabytes, remade when it changes") {
  Engine engine;
  engine.set_option("USI_Hash", "16");
  const std::vector<std::string> out =
      run_script(engine,
                 "setoption name MateHash value 1\n"
                 "position sfen 3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1\n"
                 "go mate 5000\n"
                 "setoption name MateHash value 2\n"
                 "go mate 5000\n"
                 "setoption name MateHash value 0\n"
                 "quit\n");
  INFO(join(out));
  CHECK(engine.options().get_int("MateHash") == 2);
  CHECK(count_prefix(out, "info string mate in 3 plies, proven shortest") == 2);
  CHECK(count_prefix(out, "checkmate ") == 2);
  CHECK(count_prefix(out, "checkmate nomate") == 0);
  CHECK(count_prefix(out, "info string error: setoption") == 1);  // 0 is below the minimum
}

TEST_CASE("usi: gameover reports the margins a precision-driven futility mode chose") {
  for (const char* mode : {"dynamic", "paper", "fixed"}) {
    CAPTURE(mode);
    Engine engine;
    engine.set_option("USI_Hash", "16");
    REQUIRE(engine.set_option("FutilityMode", mode).is_ok());
    REQUIRE(engine.set_option("USI_OwnBook", "false").is_ok());  // a search, not a book move
    // The search first, to its end (in a script, gameover would stop it), then the report.
    REQUIRE(engine.set_position("startpos", {"7g7f", "3c3d"}).is_ok());
    SearchLimits limits;
    limits.nodes = 30000;
    engine.search(limits);
    const std::vector<std::string> out = run_script(engine, "gameover draw\nquit\n");
    INFO(join(out));
    const int lines = count_prefix(out, "info string futility phase 0 ");
    if (std::string(mode) == "fixed")
      CHECK(lines == 0);  // nothing measured
    else
      CHECK(lines >= 2);  // both sides of depth 1 at least
  }
}

TEST_CASE("usi: a malformed go is answered at once, not searched forever") {
  for (const char* go : {"go depth -1", "go nodes abc", "go foo", "go depth 0", "go nodes 0"}) {
    CAPTURE(go);
    UsiGoCommand c = parse_usi_go(std::string(go).substr(3));
    CHECK_FALSE(c.errors.empty());
    CHECK(c.limits.depth == 1);
    CHECK_FALSE(c.limits.infinite);
    Engine engine;
    engine.set_option("USI_Hash", "16");
    // No stop follows: the loop ends only if the search does by itself.
    const std::vector<std::string> out =
        run_script(engine, std::string("position startpos\n") + go + "\n");
    CHECK(count_prefix(out, "bestmove ") == 1);
    CHECK(count_prefix(out, "info string error: go: ") >= 1);
  }
  // A readable limit beside a bad word is kept.
  UsiGoCommand c = parse_usi_go("frobnicate byoyomi 1000");
  CHECK(c.limits.byoyomi_ms == 1000);
  CHECK(c.limits.depth == 0);
  // Plain "go" is still a search until stop, as USI says.
  CHECK(parse_usi_go("").limits.depth == 0);
}

TEST_CASE("usi: positions no game can reach are refused, naming what is wrong") {
  Engine engine;
  CHECK(engine.set_position("4k4/9/9/9/9/9/9/9/4K4 b G 1", {}).is_ok());
  CHECK(engine.set_position("4k4/9/9/9/9/9/9/9/9 b G 1", {}).is_ok());  // a mate problem
  const std::pair<const char*, const char*> bad[] = {
      {"9/9/9/9/9/9/9/9/9 b - 1", "no king on the board"},
      {"4k4/9/9/9/9/9/9/L3P3L/L3K3L b L 1", "5 lances on the board and in hand, a set has 4"},
      // Two bishops in hand are a set's; a third, promoted on the board, is not.
      {"4k4/9/9/9/4+B4/9/9/9/4K4 b 2B 1", "3 bishops"},
  };
  for (const auto& [sfen, message] : bad) {
    CAPTURE(sfen);
    const Status st = engine.set_position(sfen, {});
    CHECK_FALSE(st.is_ok());
    CHECK(st.message().find(message) != std::string::npos);
  }
  CHECK(engine.position().sfen(false) == "4k4/9/9/9/9/9/9/9/9 b G");  // the last good one
}

TEST_CASE(
    "engine: a position given as a Position and moves keeps the history, refuses illegal moves") {
  Engine engine;
  // The kings out and back three times: the start position for the fourth time is a
  // repetition only if the engine kept the moves, which a root SFEN alone would lose.
  const std::vector<std::string> shuffle = {"5i4h", "5a4b", "4h5i", "4b5a", "5i4h", "5a4b",
                                            "4h5i", "4b5a", "5i4h", "5a4b", "4h5i", "4b5a"};
  Position pos;
  std::vector<Move> moves;
  for (const std::string& text : shuffle) {
    moves.push_back(usi_move(pos, text));
    pos.do_move(moves.back());
  }
  REQUIRE(engine.set_position(Position(), moves).is_ok());
  CHECK(engine.position().key() == Position().key());
  CHECK(engine.position().repetition(4) == Repetition::kDraw);
  // The same as the text overload gives.
  Engine text;
  REQUIRE(text.set_position("startpos", shuffle).is_ok());
  CHECK(text.position().repetition(4) == Repetition::kDraw);

  // A move that is not legal where it is played: refused, naming it, the position kept.
  const Move pawn = usi_move(Position(), "7g7f");
  const Status st = engine.set_position(Position(), {pawn, pawn});
  CHECK_FALSE(st.is_ok());
  CHECK(st.message().find("move 2 of the position: 7g7f is not legal") != std::string::npos);
  CHECK(engine.position().repetition(4) == Repetition::kDraw);
}

TEST_CASE("usi: searches in-process give one legal bestmove per go") {
  Engine engine;
  const Position root = position_after(Position::kStartSfen, {"7g7f"});
  // End of input stops each search; every go still owes exactly one bestmove, and a go
  // before the previous search ended stops that search first.
  std::vector<std::string> out = run_script(engine,
                                            "setoption name USI_Hash value 16\n"
                                            "isready\n"
                                            "usinewgame\n"
                                            "position startpos moves 7g7f\n"
                                            "go depth 2\n"
                                            "go infinite\n"
                                            "stop\n"
                                            "go ponder btime 0 wtime 0 byoyomi 1000\n"
                                            "ponderhit\n"
                                            "go ponder btime 0 wtime 0 byoyomi 1000\n"
                                            "stop\n"
                                            "go infinite\n"
                                            "isready\n"
                                            "gameover draw\n"
                                            "go nodes 1000\n");
  INFO(join(out));
  CHECK(count_prefix(out, "readyok") == 2);
  CHECK(count_prefix(out, "bestmove ") == 6);
  for (const std::string& line : out) {
    CAPTURE(line);
    if (starts_with(line, "bestmove "))
      CHECK(check_bestmove_line(line, root) == "");
    else if (starts_with(line, "info "))
      CHECK(check_info_line(line, root) == "");
    else
      CHECK(line == "readyok");
  }
}

// ---------------------------------------------------------------------------------------
// The real binary through pipes, as a GUI drives it. Every read has a timeout, so a hung
// engine fails the test instead of hanging it.

namespace {

using Clock = std::chrono::steady_clock;

// `sashite usi` as a child process with its standard input and output on pipes. Standard
// error is inherited so that its complaints show up in the test log.
class UsiProcess {
 public:
  UsiProcess() {
    signal(SIGPIPE, SIG_IGN);  // a dead engine must fail a check, not kill the tests
    const std::string binary = SASHITE_BINARY;
    REQUIRE_MESSAGE(access(binary.c_str(), X_OK) == 0, "no executable at " << binary);
    int to_child[2], from_child[2];
    REQUIRE(pipe2(to_child, O_CLOEXEC) == 0);
    REQUIRE(pipe2(from_child, O_CLOEXEC) == 0);
    pid_ = fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      // Only async-signal-safe calls between fork and exec.
      dup2(to_child[0], 0);
      dup2(from_child[1], 1);
      execl(binary.c_str(), binary.c_str(), "usi", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    in_ = to_child[1];
    out_ = from_child[0];
  }

  ~UsiProcess() {
    close_input();
    if (pid_ > 0 && !reaped_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (out_ >= 0) close(out_);
  }

  UsiProcess(const UsiProcess&) = delete;
  UsiProcess& operator=(const UsiProcess&) = delete;

  bool send(const std::string& line) {
    transcript_ += "> " + line + "\n";
    std::string data = line + "\n";
    size_t done = 0;
    while (done < data.size()) {
      ssize_t n = write(in_, data.data() + done, data.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      done += size_t(n);
    }
    return true;
  }

  void close_input() {
    if (in_ >= 0) close(in_);
    in_ = -1;
  }

  // The next line, or nothing when timeout_ms passes first or the engine closed its output.
  std::optional<std::string> read_line(int timeout_ms) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      size_t nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        transcript_ += "< " + line + "\n";
        return line;
      }
      if (eof_) return std::nullopt;
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) return std::nullopt;
      pollfd p{out_, POLLIN, 0};
      int r = poll(&p, 1, int(left.count()));
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) return std::nullopt;
      if (r == 0) continue;  // the deadline check above ends the loop
      char chunk[4096];
      ssize_t n = read(out_, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        eof_ = true;
        continue;
      }
      buffer_.append(chunk, size_t(n));
    }
  }

  // Reads lines until one starts with `prefix` and returns it; every line read on the way
  // is appended to `seen` (when given). Nothing when timeout_ms passes first.
  std::optional<std::string> wait_for(const std::string& prefix, int timeout_ms,
                                      std::vector<std::string>* seen = nullptr) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) return std::nullopt;
      std::optional<std::string> line = read_line(int(left.count()));
      if (!line) return std::nullopt;
      if (seen) seen->push_back(*line);
      if (starts_with(*line, prefix)) return line;
    }
  }

  // Reads for `ms` milliseconds; the lines go to `seen`.
  void drain_for(int ms, std::vector<std::string>& seen) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(ms);
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) return;
      std::optional<std::string> line = read_line(int(left.count()));
      if (!line) {
        if (eof_) return;
        continue;
      }
      seen.push_back(*line);
    }
  }

  // The exit status (128 + signal when killed), or nothing when timeout_ms passes first.
  std::optional<int> wait_exit(int timeout_ms) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      int status = 0;
      pid_t r = waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        reaped_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      if (Clock::now() >= deadline) return std::nullopt;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

  const std::string& transcript() const { return transcript_; }

  // usi ... usiok, setoption for a small hash (and `extra`), isready ... readyok, usinewgame.
  void handshake(const std::vector<std::string>& extra = {}) {
    REQUIRE(send("usi"));
    REQUIRE(wait_for("usiok", 10000));
    REQUIRE(send("setoption name USI_Hash value 16"));
    for (const std::string& line : extra) REQUIRE(send(line));
    REQUIRE(send("isready"));
    REQUIRE(wait_for("readyok", 30000));
    REQUIRE(send("usinewgame"));
  }

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
  int in_ = -1;
  int out_ = -1;
  bool eof_ = false;
  std::string buffer_;
  std::string transcript_;
};

// Every info line of `lines` is well formed for root; returns the number of info lines.
int check_info_lines(const std::vector<std::string>& lines, const Position& root,
                     int max_depth = 0) {
  int n = 0;
  for (const std::string& line : lines) {
    if (!starts_with(line, "info ")) continue;
    CAPTURE(line);
    CHECK(check_info_line(line, root, max_depth) == "");
    ++n;
  }
  return n;
}

}  // namespace

TEST_SUITE("slow") {
  TEST_CASE("usi binary: handshake lists the options, quit exits with 0") {
    UsiProcess engine;
    INFO(engine.transcript());
    REQUIRE(engine.send("usi"));
    std::vector<std::string> lines;
    REQUIRE(engine.wait_for("usiok", 10000, &lines));
    CHECK(lines.front() == std::string("id name sashite ") + base::build_version());
    CHECK(count_prefix(lines, "id author ") == 1);
    CHECK(count_prefix(lines, "option name USI_Hash type spin") == 1);
    CHECK(count_prefix(lines, "option name USI_Ponder type check") == 1);
    CHECK(count_prefix(lines, "option name Threads type spin") == 1);
    REQUIRE(engine.send("isready"));
    CHECK(engine.wait_for("readyok", 30000));
    REQUIRE(engine.send("quit"));
    CHECK(engine.wait_exit(5000) == std::optional<int>(0));
  }

  TEST_CASE("usi binary: go depth 3 gives well-formed info lines and a legal bestmove") {
    UsiProcess engine;
    INFO(engine.transcript());
    engine.handshake();
    const std::vector<std::string> moves = {"7g7f", "3c3d", "2g2f"};
    const Position root = position_after(Position::kStartSfen, moves);
    REQUIRE(engine.send("position startpos moves 7g7f 3c3d 2g2f"));
    REQUIRE(engine.send("go depth 3"));
    std::vector<std::string> lines;
    std::optional<std::string> best = engine.wait_for("bestmove", 30000, &lines);
    REQUIRE(best);
    CHECK(check_bestmove_line(*best, root) == "");
    CHECK(check_info_lines(lines, root, 3) >= 1);
    REQUIRE(engine.send("quit"));
    CHECK(engine.wait_exit(5000) == std::optional<int>(0));
  }

  TEST_CASE("usi binary: the line before bestmove counts every node of the search") {
    UsiProcess engine;
    INFO(engine.transcript());
    engine.handshake();
    // go nodes stops inside an iteration: the nodes of that unfinished iteration are in the
    // closing count, not in the iteration-end info lines.
    REQUIRE(engine.send("position startpos moves 7g7f 3c3d 2g2f"));
    REQUIRE(engine.send("go nodes 20000"));
    std::vector<std::string> lines;
    REQUIRE(engine.wait_for("bestmove", 30000, &lines));
    REQUIRE(lines.size() >= 2);
    const std::vector<std::string> closing = split_words(lines[lines.size() - 2]);
    REQUIRE(closing.size() == 3);
    CHECK(closing[0] == "info");
    CHECK(closing[1] == "nodes");
    int64_t largest_iteration = 0;
    for (size_t i = 0; i + 2 < lines.size(); ++i) {
      const std::vector<std::string> w = split_words(lines[i]);
      for (size_t k = 0; k + 1 < w.size(); ++k)
        if (w[0] == "info" && w[k] == "nodes")
          largest_iteration = std::max<int64_t>(largest_iteration, std::stoll(w[k + 1]));
    }
    const int64_t total = std::stoll(closing[2]);
    CHECK(total >= 20000);
    CHECK(total >= largest_iteration);
    REQUIRE(engine.send("quit"));
    CHECK(engine.wait_exit(5000) == std::optional<int>(0));
  }

  TEST_CASE("usi binary: with MateSearch the search reports its mate calls before bestmove") {
    // The second problem of tests/data/mate/mate_kongo50.sfen (the mate test of
    // mate_control_test.cpp): the search calls the solver at inner nodes; a call proves it.
    std::ifstream fixture(SASHITE_TEST_DATA_DIR "/mate/mate_kongo50.sfen");
    REQUIRE_MESSAGE(fixture.good(), "missing fixture mate_kongo50.sfen");
    const std::vector<tools::MateProblem> problems = tools::read_mate_problems(fixture);
    REQUIRE(problems.size() >= 2);
    const std::string sfen = problems[1].sfen;
    auto run = [&sfen](bool mate_search) {
      UsiProcess engine;
      INFO(engine.transcript());
      engine.handshake();
      for (const std::string option : {"USI_Hash value 16", "USI_OwnBook value false",
                                       "MateMinDepth value 1", "MateNodes value 5000"})
        REQUIRE(engine.send("setoption name " + option));
      REQUIRE(engine.send(std::string("setoption name MateSearch value ") +
                          (mate_search ? "true" : "false")));
      REQUIRE(engine.send("position sfen " + sfen));
      REQUIRE(engine.send("go depth 3"));
      std::vector<std::string> lines;
      REQUIRE(engine.wait_for("bestmove", 30000, &lines));
      REQUIRE(engine.send("quit"));
      CHECK(engine.wait_exit(5000) == std::optional<int>(0));
      return lines;
    };
    const std::vector<std::string> with = run(true);
    INFO(join(with));
    REQUIRE(with.size() >= 3);
    CHECK(starts_with(with[with.size() - 3], "info nodes "));
    const std::vector<std::string> words = split_words(with[with.size() - 2]);
    REQUIRE(words.size() == 9);
    CHECK(words[0] + " " + words[1] + " " + words[2] + " " + words[3] == "info string mate calls");
    CHECK(std::stoull(words[4]) > 0);
    CHECK(words[5] == "nodes");
    CHECK(std::stoull(words[6]) > 0);
    CHECK(words[7] == "found");
    CHECK(std::stoull(words[8]) > 0);
    CHECK(count_prefix(run(false), "info string") == 0);
  }

  TEST_CASE("usi binary: go with a clock answers within the byoyomi") {
    UsiProcess engine;
    INFO(engine.transcript());
    engine.handshake();
    // A middle-game position (White to move) from a professional game.
    const std::string sfen =
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
    const Position root = position_after(sfen, {});
    REQUIRE(engine.send("position sfen " + sfen));
    const auto start = Clock::now();
    REQUIRE(engine.send("go btime 0 wtime 0 byoyomi 1000"));
    std::vector<std::string> lines;
    std::optional<std::string> best = engine.wait_for("bestmove", 1000 + 2000, &lines);
    REQUIRE(best);
    CHECK(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count() <=
          1500);
    CHECK(check_bestmove_line(*best, root) == "");
    check_info_lines(lines, root);

    // Fischer: 2 s left plus 1 s per move; a move well within the 3 s.
    REQUIRE(engine.send("position startpos"));
    REQUIRE(engine.send("go btime 2000 wtime 2000 binc 1000 winc 1000"));
    lines.clear();
    best = engine.wait_for("bestmove", 3000 + 2000, &lines);
    REQUIRE(best);
    CHECK(check_bestmove_line(*best, Position()) == "");
    check_info_lines(lines, Position());
    REQUIRE(engine.send("quit"));
    CHECK(engine.wait_exit(5000) == std::optional<int>(0));
  }

  TEST_CASE("usi binary: stop during go infinite gives a bestmove quickly") {
    UsiProcess engine;
    INFO(engine.transcript());
    engine.handshake();
    const Position root = position_after(Position::kStartSfen, {"2g2f"});
    REQUIRE(engine.send("position startpos moves 2g2f"));
    REQUIRE(engine.send("go infinite"));
    std::vector<std::string> lines;
    engine.drain_for(700, lines);
    CHECK(count_prefix(lines, "bestmove") == 0);  // infinite: only stop ends it
    check_info_lines(lines, root);
    REQUIRE(engine.send("stop"));
    std::optional<std::string> best = engine.wait_for("bestmove", 1000, &lines);
    REQUIRE(best);
    CHECK(check_bestmove_line(*best, root) == "");
    check_info_lines(lines, root);
    REQUIRE(engine.send("isready"));
    CHECK(engine.wait_for("readyok", 5000));
    REQUIRE(engine.send("quit"));
    CHECK(engine.wait_exit(5000) == std::optional<int>(0));
  }

  TEST_CASE("usi binary: ponder, then ponderhit or stop (ponder miss)") {
    UsiProcess engine;
    INFO(engine.transcript());
    engine.handshake({"setoption name USI_Ponder value true"});

    // Ponder hit: we pondered on 3c3d and the opponent played it.
    const Position hit = position_after(Position::kStartSfen, {"7g7f", "3c3d"});
    REQUIRE(engine.send("position startpos moves 7g7f 3c3d"));
    REQUIRE(engine.send("go ponder btime 0 wtime 0 byoyomi 1000"));
    std::vector<std::string> lines;
    engine.drain_for(700, lines);
    CHECK(count_prefix(lines, "bestmove") == 0);  // pondering never ends by itself
    REQUIRE(engine.send("ponderhit"));
    std::optional<std::string> best = engine.wait_for("bestmove", 1000 + 2000, &lines);
    REQUIRE(best);
    CHECK(check_bestmove_line(*best, hit) == "");
    check_info_lines(lines, hit);

    // Ponder miss: stop, discard that bestmove, then search the real position.
    REQUIRE(engine.send("position startpos moves 7g7f 3c3d 2g2f 8c8d"));
    REQUIRE(engine.send("go ponder btime 0 wtime 0 byoyomi 1000"));
    lines.clear();
    engine.drain_for(300, lines);
    CHECK(count_prefix(lines, "bestmove") == 0);
    REQUIRE(engine.send("stop"));
    REQUIRE(engine.wait_for("bestmove", 1000));
    const Position miss = position_after(Position::kStartSfen, {"7g7f", "3c3d", "2g2f", "4c4d"});
    REQUIRE(engine.send("position startpos moves 7g7f 3c3d 2g2f 4c4d"));
    REQUIRE(engine.send("go btime 0 wtime 0 byoyomi 500"));
    lines.clear();
    best = engine.wait_for("bestmove", 500 + 2000, &lines);
    REQUIRE(best);
    CHECK(check_bestmove_line(*best, miss) == "");

    // The game ends while we ponder: gameover ends the search, the next game starts clean.
    REQUIRE(engine.send("go ponder btime 0 wtime 0 byoyomi 1000"));
    REQUIRE(engine.send("gameover lose"));
    REQUIRE(engine.send("isready"));
    REQUIRE(engine.wait_for("readyok", 5000));
    REQUIRE(engine.send("usinewgame"));
    REQUIRE(engine.send("position startpos"));
    REQUIRE(engine.send("go depth 2"));
    lines.clear();
    best = engine.wait_for("bestmove", 10000, &lines);
    REQUIRE(best);
    CHECK(check_bestmove_line(*best, Position()) == "");
    REQUIRE(engine.send("quit"));
    CHECK(engine.wait_exit(5000) == std::optional<int>(0));
  }

  TEST_CASE("usi binary: a go before the previous search ended, errors, resign") {
    UsiProcess engine;
    INFO(engine.transcript());
    engine.handshake();
    // Errors are info strings; the engine keeps answering.
    REQUIRE(engine.send("setoption name No Such Option value 3"));
    REQUIRE(engine.wait_for("info string error", 5000));
    REQUIRE(engine.send("position sfen garbage b - 1"));
    REQUIRE(engine.wait_for("info string error", 5000));
    REQUIRE(engine.send("position startpos moves 7g7f 7g7f"));
    REQUIRE(engine.wait_for("info string error", 5000));
    REQUIRE(engine.send("hello"));
    REQUIRE(engine.wait_for("info string unknown command: hello", 5000));
    REQUIRE(engine.send("go mate 1000"));
    REQUIRE(engine.wait_for("checkmate timeout", 5000));

    // The illegal-move position was refused: the engine holds the start position, which the
    // GUI no longer shows, so it resigns rather than play a move for it.
    REQUIRE(engine.send("go depth 1"));
    CHECK(engine.wait_for("bestmove", 5000) == std::optional<std::string>("bestmove resign"));
    REQUIRE(engine.send("position startpos"));
    REQUIRE(engine.send("go infinite"));
    REQUIRE(engine.send("go depth 1"));
    std::vector<std::string> lines;
    std::optional<std::string> first = engine.wait_for("bestmove", 5000, &lines);
    std::optional<std::string> second = engine.wait_for("bestmove", 10000, &lines);
    REQUIRE(first);
    REQUIRE(second);
    CHECK(check_bestmove_line(*first, Position()) == "");
    CHECK(check_bestmove_line(*second, Position()) == "");
    check_info_lines(lines, Position());

    // White to move is mated (gold on 5b held by the pawn on 5c): resign.
    REQUIRE(engine.send("position sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1"));
    REQUIRE(engine.send("go depth 3"));
    CHECK(engine.wait_for("bestmove", 10000) == std::optional<std::string>("bestmove resign"));

    // Black mates in one ply with G*5b: USI counts mate in plies, positive for the mover.
    REQUIRE(engine.send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1"));
    REQUIRE(engine.send("go depth 3"));
    lines.clear();
    CHECK(engine.wait_for("bestmove", 10000, &lines) ==
          std::optional<std::string>("bestmove G*5b"));
    REQUIRE(lines.size() >= 3);
    CHECK(starts_with(lines[lines.size() - 2], "info nodes "));  // the closing count
    CHECK(lines[lines.size() - 3].find(" score mate 1 ") != std::string::npos);
    REQUIRE(engine.send("quit"));
    CHECK(engine.wait_exit(5000) == std::optional<int>(0));
  }

  TEST_CASE("usi binary: quit during a search and end of input both exit with 0") {
    {
      UsiProcess engine;
      INFO(engine.transcript());
      engine.handshake();
      REQUIRE(engine.send("position startpos"));
      REQUIRE(engine.send("go infinite"));
      std::vector<std::string> lines;
      engine.drain_for(300, lines);
      REQUIRE(engine.send("quit"));
      CHECK(engine.wait_exit(5000) == std::optional<int>(0));
    }
    {
      UsiProcess engine;
      INFO(engine.transcript());
      engine.handshake();
      REQUIRE(engine.send("position startpos"));
      REQUIRE(engine.send("go infinite"));
      engine.close_input();
      CHECK(engine.wait_exit(5000) == std::optional<int>(0));
    }
  }
}

}  // namespace usi_test

namespace usi_test {

TEST_CASE("engine: prepare names every file it cannot load, not only the first") {
  Engine engine;
  REQUIRE(engine.set_option("EvalFile", "/nonexistent/weights.eval"));
  REQUIRE(engine.set_option("MateControl", "limit"));
  REQUIRE(engine.set_option("MateSvmFile", "/nonexistent/svm.model"));
  const Status st = engine.prepare();
  REQUIRE(!st);
  CHECK(st.message().find("/nonexistent/weights.eval") != std::string::npos);
  CHECK(st.message().find("/nonexistent/svm.model") != std::string::npos);
}

}  // namespace usi_test
