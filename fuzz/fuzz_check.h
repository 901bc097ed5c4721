// Shared helpers for the libFuzzer targets in fuzz/: an oracle that aborts with a message.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace fuzz {

// Reports a broken invariant and aborts, so that libFuzzer saves the input as a crash.
[[noreturn]] inline void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz invariant broken: %s\n  %s\n", what, detail.c_str());
  std::abort();
}

}  // namespace fuzz

// FUZZ_CHECK(cond, detail): aborts with `detail` (a std::string expression) when cond is false.
#define FUZZ_CHECK(cond, detail)                           \
  do {                                                     \
    if (!(cond)) ::fuzz::fail(#cond, std::string(detail)); \
  } while (0)
