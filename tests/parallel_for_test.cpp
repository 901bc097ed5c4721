// Tests of parallel_for_with_progress: every index once, one state per thread, the bar's total.
#include "tools/common/parallel_for.h"

#include <doctest/doctest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <sstream>
#include <vector>

namespace parallel_for_test {

using namespace tools;

namespace {

// Counts how many were constructed, so that a test sees one per thread.
struct CountedState {
  static inline std::atomic<int> made{0};
  int calls = 0;
  CountedState() { ++made; }
};

}  // namespace

TEST_CASE("parallel_for_with_progress: every index exactly once, on 1 and 3 threads") {
  for (int threads : {1, 3}) {
    CAPTURE(threads);
    CountedState::made = 0;
    std::vector<std::atomic<int>> seen(1000);
    std::mutex mutex;
    std::set<const CountedState*> states;
    std::ostringstream out;
    ProgressBar bar(out, 1000, true, "items");
    parallel_for_with_progress<CountedState>(seen.size(), threads, bar, "testing",
                                             [&](CountedState& state, size_t i) {
                                               ++seen[i];
                                               ++state.calls;
                                               std::lock_guard<std::mutex> lock(mutex);
                                               states.insert(&state);
                                             });
    for (size_t i = 0; i < seen.size(); ++i) REQUIRE(seen[i].load() == 1);
    CHECK(CountedState::made.load() == threads);
    CHECK(int(states.size()) <= threads);
    bar.finish();
    CHECK(out.str().find("1000/1000") != std::string::npos);
    CHECK(out.str().find("testing") != std::string::npos);
  }
}

TEST_CASE("parallel_for_with_progress: nothing to do, and zero threads meaning one") {
  std::ostringstream out;
  ProgressBar bar(out, 0, false, "items");
  int calls = 0;
  parallel_for_with_progress<int>(0, 2, bar, "", [&](int&, size_t) { ++calls; });
  CHECK(calls == 0);
  std::vector<int> order;
  parallel_for_with_progress<int>(5, 0, bar, "", [&](int&, size_t i) { order.push_back(int(i)); });
  CHECK(order == std::vector<int>{0, 1, 2, 3, 4});
  CHECK(out.str().empty());
}

}  // namespace parallel_for_test
