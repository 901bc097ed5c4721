// What GUI users expect of a USI engine: MultiPV lines, the YaneuraOu-style time options and
// limits, the version in `id name`, and book moves announced before the bestmove.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <istream>
#include <iterator>
#include <memory>
#include <ostream>
#include <set>
#include <sstream>
#include <streambuf>
#include <string>
#include <thread>
#include <vector>

#include "base/version.h"
#include "engine/engine.h"
#include "engine/search.h"
#include "engine/timeman.h"
#include "engine/usi.h"
#include "shogi/movegen.h"
#include "shogi/notation.h"

namespace usi_gui_test {

using namespace engine;

namespace {

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// The word after `key` in an info line, or "" when there is none.
std::string after(const std::string& line, const std::string& key) {
  const std::vector<std::string> w = words_of(line);
  for (size_t i = 0; i + 1 < w.size(); ++i)
    if (w[i] == key) return w[i + 1];
  return "";
}

// The loop's output, kept whole, with a count of the bestmove lines seen so far. The USI
// loop writes one whole line at a time under its own lock.
class WatchedOutput : public std::streambuf {
 public:
  std::string text;
  std::atomic<int> bestmoves{0};

 protected:
  int overflow(int c) override {
    if (c == EOF) return c;
    text += char(c);
    if (c == '\n') {
      const size_t begin = text.rfind('\n', text.size() - 2);
      if (text.compare(begin == std::string::npos ? 0 : begin + 1, 9, "bestmove ") == 0)
        ++bestmoves;
    }
    return c;
  }
};

// The script's lines one at a time; a line "(wait)" is not sent but waits until the loop has
// printed one more bestmove, so that a search is not stopped by the next command.
class ScriptInput : public std::streambuf {
 public:
  ScriptInput(const std::string& script, const WatchedOutput& out) : out_(out) {
    std::istringstream in(script);
    for (std::string line; std::getline(in, line);) lines_.push_back(line);
  }

 protected:
  int underflow() override {
    while (next_ < lines_.size() && lines_[next_] == "(wait)") {
      ++waited_;
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      while (out_.bestmoves.load() < waited_ && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      ++next_;
    }
    if (next_ == lines_.size()) return EOF;
    current_ = lines_[next_++] + "\n";
    setg(current_.data(), current_.data(), current_.data() + current_.size());
    return traits_type::to_int_type(current_[0]);
  }

 private:
  const WatchedOutput& out_;
  std::vector<std::string> lines_;
  size_t next_ = 0;
  int waited_ = 0;
  std::string current_;
};

std::vector<std::string> run_script(Engine& engine, const std::string& script) {
  WatchedOutput output;
  ScriptInput input(script, output);
  std::istream in(&input);
  std::ostream out(&output);
  run_usi(engine, in, out);
  std::vector<std::string> lines;
  std::istringstream text(output.text);
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  return lines;
}

std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

// The info lines of one depth that carry a multipv index, in order.
std::vector<std::string> lines_at_depth(const std::vector<std::string>& out, int depth) {
  std::vector<std::string> lines;
  for (const std::string& l : out)
    if (starts_with(l, "info depth " + std::to_string(depth) + " ") && !after(l, "multipv").empty())
      lines.push_back(l);
  return lines;
}

int centipawns(const std::string& line) { return std::stoi(after(line, "cp")); }

// A book that suggests fixed moves at the start position only.
class StartBook : public BookAdvisor {
 public:
  std::vector<std::pair<std::string, double>> moves;
  std::vector<BookSuggestion> suggest(const Position& pos, const BookRequest&) const override {
    std::vector<BookSuggestion> out;
    if (pos.sfen(false) != Position().sfen(false)) return out;
    for (const auto& [usi, weight] : moves) {
      Move m;
      REQUIRE(parse_usi_move(pos, usi, m).is_ok());
      out.push_back({m, weight, 7, Value(35)});
    }
    return out;
  }
};

void attach(Engine& engine, std::shared_ptr<StartBook> book) {
  engine.set_book_loader([book](const std::string&, std::shared_ptr<const BookAdvisor>& out) {
    out = book;
    return Status::ok();
  });
}

}  // namespace

TEST_CASE("MultiPV: N lines a depth, distinct first moves, best first, the bestmove the first") {
  Engine engine;
  REQUIRE(engine.set_option("USI_Hash", "16").is_ok());
  REQUIRE(engine.set_option("USI_OwnBook", "false").is_ok());
  const std::vector<std::string> out =
      run_script(engine,
                 "setoption name MultiPV value 3\nposition startpos moves 7g7f 3c3d\ngo depth "
                 "6\n(wait)\nquit\n");
  INFO(join(out));
  for (int depth = 1; depth <= 6; ++depth) {
    const std::vector<std::string> lines = lines_at_depth(out, depth);
    REQUIRE(lines.size() == 3);
    std::set<std::string> first_moves;
    for (size_t i = 0; i < lines.size(); ++i) {
      CHECK(after(lines[i], "multipv") == std::to_string(i + 1));
      first_moves.insert(after(lines[i], "pv"));
      if (i > 0) CHECK(centipawns(lines[i]) <= centipawns(lines[i - 1]));
    }
    CHECK(first_moves.size() == 3);
  }
  const std::string best = after(lines_at_depth(out, 6).front(), "pv");
  REQUIRE(!out.empty());
  CHECK(out.back() ==
        "bestmove " + best +
            (after(out.back(), "ponder").empty() ? "" : " ponder " + after(out.back(), "ponder")));
}

TEST_CASE("MultiPV above the number of legal moves reports each move once") {
  Engine engine;
  REQUIRE(engine.set_option("USI_Hash", "16").is_ok());
  // White's king on 1a, in check from a lone gold on 2b: the king's one move takes it.
  const std::vector<std::string> out =
      run_script(engine,
                 "setoption name MultiPV value 50\nposition sfen 8k/7G1/9/9/9/9/9/9/K8 w - 1\n"
                 "go depth 3\n(wait)\nquit\n");
  INFO(join(out));
  CHECK(std::find_if(out.begin(), out.end(),
                     [](const std::string& l) { return after(l, "multipv") == "1"; }) != out.end());
  for (const std::string& l : out) CHECK(after(l, "multipv") != "2");
  CHECK(starts_with(out.back(), "bestmove 1a2b"));
}

TEST_CASE("MultiPV 1 prints no multipv field and searches as before") {
  Engine a, b;
  for (Engine* e : {&a, &b}) {
    REQUIRE(e->set_option("USI_Hash", "16").is_ok());
    REQUIRE(e->set_option("USI_OwnBook", "false").is_ok());
    REQUIRE(e->set_position(Position::kStartSfen, {"2g2f", "8c8d"}).is_ok());
  }
  REQUIRE(b.set_option("MultiPV", "1").is_ok());
  SearchLimits limits;
  limits.depth = 7;
  std::vector<SearchInfo> infos;
  a.set_info_callback([&infos](const SearchInfo& i) { infos.push_back(i); });
  const SearchResult ra = a.search(limits);
  const SearchResult rb = b.search(limits);
  CHECK(ra.nodes == rb.nodes);
  CHECK(ra.best == rb.best);
  for (const SearchInfo& i : infos) CHECK(i.multipv == 0);
}

TEST_CASE("DepthLimit and NodesLimit bound every search, whatever go says") {
  Engine engine;
  REQUIRE(engine.set_option("USI_Hash", "16").is_ok());
  REQUIRE(engine.set_option("USI_OwnBook", "false").is_ok());
  REQUIRE(engine.set_option("DepthLimit", "4").is_ok());
  std::vector<std::string> out =
      run_script(engine, "position startpos\ngo btime 0 wtime 0 byoyomi 600000\n(wait)\nquit\n");
  INFO(join(out));
  int deepest = 0;
  for (const std::string& l : out)
    if (starts_with(l, "info depth ")) deepest = std::max(deepest, std::stoi(after(l, "depth")));
  CHECK(deepest == 4);
  CHECK(starts_with(out.back(), "bestmove "));

  REQUIRE(engine.set_option("DepthLimit", "0").is_ok());
  REQUIRE(engine.set_option("NodesLimit", "3000").is_ok());
  engine.new_game();
  REQUIRE(engine.set_position(Position::kStartSfen, {}).is_ok());
  SearchLimits limits;
  limits.nodes = 1000000;  // the option's smaller limit wins
  const SearchResult r = engine.search(limits);
  CHECK(r.nodes >= 3000);
  CHECK(r.nodes < 20000);
}

TEST_CASE("time options: NetworkDelay from the target, NetworkDelay2 from the hard limit") {
  SearchLimits limits;
  limits.time_left_ms[kBlack] = limits.time_left_ms[kWhite] = 600000;
  limits.byoyomi_ms = 10000;
  TimeOptions plain;
  plain.overhead_ms = 0;
  const TimeBudget base = compute_time_budget(limits, kBlack, 40, plain);
  TimeOptions delays = plain;
  delays.network_delay_ms = 120;
  delays.network_delay2_ms = 1120;
  const TimeBudget delayed = compute_time_budget(limits, kBlack, 40, delays);
  CHECK(delayed.optimum_ms == base.optimum_ms - 120);
  CHECK(delayed.maximum_ms == base.maximum_ms - 1120);

  // Byoyomi only: the whole byoyomi less the worst delay.
  SearchLimits byoyomi;
  byoyomi.time_left_ms[kBlack] = byoyomi.time_left_ms[kWhite] = 0;
  byoyomi.byoyomi_ms = 5000;
  const TimeBudget b = compute_time_budget(byoyomi, kBlack, 40, delays);
  CHECK(b.maximum_ms == 5000 - 1120);
  CHECK(b.spend_all);

  // MoveOverhead is the floor of both delays.
  TimeOptions overhead = delays;
  overhead.overhead_ms = 2000;
  CHECK(compute_time_budget(byoyomi, kBlack, 40, overhead).maximum_ms == 3000);

  // SlowMover scales the target; MinimumThinkingTime raises it, within what can be spent.
  TimeOptions slow = plain;
  slow.slow_mover_percent = 50;
  CHECK(compute_time_budget(limits, kBlack, 40, slow).optimum_ms == base.optimum_ms / 2);
  SearchLimits sudden;
  sudden.time_left_ms[kBlack] = sudden.time_left_ms[kWhite] = 30000;
  TimeOptions minimum = plain;
  minimum.minimum_thinking_ms = 5000;
  CHECK(compute_time_budget(sudden, kBlack, 40, plain).optimum_ms < 5000);
  CHECK(compute_time_budget(sudden, kBlack, 40, minimum).optimum_ms == 5000);
  sudden.time_left_ms[kBlack] = 3000;
  CHECK(compute_time_budget(sudden, kBlack, 40, minimum).optimum_ms <= 3000);
}

TEST_CASE("the time options are USI options, and the defaults leave the budget as it was") {
  Engine engine;
  for (const char* name : {"NetworkDelay", "NetworkDelay2", "MinimumThinkingTime", "SlowMover",
                           "DepthLimit", "NodesLimit", "MultiPV"})
    CHECK(engine.options().find(name) != nullptr);
  CHECK(engine.set_option("SlowMover", "0").is_ok() == false);
  CHECK(engine.set_option("NetworkDelay2", "-1").is_ok() == false);
  SearchLimits limits;
  limits.time_left_ms[kBlack] = limits.time_left_ms[kWhite] = 60000;
  limits.increment_ms[kBlack] = limits.increment_ms[kWhite] = 2000;
  TimeOptions defaults;
  TimeOptions overhead_only;
  overhead_only.overhead_ms = 100;
  CHECK(compute_time_budget(limits, kWhite, 30, defaults).optimum_ms ==
        compute_time_budget(limits, kWhite, 30, overhead_only).optimum_ms);
}

TEST_CASE("id name carries the build's version") {
  Engine engine;
  const std::vector<std::string> out = run_script(engine, "usi\nquit\n");
  REQUIRE(!out.empty());
  CHECK(out.front() == std::string("id name sashite ") + build_version());
  CHECK(std::string(build_version()).size() > 0);
}

TEST_CASE("a book move played outright is announced: an info string and an info pv") {
  Engine engine;
  REQUIRE(engine.set_option("USI_Hash", "16").is_ok());
  auto book = std::make_shared<StartBook>();
  book->moves = {{"7g7f", 0.75}, {"2g2f", 0.25}};
  attach(engine, book);
  const std::vector<std::string> out =
      run_script(engine,
                 "setoption name BookMoveChoice value best\nisready\nposition startpos\n"
                 "go btime 0 wtime 0 byoyomi 1000\n(wait)\nquit\n");
  INFO(join(out));
  REQUIRE(out.size() >= 3);
  CHECK(out[out.size() - 1] == "bestmove 7g7f");
  CHECK(after(out[out.size() - 2], "pv") == "7g7f");
  CHECK(out[out.size() - 3] ==
        "info string book move 7g7f, from 7g7f 75% (7, 35 cp) 2g2f 25% (7, 35 cp)");
}

TEST_CASE("a book that guides the search says so before the search's lines") {
  Engine engine;
  REQUIRE(engine.set_option("USI_Hash", "16").is_ok());
  auto book = std::make_shared<StartBook>();
  book->moves = {{"2g2f", 1.0}};
  attach(engine, book);
  const std::vector<std::string> out =
      run_script(engine, "isready\nposition startpos\ngo depth 3\n(wait)\nquit\n");
  INFO(join(out));
  const auto note =
      std::find(out.begin(), out.end(), "info string book guides the search: 2g2f 100% (7, 35 cp)");
  REQUIRE(note != out.end());
  const auto first_depth = std::find_if(
      out.begin(), out.end(), [](const std::string& l) { return starts_with(l, "info depth "); });
  CHECK(note < first_depth);
}

TEST_CASE("describe_book_suggestions cuts a long list") {
  Position pos;
  const MoveList legal = legal_moves(pos);
  std::vector<BookSuggestion> many;
  for (Move m : legal) many.push_back({m, 1.0 / double(legal.size()), 1, kValueNone});
  const std::string s = describe_book_suggestions(many, 0);
  CHECK(starts_with(s, "book move "));
  CHECK(s.find(" and " + std::to_string(legal.size() - 8) + " more") != std::string::npos);
}

TEST_CASE("every option has a meaning, and the README's options table is the engine's own") {
  Engine engine;
  for (const Option& o : engine.options().all()) CHECK_MESSAGE(!o.help.empty(), o.name);
  std::ifstream in(std::string(SASHITE_TEST_DATA_DIR) + "/../../README.md");
  REQUIRE(in.good());
  const std::string readme((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string begin = "<!-- usi-options:begin -->\n", end = "<!-- usi-options:end -->";
  const size_t from = readme.find(begin), to = readme.find(end);
  REQUIRE(from != std::string::npos);
  REQUIRE(to != std::string::npos);
  const std::string table = readme.substr(from + begin.size(), to - from - begin.size());
  // When this fails, paste `build/sashite usi --list-options` between the markers.
  CHECK(table == engine.options().markdown_table());
  CHECK(starts_with(table, "| option | type | default | range | meaning |\n"));
}

}  // namespace usi_gui_test
