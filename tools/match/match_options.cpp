// The options of `sashite match`: their defaults and the checks the parser cannot make.
#include "tools/match/match_options.h"

#include <algorithm>

#include "tools/match/sprt.h"

namespace tools {

using base::Status;

int planned_games(const MatchOptions& o) {
  if (o.games > 0) return o.games;
  return o.sprt.empty() ? 2 : kSprtDefaultGames;
}

namespace {
// Seconds with up to three decimals ("10", "0.1", "2.25") as whole milliseconds.
bool parse_seconds(const std::string& t, int64_t& ms) {
  if (t.empty() || t.size() > 12 || t.front() == '.' || t.back() == '.') return false;
  int64_t whole = 0, frac = 0;
  int frac_digits = -1;
  for (char ch : t) {
    if (ch == '.') {
      if (frac_digits >= 0) return false;
      frac_digits = 0;
    } else if (ch >= '0' && ch <= '9') {
      if (frac_digits < 0) {
        whole = whole * 10 + (ch - '0');
      } else {
        if (++frac_digits > 3) return false;
        frac = frac * 10 + (ch - '0');
      }
    } else {
      return false;
    }
  }
  for (int d = std::max(frac_digits, 0); d < 3; ++d) frac *= 10;
  ms = whole * 1000 + frac;
  return true;
}
}  // namespace

Status parse_time_control(const std::string& text, int64_t& main_time_ms, int64_t& increment_ms) {
  auto bad = [&](const std::string& why) {
    return Status::error("--tc '" + text + "': " + why +
                         " (expected BASE[+INC] in seconds, like 10+0.1 or 300+10)");
  };
  const size_t plus = text.find('+');
  int64_t base = 0, inc = 0;
  if (!parse_seconds(text.substr(0, plus), base)) return bad("bad main time");
  if (plus != std::string::npos && !parse_seconds(text.substr(plus + 1), inc))
    return bad("bad increment");
  if (base + inc <= 0) return bad("no time at all");
  if (base > int64_t(86400000) * 7 || inc > 86400000) return bad("too long");
  main_time_ms = base;
  increment_ms = inc;
  return Status::ok();
}

Status validate_match_options(const MatchOptions& o) {
  const bool clock = o.byoyomi_ms > 0 || !o.time_control.empty();
  if (clock + (o.nodes > 0) + (o.depth > 0) != 1)
    return Status::error("give exactly one of a clock (--tc, --byoyomi), --nodes N and --depth D");
  if (!o.time_control.empty()) {
    int64_t main_ms = 0, inc_ms = 0;
    if (Status s = parse_time_control(o.time_control, main_ms, inc_ms); !s) return s;
    if (inc_ms > 0 && o.byoyomi_ms > 0)
      return Status::error("--tc " + o.time_control +
                           " with --byoyomi: a Fischer increment and a byoyomi do not mix");
  }
  if (o.byoyomi2_ms > 0 && o.byoyomi_ms == 0)
    return Status::error("--byoyomi2 (engine2's byoyomi) needs --byoyomi (engine1's)");
  if (!o.sprt.empty()) {
    SprtConfig c;
    if (Status s = parse_sprt_bounds(o.sprt, c); !s) return s;
    c.alpha = o.sprt_alpha;
    c.beta = o.sprt_beta;
    if (Status s = validate_sprt(c); !s) return s;
  }
  if (o.engine1.empty() || o.engine2.empty())
    return Status::error("both --engine1 and --engine2 are required");
  for (const auto* list : {&o.options1, &o.options2})
    for (const std::string& kv : *list)
      if (kv.find('=') == std::string::npos || kv.front() == '=')
        return Status::error("USI option '" + kv + "': expected NAME=VALUE");
  if (o.games < 0) return Status::error("--games must be at least 1");
  if (o.resume && o.out_dir.empty())
    return Status::error("--resume needs --out DIR, the match to continue");
  if (o.jobs < 1) return Status::error("--jobs must be at least 1");
  return Status::ok();
}

}  // namespace tools
