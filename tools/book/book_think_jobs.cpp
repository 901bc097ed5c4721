// ThinkJobs: the job threads of a think run, each with its own engines.
#include "tools/book/book_think_jobs.h"

#include <algorithm>
#include <thread>

namespace tools {

ThinkJobs::ThinkJobs(std::vector<usi::EngineConfig> configs, const ThinkSearchLimits& limits,
                     const std::string& combine, std::vector<ThinkWork> work, size_t total)
    : configs_(std::move(configs)),
      limits_(limits),
      work_(std::move(work)),
      total_(std::min(total, work_.size())) {
  valuation_.combine = combine == "min" ? LeafCombine::kMin : LeafCombine::kMean;
  valuation_.search_depth = limits_.depth;
}

void ThinkJobs::run(int jobs, int tree_depth, const TreeDone& tree_done,
                    const PositionFailed& position_failed, const EnginesFailed& engines_failed) {
  auto job = [&] {
    ThinkEngines engines(configs_, limits_);
    if (base::Status s = engines.start(); !s) {
      engines_failed(s);
      return;
    }
    while (!stop) {
      const size_t i = next_++;
      if (i >= total_) break;
      const ThinkWork& w = work_[i];
      ThinkNode tree;
      if (base::Status s = engines.think(w.sfen, tree_depth, tree); s)
        tree_done(w, tree);
      else
        position_failed(w, s);
    }
    engines.shut_down();
  };
  std::vector<std::thread> threads;
  const int n = int(std::min<size_t>(size_t(std::max(1, jobs)), total_));
  for (int j = 0; j < n; ++j) threads.emplace_back(job);
  for (std::thread& t : threads) t.join();
}

}  // namespace tools
