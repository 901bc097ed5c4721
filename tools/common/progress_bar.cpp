// ProgressBar: rate and ETA of a long job, redrawn in place on a terminal.
#include "tools/common/progress_bar.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tools {

std::string format_duration_s(double seconds) {
  if (!(seconds >= 0) || seconds > 1e9) return "?";
  const int64_t s = int64_t(std::llround(seconds));
  char text[32];
  if (s >= 3600)
    std::snprintf(text, sizeof text, "%lldh%02lldm", (long long)(s / 3600),
                  (long long)(s / 60 % 60));
  else if (s >= 60)
    std::snprintf(text, sizeof text, "%lldm%02llds", (long long)(s / 60), (long long)(s % 60));
  else
    std::snprintf(text, sizeof text, "%llds", (long long)s);
  return text;
}

std::string format_progress_line(int64_t done, int64_t total, double elapsed_s, int width,
                                 std::string_view unit, std::string_view note) {
  std::string line = "[";
  const int filled = total > 0 ? int(std::min<int64_t>(done, total) * width / total) : width;
  line.append(size_t(filled), '#');
  line.append(size_t(width - filled), '.');
  line += "] ";
  line += std::to_string(done);
  line += '/';
  line += std::to_string(total);
  line += ' ';
  line += unit;
  char rate[64];
  const double per_min = elapsed_s > 0 ? done * 60.0 / elapsed_s : 0;
  std::snprintf(rate, sizeof rate, " %.1f/min", per_min);
  line += rate;
  if (done > 0 && done < total) {
    line += " ETA ";
    line += format_duration_s(double(total - done) * elapsed_s / double(done));
  } else if (done < total) {
    line += " ETA ?";
  } else {
    line += " in ";
    line += format_duration_s(elapsed_s);
  }
  if (!note.empty()) {
    line += ' ';
    line += note;
  }
  return line;
}

ProgressBar::ProgressBar(std::ostream& out, int64_t total, bool enabled, std::string unit)
    : out_(out), total_(total), enabled_(enabled), unit_(std::move(unit)) {}

bool ProgressBar::stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

double ProgressBar::elapsed_s() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

void ProgressBar::update(int64_t done, std::string_view note) {
  done_ = done;
  note_ = note;
  if (!enabled_ || finished_) return;
  const auto now = Clock::now();
  if (drawn_ && done < total_ && now - last_draw_ < kInterval) return;
  last_draw_ = now;
  draw();
}

void ProgressBar::draw() {
  // "\033[K" clears what a longer previous line left.
  out_ << '\r' << format_progress_line(done_, total_, elapsed_s(), 30, unit_, note_) << "\033[K"
       << std::flush;
  drawn_ = true;
  drawn_done_ = done_;
}

void ProgressBar::clear_line() {
  if (!enabled_ || !drawn_ || finished_) return;
  out_ << "\r\033[K";
  drawn_ = false;  // the next update draws at once
  drawn_done_ = -1;
}

void ProgressBar::finish() {
  if (finished_) return;
  finished_ = true;
  if (!enabled_) return;
  if (drawn_done_ != done_) draw();
  out_ << '\n' << std::flush;
}

}  // namespace tools
