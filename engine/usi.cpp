// USI protocol loop: parses GUI commands, drives the Engine facade, prints its reports.
#include "engine/usi.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <exception>
#include <istream>
#include <ostream>

#include "base/line_writer.h"
#include "base/shown_text.h"
#include "base/text_lines.h"
#include "base/version.h"
#include "engine/names.h"
#include "shogi/notation.h"

namespace engine {
namespace {

constexpr const char* kEngineName = "sashite";
constexpr const char* kEngineAuthor = "the sashite authors";

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

// A word of a command line and where it lies in that line, so that names and values
// containing spaces can be cut out of the line as written.
struct Token {
  std::string_view text;
  size_t begin = 0;
  size_t end = 0;
};

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_space(s[i])) ++i;
    if (i == s.size()) break;
    size_t begin = i;
    while (i < s.size() && !is_space(s[i])) ++i;
    tokens.push_back({s.substr(begin, i - begin), begin, i});
  }
  return tokens;
}

// The text from the start of tokens[first] to the end of tokens[last], inner spaces kept.
std::string_view span(std::string_view s, const std::vector<Token>& tokens, size_t first,
                      size_t last) {
  return s.substr(tokens[first].begin, tokens[last].end - tokens[first].begin);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool parse_int64(std::string_view text, int64_t& out) {
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end && !text.empty();
}

bool is_go_keyword(std::string_view s) {
  for (const char* k : {"infinite", "ponder", "btime", "wtime", "binc", "winc", "byoyomi",
                        "movetime", "depth", "nodes", "mate"})
    if (s == k) return true;
  return false;
}

std::string quoted(std::string_view s) {
  std::string out(1, '\'');
  out += shown_text(s);
  out += '\'';
  return out;
}

// The search thread's info lines never interleave with the loop's replies.
using base::LineWriter;

// One USI conversation over one engine. Lives on the loop's thread; the engine's callbacks
// (on a search thread) touch only writer_ and searching_.
class UsiSession {
 public:
  UsiSession(Engine& engine, std::ostream& out);
  ~UsiSession();
  UsiSession(const UsiSession&) = delete;
  UsiSession& operator=(const UsiSession&) = delete;

  // Handles one command line; false when the loop must end (quit).
  bool handle(std::string_view line);
  // Stops a running search and waits for it (its bestmove is printed). No-op when idle.
  void finish_search();

 private:
  bool dispatch(std::string_view command, std::string_view args);
  void usi();
  void setoption(std::string_view args);
  void position(std::string_view args);
  void go(std::string_view args);
  void gameover(std::string_view args);
  // Messages may quote input: shown_text keeps the line printable and short.
  void error(const std::string& message) {
    writer_.line("info string error: " + shown_text(message, 600));
  }

  Engine& engine_;
  LineWriter writer_;
  bool search_started_ = false;  // go or go mate was called and wait() has not followed yet
  bool mate_search_ = false;     // the search last started is go mate's
  // False after a position command was rejected: the engine still holds the position before
  // it, which the GUI no longer shows, so go must not play a move for it.
  bool position_ok_ = true;
  // From go until the bestmove is printed, from go mate until the checkmate answer.
  std::atomic<bool> searching_{false};
};

UsiSession::UsiSession(Engine& engine, std::ostream& out) : engine_(engine), writer_(out) {
  engine_.set_info_callback(
      [this](const SearchInfo& info) { writer_.line(format_usi_info(info)); });
  engine_.set_result_callback([this](const SearchResult& result) {
    // The nodes of the whole search, the last unfinished iteration included (the info lines
    // come at iteration ends): GUIs and `sashite match` take the largest count they saw.
    if (result.nodes > 0) writer_.line("info nodes " + std::to_string(result.nodes));
    if (result.mate_calls > 0)
      writer_.line("info string mate calls " + std::to_string(result.mate_calls) + " nodes " +
                   std::to_string(result.mate_nodes) + " found " +
                   std::to_string(result.mate_found));
    writer_.line(format_usi_bestmove(result));
    searching_ = false;
  });
  engine_.set_mate_info_callback(
      [this](const MateSearchInfo& info) { writer_.line(format_usi_mate_info(info)); });
  engine_.set_mate_result_callback([this](const MateSearchResult& result) {
    for (const std::string& line : format_usi_checkmate(result)) writer_.line(line);
    searching_ = false;
  });
}

UsiSession::~UsiSession() {
  finish_search();
  // The writer dies with the session; leave the engine callbacks that reference nothing.
  engine_.set_info_callback([](const SearchInfo&) {});
  engine_.set_result_callback([](const SearchResult&) {});
  engine_.set_mate_info_callback([](const MateSearchInfo&) {});
  engine_.set_mate_result_callback([](const MateSearchResult&) {});
}

void UsiSession::finish_search() {
  // A stopped go mate answers "checkmate timeout" unless it has solved the problem.
  if (!search_started_) return;
  if (searching_) engine_.stop();
  engine_.wait();
  search_started_ = false;
  searching_ = false;
}

bool UsiSession::handle(std::string_view line) {
  line = trim(line);  // GUIs on Windows end lines with "\r\n"
  std::vector<Token> tokens = tokenize(line);
  if (tokens.empty()) return true;
  std::string_view command = tokens[0].text;
  std::string_view args = line.substr(tokens[0].end);
  // A command must never end the loop by accident: errors thrown below the facade
  // (allocation failure for a large hash, a broken invariant) become info strings.
  try {
    return dispatch(command, args);
  } catch (const std::exception& e) {
    error(std::string(command) + ": " + e.what());
  }
  return true;
}

bool UsiSession::dispatch(std::string_view command, std::string_view args) {
  if (command == "usi") {
    usi();
  } else if (command == "isready") {
    // Loading takes time (evaluation weights) and belongs here, before readyok, not in the
    // first go. A running search has loaded everything already; a mate search needs none of
    // it and leaves the engine free to load. A GUI waits for readyok whatever went wrong: an
    // exception (out of memory reading a file) is reported as a failed load is.
    if (!searching_ || mate_search_) {
      Status status;
      try {
        status = engine_.prepare();
      } catch (const std::exception& e) {
        status = Status::error(e.what());
      }
      if (!status) error("isready: " + status.message());
    }
    writer_.line("readyok");
  } else if (command == "setoption") {
    setoption(args);
  } else if (command == "usinewgame") {
    finish_search();
    engine_.new_game();
  } else if (command == "position") {
    position(args);
  } else if (command == "go") {
    go(args);
  } else if (command == "stop") {
    if (search_started_) engine_.stop();
  } else if (command == "ponderhit") {
    if (search_started_) engine_.ponderhit();
  } else if (command == "gameover") {
    gameover(args);
  } else if (command == "quit") {
    finish_search();
    return false;
  } else if (command == "d" || command == "display") {
    writer_.line("sfen " + engine_.position().sfen());
  } else {
    writer_.line("info string unknown command: " +
                 shown_text(std::string(command) + std::string(args)));
  }
  return true;
}

void UsiSession::usi() {
  writer_.line(std::string("id name ") + kEngineName + ' ' + build_version());
  writer_.line(std::string("id author ") + kEngineAuthor);
  for (const std::string& line : engine_.options().usi_lines()) writer_.line(line);
  writer_.line("usiok");
}

void UsiSession::setoption(std::string_view args) {
  std::string name, value;
  Status status = parse_usi_setoption(args, name, value);
  if (!status) return error(status.message());
  finish_search();  // options are not thread-safe; GUIs do not set them while searching
  status = engine_.set_option(name, value);
  if (!status) error("setoption: " + status.message());
}

void UsiSession::position(std::string_view args) {
  std::string sfen;
  std::vector<std::string> moves;
  Status status = parse_usi_position(args, sfen, moves);
  position_ok_ = false;
  if (!status) return error(status.message());
  finish_search();
  status = engine_.set_position(sfen, moves);
  if (!status) return error("position: " + status.message());
  position_ok_ = true;
}

void UsiSession::go(std::string_view args) {
  finish_search();
  UsiGoCommand command = parse_usi_go(args);
  for (const std::string& e : command.errors) error(e);
  if (!position_ok_) {
    // Never a move for a position the GUI does not show.
    error(std::string("go: the last position command was rejected; no position to search") +
          (command.mate ? "" : ", resigning"));
    // go mate: "timeout", the answer that claims nothing (nomate would be read as a result).
    writer_.line(command.mate ? "checkmate timeout" : "bestmove resign");
    return;
  }
  search_started_ = true;
  searching_ = true;
  mate_search_ = command.mate;
  if (command.mate) {
    // The mate solver on its own thread; `stop` or the time limit ends it.
    try {
      engine_.go_mate(command.mate_ms);
    } catch (const std::exception& e) {
      // No table of MateHash MB (out of memory) or no thread: still an answer.
      search_started_ = false;
      searching_ = false;
      error(std::string("go mate: the mate search could not start: ") + e.what() + " (MateHash " +
            std::to_string(engine_.options().get_int("MateHash")) + " MB)");
      writer_.line("checkmate timeout");
    }
    return;
  }
  try {
    engine_.go(command.limits);
  } catch (const std::exception& e) {
    // No search thread could start (out of memory, a thread limit): still an answer.
    search_started_ = false;
    searching_ = false;
    error(std::string("go: the search could not start: ") + e.what() + "; resigning");
    writer_.line("bestmove resign");
  }
}

void UsiSession::gameover(std::string_view args) {
  std::vector<Token> tokens = tokenize(args);
  if (tokens.size() != 1 ||
      (tokens[0].text != "win" && tokens[0].text != "lose" && tokens[0].text != "draw"))
    error("gameover: expected win, lose or draw, got " + quoted(trim(args)));
  // A game can end while we ponder; that search has nothing left to do.
  finish_search();
  // The margins a precision-driven futility mode chose over the game (none in fixed mode),
  // for match logs.
  const std::string report = engine_.futility_report();
  TextLines lines(report);
  for (std::string_view line; lines.next(line);)
    writer_.line("info string futility " + std::string(line));
}

}  // namespace

int run_usi(Engine& engine, std::istream& in, std::ostream& out) {
  // A tied stream would flush `out` on every read, outside the writer's mutex, racing with
  // the search thread's writes.
  std::ostream* tied = in.tie(nullptr);
  {
    UsiSession session(engine, out);
    std::string line;
    while (std::getline(in, line))
      if (!session.handle(line)) break;
    // At the end of input, behave as quit: the destructor stops the search and waits.
  }
  in.tie(tied);
  return 0;
}

UsiGoCommand parse_usi_go(std::string_view args) {
  UsiGoCommand command;
  SearchLimits& limits = command.limits;
  std::vector<Token> tokens = tokenize(args);
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string key(tokens[i].text);
    // Reads the number after the key. A bad value is skipped with the key, unless it is
    // the next keyword ("go btime wtime 0").
    auto number = [&](int64_t& out) {
      if (i + 1 < tokens.size() && parse_int64(tokens[i + 1].text, out)) {
        ++i;
        return true;
      }
      if (i + 1 < tokens.size() && !is_go_keyword(tokens[i + 1].text)) {
        command.errors.push_back("go: " + key + " needs an integer, got " +
                                 quoted(tokens[i + 1].text));
        ++i;
      } else {
        command.errors.push_back("go: " + key + " needs an integer");
      }
      return false;
    };
    int64_t v = 0;
    if (key == "infinite") {
      limits.infinite = true;
    } else if (key == "ponder") {
      limits.ponder = true;
    } else if (key == "btime" || key == "wtime") {
      if (number(v))
        limits.time_left_ms[key == "btime" ? kBlack : kWhite] = std::max<int64_t>(v, 0);
    } else if (key == "binc" || key == "winc") {
      if (number(v)) limits.increment_ms[key == "binc" ? kBlack : kWhite] = std::max<int64_t>(v, 0);
    } else if (key == "byoyomi") {
      if (number(v)) limits.byoyomi_ms = std::max<int64_t>(v, 0);
    } else if (key == "movetime") {
      if (number(v)) limits.movetime_ms = std::max<int64_t>(v, 0);
    } else if (key == "depth") {
      if (number(v)) {
        if (v < 1)
          command.errors.push_back("go: depth must be at least 1, got " + std::to_string(v));
        else
          limits.depth = int(std::min<int64_t>(v, kMaxPly));
      }
    } else if (key == "nodes") {
      if (number(v)) {
        if (v < 1)
          command.errors.push_back("go: nodes must be at least 1, got " + std::to_string(v));
        else
          limits.nodes = uint64_t(v);
      }
    } else if (key == "mate") {
      command.mate = true;
      if (i + 1 < tokens.size() && tokens[i + 1].text == "infinite") {
        ++i;
      } else if (i + 1 < tokens.size() && parse_int64(tokens[i + 1].text, v)) {
        ++i;
        command.mate_ms = std::max<int64_t>(v, 0);
      }
    } else {
      command.errors.push_back("go: unknown argument " + quoted(key));
    }
  }
  // A go the GUI meant to be limited but that we could not read must not become an infinite
  // search it will never stop: answer at once, from a depth-1 search.
  const bool limited = limits.infinite || limits.ponder || limits.has_clock() ||
                       limits.byoyomi_ms > 0 || limits.movetime_ms >= 0 || limits.depth > 0 ||
                       limits.nodes > 0;
  if (!command.errors.empty() && !limited && !command.mate) {
    limits.depth = 1;
    command.errors.push_back("go: no limit could be read; answering after a depth-1 search");
  }
  return command;
}

Status parse_usi_setoption(std::string_view args, std::string& name, std::string& value) {
  const char* usage = "setoption: expected 'name <NAME> [value <VALUE>]'";
  std::vector<Token> tokens = tokenize(args);
  if (tokens.empty() || tokens[0].text != "name") return Status::error(usage);
  size_t value_at = 1;
  while (value_at < tokens.size() && tokens[value_at].text != "value") ++value_at;
  if (value_at == 1) return Status::error(std::string(usage) + ": the name is missing");
  name = std::string(span(args, tokens, 1, value_at - 1));
  value.clear();
  if (value_at + 1 < tokens.size())
    value = std::string(span(args, tokens, value_at + 1, tokens.size() - 1));
  if (value == "<empty>") value.clear();
  return Status::ok();
}

Status parse_usi_position(std::string_view args, std::string& sfen_or_startpos,
                          std::vector<std::string>& moves) {
  std::vector<Token> tokens = tokenize(args);
  moves.clear();
  if (tokens.empty()) return Status::error("position: expected 'startpos' or 'sfen <SFEN>'");
  size_t i = 1;
  if (tokens[0].text == "startpos") {
    sfen_or_startpos = "startpos";
  } else if (tokens[0].text == "sfen") {
    while (i < tokens.size() && tokens[i].text != "moves") ++i;
    const size_t fields = i - 1;
    if (fields < 3 || fields > 4)
      return Status::error(
          "position: an SFEN has 4 fields (board, side to move, hands, move "
          "number), got " +
          std::to_string(fields));
    sfen_or_startpos.clear();
    for (size_t f = 1; f < i; ++f) {
      if (f > 1) sfen_or_startpos += ' ';
      sfen_or_startpos += tokens[f].text;
    }
  } else {
    return Status::error("position: expected 'startpos' or 'sfen', got " + quoted(tokens[0].text));
  }
  if (i < tokens.size() && tokens[i].text != "moves")
    return Status::error("position: expected 'moves', got " + quoted(tokens[i].text));
  for (++i; i < tokens.size(); ++i) moves.emplace_back(tokens[i].text);
  return Status::ok();
}

std::string format_usi_score(Value score, SearchInfo::Bound bound) {
  std::string s;
  if (score >= kValueMateInMaxPly)
    s = "mate " + std::to_string(kValueMate - score);
  else if (score <= kValueMatedInMaxPly)
    s = "mate -" + std::to_string(kValueMate + score);  // "-0": mated at the root
  else
    s = "cp " + std::to_string(score);
  if (bound == SearchInfo::Bound::kLower) s += " lowerbound";
  if (bound == SearchInfo::Bound::kUpper) s += " upperbound";
  return s;
}

std::string format_usi_info(const SearchInfo& info) {
  if (!info.message.empty()) return "info string " + shown_text(info.message, 600);
  std::string s = "info depth " + std::to_string(info.depth);
  s += " seldepth " + std::to_string(info.seldepth);
  if (info.multipv > 0) s += " multipv " + std::to_string(info.multipv);
  s += " score " + format_usi_score(info.score, info.bound);
  s += " nodes " + std::to_string(info.nodes);
  s += " nps " + std::to_string(info.nps);
  s += " time " + std::to_string(info.time_ms);
  s += " hashfull " + std::to_string(info.hashfull);
  if (!info.pv.empty() && info.pv[0].is_ok()) {
    s += " pv";
    for (Move m : info.pv) {
      if (!m.is_ok()) break;
      s += ' ';
      s += format_usi_move(m);
    }
  }
  return s;
}

std::string format_usi_bestmove(const SearchResult& result) {
  if (result.kind == SearchResult::Kind::kWin) return "bestmove win";
  if (result.kind != SearchResult::Kind::kMove || !result.best.is_ok()) return "bestmove resign";
  std::string s = "bestmove " + format_usi_move(result.best);
  if (result.ponder.is_ok()) s += " ponder " + format_usi_move(result.ponder);
  return s;
}

std::string format_usi_mate_info(const MateSearchInfo& info) {
  std::string s = "info depth " + std::to_string(info.depth) + " seldepth " +
                  std::to_string(info.seldepth) + " time " + std::to_string(info.time_ms) +
                  " nodes " + std::to_string(info.nodes) + " nps " +
                  std::to_string(info.time_ms > 0 ? info.nodes * 1000 / uint64_t(info.time_ms) : 0);
  if (!info.pv.empty()) {
    s += " score mate " + std::to_string(info.depth) + " pv";
    for (Move m : info.pv) {
      s += ' ';
      s += format_usi_move(m);
    }
  }
  return s;
}

std::vector<std::string> format_usi_checkmate(const MateSearchResult& result) {
  switch (result.kind) {
    case MateSearchResult::Kind::kMate: {
      std::string s = "checkmate";
      for (Move m : result.line) {
        s += ' ';
        s += format_usi_move(m);
      }
      return {"info string mate in " + std::to_string(result.line.size()) + " plies, " +
                  (result.proven_shortest ? std::string("proven shortest") : result.note),
              s};
    }
    case MateSearchResult::Kind::kNoMate:
      return {"checkmate nomate"};
    case MateSearchResult::Kind::kUnknown:
      break;
  }
  return {"checkmate timeout"};
}

}  // namespace engine
