// The local CSA server's LOGIN passwords and Game_ID times (see csa_server_login.h).
#include "tools/server/csa_server_login.h"

#include "client/csa_protocol.h"

namespace tools {

namespace {

constexpr int64_t kMaxSeconds = 366LL * 24 * 3600;

bool sane(const client::GameNameTime& t) {
  return t.total_s <= kMaxSeconds && t.byoyomi_s <= kMaxSeconds && t.increment_s <= kMaxSeconds;
}

}  // namespace

std::optional<LoginRequest> parse_login_password(std::string_view password) {
  LoginRequest r;
  std::string_view game = password;
  if (const size_t comma = password.find(','); comma != std::string_view::npos) {
    game = password.substr(0, comma);
    r.trip = std::string(password.substr(comma + 1));
  }
  if (game.size() > 2 && (game.ends_with("-B") || game.ends_with("-W"))) {
    const std::string_view stripped = game.substr(0, game.size() - 2);
    if (client::parse_game_name_time(stripped)) {
      r.color = game.back() == 'B' ? '+' : '-';
      game = stripped;
    }
  }
  const auto t = client::parse_game_name_time(game);
  if (!t) {
    if (password.find(',') != std::string_view::npos && !game.empty()) return std::nullopt;
    r.game_name = kDefaultGameName;
    r.trip = std::string(password);
    return r;
  }
  if (!sane(*t)) return std::nullopt;
  r.game_name = std::string(game);
  return r;
}

std::string GameIdClock::next(std::time_t now) {
  std::tm tm{};
  localtime_r(&now, &tm);
  int64_t v = (tm.tm_year + 1900) * 10000000000LL + (tm.tm_mon + 1) * 100000000LL +
              tm.tm_mday * 1000000LL + tm.tm_hour * 10000LL + tm.tm_min * 100LL + tm.tm_sec;
  if (v <= last_) v = last_ + 1;
  last_ = v;
  return std::to_string(v);
}

std::string format_record_time(std::time_t t) {
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y/%m/%d %H:%M:%S", &tm);
  return buf;
}

}  // namespace tools
