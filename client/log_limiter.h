// LogLimiter: at most so many log lines of one kind per time window; the rest are counted and
// reported as one "N more like this" line, so that a server flooding us cannot rotate the
// log's history away.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace client {

// A plain value; not thread-safe (the client's loop thread uses it).
class LogLimiter {
 public:
  // `burst` lines of one kind pass in each window of `window_ms`.
  LogLimiter(int burst, int64_t window_ms) : burst_(burst), window_ms_(window_ms) {}

  // Whether a line of `kind` at now_ms is logged. When the kind's previous window ended with
  // lines held back, `report` gets "N more like this in the last S s: <kind>" (else "").
  bool allow(const std::string& kind, int64_t now_ms, std::string& report);
  // The reports of every kind still holding lines back (at the end of a run).
  std::vector<std::string> flush();

  // The kind of a free-text message: its first 48 characters, up to a quote or a digit (the
  // parts that differ from one line of a flood to the next).
  static std::string kind_of(const std::string& message);

 private:
  struct Window {
    int64_t start_ms = 0;
    int passed = 0;
    int held = 0;
  };
  std::string report(const std::string& kind, const Window& w) const;

  int burst_;
  int64_t window_ms_;
  std::map<std::string, Window> windows_;
};

}  // namespace client
