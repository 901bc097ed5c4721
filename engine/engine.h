// Engine: the protocol-free facade over position, search and options, for USI, CSA and tools.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "engine/book_advisor.h"
#include "engine/names.h"
#include "engine/options.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace engine {

namespace mate {
struct SvmModel;
}  // namespace mate

// What one `go` may spend. Times in milliseconds; -1 means "not given".
struct SearchLimits {
  int64_t time_left_ms[kColorNb] = {-1, -1};  // btime, wtime
  int64_t increment_ms[kColorNb] = {0, 0};    // binc, winc (Fischer)
  int64_t byoyomi_ms = 0;                     // per-move byoyomi after the main time
  int64_t movetime_ms = -1;                   // exactly this long
  int depth = 0;                              // 0: no limit
  uint64_t nodes = 0;                         // 0: no limit
  bool infinite = false;                      // until stop
  bool ponder = false;                        // pondering until ponderhit or stop

  bool has_clock() const { return time_left_ms[kBlack] >= 0 || time_left_ms[kWhite] >= 0; }
};

// A progress report of the search (USI `info`).
struct SearchInfo {
  enum class Bound { kExact, kLower, kUpper };
  int depth = 0;
  int seldepth = 0;
  Value score = 0;  // side to move's view; mate scores as kValueMate - plies
  Bound bound = Bound::kExact;
  uint64_t nodes = 0;
  int64_t time_ms = 0;
  uint64_t nps = 0;
  int hashfull = 0;  // per mille
  int multipv = 0;   // with MultiPV above 1: which line (1 the best); 0: the only one
  std::vector<Move> pv;
  // When set, not a search report but a message (USI `info string`), such as the book's
  // moves.
  std::string message;
};

// The outcome of a search (USI `bestmove`).
struct SearchResult {
  enum class Kind { kMove, kResign, kWin };  // kWin: declare the entering-king win
  Kind kind = Kind::kResign;
  Move best = kMoveNone;
  Move ponder = kMoveNone;
  Value score = 0;  // kValueNone when the search stopped before depth 1 finished
  int depth = 0;
  uint64_t nodes = 0;
  // The mate solver's calls at inner nodes (MateSearch) in this search, all threads: how
  // many, their nodes (counted in `nodes` too) and how many proved a mate.
  uint64_t mate_calls = 0, mate_nodes = 0, mate_found = 0;
};

// A progress report of a mate search (USI `go mate`'s info lines): the solver's size so far
// and, when it has just found a mate (shorter than any before), that mate.
struct MateSearchInfo {
  int depth = 0;     // plies of the shortest mate found so far; 0: none yet
  int seldepth = 0;  // the deepest path walked
  uint64_t nodes = 0;
  int64_t time_ms = 0;
  std::vector<Move> pv;  // the mate just found (depth plies); empty in a progress report
};

// The outcome of a mate search (USI `checkmate`).
struct MateSearchResult {
  // kUnknown: stopped, out of time, or the solver's bounded work ran out before an answer.
  enum class Kind { kMate, kNoMate, kUnknown };
  Kind kind = Kind::kUnknown;
  std::vector<Move> line;        // kMate: the attacker's move first, the mating move last
  bool proven_shortest = false;  // kMate: no shorter mate exists
  std::string note;              // kMate without proven_shortest: why it is not proven
};

// A position a game of shogi can reach has a king and no more pieces of a kind than one set
// holds (18 pawns; 4 lances, knights, silvers, golds; 2 bishops, rooks), promoted ones counted
// as their kind. Composed positions beyond that are for perft tables, not for play: the USI
// position command refuses them. A single king (a mate problem) is allowed.
Status check_piece_set(const Position& pos);

class SearchManager;  // engine/search.h
class MateRunner;     // engine/mate_runner.h

constexpr int kMaxMultiPv = 600;  // MultiPV's maximum: more than any position's legal moves

// Engine: owns the options, the game position (with its history, for repetition), the
// transposition table and the search threads. One instance per engine; several can live in
// one process (no globals but the immutable attack and hash tables).
// Thread-safety: call everything from one thread; callbacks arrive on a search thread.
class Engine {
 public:
  Engine();
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  Options& options() { return options_; }
  const Options& options() const { return options_; }
  // Sets an option by name (USI setoption); errors name the option and the value.
  Status set_option(const std::string& name, const std::string& value);

  // Loads what the options name (the evaluation weights, the opening book); go() does it
  // too when needed. USI calls it at isready. On error the engine still works (with the
  // built-in hand-set weights, without a book) and the error says so, naming every file that
  // failed ("; " between them).
  Status prepare();

  // Opens the book a BookFile path names (the engine knows no storage; book/ provides it).
  // Without a loader the engine plays without a book whatever the options say.
  using BookLoader =
      std::function<Status(const std::string& path, std::shared_ptr<const BookAdvisor>& out)>;
  void set_book_loader(BookLoader loader);

  // Forgets everything learned from the previous game (hash, history, statistics that are
  // per game) so that the same search twice after new_game gives the same nodes.
  void new_game();
  // The game position: `root` as it stands (with any history it holds) and the moves played
  // from it, kept as history for repetition. On error (a piece set no game reaches, a move
  // not legal where it is played) the current position is kept and the error names the bad
  // part.
  Status set_position(const Position& root, const std::vector<Move>& moves);
  // The same from text, as USI sends it: "startpos" or an SFEN, then moves in USI notation.
  Status set_position(std::string_view sfen_or_startpos, const std::vector<std::string>& moves);
  const Position& position() const { return position_; }

  using InfoCallback = std::function<void(const SearchInfo&)>;
  using ResultCallback = std::function<void(const SearchResult&)>;
  void set_info_callback(InfoCallback cb) { on_info_ = std::move(cb); }
  void set_result_callback(ResultCallback cb) { on_result_ = std::move(cb); }

  // Starts searching the current position and returns at once; the result callback fires
  // when the search ends (never while pondering or infinite, until stop or ponderhit).
  void go(const SearchLimits& limits);
  // Asks the running search, or mate search, to end now: it reports its result at once.
  void stop();
  void ponderhit();
  void wait();  // blocks until the current search or mate search has finished

  using MateInfoCallback = std::function<void(const MateSearchInfo&)>;
  using MateResultCallback = std::function<void(const MateSearchResult&)>;
  void set_mate_info_callback(MateInfoCallback cb) { on_mate_info_ = std::move(cb); }
  void set_mate_result_callback(MateResultCallback cb) { on_mate_result_ = std::move(cb); }
  // Looks for a mate by checks from the current position (USI `go mate`), for time_ms
  // milliseconds (< 0: until stop), in a mate table of MateHash MB that is kept from one call
  // to the next while MateHash stays the same. Easy problems are answered before it returns;
  // the others on a thread of their own: info reports about once a second and for each mate
  // found, then exactly one result. Throws (std::bad_alloc, std::system_error) when the table
  // or the thread cannot be made; nothing is reported then. REQUIRES: no search running.
  void go_mate(int64_t time_ms);
  // Searches synchronously and returns the result (tools and bench).
  SearchResult search(const SearchLimits& limits);
  // Total nodes of the last search.
  uint64_t nodes_searched() const;
  // The futility statistics and adopted margins, for diagnostics.
  std::string futility_report() const;
  // Shows `observer` every position where the search calls the mate solver (MateSearch on),
  // before the call, from the search threads; empty: none. For datasets of such positions.
  void set_mate_call_observer(std::function<void(const Position&)> observer);

 private:
  void apply_futility();
  void apply_time_options();
  void apply_eval_noise();
  // limits narrowed by DepthLimit and NodesLimit.
  SearchLimits with_option_limits(SearchLimits limits) const;
  void apply_book();
  Status load_book();
  Status load_weights();
  void apply_mate_calls();
  Status load_mate_model();
  Options options_;
  bool mate_model_loaded_ = false;
  std::shared_ptr<const mate::SvmModel> mate_model_;
  std::function<void(const Position&)> mate_call_observer_;
  bool weights_loaded_ = false;
  BookLoader book_loader_;
  bool book_loaded_ = false;
  std::shared_ptr<const BookAdvisor> book_;
  Position position_;
  InfoCallback on_info_;
  ResultCallback on_result_;
  MateInfoCallback on_mate_info_;
  MateResultCallback on_mate_result_;
  std::unique_ptr<SearchManager> search_;
  std::unique_ptr<MateRunner> mate_;
};

}  // namespace engine
