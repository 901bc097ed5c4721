// EngineMargin: the learnt margin before the hard stop (see engine_margin.h).
#include "client/engine_margin.h"

#include <algorithm>

namespace client {

int64_t EngineMargin::margin_ms() const {
  if (late_ms_.empty()) return std::clamp<int64_t>(initial_ms_, 0, kMaxMs);
  const int64_t most = *std::max_element(late_ms_.begin(), late_ms_.end());
  return std::clamp<int64_t>(kFloorMs + std::max<int64_t>(0, most), 0, kMaxMs);
}

bool EngineMargin::add(int64_t late_ms, bool stopped) {
  if (!stopped && late_ms < -kNearMs) return false;
  int64_t measure = std::max<int64_t>(0, late_ms);
  if (stopped) measure = 2 * std::max(measure, kFloorMs);
  late_ms_.push_back(std::min(measure, kMaxMs));
  if (late_ms_.size() > kWindow) late_ms_.pop_front();
  return true;
}

int64_t engine_budget_ms(const engine::SearchLimits& l, shogi::Color us) {
  if (!l.has_clock()) return std::max<int64_t>(0, l.movetime_ms);
  return std::max<int64_t>(0, l.time_left_ms[us]) + std::max<int64_t>(0, l.byoyomi_ms);
}

engine::SearchLimits cut_budget(engine::SearchLimits l, shogi::Color us, int64_t cut_ms) {
  if (cut_ms <= 0) return l;
  if (!l.has_clock()) {
    if (l.movetime_ms >= 0) l.movetime_ms = std::max<int64_t>(0, l.movetime_ms - cut_ms);
    return l;
  }
  const int64_t from_byoyomi = std::min(cut_ms, std::max<int64_t>(0, l.byoyomi_ms));
  l.byoyomi_ms -= from_byoyomi;
  l.time_left_ms[us] = std::max<int64_t>(0, l.time_left_ms[us] - (cut_ms - from_byoyomi));
  return l;
}

}  // namespace client
