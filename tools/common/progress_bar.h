// ProgressBar: one redrawn line on stderr with the count done, the rate and the time left.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace tools {

// Seconds from `start` to now: the timings that long jobs report.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// "1h02m", "3m05s", "42s".
std::string format_duration_s(double seconds);

// The text of the bar for `done` of `total` after `elapsed_s` seconds: a bar of `width`
// characters, "done/total", the rate per minute, and the estimated time left (from the rate
// so far), then `note`. "ETA ?" before anything is done.
std::string format_progress_line(int64_t done, int64_t total, double elapsed_s, int width,
                                 std::string_view unit, std::string_view note);

// Draws format_progress_line with '\r' at most every `interval` (and always for the first
// and the last count), on `out`, when enabled. finish() ends the line. Thread-compatible:
// the caller serialises calls.
class ProgressBar {
 public:
  using Clock = std::chrono::steady_clock;

  // `enabled`: draw at all (see stderr_is_terminal). `unit`: "positions".
  ProgressBar(std::ostream& out, int64_t total, bool enabled, std::string unit);
  ~ProgressBar() { finish(); }

  // `done` is the count so far (not an increment).
  void update(int64_t done, std::string_view note = {});
  // Draws the last state and a newline (once).
  void finish();
  double elapsed_s() const;
  // Before other output on the same stream: clears the bar's line (when drawn); the next
  // update draws it again.
  void clear_line();
  bool enabled() const { return enabled_; }

  static bool stderr_is_terminal();

 private:
  void draw();

  std::ostream& out_;
  int64_t total_;
  bool enabled_;
  std::string unit_;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_draw_{};
  int64_t done_ = 0;
  std::string note_;
  int64_t drawn_done_ = -1;  // the count last drawn
  bool drawn_ = false, finished_ = false;
  static constexpr std::chrono::milliseconds kInterval{250};
};

}  // namespace tools
