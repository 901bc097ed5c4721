// Ctrl-C for a long run: SIGINT and SIGTERM counted and passed to the run's own function
// while a scope lasts, and the handlers that were there before put back after it.
#pragma once

#include <signal.h>

namespace base {

// While it lives, SIGINT and SIGTERM call `on_interrupt(n)`, n being the number of such
// signals since it was installed (1 for the first), so that a run can stop gracefully on the
// first and harder on the next. On destruction, also when the run throws, the previous
// handlers are restored. `on_interrupt` runs in signal context: it may only use lock-free
// atomics and async-signal-safe calls (_exit, write).
// REQUIRES: one instance at a time, constructed and destroyed on the main thread.
class ScopedInterrupts {
 public:
  using Callback = void (*)(int count);

  explicit ScopedInterrupts(Callback on_interrupt);
  ~ScopedInterrupts();
  ScopedInterrupts(const ScopedInterrupts&) = delete;
  ScopedInterrupts& operator=(const ScopedInterrupts&) = delete;

 private:
  struct sigaction previous_int_ {};
  struct sigaction previous_term_ {};
};

}  // namespace base
