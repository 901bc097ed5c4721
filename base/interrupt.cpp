// ScopedInterrupts: one process-wide handler that counts SIGINT and SIGTERM and calls the
// installed run's function.
#include "base/interrupt.h"

#include <atomic>

namespace base {

namespace {

// Shared with the signal handler; lock-free on every target we build for.
std::atomic<ScopedInterrupts::Callback> g_callback{nullptr};
std::atomic<int> g_count{0};
static_assert(std::atomic<ScopedInterrupts::Callback>::is_always_lock_free);
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void on_signal(int) {
  const int n = g_count.fetch_add(1) + 1;
  if (ScopedInterrupts::Callback callback = g_callback.load()) callback(n);
}

}  // namespace

ScopedInterrupts::ScopedInterrupts(Callback on_interrupt) {
  g_count.store(0);
  g_callback.store(on_interrupt);
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &previous_int_);
  sigaction(SIGTERM, &sa, &previous_term_);
}

ScopedInterrupts::~ScopedInterrupts() {
  sigaction(SIGINT, &previous_int_, nullptr);
  sigaction(SIGTERM, &previous_term_, nullptr);
  g_callback.store(nullptr);
}

}  // namespace base
