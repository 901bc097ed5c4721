// MateRunner: Engine::go_mate's solver on a thread of its own, with its table kept from call to
// call.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>

#include "engine/engine.h"
#include "engine/mate/mate_table.h"
#include "engine/names.h"
#include "shogi/position.h"

namespace engine {

// One mate search at a time, the shortest mate sought once one is found. Not thread-safe:
// call from the engine's thread; the callbacks arrive on the solver's thread, or on the
// caller's for the problems start() settles at once.
class MateRunner {
 public:
  MateRunner() = default;
  ~MateRunner() {
    stop();
    wait();
  }
  MateRunner(const MateRunner&) = delete;
  MateRunner& operator=(const MateRunner&) = delete;

  // Stops and waits for a running search, then solves pos (see Engine::go_mate): time_ms < 0
  // until stop; table_mb the mate table's size (the table is remade when it changes).
  void start(const Position& pos, int64_t time_ms, size_t table_mb,
             Engine::MateInfoCallback on_info, Engine::MateResultCallback on_result);
  // Asks a running search to stop: it reports kUnknown unless already solved.
  void stop() { stop_ = true; }
  void wait();

 private:
  static constexpr uint64_t kQuickNodes = 2000;  // solved on the caller's thread up to this
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::unique_ptr<mate::MateTable> table_;  // made at the first start
  size_t table_mb_ = 0;
};

}  // namespace engine
