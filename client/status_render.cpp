// Status rendering: the JSON of the status page and the Prometheus text of /metrics.
#include "client/status_render.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace client {

namespace {

constexpr char kHexDigits[] = "0123456789ABCDEF";
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

// The length of the valid UTF-8 sequence starting at s[i], or 0 when s[i] does not start
// one; `consumed` is then the length of the maximal invalid subpart to replace (>= 1).
size_t utf8_sequence(std::string_view s, size_t i, size_t& consumed) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return consumed = 1;
  size_t need = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the first continuation byte
  if (c >= 0xC2 && c <= 0xDF) {
    need = 1;
  } else if (c == 0xE0) {
    need = 2, lo = 0xA0;  // no overlongs
  } else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) {
    need = 2;
  } else if (c == 0xED) {
    need = 2, hi = 0x9F;  // no surrogates
  } else if (c == 0xF0) {
    need = 3, lo = 0x90;  // no overlongs
  } else if (c >= 0xF1 && c <= 0xF3) {
    need = 3;
  } else if (c == 0xF4) {
    need = 3, hi = 0x8F;  // nothing above U+10FFFF
  } else {
    consumed = 1;
    return 0;
  }
  size_t j = i + 1;
  for (size_t k = 0; k < need; ++k, ++j) {
    const unsigned char min = k == 0 ? lo : 0x80, max = k == 0 ? hi : 0xBF;
    if (j >= s.size() || byte(j) < min || byte(j) > max) {
      consumed = j - i;
      return 0;
    }
  }
  return consumed = need + 1;
}

void append_hex2(std::string& out, unsigned char c) {
  out += kHexDigits[c >> 4];
  out += kHexDigits[c & 15];
}

// JSON writing: a string with its quotes, a number, or null for an unknown one.
void put_string(std::string& out, std::string_view s) {
  out += '"';
  out += json_escape(s);
  out += '"';
}

void put_key(std::string& out, std::string_view key) {
  put_string(out, key);
  out += ':';
}

void put_field(std::string& out, std::string_view key, std::string_view value) {
  put_key(out, key);
  put_string(out, value);
  out += ',';
}

void put_field(std::string& out, std::string_view key, int64_t value) {
  put_key(out, key);
  out += std::to_string(value);
  out += ',';
}

void put_bool_field(std::string& out, std::string_view key, bool value) {
  put_key(out, key);
  out += value ? "true" : "false";
  out += ',';
}

// A number, or null when `known` is false.
void put_number_or_null(std::string& out, std::string_view key, bool known, int64_t value) {
  put_key(out, key);
  out += known ? std::to_string(value) : "null";
  out += ',';
}

// Ends an object or array: drops the trailing comma of its last member, closes it.
void close(std::string& out, char bracket) {
  if (!out.empty() && out.back() == ',') out.pop_back();
  out += bracket;
}

// The space-separated fields of a SFEN ("sfen " prefix allowed).
std::vector<std::string_view> sfen_fields(std::string_view sfen) {
  std::vector<std::string_view> fields;
  size_t p = 0;
  while (p < sfen.size()) {
    while (p < sfen.size() && sfen[p] == ' ') ++p;
    const size_t e = std::min(sfen.find(' ', p), sfen.size());
    if (e > p) fields.push_back(sfen.substr(p, e - p));
    p = e;
  }
  if (!fields.empty() && fields[0] == "sfen") fields.erase(fields.begin());
  return fields;
}

// "black" or "white" from a SFEN's side field; "" when it has none.
std::string sfen_side(std::string_view sfen) {
  const std::vector<std::string_view> f = sfen_fields(sfen);
  if (f.size() == 1 && f[0] == "startpos") return "black";
  if (f.size() < 2) return "";
  if (f[1] == "b") return "black";
  if (f[1] == "w") return "white";
  return "";
}

// The side to move: the SFEN's side field; failing that, the side after the last move (its
// CSA sign), or the start position's side; Black when nothing tells.
std::string side_to_move(const StatusGame& g) {
  std::string side = sfen_side(g.sfen);
  if (!side.empty()) return side;
  if (!g.moves.empty() && !g.moves.back().csa.empty()) {
    if (g.moves.back().csa[0] == '+') return "white";
    if (g.moves.back().csa[0] == '-') return "black";
  }
  side = sfen_side(g.start_sfen);
  return side.empty() ? "black" : side;
}

bool is_digit_1to9(char c) { return c >= '1' && c <= '9'; }

// A move's origin and destination squares as "77"/"76" (file digit, rank digit); `from` is
// "" for a drop. From the CSA move ("+7776FU", "+0055KA"), else the USI one ("7g7f", "B*5e").
// False when neither can be read.
bool move_squares(const StatusMove& move, std::string& from, std::string& to) {
  const std::string& c = move.csa;
  if (c.size() >= 5 && (c[0] == '+' || c[0] == '-') && is_digit_1to9(c[3]) && is_digit_1to9(c[4])) {
    to = c.substr(3, 2);
    if (c[1] == '0' && c[2] == '0') {
      from.clear();
      return true;
    }
    if (is_digit_1to9(c[1]) && is_digit_1to9(c[2])) {
      from = c.substr(1, 2);
      return true;
    }
  }
  const std::string& u = move.usi;
  const auto rank = [](char r) { return r >= 'a' && r <= 'i'; };
  if (u.size() >= 4 && is_digit_1to9(u[2]) && rank(u[3])) {
    to = std::string{u[2], static_cast<char>('1' + (u[3] - 'a'))};
    if (u[1] == '*') {
      from.clear();
      return true;
    }
    if (is_digit_1to9(u[0]) && rank(u[1])) {
      from = std::string{u[0], static_cast<char>('1' + (u[1] - 'a'))};
      return true;
    }
  }
  return false;
}

void put_clock(std::string& out, std::string_view key, const StatusClock& c) {
  put_key(out, key);
  out += '{';
  put_field(out, "remaining_ms", c.remaining_ms);
  put_field(out, "byoyomi_ms", c.byoyomi_ms);
  put_field(out, "increment_ms", c.increment_ms);
  put_bool_field(out, "unlimited", c.unlimited);
  close(out, '}');
  out += ',';
}

// The running side ("black"/"white") or "" when no clock runs.
std::string running_side(const StatusGame& g) {
  if (g.over || g.turn_start_steady_ms <= 0) return "";
  return side_to_move(g);
}

void put_game(std::string& out, const StatusGame& g, int64_t now_steady_ms) {
  out += '{';
  put_field(out, "game_id", g.game_id);
  put_field(out, "black", g.black_name);
  put_field(out, "white", g.white_name);
  put_field(out, "our_color", g.our_color);
  put_field(out, "time_rules", g.time_rules);
  put_field(out, "start_sfen", g.start_sfen);
  put_field(out, "sfen", g.sfen);
  put_field(out, "ply", static_cast<int64_t>(g.moves.size()));
  put_field(out, "side_to_move", side_to_move(g));

  put_key(out, "last_move");
  if (g.moves.empty()) {
    out += "null,";
  } else {
    const StatusMove& last = g.moves.back();
    out += '{';
    put_field(out, "csa", last.csa);
    put_field(out, "usi", last.usi);
    std::string from, to;
    const bool known = move_squares(last, from, to);
    put_key(out, "from");
    if (known && !from.empty()) {
      put_string(out, from);
    } else {
      out += "null";
    }
    out += ',';
    put_key(out, "to");
    if (known) {
      put_string(out, to);
    } else {
      out += "null";
    }
    out += "},";
  }

  put_key(out, "moves");
  out += '[';
  for (size_t i = 0; i < g.moves.size(); ++i) {
    const StatusMove& mv = g.moves[i];
    out += '{';
    put_field(out, "ply", static_cast<int64_t>(i + 1));
    put_field(out, "csa", mv.csa);
    put_field(out, "usi", mv.usi);
    put_number_or_null(out, "time_ms", mv.time_ms >= 0, mv.time_ms);
    put_number_or_null(out, "eval_cp", mv.eval_cp.has_value(), mv.eval_cp.value_or(0));
    put_bool_field(out, "ours", mv.ours);
    close(out, '}');
    out += ',';
  }
  close(out, ']');
  out += ',';

  put_key(out, "clocks");
  out += '{';
  put_clock(out, "black", g.clocks[0]);
  put_clock(out, "white", g.clocks[1]);
  close(out, '}');
  out += ',';

  const std::string running = running_side(g);
  put_key(out, "running");
  if (running.empty()) {
    out += "null";
  } else {
    put_string(out, running);
  }
  out += ',';
  put_field(out, "turn_elapsed_ms",
            running.empty() ? 0 : std::max<int64_t>(0, now_steady_ms - g.turn_start_steady_ms));

  put_key(out, "pv");
  out += '[';
  for (const std::string& mv : g.pv) {
    put_string(out, mv);
    out += ',';
  }
  close(out, ']');
  out += ',';
  put_number_or_null(out, "pv_eval_cp", g.pv_eval_cp.has_value(), g.pv_eval_cp.value_or(0));
  put_field(out, "engine_note", g.engine_note);
  put_bool_field(out, "over", g.over);
  put_field(out, "result", g.result);
  put_field(out, "reason", g.reason);
  put_field(out, "start_unix_ms", g.start_unix_ms);
  close(out, '}');
}

// The server's list entry for one game.
void put_game_summary(std::string& out, const StatusGame& g) {
  out += '{';
  put_field(out, "game_id", g.game_id);
  put_field(out, "black", g.black_name);
  put_field(out, "white", g.white_name);
  put_field(out, "ply", static_cast<int64_t>(g.moves.size()));
  put_bool_field(out, "over", g.over);
  put_field(out, "result", g.result);
  put_field(out, "reason", g.reason);
  put_field(out, "time_rules", g.time_rules);
  // A query reads '+' as a space: here it is %2B (paths keep it literal).
  std::string id = percent_encode(g.game_id);
  for (size_t at = id.find('+'); at != std::string::npos; at = id.find('+', at))
    id.replace(at, 1, "%2B");
  put_field(out, "url", "/?game=" + id);
  close(out, '}');
}

void put_recent(std::string& out, const StatusRecentGame& r) {
  out += '{';
  put_field(out, "game_id", r.game_id);
  put_field(out, "end_time", r.end_time);
  put_field(out, "black", r.black_name);
  put_field(out, "white", r.white_name);
  put_field(out, "our_color", r.our_color);
  put_field(out, "result", r.result);
  put_field(out, "reason", r.reason);
  put_field(out, "plies", r.plies);
  const std::string base = "/records/" + percent_encode(r.game_id);
  put_key(out, "csa");
  if (r.has_csa) {
    put_string(out, base + ".csa");
  } else {
    out += "null";
  }
  out += ',';
  put_key(out, "kif");
  if (r.has_kif) {
    put_string(out, base + ".kifu");
  } else {
    out += "null";
  }
  close(out, '}');
}

int64_t uptime_ms(const StatusModel& m, int64_t now_unix_ms) {
  if (m.started_unix_ms <= 0) return 0;
  return std::max<int64_t>(0, now_unix_ms - m.started_unix_ms);
}

// Metrics writing.

// A label value escaped per the exposition format: backslash, double quote, line feed.
std::string label_escape(std::string_view s) {
  std::string out;
  for (char c : to_valid_utf8(s)) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

// Milliseconds as seconds with three decimals ("1.234").
std::string seconds_of_ms(int64_t ms) {
  const bool negative = ms < 0;
  const uint64_t a = negative ? 0 - static_cast<uint64_t>(ms) : static_cast<uint64_t>(ms);
  std::string frac = std::to_string(a % 1000);
  frac.insert(0, 3 - frac.size(), '0');
  return (negative ? "-" : "") + std::to_string(a / 1000) + "." + frac;
}

void put_family(std::string& out, std::string_view name, std::string_view type,
                std::string_view help) {
  out += "# HELP ";
  out += name;
  out += ' ';
  out += help;
  out += "\n# TYPE ";
  out += name;
  out += ' ';
  out += type;
  out += '\n';
}

void put_sample(std::string& out, std::string_view name, std::string_view labels,
                std::string_view value) {
  out += name;
  out += labels;
  out += ' ';
  out += value;
  out += '\n';
}

}  // namespace

std::string to_valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    size_t consumed = 0;
    const size_t n = utf8_sequence(s, i, consumed);
    if (n > 0) {
      out.append(s.substr(i, n));
    } else {
      out += kReplacement;
    }
    i += consumed;
  }
  return out;
}

std::string json_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 8);
  for (size_t i = 0; i < s.size();) {
    size_t consumed = 0;
    const size_t n = utf8_sequence(s, i, consumed);
    if (n == 0) {
      out += kReplacement;
    } else if (n == 1) {
      const unsigned char c = static_cast<unsigned char>(s[i]);
      if (c == '"') {
        out += "\\\"";
      } else if (c == '\\') {
        out += "\\\\";
      } else if (c < 0x20 || c == 0x7F) {
        out += "\\u00";
        append_hex2(out, c);
      } else {
        out += static_cast<char>(c);
      }
    } else if (n == 3 && s.substr(i, 3) == "\xE2\x80\xA8") {
      out += "\\u2028";
    } else if (n == 3 && s.substr(i, 3) == "\xE2\x80\xA9") {
      out += "\\u2029";
    } else {
      out.append(s.substr(i, n));
    }
    i += consumed;
  }
  return out;
}

std::string percent_encode(std::string_view s) {
  std::string out;
  for (char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    const bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                       c == '.' || c == '_' || c == '~' || c == '+' || c == '-';
    if (plain) {
      out += ch;
    } else {
      out += '%';
      append_hex2(out, c);
    }
  }
  return out;
}

std::string render_status_json(const StatusModel& m, int64_t now_steady_ms, int64_t now_unix_ms,
                               std::string_view game_id) {
  std::string out;
  out.reserve(4096);
  out += '{';
  put_field(out, "kind", m.kind);
  put_field(out, "version", m.version);
  put_field(out, "name", m.name);
  put_field(out, "server", m.server);

  put_key(out, "connection");
  out += '{';
  put_field(out, "state", m.connection);
  if (m.connection == "reconnecting") {
    put_field(out, "reconnect_in_ms",
              std::max<int64_t>(0, m.reconnect_at_steady_ms - now_steady_ms));
  }
  close(out, '}');
  out += ',';
  put_field(out, "uptime_s", uptime_ms(m, now_unix_ms) / 1000);
  put_field(out, "now_unix_ms", now_unix_ms);

  const bool server = m.kind == "server";
  const StatusGame* shown = nullptr;
  if (server) {
    // No game asked for: the first listed (a game in progress, when there is one).
    if (game_id.empty() && !m.server_games.empty()) shown = &m.server_games.front();
    for (const StatusGame& g : m.server_games) {
      if (!game_id.empty() && g.game_id == game_id) {
        shown = &g;
        break;
      }
    }
  } else if (m.has_game) {
    shown = &m.game;
  }
  put_key(out, "game");
  if (shown) {
    put_game(out, *shown, now_steady_ms);
  } else {
    out += "null";
  }
  out += ',';

  put_key(out, "games");
  out += '[';
  if (server) {
    for (const StatusGame& g : m.server_games) {
      put_game_summary(out, g);
      out += ',';
    }
  }
  close(out, ']');
  out += ',';

  put_key(out, "recent");
  out += '[';
  for (const StatusRecentGame& r : m.recent) {
    put_recent(out, r);
    out += ',';
  }
  close(out, ']');
  out += ',';

  const StatusCounters& c = m.counters;
  put_key(out, "totals");
  out += '{';
  put_field(out, "wins", c.wins);
  put_field(out, "losses", c.losses);
  put_field(out, "draws", c.draws);
  put_field(out, "other", c.other);
  close(out, '}');
  out += ',';

  put_key(out, "counters");
  out += '{';
  put_field(out, "time_losses", c.time_losses);
  put_field(out, "reconnects", c.reconnects);
  put_number_or_null(out, "last_think_ms", c.last_think_ms >= 0, c.last_think_ms);
  put_number_or_null(out, "engine_nps", c.engine_nps >= 0, c.engine_nps);
  put_number_or_null(out, "engine_nodes", c.engine_nodes >= 0, c.engine_nodes);
  close(out, '}');
  close(out, '}');
  return out;
}

std::string render_metrics(const StatusModel& m, int64_t now_unix_ms) {
  std::string out;
  out.reserve(2048);
  const StatusCounters& c = m.counters;

  put_family(out, "sashite_games_total", "counter",
             "Games finished, by our result (other: censored, chudan, cut): those of the "
             "record directory's results.txt at start, then each one played.");
  put_sample(out, "sashite_games_total", "{result=\"win\"}", std::to_string(c.wins));
  put_sample(out, "sashite_games_total", "{result=\"lose\"}", std::to_string(c.losses));
  put_sample(out, "sashite_games_total", "{result=\"draw\"}", std::to_string(c.draws));
  put_sample(out, "sashite_games_total", "{result=\"other\"}", std::to_string(c.other));

  put_family(out, "sashite_time_losses_total", "counter",
             "Games we lost on time (results.txt at start, then each one played).");
  put_sample(out, "sashite_time_losses_total", "", std::to_string(c.time_losses));

  put_family(out, "sashite_reconnects_total", "counter",
             "Connections to the game server made after the first.");
  put_sample(out, "sashite_reconnects_total", "", std::to_string(c.reconnects));

  put_family(out, "sashite_last_think_seconds", "gauge",
             "Our last move's thinking time as the server charged it.");
  if (c.last_think_ms >= 0) {
    put_sample(out, "sashite_last_think_seconds", "", seconds_of_ms(c.last_think_ms));
  }

  put_family(out, "sashite_engine_nodes_per_second", "gauge",
             "Our engine's search speed at its last move.");
  if (c.engine_nps >= 0) {
    put_sample(out, "sashite_engine_nodes_per_second", "", std::to_string(c.engine_nps));
  }

  put_family(out, "sashite_in_game", "gauge", "1 while a game is being played, else 0.");
  put_sample(out, "sashite_in_game", "", m.connection == "in game" ? "1" : "0");

  const bool connected = m.connection == "logging in" || m.connection == "waiting" ||
                         m.connection == "in game" || m.connection == "game over";
  put_family(out, "sashite_connected", "gauge", "1 while connected to the game server, else 0.");
  put_sample(out, "sashite_connected", "", connected ? "1" : "0");

  put_family(out, "sashite_up_seconds", "gauge", "Seconds since the process started.");
  put_sample(out, "sashite_up_seconds", "", seconds_of_ms(uptime_ms(m, now_unix_ms)));

  put_family(out, "sashite_info", "gauge", "The program's version, login name and kind.");
  put_sample(out, "sashite_info",
             "{version=\"" + label_escape(m.version) + "\",name=\"" + label_escape(m.name) +
                 "\",kind=\"" + label_escape(m.kind) + "\"}",
             "1");

  if (m.kind == "server") {
    int64_t playing = 0, finished = 0;
    for (const StatusGame& g : m.server_games) ++(g.over ? finished : playing);
    put_family(out, "sashite_server_games", "gauge",
               "Games the server shows: in progress, and finished ones still listed.");
    put_sample(out, "sashite_server_games", "{state=\"playing\"}", std::to_string(playing));
    put_sample(out, "sashite_server_games", "{state=\"finished\"}", std::to_string(finished));
  }
  return out;
}

}  // namespace client
