// CSA server protocol lines: parsing and formatting (see csa_protocol.h).
#include "client/csa_protocol.h"

#include <algorithm>
#include <cstdio>

#include "shogi/csa_notation.h"

namespace client {

namespace {

using detail::line_is_clean;
using detail::parse_move_fields;
using detail::parse_number;
using detail::split_field;
using detail::strip_cr;
using shogi::Color;
using shogi::CsaSpecialMove;

constexpr std::pair<GameEndReason, const char*> kReasonNames[] = {
    {GameEndReason::kResign, "#RESIGN"},
    {GameEndReason::kSennichite, "#SENNICHITE"},
    {GameEndReason::kOuteSennichite, "#OUTE_SENNICHITE"},
    {GameEndReason::kIllegalMove, "#ILLEGAL_MOVE"},
    {GameEndReason::kIllegalAction, "#ILLEGAL_ACTION"},
    {GameEndReason::kTimeUp, "#TIME_UP"},
    {GameEndReason::kJishogi, "#JISHOGI"},
    {GameEndReason::kMaxMoves, "#MAX_MOVES"},
};
constexpr std::pair<GameOutcome, const char*> kOutcomeNames[] = {
    {GameOutcome::kWin, "#WIN"},       {GameOutcome::kLose, "#LOSE"},
    {GameOutcome::kDraw, "#DRAW"},     {GameOutcome::kCensored, "#CENSORED"},
    {GameOutcome::kChudan, "#CHUDAN"},
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_square_digit(char c) { return c >= '1' && c <= '9'; }

// "%TORYO" or "%KACHI,T0".
bool parse_special_fields(std::string_view s, MoveLine& out, CsaSpecialMove& special,
                          std::string& why) {
  out = MoveLine();
  const size_t comma = std::min(s.find(','), s.size());
  special = shogi::csa_special_move_from_name(s.substr(0, comma));
  if (special == CsaSpecialMove::kNone)
    return why = "unknown special move " + quote_line(s.substr(0, comma)), false;
  out.move = std::string(s.substr(0, comma));
  if (comma == s.size()) return true;
  std::string_view rest = s.substr(comma + 1);
  if (rest.empty() || rest[0] != 'T') return why = "expected ,T<time>", false;
  out.t_milli = parse_t_milli(rest.substr(1));
  if (!out.t_milli) return why = "bad time " + quote_line(rest), false;
  return true;
}

Status line_error(std::string_view line, const std::string& why) {
  return Status::error("CSA line " + quote_line(line) + ": " + why);
}

}  // namespace

namespace detail {

std::string_view strip_cr(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

// Checks length and control bytes; fills `error` when the line cannot be trusted.
bool line_is_clean(std::string_view line, std::string& error) {
  if (line.size() > kMaxLineLength) {
    error = "line of " + std::to_string(line.size()) + " bytes (more than " +
            std::to_string(kMaxLineLength) + "): " + quote_line(line);
    return false;
  }
  for (unsigned char c : line) {
    if (c < 0x20 || c == 0x7f) {
      error = "control byte in line " + quote_line(line);
      return false;
    }
  }
  return true;
}

// A non-negative decimal integer of at most kMaxTimeValue; nullopt otherwise.
std::optional<int64_t> parse_number(std::string_view s, int64_t max) {
  if (s.empty() || s.size() > 12) return std::nullopt;
  int64_t v = 0;
  for (char c : s) {
    if (!is_digit(c)) return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (v > max) return std::nullopt;
  return v;
}

// Reads "+7776FU" and what may follow: ",T<n>" and ",'<comment>" (the comment runs to the end).
bool parse_move_fields(std::string_view s, MoveLine& out, std::string& why) {
  out = MoveLine();
  if (s.size() < 7) return why = "too short for a move", false;
  const bool drop = s[1] == '0' && s[2] == '0';
  if (!drop && !(is_square_digit(s[1]) && is_square_digit(s[2])))
    return why = "bad origin square", false;
  if (!is_square_digit(s[3]) || !is_square_digit(s[4]))
    return why = "bad destination square", false;
  if (shogi::piece_type_from_csa(s.substr(5, 2)) == shogi::kNoPieceType)
    return why = "unknown piece " + std::string(s.substr(5, 2)), false;
  out.move = std::string(s.substr(0, 7));
  std::string_view rest = s.substr(7);
  while (!rest.empty()) {
    if (rest[0] != ',') return why = "unexpected text after the move", false;
    rest.remove_prefix(1);
    if (!rest.empty() && rest[0] == '\'') {
      out.comment = std::string(rest.substr(1));
      break;
    }
    if (rest.empty() || rest[0] != 'T' || out.t_milli) return why = "expected ,T<time>", false;
    const size_t end = std::min(rest.find(','), rest.size());
    out.t_milli = parse_t_milli(rest.substr(1, end - 1));
    if (!out.t_milli) return why = "bad time " + std::string(rest.substr(0, end)), false;
    rest.remove_prefix(end);
  }
  return true;
}

// Splits "Key:Value" at the first colon.
bool split_field(std::string_view line, std::string_view& key, std::string_view& value) {
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  key = line.substr(0, colon);
  value = line.substr(colon + 1);
  return true;
}

std::string format_t(int64_t t_milli) {
  std::string s = std::to_string(t_milli / 1000);
  if (t_milli % 1000 != 0) {
    char frac[8];
    std::snprintf(frac, sizeof frac, ".%03d", int(t_milli % 1000));
    s += frac;
  }
  return s;
}

}  // namespace detail

const char* game_end_reason_name(GameEndReason r) {
  for (const auto& [k, name] : kReasonNames)
    if (k == r) return name;
  return "";
}

const char* game_outcome_name(GameOutcome o) {
  for (const auto& [k, name] : kOutcomeNames)
    if (k == o) return name;
  return "";
}

std::optional<int64_t> parse_t_milli(std::string_view s) {
  const size_t dot = s.find('.');
  const auto whole = parse_number(s.substr(0, dot));
  if (!whole) return std::nullopt;
  int64_t frac = 0;
  if (dot != std::string_view::npos) {
    std::string_view f = s.substr(dot + 1);
    if (f.size() > 9) return std::nullopt;
    for (size_t i = 0; i < f.size(); ++i) {
      if (!is_digit(f[i])) return std::nullopt;
      if (i < 3) frac += (f[i] - '0') * (i == 0 ? 100 : i == 1 ? 10 : 1);
    }
  }
  return *whole * 1000 + frac;
}

Status parse_server_line(std::string_view line, ServerLine& out) {
  out = ServerLine();
  std::string why;
  line = strip_cr(line);
  if (!line_is_clean(line, why)) return Status::error("CSA line: " + why);
  if (line.empty()) return out.type = ServerLineType::kKeepAlive, Status::ok();
  if (line.starts_with("LOGIN:")) {
    std::string_view rest = line.substr(6);
    if (rest == "incorrect") return out.type = ServerLineType::kLoginIncorrect, Status::ok();
    if (rest.ends_with(" OK") && is_valid_login_name(rest.substr(0, rest.size() - 3))) {
      out.type = ServerLineType::kLoginOk;
      out.name = std::string(rest.substr(0, rest.size() - 3));
      return Status::ok();
    }
    return line_error(line, "expected LOGIN:<name> OK or LOGIN:incorrect");
  }
  if (line == "LOGOUT:completed") return out.type = ServerLineType::kLogoutCompleted, Status::ok();
  if (line == "BEGIN Game_Summary") return out.type = ServerLineType::kSummaryBegin, Status::ok();
  if (line.starts_with("START:")) {
    std::string_view id = line.substr(6);
    if (id.empty() || id.find(' ') != std::string_view::npos)
      return line_error(line, "expected START:<Game_ID>");
    out.type = ServerLineType::kStart;
    out.game_id = std::string(id);
    return Status::ok();
  }
  if (line.starts_with("REJECT:")) {
    std::string_view rest = line.substr(7);
    const size_t by = rest.find(" by ");
    if (by == 0 || by == std::string_view::npos || by + 4 >= rest.size())
      return line_error(line, "expected REJECT:<Game_ID> by <name>");
    out.type = ServerLineType::kReject;
    out.game_id = std::string(rest.substr(0, by));
    out.name = std::string(rest.substr(by + 4));
    return Status::ok();
  }
  if (line.starts_with("##[")) {
    const size_t close = line.find(']');
    if (close == std::string_view::npos || close == 3)
      return line_error(line, "expected ##[TAG] ...");
    out.type = ServerLineType::kX1Reply;
    out.x1_tag = std::string(line.substr(3, close - 3));
    std::string_view body = line.substr(close + 1);
    if (!body.empty() && body[0] == ' ') body.remove_prefix(1);
    out.x1_body = std::string(body);
    return Status::ok();
  }
  if (line[0] == '#') {
    for (const auto& [k, name] : kReasonNames)
      if (line == name) return out.type = ServerLineType::kEndReason, out.reason = k, Status::ok();
    for (const auto& [k, name] : kOutcomeNames)
      if (line == name) return out.type = ServerLineType::kOutcome, out.outcome = k, Status::ok();
    return line_error(line, "unknown result line");
  }
  if (line[0] == '%') {
    if (!parse_special_fields(line, out.move, out.special, why)) {
      // A known special move with a broken time ("%TORYO,Tx") is kept, as a move is.
      if (out.special == CsaSpecialMove::kNone) return line_error(line, why);
      out.move.t_milli.reset();
      out.warning = line_error(line, why + ": the special move is kept without its time").message();
    }
    out.type = ServerLineType::kSpecialMove;
    return Status::ok();
  }
  if (line[0] == '+' || line[0] == '-') {
    if (!parse_move_fields(line, out.move, why)) {
      std::string move_why;
      if (line.size() <= 7 || !parse_move_fields(line.substr(0, 7), out.move, move_why))
        return line_error(line, why);
      out.warning = line_error(line, why + ": the move is kept without its time").message();
    }
    out.type = ServerLineType::kMove;
    return Status::ok();
  }
  return Status::ok();  // kUnknown
}

Status parse_client_line(std::string_view line, ClientLine& out) {
  out = ClientLine();
  std::string why;
  line = strip_cr(line);
  if (!line_is_clean(line, why)) return Status::error("CSA line: " + why);
  if (line.empty() || line == " ") return out.type = ClientLineType::kKeepAlive, Status::ok();
  if (line == "LOGOUT") return out.type = ClientLineType::kLogout, Status::ok();
  if (line.starts_with("LOGIN ")) {
    std::vector<std::string_view> words;
    for (size_t pos = 6; pos <= line.size();) {
      const size_t end = std::min(line.find(' ', pos), line.size());
      words.push_back(line.substr(pos, end - pos));
      pos = end + 1;
    }
    const bool x1 = words.size() == 3 && words[2] == "x1";
    if ((words.size() != 2 && !x1) || !is_valid_login_name(words[0]) ||
        !is_valid_password(words[1]))
      return line_error(line, "expected LOGIN <name> <password> [x1]");
    out.type = ClientLineType::kLogin;
    out.name = std::string(words[0]);
    out.password = std::string(words[1]);
    out.x1 = x1;
    return Status::ok();
  }
  for (auto [word, type] : {std::pair{std::string_view("AGREE"), ClientLineType::kAgree},
                            std::pair{std::string_view("REJECT"), ClientLineType::kReject}}) {
    if (line == word || (line.starts_with(word) && line[word.size()] == ' ')) {
      out.type = type;
      if (line.size() > word.size()) out.game_id = std::string(line.substr(word.size() + 1));
      return Status::ok();
    }
  }
  if (line.starts_with("%%")) {
    const size_t space = std::min(line.find(' '), line.size());
    out.type = ClientLineType::kX1Command;
    out.command = std::string(line.substr(2, space - 2));
    if (space < line.size()) out.args = std::string(line.substr(space + 1));
    if (out.command.empty()) return line_error(line, "empty %% command");
    return Status::ok();
  }
  if (line[0] == '%') {
    if (!parse_special_fields(line, out.move, out.special, why)) return line_error(line, why);
    out.type = ClientLineType::kSpecialMove;
    return Status::ok();
  }
  if (line[0] == '+' || line[0] == '-') {
    if (!parse_move_fields(line, out.move, why)) return line_error(line, why);
    out.type = ClientLineType::kMove;
    return Status::ok();
  }
  return Status::ok();  // kUnknown
}

bool is_valid_login_name(std::string_view name) {
  if (name.empty() || name.size() > 32) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
           c == '-' || c == '@' || c == '.';
  });
}

bool is_valid_password(std::string_view password) {
  if (password.empty() || password.size() > 256) return false;
  return std::all_of(password.begin(), password.end(), [](char c) { return c > 0x20 && c < 0x7f; });
}

std::string format_login(std::string_view name, std::string_view password, bool x1) {
  std::string s = "LOGIN " + std::string(name) + " " + std::string(password);
  if (x1) s += " x1";
  return s;
}

std::string format_logout() { return "LOGOUT"; }

std::string format_agree(std::string_view game_id) {
  return game_id.empty() ? "AGREE" : "AGREE " + std::string(game_id);
}

std::string format_reject(std::string_view game_id) {
  return game_id.empty() ? "REJECT" : "REJECT " + std::string(game_id);
}

std::string format_keep_alive() { return ""; }

std::string format_special_move(CsaSpecialMove s) { return shogi::csa_special_move_name(s); }

std::string format_move_line(std::string_view move, std::string_view comment) {
  std::string s(move);
  if (comment.empty()) return s;
  s += ",'";
  const size_t room = kMaxLineLength > s.size() ? kMaxLineLength - s.size() : 0;
  for (size_t i = 0; i < comment.size() && i < room; ++i) {
    const unsigned char c = comment[i];
    s += (c < 0x20 || c == 0x7f || c == ',') ? ' ' : char(c);
  }
  return s;
}

std::string format_floodgate_comment(shogi::Value score, Color us, shogi::Move played,
                                     const std::vector<shogi::Move>& pv, int max_pv_moves) {
  std::string s = "* " + std::to_string(us == shogi::kBlack ? score : -score);
  size_t i = (!pv.empty() && pv[0] == played) ? 1 : 0;
  for (int n = 0; i < pv.size() && n < max_pv_moves; ++i, ++n) {
    if (!pv[i].is_ok() || pv[i].piece_after() == shogi::kNoPiece) break;
    s += ' ';  // (not " " + ...: GCC 12 -O3 warns falsely on that, -Wrestrict)
    s += shogi::format_csa_move(pv[i]);
  }
  return s;
}

std::string format_x1_game(std::string_view game_name, char color) {
  return "%%GAME " + std::string(game_name) + " " + std::string(1, color);
}

std::string format_login_ok(std::string_view name) { return "LOGIN:" + std::string(name) + " OK"; }
std::string format_start(std::string_view game_id) { return "START:" + std::string(game_id); }
std::string format_reject_by(std::string_view game_id, std::string_view name) {
  return "REJECT:" + std::string(game_id) + " by " + std::string(name);
}
std::string format_move_echo(std::string_view move, int64_t t) {
  return std::string(move) + ",T" + std::to_string(t);
}

std::string quote_line(std::string_view line, std::size_t max_chars) {
  std::string s = "'";
  for (size_t i = 0; i < line.size(); ++i) {
    if (s.size() >= max_chars + 1) {
      s += "...";
      break;
    }
    const unsigned char c = line[i];
    if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      s += buf;
    } else {
      s += char(c);
    }
  }
  return s + "'";
}

std::optional<GameNameTime> parse_game_name_time(std::string_view name) {
  const bool fischer = name.ends_with("F");
  if (fischer) name.remove_suffix(1);
  const size_t dash2 = name.rfind('-');
  if (dash2 == std::string_view::npos || dash2 == 0) return std::nullopt;
  const size_t dash1 = name.rfind('-', dash2 - 1);
  if (dash1 == std::string_view::npos || dash1 == 0) return std::nullopt;
  const std::string_view total = name.substr(dash1 + 1, dash2 - dash1 - 1);
  const std::string_view second = name.substr(dash2 + 1);
  const auto t = parse_number(total), b = parse_number(second);
  if (!t || !b) return std::nullopt;
  GameNameTime g;
  g.total_s = *t;
  (fischer ? g.increment_s : g.byoyomi_s) = *b;
  g.stop_watch = second.size() >= 2 && second[0] == '0';
  return g;
}

std::string game_name_from_id(std::string_view id) {
  std::vector<std::string_view> fields;
  for (size_t pos = 0; pos <= id.size();) {
    const size_t end = std::min(id.find('+', pos), id.size());
    fields.push_back(id.substr(pos, end - pos));
    pos = end + 1;
  }
  if (fields.size() < 5) return "";
  return std::string(fields[fields.size() - 4]);
}

}  // namespace client
