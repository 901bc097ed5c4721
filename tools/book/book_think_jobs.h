// ThinkJobs: the run state book think and learn teach share: the engines' settings, the
// search limits, how leaves combine, the positions, and the job threads that think about them.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "base/status.h"
#include "tools/book/book_think_engines.h"
#include "tools/book/book_think_tree.h"
#include "tools/book/book_think_work.h"
#include "usi/usi_engine_process.h"

namespace tools {

// Built once per run; run() is called once. The callbacks come from the job threads with no
// lock held: the caller serialises what they share. `stop` may be set from any thread.
class ThinkJobs {
 public:
  using TreeDone = std::function<void(const ThinkWork&, const ThinkNode&)>;
  using PositionFailed = std::function<void(const ThinkWork&, const base::Status&)>;
  using EnginesFailed = std::function<void(const base::Status&)>;

  // `combine`: "min" or "mean" (see LeafCombine); `total`: how many of `work`, from the front,
  // this run takes (at most work.size()).
  ThinkJobs(std::vector<usi::EngineConfig> configs, const ThinkSearchLimits& limits,
            const std::string& combine, std::vector<ThinkWork> work, size_t total);

  // Runs min(jobs, total) threads (jobs < 1 counts as 1); each starts its own engines
  // (engines_failed if they do not start) and takes the next position until `total` are
  // taken or stop is set, thinking `tree_depth` plies deep: tree_done with the tree, or
  // position_failed. Returns when every thread has ended.
  void run(int jobs, int tree_depth, const TreeDone& tree_done,
           const PositionFailed& position_failed, const EnginesFailed& engines_failed);

  const std::vector<usi::EngineConfig>& configs() const { return configs_; }
  const ThinkSearchLimits& limits() const { return limits_; }
  const ThinkValuation& valuation() const { return valuation_; }
  size_t total() const { return total_; }

  std::atomic<bool> stop{false};

 private:
  const std::vector<usi::EngineConfig> configs_;
  const ThinkSearchLimits limits_;
  ThinkValuation valuation_;
  const std::vector<ThinkWork> work_;
  const size_t total_;
  std::atomic<size_t> next_{0};
};

}  // namespace tools
