// Game_Summary: the incremental parser, the summary's position, and its formatter.
#include <algorithm>

#include "client/csa_protocol.h"
#include "shogi/csa_notation.h"

namespace client {

namespace {

using detail::line_is_clean;
using detail::parse_move_fields;
using detail::parse_number;
using detail::split_field;
using detail::strip_cr;
using shogi::Color;

}  // namespace

shogi::Position GameSummary::position() const {
  shogi::Position pos;
  if (!pos.set(initial)) return shogi::Position();
  for (const SummaryMove& m : moves) pos.do_move(m.move);
  return pos;
}

Color GameSummary::side_to_move() const {
  return (moves.size() % 2 == 0) ? initial.side_to_move : ~initial.side_to_move;
}

SummaryParser::Result SummaryParser::fail(std::string_view line, const std::string& message) {
  if (!failed_)
    error_ = "Game_Summary line " + std::to_string(line_count_) + " " + quote_line(line) + ": " +
             message;
  failed_ = true;
  if (strip_cr(line) == "END Game_Summary") finished_ = true;
  return Result::kError;
}

SummaryParser::Result SummaryParser::feed(std::string_view raw) {
  if (finished_) return failed_ ? Result::kError : Result::kDone;
  ++line_count_;
  if (line_count_ > kMaxSummaryLines) {
    finished_ = true;
    fail(raw,
         "more than " + std::to_string(kMaxSummaryLines) + " lines: END Game_Summary missing?");
    return Result::kError;
  }
  std::string why;
  const std::string_view line = strip_cr(raw);
  if (!line_is_clean(line, why)) return fail(line, why);
  if (failed_) {
    if (line == "END Game_Summary") finished_ = true;
    return Result::kError;
  }
  if (line_count_ == 1) {
    if (line != "BEGIN Game_Summary") return fail(line, "expected BEGIN Game_Summary");
    section_ = Section::kTop;
    return Result::kNeedMore;
  }
  // Lines that only come after a summary: its END was lost.
  for (std::string_view p : {"START:", "REJECT:", "#", "LOGIN:", "LOGOUT:", "BEGIN Game_Summary"}) {
    if (line.starts_with(p) && !line.starts_with("##[")) {
      finished_ = true;
      return fail(line, "not a summary line: END Game_Summary missing?");
    }
  }
  // Blank lines (a keep-alive answer) and comments carry nothing; a summary may hold them.
  if (line.empty() || line.starts_with("'")) return Result::kNeedMore;
  if (line.starts_with("##[")) {  // x1 chat and replies may interleave
    warnings_.push_back("Game_Summary line " + std::to_string(line_count_) + ": skipped " +
                        quote_line(line));
    return Result::kNeedMore;
  }
  switch (section_) {
    case Section::kTop:
      return feed_top(line);
    case Section::kTime:
      return feed_time(line, true, true);
    case Section::kTimeBlack:
      return feed_time(line, true, false);
    case Section::kTimeWhite:
      return feed_time(line, false, true);
    case Section::kPosition:
      return feed_position(line);
    case Section::kNone:
      break;
  }
  return fail(line, "internal: no section");
}

SummaryParser::Result SummaryParser::feed_top(std::string_view line) {
  auto first_time = [&](const std::string& what) {
    if (std::find(seen_.begin(), seen_.end(), what) != seen_.end()) return false;
    seen_.push_back(what);
    return true;
  };
  if (line == "END Game_Summary") return finish(line);
  if (line.starts_with("BEGIN ")) {
    const std::string name(line.substr(6));
    const bool time_any = std::find(seen_.begin(), seen_.end(), "BEGIN Time") != seen_.end();
    const bool side_any = std::find(seen_.begin(), seen_.end(), "BEGIN Time+") != seen_.end() ||
                          std::find(seen_.begin(), seen_.end(), "BEGIN Time-") != seen_.end();
    if (name != "Time" && name != "Time+" && name != "Time-" && name != "Position")
      return fail(line, "unknown section");
    if (!first_time("BEGIN " + name)) return fail(line, "duplicated section");
    if ((name == "Time" && side_any) || (name != "Time" && name != "Position" && time_any))
      return fail(line, "both BEGIN Time and per-side BEGIN Time+/Time- blocks");
    section_ = name == "Time"    ? Section::kTime
               : name == "Time+" ? Section::kTimeBlack
               : name == "Time-" ? Section::kTimeWhite
                                 : Section::kPosition;
    if (name != "Time" && name != "Position") summary_.per_side_time = true;
    return Result::kNeedMore;
  }
  std::string_view key, value;
  if (!split_field(line, key, value)) return fail(line, "expected <field>:<value>");
  GameSummary& s = summary_;
  auto color = [&](Color& out) {
    if (value != "+" && value != "-") return false;
    out = value == "+" ? shogi::kBlack : shogi::kWhite;
    return true;
  };
  const std::string k(key);
  static const char* const kTimeFields[] = {
      "Time_Unit", "Least_Time_Per_Move", "Time_Roundup", "Total_Time", "Byoyomi", "Delay",
      "Increment"};
  for (const char* f : kTimeFields)
    if (k == f) return fail(line, "time field outside BEGIN Time");
  static const char* const kKnown[] = {
      "Protocol_Version", "Protocol_Mode",   "Format",  "Declaration", "Game_ID", "Name+", "Name-",
      "Your_Turn",        "Rematch_On_Draw", "To_Move", "Max_Moves"};
  const bool known = std::find(std::begin(kKnown), std::end(kKnown), k) != std::end(kKnown);
  if (!known) {
    warnings_.push_back("Game_Summary line " + std::to_string(line_count_) + ": unknown field " +
                        quote_line(line) + " skipped");
    s.unknown_fields.push_back({k, std::string(value)});
    return Result::kNeedMore;
  }
  if (!first_time(k)) return fail(line, "duplicated field " + k);
  if (k == "Protocol_Version")
    s.protocol_version = value;
  else if (k == "Protocol_Mode")
    s.protocol_mode = value;
  else if (k == "Format")
    s.format = value;
  else if (k == "Declaration")
    s.declaration = value;
  else if (k == "Game_ID") {
    if (value.empty() || value.find(' ') != std::string_view::npos)
      return fail(line, "Game_ID must be non-empty without spaces");
    s.game_id = value;
  } else if (k == "Name+" || k == "Name-") {
    if (value.empty()) return fail(line, "empty player name");
    s.names[k == "Name+" ? shogi::kBlack : shogi::kWhite] = value;
  } else if (k == "Your_Turn") {
    if (!color(s.your_turn)) return fail(line, "Your_Turn must be + or -");
  } else if (k == "To_Move") {
    if (!color(s.to_move)) return fail(line, "To_Move must be + or -");
  } else if (k == "Rematch_On_Draw") {
    if (value != "YES" && value != "NO") return fail(line, "Rematch_On_Draw must be YES or NO");
    s.rematch_on_draw = value == "YES";
  } else if (k == "Max_Moves") {
    const auto n = parse_number(value, kMaxMovesLimit);
    if (!n)
      return fail(line, "Max_Moves must be a number from 0 to " + std::to_string(kMaxMovesLimit));
    s.max_moves = int(*n);
  }
  return Result::kNeedMore;
}

SummaryParser::Result SummaryParser::feed_time(std::string_view line, bool black, bool white) {
  const char* const suffix = black && white ? "" : black ? "+" : "-";
  if (line.starts_with("END ")) {
    if (line != std::string("END Time") + suffix)
      return fail(line, std::string("expected END Time") + suffix);
    section_ = Section::kTop;
    return Result::kNeedMore;
  }
  std::string_view key, value;
  if (!split_field(line, key, value)) return fail(line, "expected <field>:<value>");
  const std::string k(key);
  const std::string tag = std::string("Time") + suffix + ":" + k;
  auto apply = [&](auto&& set) {
    if (black) set(summary_.time[shogi::kBlack]);
    if (white) set(summary_.time[shogi::kWhite]);
  };
  static const char* const kKnown[] = {
      "Time_Unit", "Least_Time_Per_Move", "Time_Roundup", "Total_Time", "Byoyomi", "Delay",
      "Increment"};
  if (std::find(std::begin(kKnown), std::end(kKnown), k) == std::end(kKnown)) {
    warnings_.push_back("Game_Summary line " + std::to_string(line_count_) +
                        ": unknown time field " + quote_line(line) + " skipped");
    summary_.unknown_fields.push_back({k, std::string(value)});
    return Result::kNeedMore;
  }
  if (std::find(seen_.begin(), seen_.end(), tag) != seen_.end())
    return fail(line, "duplicated field " + k);
  seen_.push_back(tag);
  if (k == "Time_Unit") {
    int64_t scale = 0;
    std::string_view n = value;
    if (n.ends_with("msec"))
      scale = 1, n.remove_suffix(4);
    else if (n.ends_with("sec"))
      scale = 1000, n.remove_suffix(3);
    else if (n.ends_with("min"))
      scale = 60000, n.remove_suffix(3);
    const auto count = parse_number(n, 1000000);
    if (scale == 0 || !count || *count == 0)
      return fail(line, "Time_Unit must be <n>sec, <n>min or <n>msec with n from 1 to 1000000");
    apply([&](TimeRules& t) { t.time_unit = value, t.unit_ms = *count * scale; });
  } else if (k == "Time_Roundup") {
    if (value != "YES" && value != "NO") return fail(line, "Time_Roundup must be YES or NO");
    apply([&](TimeRules& t) { t.time_roundup = value == "YES"; });
  } else {
    const auto n = parse_number(value);
    if (!n) return fail(line, k + " must be a number from 0 to " + std::to_string(kMaxTimeValue));
    apply([&](TimeRules& t) {
      (k == "Least_Time_Per_Move" ? t.least_time_per_move
       : k == "Total_Time"        ? t.total_time
       : k == "Byoyomi"           ? t.byoyomi
       : k == "Delay"             ? t.delay
                                  : t.increment) = *n;
    });
  }
  return Result::kNeedMore;
}

SummaryParser::Result SummaryParser::feed_position(std::string_view line) {
  if (line == "END Position") {
    if (!side_line_seen_) return fail(line, "the position has no side-to-move line (+ or -)");
    section_ = Section::kTop;
    return Result::kNeedMore;
  }
  if (!side_line_seen_) {
    if (line == "+" || line == "-") {
      side_line_seen_ = true;
    } else if (!line.starts_with("P")) {
      return fail(line, "expected a position line (P1..P9, P+, P-, PI) or + / -");
    }
    if (position_lines_.empty()) position_first_line_ = line_count_;
    position_lines_.push_back(std::string(line));
    return Result::kNeedMore;
  }
  MoveLine m;
  std::string why;
  if (!parse_move_fields(line, m, why) || !m.comment.empty())
    return fail(line, "expected a move played before, like +7776FU,T1" +
                          (why.empty() ? std::string() : ": " + why));
  move_lines_.push_back({line_count_, std::string(line)});
  summary_.moves.push_back({m.move, shogi::kMoveNone, m.t_milli});
  return Result::kNeedMore;
}

SummaryParser::Result SummaryParser::finish(std::string_view line) {
  finished_ = true;  // END Game_Summary: whatever follows is not ours
  auto seen = [&](const char* what) {
    return std::find(seen_.begin(), seen_.end(), what) != seen_.end();
  };
  for (const char* required : {"Game_ID", "Name+", "Name-", "Your_Turn", "To_Move"})
    if (!seen(required)) return fail(line, std::string("no ") + required + " field");
  if (!seen("BEGIN Time") && !(seen("BEGIN Time+") && seen("BEGIN Time-")))
    return fail(line, "no BEGIN Time block (or BEGIN Time+ and BEGIN Time-)");
  if (!seen("BEGIN Position")) return fail(line, "no BEGIN Position block");
  for (const TimeRules& t : summary_.time) {
    for (int64_t v : {t.least_time_per_move, t.total_time, t.byoyomi, t.delay, t.increment})
      if (v > kMaxTimeMs / t.unit_ms)
        return fail(line, "absurd time: " + std::to_string(v) + " x " + t.time_unit);
  }
  GameSummary& s = summary_;
  if (Status st = shogi::parse_csa_position(position_lines_, position_first_line_, "Game_Summary",
                                            s.initial);
      !st)
    return fail(line, st.message());
  shogi::Position pos;
  if (Status st = pos.set(s.initial); !st) return fail(line, "invalid position: " + st.message());
  for (size_t i = 0; i < s.moves.size(); ++i) {
    shogi::Move m;
    if (Status st = shogi::parse_csa_move(pos, s.moves[i].text, m); !st) {
      line_count_ = move_lines_[i].first;  // name the move's line
      return fail(move_lines_[i].second, st.message());
    }
    s.moves[i].move = m;
    pos.do_move(m);
  }
  if (s.to_move != pos.side_to_move() && s.to_move != s.initial.side_to_move)
    return fail(line, "To_Move disagrees with the position");
  return Result::kDone;
}

std::vector<std::string> format_game_summary(const GameSummary& s) {
  auto sign = [](Color c) { return std::string(c == shogi::kBlack ? "+" : "-"); };
  std::vector<std::string> out = {
      "BEGIN Game_Summary",
      "Protocol_Version:" + s.protocol_version,
      "Protocol_Mode:" + s.protocol_mode,
      "Format:" + s.format,
  };
  if (!s.declaration.empty()) out.push_back("Declaration:" + s.declaration);
  out.push_back("Game_ID:" + s.game_id);
  out.push_back("Name+:" + s.names[shogi::kBlack]);
  out.push_back("Name-:" + s.names[shogi::kWhite]);
  out.push_back("Your_Turn:" + sign(s.your_turn));
  out.push_back(std::string("Rematch_On_Draw:") + (s.rematch_on_draw ? "YES" : "NO"));
  out.push_back("To_Move:" + sign(s.to_move));
  out.push_back("Max_Moves:" + std::to_string(s.max_moves));
  auto time_block = [&](const TimeRules& t, const std::string& suffix) {
    out.push_back("BEGIN Time" + suffix);
    out.push_back("Time_Unit:" + t.time_unit);
    out.push_back("Total_Time:" + std::to_string(t.total_time));
    out.push_back("Byoyomi:" + std::to_string(t.byoyomi));
    if (t.delay) out.push_back("Delay:" + std::to_string(t.delay));
    out.push_back("Increment:" + std::to_string(t.increment));
    out.push_back("Least_Time_Per_Move:" + std::to_string(t.least_time_per_move));
    if (t.time_roundup) out.push_back("Time_Roundup:YES");
    out.push_back("END Time" + suffix);
  };
  if (s.per_side_time) {
    time_block(s.time[shogi::kBlack], "+");
    time_block(s.time[shogi::kWhite], "-");
  } else {
    time_block(s.time[shogi::kBlack], "");
  }
  out.push_back("BEGIN Position");
  const std::string block = shogi::format_csa_position(s.initial);
  for (size_t pos = 0; pos < block.size();) {
    const size_t end = std::min(block.find('\n', pos), block.size());
    out.push_back(block.substr(pos, end - pos));
    pos = end + 1;
  }
  for (const SummaryMove& m : s.moves)
    out.push_back(m.text + (m.t_milli ? ",T" + detail::format_t(*m.t_milli) : ""));
  out.push_back("END Position");
  out.push_back("END Game_Summary");
  return out;
}

}  // namespace client
