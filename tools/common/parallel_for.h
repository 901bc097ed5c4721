// parallel_for_with_progress: one job per index, spread over threads, with a progress bar.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "tools/common/progress_bar.h"

namespace tools {

// Calls work(state, index) once for every index in [0, count) on `threads` threads (at least
// one), each thread taking the next index and keeping one default-constructed `ThreadState`
// (a Position, say) for all its indices, while `bar` is redrawn with the count done and `note`
// about ten times a second. Returns when every index is done; the bar then shows the total.
template <class ThreadState, class Work>
void parallel_for_with_progress(size_t count, int threads, ProgressBar& bar,
                                const std::string& note, Work work) {
  std::atomic<size_t> next{0}, done{0};
  auto run = [&] {
    ThreadState state;
    for (size_t i; (i = next.fetch_add(1)) < count; done.fetch_add(1)) work(state, i);
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < std::max(1, threads); ++t) pool.emplace_back(run);
  while (done.load() < count) {
    bar.update(int64_t(done.load()), note);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  bar.update(int64_t(count), note);
  for (std::thread& t : pool) t.join();
}

}  // namespace tools
