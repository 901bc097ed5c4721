// LogLimiter: lines of one kind per window (see log_limiter.h).
#include "client/log_limiter.h"

namespace client {

namespace {
constexpr size_t kMaxKinds = 256;  // a flood of ever new kinds must not grow the map for ever
}  // namespace

std::string LogLimiter::kind_of(const std::string& message) {
  std::string kind;
  for (char c : message) {
    if (c == '\'' || c == '"' || (c >= '0' && c <= '9') || kind.size() >= 48) break;
    kind += c;
  }
  return kind;
}

std::string LogLimiter::report(const std::string& kind, const Window& w) const {
  return std::to_string(w.held) + " more like this in the last " +
         std::to_string(window_ms_ / 1000) + " s: " + kind;
}

bool LogLimiter::allow(const std::string& kind, int64_t now_ms, std::string& out) {
  out.clear();
  auto it = windows_.find(kind);
  if (it == windows_.end()) {
    if (windows_.size() >= kMaxKinds) windows_.clear();
    it = windows_.emplace(kind, Window{now_ms, 0, 0}).first;
  }
  Window& w = it->second;
  if (now_ms - w.start_ms >= window_ms_) {
    if (w.held > 0) out = report(kind, w);
    w = Window{now_ms, 0, 0};
  }
  if (w.passed < burst_) {
    ++w.passed;
    return true;
  }
  ++w.held;
  return false;
}

std::vector<std::string> LogLimiter::flush() {
  std::vector<std::string> out;
  for (auto& [kind, w] : windows_)
    if (w.held > 0) out.push_back(report(kind, w)), w.held = 0;
  return out;
}

}  // namespace client
