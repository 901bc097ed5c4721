// base::ScopedInterrupts: SIGINT and SIGTERM counted and passed on while the scope lasts, the
// previous handlers back after it.
#include "base/interrupt.h"

#include <doctest/doctest.h>
#include <signal.h>

#include <atomic>

namespace interrupt_test {

std::atomic<int> g_last_count{0};
std::atomic<int> g_previous_calls{0};

void record_count(int count) { g_last_count.store(count); }
extern "C" void previous_handler(int) { g_previous_calls.fetch_add(1); }

TEST_CASE("ScopedInterrupts: counts SIGINT and SIGTERM, then restores the previous handlers") {
  struct sigaction mine {
  }, saved_int{}, saved_term{};
  mine.sa_handler = previous_handler;
  sigemptyset(&mine.sa_mask);
  REQUIRE(sigaction(SIGINT, &mine, &saved_int) == 0);
  REQUIRE(sigaction(SIGTERM, &mine, &saved_term) == 0);
  g_last_count = 0;
  g_previous_calls = 0;
  {
    base::ScopedInterrupts interrupts(record_count);
    ::raise(SIGINT);  // a handler for a raised signal has run when raise returns
    CHECK(g_last_count == 1);
    ::raise(SIGTERM);
    CHECK(g_last_count == 2);
    CHECK(g_previous_calls == 0);
  }
  {
    base::ScopedInterrupts again(record_count);  // a new scope counts from 1 again
    ::raise(SIGINT);
    CHECK(g_last_count == 1);
  }
  ::raise(SIGINT);
  ::raise(SIGTERM);
  CHECK(g_previous_calls == 2);
  CHECK(g_last_count == 1);
  sigaction(SIGINT, &saved_int, nullptr);
  sigaction(SIGTERM, &saved_term, nullptr);
}

}  // namespace interrupt_test
