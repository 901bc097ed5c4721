// `go mate` for the USI loop: runs the mate solver on its own thread and prints the USI
// answer ("checkmate <moves>", "checkmate nomate", "checkmate timeout").
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "engine/mate/mate_table.h"
#include "engine/names.h"
#include "shogi/position.h"

namespace engine::mate {

// The USI answer for a finished solve (pure, for tests): a stopped or timed-out search,
// or one that ran out of memory-bounded work, is "checkmate timeout".
std::string format_usi_checkmate(const struct MateResult& result);

// One mate search at a time. Not thread-safe: call from the USI loop's thread only.
class UsiMateRunner {
 public:
  UsiMateRunner() = default;
  ~UsiMateRunner() { stop_and_wait(); }
  UsiMateRunner(const UsiMateRunner&) = delete;
  UsiMateRunner& operator=(const UsiMateRunner&) = delete;

  // Starts solving pos; `print` receives the one answer line, from the solver's thread.
  // time_ms < 0: until stop. table_mb: the mate table's size (kept from one go mate to the
  // next while it stays the same). REQUIRES: no search running (call stop_and_wait first).
  void start(const Position& pos, int64_t time_ms, size_t table_mb,
             std::function<void(const std::string&)> print);
  // Asks a running search to stop: it answers "checkmate timeout" unless already solved.
  void stop() { stop_ = true; }
  void stop_and_wait();

 private:
  static constexpr uint64_t kQuickNodes = 2000;  // solved on the caller's thread up to this
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::unique_ptr<MateTable> table_;  // made at the first go mate
  size_t table_mb_ = 0;
};

}  // namespace engine::mate
