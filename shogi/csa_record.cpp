// CSA record files: reading, writing and replaying game records.
#include "shogi/csa_record.h"

#include <fstream>
#include <sstream>

#include "base/shown_text.h"
#include "shogi/csa_notation.h"
#include "shogi/movegen.h"

namespace shogi {
using base::shown_text;

namespace {

constexpr std::pair<CsaSpecialMove, const char*> kSpecialNames[] = {
    {CsaSpecialMove::kToryo, "%TORYO"},
    {CsaSpecialMove::kChudan, "%CHUDAN"},
    {CsaSpecialMove::kSennichite, "%SENNICHITE"},
    {CsaSpecialMove::kOuteSennichite, "%OUTE_SENNICHITE"},
    {CsaSpecialMove::kIllegalMove, "%ILLEGAL_MOVE"},
    {CsaSpecialMove::kBlackIllegalAction, "%+ILLEGAL_ACTION"},
    {CsaSpecialMove::kWhiteIllegalAction, "%-ILLEGAL_ACTION"},
    {CsaSpecialMove::kTimeUp, "%TIME_UP"},
    {CsaSpecialMove::kJishogi, "%JISHOGI"},
    {CsaSpecialMove::kKachi, "%KACHI"},
    {CsaSpecialMove::kHikiwake, "%HIKIWAKE"},
    {CsaSpecialMove::kMaxMoves, "%MAX_MOVES"},
    {CsaSpecialMove::kTsumi, "%TSUMI"},
    {CsaSpecialMove::kFuzumi, "%FUZUMI"},
    {CsaSpecialMove::kMatta, "%MATTA"},
    {CsaSpecialMove::kError, "%ERROR"},
};

// One statement of the input: a whole line, or one comma-separated part of a line.
struct Statement {
  int line = 0;    // 1-based
  int column = 0;  // 1-based, in the line after the BOM and without the CR
  std::string_view text;
};

std::string_view rstrip(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// The input cut into lines (BOM and CRs removed) and statements. Stops at a "/" line.
struct Tokens {
  std::vector<std::string_view> lines;  // lines[i] is line i + 1
  std::vector<Statement> statements;
  std::string encoding;  // from a first line "'CSA encoding=..."
  bool separator_seen = false;
};

Tokens tokenize(std::string_view text) {
  Tokens t;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    t.lines.push_back(line);
    if (end == text.size()) break;
    start = end + 1;
  }
  // A final newline does not open another line.
  if (t.lines.size() > 1 && t.lines.back().empty()) t.lines.pop_back();

  constexpr std::string_view kEncodingPrefix = "'CSA encoding=";
  for (size_t i = 0; i < t.lines.size(); ++i) {
    const int number = int(i) + 1;
    const std::string_view line = rstrip(t.lines[i]);
    if (line.empty()) continue;
    if (i == 0 && line.substr(0, kEncodingPrefix.size()) == kEncodingPrefix) {
      t.encoding = std::string(line.substr(kEncodingPrefix.size()));
      continue;
    }
    if (line == "/") {
      t.separator_seen = true;
      break;
    }
    // Comments, names, info, version and position lines are single statements (names and
    // comments may hold commas); move, time and special-move lines may hold several.
    const char c = line[0];
    if (c == '\'' || c == 'N' || c == '$' || c == 'V' || c == 'P') {
      t.statements.push_back({number, 1, line});
      continue;
    }
    size_t pos = 0;
    while (pos <= line.size()) {
      while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
      if (pos < line.size() && line[pos] == '\'') {  // a comment runs to the end of the line
        t.statements.push_back({number, int(pos) + 1, line.substr(pos)});
        break;
      }
      size_t comma = line.find(',', pos);
      if (comma == std::string_view::npos) comma = line.size();
      const std::string_view part = rstrip(line.substr(pos, comma - pos));
      if (!part.empty()) t.statements.push_back({number, int(pos) + 1, part});
      pos = comma + 1;
    }
  }
  return t;
}

Status error_at(std::string_view name, const Statement& s, int offset, const std::string& msg) {
  return Status::error(std::string(name) + ":" + std::to_string(s.line) + ":" +
                       std::to_string(s.column + offset) + ": " + shown_text(msg, 400));
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Reads "T12" or "T1.234" (seconds; decimals past milliseconds are truncated).
// Returns the column offset of the problem, or -1 when fine.
int parse_time(std::string_view s, int64_t& ms, std::string& why) {
  size_t i = 1;
  int64_t seconds = 0;
  if (i >= s.size() || !is_digit(s[i])) {
    why = "expected the seconds after T";
    return int(i);
  }
  for (; i < s.size() && is_digit(s[i]); ++i) {
    if (seconds > 100'000'000) {
      why = "time too large";
      return 1;
    }
    seconds = seconds * 10 + (s[i] - '0');
  }
  int64_t millis = 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (i >= s.size() || !is_digit(s[i])) {
      why = "expected digits after the decimal point";
      return int(i);
    }
    int digits = 0;
    for (; i < s.size() && is_digit(s[i]); ++i, ++digits)
      if (digits < 3) millis = millis * 10 + (s[i] - '0');
    for (; digits < 3; ++digits) millis *= 10;
  }
  if (i < s.size()) {
    why = "unexpected text after the time";
    return int(i);
  }
  ms = seconds * 1000 + millis;
  return -1;
}

bool is_illegal_ending(CsaSpecialMove s) {
  return s == CsaSpecialMove::kIllegalMove || s == CsaSpecialMove::kBlackIllegalAction ||
         s == CsaSpecialMove::kWhiteIllegalAction;
}

bool is_side_line(std::string_view s) { return s == "+" || s == "-"; }

// True when statement `i` ends the game with an illegal-move mark: only T lines, comments and
// $ lines stand between it and the special move, which is one of the three marks.
bool followed_by_illegal_ending(const std::vector<Statement>& st, size_t i) {
  for (size_t j = i + 1; j < st.size(); ++j) {
    const std::string_view t = st[j].text;
    if (t[0] == 'T' || t[0] == '\'' || t[0] == '$') continue;
    return t[0] == '%' && is_illegal_ending(csa_special_move_from_name(t));
  }
  return false;
}

std::string format_time(int64_t ms, CsaVersion v) {
  std::string s(1, 'T');
  s += std::to_string(ms / 1000);
  if (v == CsaVersion::kV30 && ms % 1000 != 0) {
    std::string frac = std::to_string(1000 + ms % 1000).substr(1);  // "005" for 5 ms
    while (frac.back() == '0') frac.pop_back();
    s += '.';
    s += frac;
  }
  return s;
}

void write_comments(std::string& s, const std::vector<std::string>& comments) {
  for (const std::string& c : comments) s += "'" + c + "\n";
}

}  // namespace

const char* csa_special_move_name(CsaSpecialMove s) {
  for (const auto& [k, name] : kSpecialNames)
    if (k == s) return name;
  return "";
}

CsaSpecialMove csa_special_move_from_name(std::string_view text) {
  for (const auto& [k, name] : kSpecialNames)
    if (text == name) return k;
  return CsaSpecialMove::kNone;
}

const std::string* CsaRecord::find_info(std::string_view key) const {
  for (const auto& [k, v] : info)
    if (k == key) return &v;
  return nullptr;
}

Status read_csa_record(std::string_view text, std::string_view input_name, CsaRecord& out) {
  return read_csa_record(text, input_name, out, CsaReadOptions());
}

Status read_csa_record(std::string_view text, std::string_view input_name, CsaRecord& out,
                       const CsaReadOptions& options) {
  out = CsaRecord();
  const Tokens tokens = tokenize(text);
  out.encoding = tokens.encoding;
  out.more_games_in_file = tokens.separator_seen;
  if (!out.encoding.empty() && out.encoding != "UTF-8" && out.encoding != "SHIFT_JIS")
    return Status::error(std::string(input_name) + ":1:15: unknown encoding '" + out.encoding +
                         "' (UTF-8 or SHIFT_JIS expected)");
  const std::vector<Statement>& st = tokens.statements;
  auto err = [&](const Statement& s, int offset, const std::string& msg) {
    return error_at(input_name, s, offset, msg);
  };

  // Header: version, names, info, comments; then the position block.
  bool header_seen = false;  // a name or info line
  size_t i = 0;
  for (; i < st.size(); ++i) {
    const Statement& s = st[i];
    const std::string_view t = s.text;
    if (t[0] == '\'') {
      out.comments.emplace_back(t.substr(1));
    } else if (t[0] == 'V') {
      if (!out.version.empty()) return err(s, 0, "a second version line");
      if (header_seen) return err(s, 0, "the version line must come before names and info");
      if (t != "V1" && t != "V2" && t != "V2.1" && t != "V2.2" && t != "V3.0")
        return err(s, 0, "unsupported version '" + std::string(t) + "'");
      out.version = std::string(t);
    } else if (t.substr(0, 2) == "N+" || t.substr(0, 2) == "N-") {
      std::string& name = t[1] == '+' ? out.black_name : out.white_name;
      if (!name.empty())
        return err(s, 0, std::string("a second ") + std::string(t.substr(0, 2)) + " line");
      name = std::string(t.substr(2));
      header_seen = true;
    } else if (t[0] == '$') {
      const size_t colon = t.find(':');
      if (colon == std::string_view::npos || colon == 1) return err(s, 1, "expected $KEY:VALUE");
      out.info.emplace_back(std::string(t.substr(1, colon - 1)), std::string(t.substr(colon + 1)));
      header_seen = true;
    } else if (t[0] == 'P' || is_side_line(t)) {
      break;
    } else if (t[0] == '+' || t[0] == '-' || t[0] == 'T' || t[0] == '%') {
      return err(s, 0, "expected the starting position (PI or P1..P9, then + or -) first");
    } else {
      return err(s, 0, "unrecognised line '" + std::string(t) + "'");
    }
  }
  if (i == st.size()) {
    const int line = tokens.lines.empty() ? 1 : int(tokens.lines.size());
    return Status::error(std::string(input_name) + ":" + std::to_string(line) +
                         ":1: no starting position (PI or P1..P9, then + or -)");
  }

  // The position block runs through the side line; comments inside it are kept.
  const size_t block_begin = i;
  for (; i < st.size(); ++i) {
    const std::string_view t = st[i].text;
    if (t[0] == '\'') {
      out.comments.emplace_back(t.substr(1));
      continue;
    }
    if (t[0] == 'P') continue;
    if (is_side_line(t)) break;
    return err(st[i], 0, "expected a position line (P...) or the side to move (+ or -)");
  }
  if (i == st.size())
    return err(st.back(), 0, "missing the side to move (a line '+' or '-') after the position");
  const Statement& side = st[i];
  {
    std::vector<std::string> lines;
    for (int n = st[block_begin].line; n < side.line; ++n) lines.emplace_back(tokens.lines[n - 1]);
    lines.emplace_back(side.text);  // the side statement alone, should more follow on its line
    Status status = parse_csa_position(lines, st[block_begin].line, input_name, out.initial);
    if (!status) return status;
  }
  Position pos;
  if (Status status = pos.set(out.initial); !status)
    return err(side, 0, "invalid starting position: " + status.message());
  ++i;

  // Moves, times, comments and the special move.
  for (; i < st.size(); ++i) {
    const Statement& s = st[i];
    const std::string_view t = s.text;
    const bool ended = out.result != CsaSpecialMove::kNone;
    CsaRecordMove* last = out.rejected_last_move ? &*out.rejected_last_move
                          : out.moves.empty()    ? nullptr
                                                 : &out.moves.back();
    if (t[0] == '\'') {
      std::string comment(t.substr(1));
      if (ended)
        out.result_comments.push_back(std::move(comment));
      else if (last)
        last->comments.push_back(std::move(comment));
      else
        out.comments.push_back(std::move(comment));
    } else if (t[0] == 'T') {
      int64_t ms = 0;
      std::string why;
      if (int at = parse_time(t, ms, why); at >= 0) return err(s, at, "bad time: " + why);
      if (!ended && !last) return err(s, 0, "a time (T) before any move");
      std::optional<int64_t>& slot = ended ? out.result_time_ms : last->time_ms;
      if (slot) return err(s, 0, "a second time for the same move");
      slot = ms;
    } else if (t[0] == '%') {
      if (ended)
        return err(s, 0, std::string("a special move after ") + csa_special_move_name(out.result));
      const CsaSpecialMove special = csa_special_move_from_name(t);
      if (special == CsaSpecialMove::kNone)
        return err(s, 0, "unknown special move '" + std::string(t) + "'");
      out.result = special;
    } else if (t[0] == '$') {
      const size_t colon = t.find(':');
      if (colon == std::string_view::npos || colon == 1) return err(s, 1, "expected $KEY:VALUE");
      out.info.emplace_back(std::string(t.substr(1, colon - 1)), std::string(t.substr(colon + 1)));
    } else if ((t[0] == '+' || t[0] == '-') && t.size() > 1) {
      if (ended)
        return err(s, 0,
                   std::string("a move after the end of the game (") +
                       csa_special_move_name(out.result) + ")");
      if (out.rejected_last_move) return err(s, 0, "a move after a rejected move");
      CsaRecordMove entry;
      entry.text = std::string(t);
      CsaMoveProblem problem;
      if (Status status = parse_csa_move(pos, t, entry.move, problem); !status) {
        const int offset = problem.column > 0 ? problem.column - 1 : 0;
        if (problem.syntax)
          return err(s, offset, "bad move " + entry.text + " (" + problem.reason + ")");
        if (!options.allow_rejected_last_move || !followed_by_illegal_ending(st, i))
          return err(s, offset, "illegal move " + entry.text + " (" + problem.reason + ")");
        entry.move = kMoveNone;
        out.rejected_last_move = std::move(entry);
        continue;
      }
      pos.do_move(entry.move);
      out.moves.push_back(std::move(entry));
    } else if (is_side_line(t)) {
      return err(s, 0, "a second side-to-move line");
    } else if (t[0] == 'P' || t[0] == 'N' || t[0] == 'V') {
      return err(s, 0, "a header or position line after the moves began");
    } else {
      return err(s, 0, "unrecognised line '" + std::string(t) + "'");
    }
  }
  return Status::ok();
}

Status read_record_file_text(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::error(path + ": cannot open the file");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return Status::error(path + ": read error");
  out = buffer.str();
  return Status::ok();
}

Status load_csa_record_file(const std::string& path, CsaRecord& out) {
  std::string text;
  if (Status st = read_record_file_text(path, text); !st) return st;
  return read_csa_record(text, path, out);
}

std::string write_csa_record(const CsaRecord& rec, CsaVersion version) {
  std::string s;
  if (version == CsaVersion::kV30) {
    s += "'CSA encoding=" + (rec.encoding.empty() ? std::string("UTF-8") : rec.encoding) + "\n";
    s += "V3.0\n";
  } else {
    s += "V2.2\n";
  }
  if (!rec.black_name.empty()) s += "N+" + rec.black_name + "\n";
  if (!rec.white_name.empty()) s += "N-" + rec.white_name + "\n";
  for (const auto& [key, value] : rec.info) s += "$" + key + ":" + value + "\n";
  write_comments(s, rec.comments);
  s += format_csa_position(rec.initial);
  auto write_move = [&](const CsaRecordMove& m) {
    s += (m.move.is_ok() ? format_csa_move(m.move) : m.text) + "\n";
    if (m.time_ms) s += format_time(*m.time_ms, version) + "\n";
    write_comments(s, m.comments);
  };
  for (const CsaRecordMove& m : rec.moves) write_move(m);
  if (rec.rejected_last_move) write_move(*rec.rejected_last_move);
  if (rec.result != CsaSpecialMove::kNone) {
    s += std::string(csa_special_move_name(rec.result)) + "\n";
    if (rec.result_time_ms) s += format_time(*rec.result_time_ms, version) + "\n";
  }
  write_comments(s, rec.result_comments);
  return s;
}

std::string csa_record_ending_problem(const CsaRecord& rec) {
  Position pos;
  if (!pos.set(rec.initial).is_ok()) return "";
  for (size_t i = 0; i < rec.moves.size(); ++i) {
    pos.do_move(pos.complete_move(rec.moves[i].move));
    if (pos.repetition(4) != Repetition::kNone && i + 1 < rec.moves.size())
      return "move " + std::to_string(i + 2) + " (" + rec.moves[i + 1].text +
             ") comes after a fourfold repetition ended the game";
  }
  if (rec.has_rejected_last_move()) return "";
  if (rec.result == CsaSpecialMove::kSennichite && pos.repetition(4) == Repetition::kNone)
    return "%SENNICHITE without a fourfold repetition";
  if (rec.result == CsaSpecialMove::kKachi && !pos.can_declare_win())
    return "%KACHI that the entering-king rule (27 points) does not allow";
  return "";
}

Status replay_csa_record(const CsaRecord& rec, Position& out, int plies) {
  const int count = int(rec.moves.size());
  if (plies == kAllMoves) plies = count;
  if (plies < 0 || plies > count)
    return Status::error("replay: " + std::to_string(plies) + " plies asked, the record has " +
                         std::to_string(count));
  Position pos;
  if (Status status = pos.set(rec.initial); !status)
    return Status::error("replay: invalid starting position: " + status.message());
  for (int i = 0; i < plies; ++i) {
    const Move m = rec.moves[i].move;
    if (!legal_moves(pos).contains(m))
      return Status::error("replay: move " + std::to_string(i + 1) + " (" + rec.moves[i].text +
                           ") is not legal");
    pos.do_move(pos.complete_move(m));
  }
  out = pos;
  return Status::ok();
}

Position csa_final_position(const CsaRecord& rec) {
  Position pos;
  if (!pos.set(rec.initial)) return Position();
  for (const CsaRecordMove& m : rec.moves) {
    if (!legal_moves(pos).contains(m.move)) break;
    pos.do_move(pos.complete_move(m.move));
  }
  return pos;
}

}  // namespace shogi
