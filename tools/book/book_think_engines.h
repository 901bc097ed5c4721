// ThinkEngines: the USI engine processes one `sashite book think` job searches with.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "shogi/types.h"
#include "tools/book/book_think_tree.h"
#include "usi/usi_engine_process.h"

namespace tools {

// What every search is told: exactly one of depth and movetime_ms is > 0.
struct ThinkSearchLimits {
  int depth = 0;  // "go depth D"
  // "go movetime MS"; gpsusi, which knows neither movetime nor depth (it aborts), gets
  // "go btime 0 wtime 0 byoyomi MS" (and thinks at least ~0.8 s whatever it is told).
  int movetime_ms = 0;
  // No bestmove within this after "go" is a fault. Default (0): 600 s with a depth, else
  // 2 * movetime + 60 s.
  int timeout_ms = 0;
  int ready_timeout_ms = 30000;  // usiok and readyok

  // The go command for an engine; `byoyomi_form`: the gpsusi form of a movetime.
  std::string go_command(bool byoyomi_form = false) const;
  std::chrono::milliseconds timeout() const;
};

// The answer of one search as the tree wants it: the best move word and the final score of
// the info lines (engine's view = side to move's view). An engine that resigns or declares a
// win without a score gets -kThinkMateValue or +kThinkMateValue.
ThinkAnswer think_answer_from(const usi::BestMove& best);

// One process per configured engine, kept from one position to the next. Each position
// starts with isready/usinewgame on every engine (new_position), so a position's results do
// not depend on the positions searched before it (our engine clears its hash table on
// usinewgame: with Threads=1 and a depth limit the results are reproducible).
// Not thread-safe: one job (thread) owns one ThinkEngines.
class ThinkEngines {
 public:
  ThinkEngines(std::vector<usi::EngineConfig> configs, ThinkSearchLimits limits);
  ~ThinkEngines();

  // Starts every engine: usi/usiok, setoptions. Errors name the engine and its command.
  base::Status start();
  // isready/readyok and usinewgame on every engine (starting any that is not running).
  base::Status new_position();
  // Engine `index` searches `root_sfen` after `path`: "position sfen ROOT moves ...", "go".
  // A fault (timeout, exit) is an error naming the engine; the engines must then be
  // restarted (restart()).
  base::Status search(int index, const std::string& root_sfen, const std::vector<shogi::Move>& path,
                      ThinkAnswer& answer);
  // The multi-program tree of one position (docs/techniques.md §2): new_position(), then
  // expand_think_tree() with every engine's searches. On an error the engines are restarted,
  // so the next position starts clean.
  base::Status think(const std::string& root_sfen, int tree_depth, ThinkNode& tree);
  // Kills every process; the next new_position() starts them afresh.
  void restart();
  // Sends quit and waits a little for the processes to exit.
  void shut_down();

  int size() const { return int(configs_.size()); }

 private:
  base::Status start_engine(size_t index);
  std::string describe(size_t index) const;

  std::vector<usi::EngineConfig> configs_;
  ThinkSearchLimits limits_;
  std::vector<std::unique_ptr<usi::UsiEngineProcess>> processes_;  // null: not running
  std::vector<bool> byoyomi_form_;  // per engine: is gpsusi (see ThinkSearchLimits)
};

}  // namespace tools
