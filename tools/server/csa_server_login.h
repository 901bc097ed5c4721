// The pure parts of the local CSA server's lobby: what a LOGIN asks for, and Game_ID times.
#pragma once

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>

namespace tools {

// What the password of a CSA-mode LOGIN asks for (shogi_server/login.rb LoginCSA):
//   "<game name>[-B|-W][,<trip>]", e.g. "floodgate-300-10F,trip" or "demo-60-5-B".
// A password without a game name ("trip" alone, which does not parse as one) gives shogi-server's
// default game, "default-1500-0", with the whole password as the trip.
struct LoginRequest {
  std::string game_name;  // "demo-60-5"; always parses with client::parse_game_name_time
  char color = '*';       // '+' (-B: Black), '-' (-W: White) or '*' (either)
  std::string trip;
};
constexpr const char* kDefaultGameName = "default-1500-0";
// nullopt when the password names a game whose time control is absurd (over a year of main
// time or of byoyomi): such games are refused with LOGIN:incorrect.
std::optional<LoginRequest> parse_login_password(std::string_view password);

// Game_ID times, "YYYYMMDDhhmmss" in local time, strictly increasing as shogi-server issues them
// (game.rb issue_current_time: a second is added while the time is not above the last one), so
// two games of the same players never share an id. Not thread-safe.
class GameIdClock {
 public:
  std::string next(std::time_t now);

 private:
  int64_t last_ = 0;
};

// "YYYY/MM/DD hh:mm:ss" in local time, as $START_TIME and $END_TIME are written.
std::string format_record_time(std::time_t t);

}  // namespace tools
