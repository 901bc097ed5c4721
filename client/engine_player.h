// EnginePlayer: what the CSA client needs from an engine, and the adapter over engine::Engine.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "client/csa_config.h"
#include "client/csa_session.h"
#include "engine/engine.h"

namespace client {

// Searches for the client's moves. Called from the client's loop thread only; the answer
// callback may be called on any thread (the client posts it back to its loop).
class EnginePlayer {
 public:
  using AnswerCallback = std::function<void(uint64_t search_id, EngineMove move)>;
  using LogSink = std::function<void(LogLevel level, const std::string& message)>;

  virtual ~EnginePlayer() = default;
  // Where the player's own messages go (the client's log). Default: nowhere.
  virtual void set_log(LogSink) {}
  // Loads what the engine needs (weights, book, an external engine's start and handshake).
  // An error is a configuration error: the client does not play. Called once before the
  // first game.
  virtual base::Status prepare() = 0;
  // A game starts: the summary gives its rules (Max_Moves, the declaration rule).
  virtual void new_game(const GameSummary& summary) = 0;
  // Starts searching; `answer` is called exactly once for this search, unless a later start()
  // or stop() makes the answer pointless (it may still come; the session ignores old ids).
  // With request.limits.ponder the search ponders (on the opponent's time, the expected reply
  // already played) and answers only after ponderhit() or stop().
  virtual void start(const SearchRequest& request, AnswerCallback answer) = 0;
  // The opponent played the move pondered on: the ponder search `search_id` becomes the
  // search for our move, under `request`'s limits and deadline (measured from now).
  virtual void ponderhit(uint64_t search_id, const SearchRequest& request) = 0;
  // Asks the search to answer now (0: whatever search runs). Does not wait.
  virtual void stop(uint64_t search_id) = 0;
  // The game ended (USI gameover); no search runs. Default: nothing.
  virtual void game_over(std::optional<GameOutcome>) {}
  // No game follows (the client is about to exit): an external engine is told to quit now, so
  // that it exits while the client closes its connection. Does not wait. A later new_game
  // starts it again. Default: nothing.
  virtual void quit() {}
  // Blocks until no search runs.
  virtual void wait() = 0;
};

// The adapter over engine::Engine. Not thread-safe except for what the engine's callbacks do
// (they keep the latest PV under a mutex and call the answer callback).
class EngineAdapter : public EnginePlayer {
 public:
  EngineAdapter();
  ~EngineAdapter() override;

  // Applies the [engine] keys (Threads, USI_Hash, USI_Ponder, EvalFile, ResignValue) and then
  // the free-form USI options; the error names the option and where it was configured.
  base::Status configure(const CsaConfig& config);

  base::Status prepare() override;
  void new_game(const GameSummary& summary) override;
  void start(const SearchRequest& request, AnswerCallback answer) override;
  void ponderhit(uint64_t search_id, const SearchRequest& request) override;
  void stop(uint64_t search_id) override;
  void wait() override;

 private:
  engine::Engine engine_;
  std::mutex mutex_;  // guards the members below, written by the search thread
  uint64_t search_id_ = 0;
  bool running_ = false;
  std::vector<shogi::Move> last_pv_;
  uint64_t last_nps_ = 0;  // of the last PV's report
  AnswerCallback answer_;
};

// EngineMove from a search result and the last PV reported (used when it starts with the
// best move).
EngineMove engine_move_from(const engine::SearchResult& result,
                            const std::vector<shogi::Move>& last_pv);

}  // namespace client
