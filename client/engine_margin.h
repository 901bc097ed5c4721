// EngineMargin: how much sooner than the client's own hard stop an external USI engine is told
// to finish its move, learnt from how late its answers come.
#pragma once

// The session stops an engine still thinking at the move's deadline (its hard stop, the safety
// net), and that answer then comes late. An engine that thinks to the very end of the time it
// is told (YaneuraOu at NetworkDelay2 = 0, our own at MoveOverhead = 0) answers a little after
// it: its own reaction, the pipes, a busy machine. So the engine is told a budget (its main
// time plus the byoyomi, or the movetime) that ends margin_ms() before the hard stop:
//   - at first the configured margin (engine.budget_margin_ms);
//   - once answers were measured, kFloorMs plus the most that any of the last kWindow measured
//     answers came after the end of their budget.
// A measure is an answer that came on its own no more than kNearMs before its budget's end, or
// later (one that came well before it was the engine's choice, and says nothing of its
// lateness), or one that had to be stopped at the hard stop: that engine would have been later
// still, by an unknown amount, so its measure is twice what was seen (the margin at least
// doubles after each such stop). The margin stays within kMaxMs. A plain value; not
// thread-safe.

#include <cstdint>
#include <deque>

#include "engine/engine.h"
#include "shogi/types.h"

namespace client {

class EngineMargin {
 public:
  static constexpr int64_t kFloorMs = 40;
  static constexpr size_t kWindow = 16;
  static constexpr int64_t kNearMs = 50;
  static constexpr int64_t kMaxMs = 5000;

  explicit EngineMargin(int64_t initial_ms = 100) : initial_ms_(initial_ms) {}

  // What the engine's budget is cut by now, ms.
  int64_t margin_ms() const;
  // One answer, `late_ms` after the end of its budget (negative: before it); `stopped` when it
  // answered the hard stop. Returns whether it was a measure.
  bool add(int64_t late_ms, bool stopped);
  // The measures kept (at most kWindow).
  size_t measures() const { return late_ms_.size(); }

 private:
  int64_t initial_ms_;
  std::deque<int64_t> late_ms_;  // the last measures, oldest first
};

// The most an engine may think under `limits` as USI engines read them (YaneuraOu's hard
// limit): our main time plus the byoyomi, or the movetime when there is no clock. A Fischer
// increment is already inside our main time (GameClock::search_limits), so it is not added.
int64_t engine_budget_ms(const engine::SearchLimits& limits, shogi::Color us);

// `limits` with the budget `cut_ms` shorter (never below 0): the byoyomi first, then our main
// time (or the movetime).
engine::SearchLimits cut_budget(engine::SearchLimits limits, shogi::Color us, int64_t cut_ms);

}  // namespace client
