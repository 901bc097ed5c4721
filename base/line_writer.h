// LineWriter: whole lines to one stream from any thread (a USI engine's replies and its search
// thread's reports).
#pragma once

#include <mutex>
#include <ostream>
#include <string_view>

namespace base {

// Each line is written and flushed under one mutex, so lines from several threads never
// interleave. Thread-safe.
class LineWriter {
 public:
  explicit LineWriter(std::ostream& out) : out_(out) {}
  void line(std::string_view text) {
    std::lock_guard<std::mutex> lock(mutex_);
    out_ << text << '\n';
    out_.flush();
  }

 private:
  std::mutex mutex_;
  std::ostream& out_;
};

}  // namespace base
