// KIF game records: writing a CsaRecord as KIF, reading KIF into one.
#include "shogi/kif_record.h"

#include <array>
#include <cstdio>
#include <optional>
#include <vector>

#include "base/text_lines.h"
#include "shogi/csa_notation.h"
#include "shogi/movegen.h"
#include "shogi/notation.h"

namespace shogi {
using base::TextLines;

namespace {

// ---- Names and numbers -------------------------------------------------------------------

// Piece names in moves ("７六歩", "３三成銀") and on the board diagram (one character each).
constexpr std::array<const char*, kPieceTypeNb> kMoveNames = {
    "", "歩", "香", "桂", "銀", "角", "飛", "金", "玉", "と", "成香", "成桂", "成銀", "馬", "龍"};
constexpr std::array<const char*, kPieceTypeNb> kBoardNames = {
    "", "歩", "香", "桂", "銀", "角", "飛", "金", "玉", "と", "杏", "圭", "全", "馬", "龍"};
constexpr std::array<const char*, 10> kFullWidthDigits = {"０", "１", "２", "３", "４",
                                                          "５", "６", "７", "８", "９"};
constexpr std::array<const char*, 10> kKanjiDigits = {"〇", "一", "二", "三", "四",
                                                      "五", "六", "七", "八", "九"};
constexpr std::array<char32_t, 10> kKanjiDigitChars = {U'〇', U'一', U'二', U'三', U'四',
                                                       U'五', U'六', U'七', U'八', U'九'};
// The order hands are written in, strongest first, as Kifu for Windows writes them.
constexpr std::array<PieceType, 7> kHandOrder = {kRook,   kBishop, kGold, kSilver,
                                                 kKnight, kLance,  kPawn};

constexpr std::string_view kColon = "：";
constexpr std::string_view kMovesHeader = "手数----指手---------消費時間--";
constexpr std::string_view kBoardBorder = "+---------------------------+";
constexpr std::string_view kRejectedMovePrefix = "反則手：";

// 1..99 in kanji: 二, 十, 十八.
std::string kanji_number(int n) {
  std::string s;
  if (n >= 20) s += kKanjiDigits[n / 10];
  if (n >= 10) s += "十";
  if (n % 10 != 0) s += kKanjiDigits[n % 10];
  return s;
}

const char* side_name(Color c) { return c == kBlack ? "先手" : "後手"; }

// ---- Info lines: CSA keys and KIF keys ---------------------------------------------------

struct InfoKey {
  const char* csa;
  const char* kif;
};
// TIME and TIME_LIMIT both become 持ち時間; reading gives TIME (or TIME_LIMIT for "HH:MM+SS").
constexpr InfoKey kInfoKeys[] = {
    {"START_TIME", "開始日時"}, {"END_TIME", "終了日時"},  {"EVENT", "棋戦"},
    {"SITE", "場所"},           {"OPENING", "戦型"},       {"TIME", "持ち時間"},
    {"TIME_LIMIT", "持ち時間"}, {"TIME+", "先手持ち時間"}, {"TIME-", "後手持ち時間"},
    {"MAX_MOVES", "最大手数"},  {"JISHOGI", "持将棋"},
};

bool is_time_key(std::string_view csa_key) {
  return csa_key == "TIME" || csa_key == "TIME_LIMIT" || csa_key == "TIME+" || csa_key == "TIME-";
}

// Reads an unsigned decimal number that is all of `s`.
bool parse_count(std::string_view s, int64_t& out) {
  if (s.empty() || s.size() > 9) return false;
  out = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  return true;
}

// CSA V3.0 "TOTAL+BYOYOMI+INCREMENT", whole seconds.
bool parse_csa_v3_time(std::string_view v, int64_t& total, int64_t& byoyomi, int64_t& increment) {
  const size_t a = v.find('+');
  if (a == std::string_view::npos) return false;
  const size_t b = v.find('+', a + 1);
  if (b == std::string_view::npos) return false;
  return parse_count(v.substr(0, a), total) && parse_count(v.substr(a + 1, b - a - 1), byoyomi) &&
         parse_count(v.substr(b + 1), increment);
}

// CSA V2.2 $TIME_LIMIT "HH:MM+SS" (main time, byoyomi seconds).
bool parse_csa_v2_time(std::string_view v, int64_t& total, int64_t& byoyomi) {
  const size_t colon = v.find(':');
  const size_t plus = v.find('+');
  int64_t hours = 0, minutes = 0;
  if (colon == std::string_view::npos || plus == std::string_view::npos || plus < colon)
    return false;
  if (!parse_count(v.substr(0, colon), hours) ||
      !parse_count(v.substr(colon + 1, plus - colon - 1), minutes) ||
      !parse_count(v.substr(plus + 1), byoyomi))
    return false;
  total = hours * 3600 + minutes * 60;
  return true;
}

// 5400 -> "1時間30分", 10 -> "10秒", 0 -> "0分".
std::string format_duration(int64_t seconds) {
  std::string s;
  if (seconds >= 3600) s += std::to_string(seconds / 3600) + "時間";
  if (seconds % 3600 >= 60) s += std::to_string(seconds % 3600 / 60) + "分";
  if (seconds % 60 != 0) s += std::to_string(seconds % 60) + "秒";
  return s.empty() ? "0分" : s;
}

// The inverse of format_duration: "1時間30分" -> 5400.
bool parse_duration(std::string_view s, int64_t& seconds) {
  constexpr std::pair<std::string_view, int> kUnits[] = {{"時間", 3600}, {"分", 60}, {"秒", 1}};
  seconds = 0;
  size_t unit = 0;
  bool any = false;
  while (!s.empty()) {
    size_t digits = 0;
    while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
    int64_t n = 0;
    if (!parse_count(s.substr(0, digits), n)) return false;
    s.remove_prefix(digits);
    while (unit < 3 && !s.starts_with(kUnits[unit].first)) ++unit;
    if (unit == 3) return false;
    s.remove_prefix(kUnits[unit].first.size());
    seconds += n * kUnits[unit].second;
    ++unit;
    any = true;
  }
  return any;
}

// "10分+10秒" (byoyomi), "5分+1手10秒加算" (increment), "10分+10秒+1手5秒加算".
std::string format_time_control(int64_t total, int64_t byoyomi, int64_t increment) {
  std::string s = format_duration(total);
  if (byoyomi > 0) s += "+" + format_duration(byoyomi);
  if (increment > 0) s += "+1手" + format_duration(increment) + "加算";
  return s;
}

// The inverse of format_time_control, as the CSA V3.0 value "600+10+0".
bool parse_time_control(std::string_view v, std::string& csa) {
  constexpr std::string_view kPerMove = "1手", kAdded = "加算";
  int64_t total = 0, byoyomi = 0, increment = 0;
  int part = 0;  // 0: the main time, 1: byoyomi seen, 2: increment seen
  for (size_t start = 0, end = 0; start <= v.size(); start = end + 1, ++part) {
    end = v.find('+', start);
    if (end == std::string_view::npos) end = v.size();
    std::string_view p = v.substr(start, end - start);
    if (part == 0) {
      if (!parse_duration(p, total)) return false;
    } else if (p.starts_with(kPerMove) && p.ends_with(kAdded) &&
               p.size() > kPerMove.size() + kAdded.size()) {
      p = p.substr(kPerMove.size(), p.size() - kPerMove.size() - kAdded.size());
      if (increment > 0 || !parse_duration(p, increment)) return false;
    } else {
      if (part > 1 || increment > 0 || !parse_duration(p, byoyomi)) return false;
    }
  }
  csa = std::to_string(total) + "+" + std::to_string(byoyomi) + "+" + std::to_string(increment);
  return true;
}

// The KIF line of one CSA info entry.
std::string kif_info_line(const std::string& key, const std::string& value) {
  std::string kif_key = key;
  for (const InfoKey& k : kInfoKeys)
    if (key == k.csa) kif_key = k.kif;
  std::string kif_value = value;
  int64_t total = 0, byoyomi = 0, increment = 0;
  if (is_time_key(key) && (parse_csa_v3_time(value, total, byoyomi, increment) ||
                           (key == "TIME_LIMIT" && parse_csa_v2_time(value, total, byoyomi))))
    kif_value = format_time_control(total, byoyomi, increment);
  return kif_key + std::string(kColon) + kif_value + "\n";
}

// The CSA info entry of one KIF header line.
std::pair<std::string, std::string> csa_info_entry(std::string_view key, std::string_view value) {
  std::string csa_key(key);
  for (const InfoKey& k : kInfoKeys)
    if (key == k.kif) {
      csa_key = k.csa;
      break;
    }
  if (!is_time_key(csa_key)) return {csa_key, std::string(value)};
  int64_t total = 0, byoyomi = 0, increment = 0;
  std::string csa;
  if (parse_csa_v3_time(value, total, byoyomi, increment)) return {csa_key, std::string(value)};
  if (csa_key == "TIME" && parse_csa_v2_time(value, total, byoyomi))
    return {"TIME_LIMIT", std::string(value)};
  if (parse_time_control(value, csa)) return {csa_key, csa};
  return {std::string(key), std::string(value)};  // a time control we cannot read: kept as is
}

// ---- Special moves -----------------------------------------------------------------------

struct Ending {
  const char* word;     // the special move line's text
  std::string summary;  // the "まで..." line, without "まで"
};

// How the record's result is written. `pos` is the position after every move.
Ending kif_ending(const CsaRecord& record, const Position& pos) {
  const int plies = int(record.moves.size());
  const Color to_move = pos.side_to_move();
  const std::string prefix = std::to_string(plies) + "手で";
  // A foul: 反則負け when the side to move lost, 反則勝ち when the side that just moved did.
  auto foul = [&](Color loser) -> Ending {
    if (loser == to_move) return {"反則負け", prefix + side_name(to_move) + "の反則負け"};
    return {"反則勝ち", prefix + side_name(to_move) + "の反則勝ち"};
  };
  switch (record.result) {
    case CsaSpecialMove::kToryo:
      return {"投了", prefix + side_name(~to_move) + "の勝ち"};
    case CsaSpecialMove::kSennichite:
      return {"千日手", prefix + "千日手"};
    case CsaSpecialMove::kOuteSennichite:
      // The side that gave check with every move of the cycle loses; repetition() tells which.
      return foul(pos.repetition(4) == Repetition::kLoss ? to_move : ~to_move);
    case CsaSpecialMove::kIllegalMove:
      return foul(to_move);
    case CsaSpecialMove::kBlackIllegalAction:
      return foul(kBlack);
    case CsaSpecialMove::kWhiteIllegalAction:
      return foul(kWhite);
    case CsaSpecialMove::kTimeUp:
      return {"切れ負け", prefix + "時間切れにより" + side_name(~to_move) + "の勝ち"};
    case CsaSpecialMove::kKachi:
      return {"入玉勝ち", prefix + side_name(to_move) + "の入玉勝ち"};
    case CsaSpecialMove::kJishogi:
    case CsaSpecialMove::kHikiwake:
    case CsaSpecialMove::kMaxMoves:
      return {"持将棋", prefix + "持将棋"};
    case CsaSpecialMove::kTsumi:
      return {"詰み", prefix + "詰み"};
    case CsaSpecialMove::kFuzumi:
      return {"不詰", prefix + "不詰"};
    case CsaSpecialMove::kChudan:
    case CsaSpecialMove::kMatta:
    case CsaSpecialMove::kError:
    case CsaSpecialMove::kNone:
      break;
  }
  return {"中断", prefix + "中断"};
}

// The special move a KIF word names; kNone when it names none. `to_move` decides 反則勝ち.
CsaSpecialMove special_from_kif(std::string_view word, Color to_move) {
  if (word == "投了") return CsaSpecialMove::kToryo;
  if (word == "中断" || word == "封じ手") return CsaSpecialMove::kChudan;
  if (word == "千日手") return CsaSpecialMove::kSennichite;
  if (word == "持将棋") return CsaSpecialMove::kJishogi;
  if (word == "詰み" || word == "詰") return CsaSpecialMove::kTsumi;
  if (word == "不詰") return CsaSpecialMove::kFuzumi;
  if (word == "切れ負け" || word == "時間切れ") return CsaSpecialMove::kTimeUp;
  if (word == "反則負け") return CsaSpecialMove::kIllegalMove;
  if (word == "反則勝ち")
    return to_move == kBlack ? CsaSpecialMove::kWhiteIllegalAction
                             : CsaSpecialMove::kBlackIllegalAction;
  if (word == "入玉勝ち") return CsaSpecialMove::kKachi;
  if (word == "引き分け") return CsaSpecialMove::kHikiwake;
  if (word == "最大手数") return CsaSpecialMove::kMaxMoves;
  return CsaSpecialMove::kNone;
}

// The result a "まで..." line states, for records without a special move line.
CsaSpecialMove special_from_summary(std::string_view s, Color to_move) {
  constexpr std::pair<std::string_view, std::string_view> kWords[] = {
      {"中断", "中断"},         {"封じ手", "中断"},       {"千日手", "千日手"},
      {"持将棋", "持将棋"},     {"時間切れ", "切れ負け"}, {"反則勝ち", "反則勝ち"},
      {"反則負け", "反則負け"}, {"入玉勝ち", "入玉勝ち"}, {"不詰", "不詰"},
      {"詰", "詰み"},           {"勝ち", "投了"}};
  for (const auto& [found, word] : kWords)
    if (s.find(found) != std::string_view::npos) return special_from_kif(word, to_move);
  return CsaSpecialMove::kNone;
}

bool is_illegal_ending(CsaSpecialMove s) {
  return s == CsaSpecialMove::kIllegalMove || s == CsaSpecialMove::kBlackIllegalAction ||
         s == CsaSpecialMove::kWhiteIllegalAction;
}

// ---- Writing -----------------------------------------------------------------------------

// Display columns of UTF-8 text: ASCII is one, everything else (kanji, kana) two.
int display_width(std::string_view s) {
  int w = 0;
  for (unsigned char c : s) {
    if (c < 0x80)
      w += 1;
    else if ((c & 0xC0) != 0x80)
      w += 2;
  }
  return w;
}

void pad_to(std::string& s, int columns) {
  const int w = display_width(s);
  if (w < columns) s.append(size_t(columns - w), ' ');
}

// "( 0:16/00:00:16)": this move's minutes and seconds, the side's total.
std::string format_times(int64_t move_ms, int64_t total_ms) {
  const long long m = move_ms / 1000, t = total_ms / 1000;
  char buf[64];
  std::snprintf(buf, sizeof buf, "(%2lld:%02lld/%02lld:%02lld:%02lld)", m / 60, m % 60, t / 3600,
                t / 60 % 60, t % 60);
  return buf;
}

// "７六歩(77)", "同　歩(23)", "２二角成(88)", "５五角打". REQUIRES: m is legal in pos.
std::string format_kif_move(const Position& pos, Move m, Square previous_to) {
  std::string s;
  const Square to = m.to();
  if (to == previous_to)
    s += "同　";
  else
    s += std::string(kFullWidthDigits[file_of(to) + 1]) + kKanjiDigits[rank_of(to) + 1];
  if (m.is_drop()) return s + kMoveNames[m.dropped_type()] + "打";
  s += kMoveNames[type_of(pos.piece_on(m.from()))];
  if (m.is_promotion()) s += "成";
  return s + "(" + format_csa_square(m.from()) + ")";
}

std::string format_hand(Hand hand) {
  std::string s;
  for (PieceType t : kHandOrder) {
    const int n = hand.count(t);
    if (n == 0) continue;
    s += kBoardNames[t];
    if (n >= 2) s += kanji_number(n);
    s += "　";
  }
  return s.empty() ? "なし" : s;
}

// The BOD diagram (盤面図) of a start position that is not the standard one.
std::string format_bod(const PositionSetup& setup) {
  std::string s = "後手の持駒：" + format_hand(setup.hands[kWhite]) + "\n";
  s += "  ９ ８ ７ ６ ５ ４ ３ ２ １\n";
  s += std::string(kBoardBorder) + "\n";
  for (int rank = 0; rank < 9; ++rank) {
    s += "|";
    for (int file = 8; file >= 0; --file) {
      const Piece p = setup.board[make_square(file, rank)];
      if (p == kNoPiece)
        s += " ・";
      else
        s += std::string(color_of(p) == kBlack ? " " : "v") + kBoardNames[type_of(p)];
    }
    s += std::string("|") + kKanjiDigits[rank + 1] + "\n";
  }
  s += std::string(kBoardBorder) + "\n";
  s += "先手の持駒：" + format_hand(setup.hands[kBlack]) + "\n";
  if (setup.side_to_move == kWhite) s += "後手番\n";
  return s;
}

void write_comments(std::string& s, const std::vector<std::string>& comments) {
  for (const std::string& c : comments) s += "*" + c + "\n";
}

// ---- Reading: UTF-8 lines as characters --------------------------------------------------

// Decodes the UTF-8 character at s[i], advancing i; false when the bytes there are not UTF-8.
bool decode_utf8(std::string_view s, size_t& i, char32_t& out) {
  const unsigned char c = s[i];
  int extra = 0;
  char32_t cp = 0, min = 0;
  if (c < 0x80) {
    out = c;
    ++i;
    return true;
  } else if ((c & 0xE0) == 0xC0) {
    extra = 1, cp = c & 0x1F, min = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    extra = 2, cp = c & 0x0F, min = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    extra = 3, cp = c & 0x07, min = 0x10000;
  } else {
    return false;
  }
  for (int k = 1; k <= extra; ++k) {
    if (i + k >= s.size()) return false;
    const unsigned char d = s[i + k];
    if ((d & 0xC0) != 0x80) return false;
    cp = cp << 6 | (d & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
  out = cp;
  i += size_t(extra) + 1;
  return true;
}

// One line of the input as characters, with the byte offset of each (and of the end).
struct Line {
  std::string_view bytes;
  std::vector<char32_t> chars;
  std::vector<size_t> offsets;  // offsets[i]: where chars[i] starts; offsets[size]: the end
  int number = 0;

  size_t size() const { return chars.size(); }
  char32_t at(size_t i) const { return i < chars.size() ? chars[i] : 0; }
  // The bytes of characters [from, to).
  std::string_view text(size_t from, size_t to) const {
    return bytes.substr(offsets[from], offsets[to] - offsets[from]);
  }
  std::string_view text_from(size_t from) const { return text(from, size()); }
  bool starts_with(size_t i, std::u32string_view s) const {
    return i + s.size() <= chars.size() && std::u32string_view(chars.data() + i, s.size()) == s;
  }
};

bool is_space(char32_t c) { return c == U' ' || c == U'\t' || c == U'\u3000'; }

// Cuts `text` into lines of characters; the first bad byte is reported through `bad_line` and
// `bad_column` (1-based) and false is returned.
bool split_lines(std::string_view text, std::vector<Line>& lines, int& bad_line, int& bad_column) {
  TextLines cut(text);
  for (std::string_view bytes; cut.next(bytes);) {
    Line line;
    line.bytes = bytes;
    line.number = cut.number();
    for (size_t i = 0; i < bytes.size();) {
      line.offsets.push_back(i);
      char32_t c = 0;
      if (!decode_utf8(bytes, i, c)) {
        bad_line = line.number;
        bad_column = int(line.chars.size()) + 1;
        return false;
      }
      line.chars.push_back(c);
    }
    line.offsets.push_back(bytes.size());
    // Trailing spaces (ASCII or full-width) carry nothing.
    while (!line.chars.empty() && is_space(line.chars.back())) {
      line.chars.pop_back();
      line.offsets.pop_back();
    }
    lines.push_back(std::move(line));
  }
  return true;
}

int digit_of(char32_t c) {
  if (c >= U'1' && c <= U'9') return int(c - U'0');
  if (c >= U'１' && c <= U'９') return int(c - U'０');
  return 0;
}
// 0..9 for an ASCII or full-width digit, else -1.
int ascii_or_wide_digit(char32_t c) {
  if (c >= U'0' && c <= U'9') return int(c - U'0');
  if (c >= U'０' && c <= U'９') return int(c - U'０');
  return -1;
}
int kanji_digit_of(char32_t c) {
  for (int d = 1; d <= 9; ++d)
    if (kKanjiDigitChars[d] == c) return d;
  return 0;
}

// A piece name at line[i] (two characters for 成銀 成桂 成香); sets `length`.
PieceType piece_at(const Line& line, size_t i, size_t& length) {
  constexpr std::pair<std::u32string_view, PieceType> kNames[] = {
      {U"成銀", kProSilver}, {U"成桂", kProKnight}, {U"成香", kProLance}, {U"歩", kPawn},
      {U"香", kLance},       {U"桂", kKnight},      {U"銀", kSilver},     {U"金", kGold},
      {U"角", kBishop},      {U"飛", kRook},        {U"玉", kKing},       {U"王", kKing},
      {U"と", kProPawn},     {U"杏", kProLance},    {U"圭", kProKnight},  {U"全", kProSilver},
      {U"馬", kHorse},       {U"龍", kDragon},      {U"竜", kDragon}};
  for (const auto& [name, type] : kNames)
    if (line.starts_with(i, name)) {
      length = name.size();
      return type;
    }
  length = 0;
  return kNoPieceType;
}

// ---- Reading: the parser -----------------------------------------------------------------

class KifReader {
 public:
  KifReader(std::string_view input_name, CsaRecord& out) : name_(input_name), out_(out) {}

  Status read(std::string_view text);

 private:
  Status error(const Line& line, size_t index, const std::string& message) const {
    return Status::error(std::string(name_) + ":" + std::to_string(line.number) + ":" +
                         std::to_string(index + 1) + ": " + message);
  }

  Status read_line(const Line& line, bool& stop);
  Status read_header(const Line& line, size_t colon);
  Status read_board_row(const Line& line);
  Status read_hand(const Line& line, size_t from, Color c);
  Status read_move_line(const Line& line);
  Status read_time(const Line& line, size_t& i, std::optional<int64_t>& ms);
  Status read_board_move(const Line& line, size_t start, size_t& i, CsaRecordMove& out);
  Status start_moves(const Line& line);
  void add_comment(std::string comment);
  Status position_line_allowed(const Line& line) const {
    if (moves_started_) return error(line, 0, "a position line after the moves began");
    return Status::ok();
  }

  std::string_view name_;
  CsaRecord& out_;
  Position pos_;
  bool moves_started_ = false;
  // The start position as the header describes it.
  PositionSetup handicap_ = csa_start_setup();
  int position_line_ = 0;         // the first line describing the position; 0: none
  std::string unknown_handicap_;  // a 手合割 we do not know (an error unless a BOD follows)
  int unknown_handicap_line_ = 0;
  std::array<Piece, kSquareNb> board_{};
  unsigned ranks_seen_ = 0;  // bit r: the diagram's rank r was read
  int last_board_line_ = 0;
  Hand hands_[kColorNb];
  std::optional<Color> side_;
  Square last_to_ = kSquareNone;
};

Status KifReader::read(std::string_view text) {
  out_ = CsaRecord();
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  std::vector<Line> lines;
  int bad_line = 0, bad_column = 0;
  if (!split_lines(text, lines, bad_line, bad_column))
    return Status::error(std::string(name_) + ":" + std::to_string(bad_line) + ":" +
                         std::to_string(bad_column) +
                         ": not UTF-8 text (Shift_JIS .kif files are not supported: convert the "
                         "file to UTF-8 first, e.g. iconv -f CP932 -t UTF-8)");
  bool stop = false;
  for (const Line& line : lines) {
    if (line.size() == 0) continue;
    if (Status s = read_line(line, stop); !s) return s;
    if (stop) break;
  }
  if (!moves_started_) {
    const Line end{{}, {}, {0}, lines.empty() ? 1 : lines.back().number};
    if (Status s = start_moves(end); !s) return s;
  }
  // A rejected last move that write_kif_record kept as a comment goes back to its place.
  if (is_illegal_ending(out_.result) && !out_.result_comments.empty() &&
      out_.result_comments[0].starts_with(kRejectedMovePrefix)) {
    const std::string text_move = out_.result_comments[0].substr(kRejectedMovePrefix.size());
    Move m;
    CsaMoveProblem problem;
    if (!parse_csa_move(pos_, text_move, m, problem) && !problem.syntax) {
      out_.rejected_last_move = CsaRecordMove{kMoveNone, text_move, std::nullopt, {}};
      out_.result_comments.erase(out_.result_comments.begin());
    }
  }
  return Status::ok();
}

void KifReader::add_comment(std::string comment) {
  if (out_.result != CsaSpecialMove::kNone)
    out_.result_comments.push_back(std::move(comment));
  else if (!out_.moves.empty())
    out_.moves.back().comments.push_back(std::move(comment));
  else
    out_.comments.push_back(std::move(comment));
}

Status KifReader::read_line(const Line& line, bool& stop) {
  const char32_t first = line.at(0);
  if (first == U'#' || first == U'&') return Status::ok();  // program comments, bookmarks
  if (first == U'*') {
    // The comment as written, but for trailing ASCII blanks (read_csa_record drops those too).
    std::string_view comment = line.bytes.substr(line.offsets[1]);
    while (!comment.empty() && (comment.back() == ' ' || comment.back() == '\t'))
      comment.remove_suffix(1);
    add_comment(std::string(comment));
    return Status::ok();
  }
  if (line.starts_with(0, U"変化：") || line.starts_with(0, U"変化:")) {
    stop = true;  // variations follow the main line; they are not read
    return Status::ok();
  }
  if (first == U'|') return read_board_row(line);
  if (first == U'+') {  // the diagram's border
    for (size_t i = 1; i < line.size(); ++i)
      if (line.at(i) != U'-' && line.at(i) != U'+')
        return error(line, i, "unrecognised line (a board border is +----+)");
    return Status::ok();
  }
  {  // the diagram's file numbers "  ９ ８ ７ ６ ５ ４ ３ ２ １"
    int digits = 0;
    bool only_digits = true;
    for (char32_t c : line.chars) {
      if (digit_of(c) > 0)
        ++digits;
      else if (!is_space(c))
        only_digits = false;
    }
    if (only_digits && digits == 9) return Status::ok();
  }
  if (line.starts_with(0, U"手数----")) return Status::ok();
  if (line.starts_with(0, U"手数＝") || line.starts_with(0, U"手数=") ||
      line.starts_with(0, U"盤面回転"))
    return Status::ok();
  const std::u32string_view whole(line.chars.data(), line.size());
  if (whole == U"先手番" || whole == U"下手番" || whole == U"後手番" || whole == U"上手番") {
    if (Status s = position_line_allowed(line); !s) return s;
    side_ = whole == U"先手番" || whole == U"下手番" ? kBlack : kWhite;
    return Status::ok();
  }
  {  // a move line: the move number, spaces, the move
    size_t i = 0;
    while (line.at(i) == U' ' || line.at(i) == U'\t') ++i;
    const size_t digits_start = i;
    while (line.at(i) >= U'0' && line.at(i) <= U'9') ++i;
    if (i > digits_start && (line.at(i) == U' ' || line.at(i) == U'\t'))
      return read_move_line(line);
  }
  if (line.starts_with(0, U"まで")) {
    if (moves_started_ && out_.result == CsaSpecialMove::kNone)
      out_.result = special_from_summary(line.text_from(2), pos_.side_to_move());
    return Status::ok();
  }
  for (size_t i = 0; i < line.size(); ++i) {
    const char32_t c = line.at(i);
    if (c == U'：' || c == U':') {
      if (i > 0) return read_header(line, i);
      break;
    }
    if (c == U' ' || c == U'\u3000') break;
  }
  return error(line, 0, "unrecognised line '" + std::string(line.text_from(0)) + "'");
}

Status KifReader::read_header(const Line& line, size_t colon) {
  const std::string_view key = line.text(0, colon);
  size_t v = colon + 1;
  while (v < line.size() && is_space(line.at(v))) ++v;
  const std::string_view value = line.text_from(v);
  if (key == "先手" || key == "下手") {
    out_.black_name = std::string(value);
  } else if (key == "後手" || key == "上手") {
    out_.white_name = std::string(value);
  } else if (key == "先手の持駒" || key == "下手の持駒") {
    if (Status s = position_line_allowed(line); !s) return s;
    return read_hand(line, v, kBlack);
  } else if (key == "後手の持駒" || key == "上手の持駒") {
    if (Status s = position_line_allowed(line); !s) return s;
    return read_hand(line, v, kWhite);
  } else if (key == "手合割") {
    if (Status s = position_line_allowed(line); !s) return s;
    constexpr std::pair<std::string_view, const char*> kHandicaps[] = {
        {"平手", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"},
        {"香落ち", "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"},
        {"右香落ち", "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"},
        {"角落ち", "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"},
        {"飛車落ち", "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"},
        {"飛香落ち", "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"},
        {"二枚落ち", "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"},
        {"四枚落ち", "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"},
        {"六枚落ち", "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"},
        {"八枚落ち", "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"},
        {"十枚落ち", "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"},
    };
    if (position_line_ == 0) position_line_ = line.number;
    for (const auto& [handicap, sfen] : kHandicaps)
      if (value == handicap) {
        [[maybe_unused]] const Status parsed = parse_sfen(sfen, handicap_);
        return Status::ok();
      }
    unknown_handicap_ = std::string(value);  // "その他" and the like: a diagram must follow
    unknown_handicap_line_ = line.number;
  } else {
    out_.info.push_back(csa_info_entry(key, value));
  }
  return Status::ok();
}

Status KifReader::read_hand(const Line& line, size_t i, Color c) {
  hands_[c] = Hand();
  while (i < line.size()) {
    while (i < line.size() && is_space(line.at(i))) ++i;
    if (i >= line.size()) break;
    if (line.starts_with(i, U"なし")) {
      i += 2;
      continue;
    }
    size_t length = 0;
    const PieceType t = piece_at(line, i, length);
    if (t < kPawn || t > kGold)
      return error(line, i, "expected a piece in hand (飛 角 金 銀 桂 香 歩)");
    const size_t count_at = i + length;
    i = count_at;
    int n = 0;
    if (ascii_or_wide_digit(line.at(i)) >= 0) {  // digits, as some programs write
      for (; ascii_or_wide_digit(line.at(i)) >= 0 && n < 100; ++i)
        n = n * 10 + ascii_or_wide_digit(line.at(i));
    } else if (kanji_digit_of(line.at(i)) > 0 || line.at(i) == U'十') {  // 二, 十, 十八
      if (line.at(i) != U'十') n = kanji_digit_of(line.at(i++));
      if (line.at(i) == U'十') {
        n = (n == 0 ? 1 : n) * 10;
        ++i;
        if (kanji_digit_of(line.at(i)) > 0) n += kanji_digit_of(line.at(i++));
      }
    } else {
      n = 1;
    }
    if (n < 1 || hands_[c].count(t) + n > Hand::kMaxCount[t])
      return error(line, count_at, std::string("too many ") + kMoveNames[t] + " in hand");
    hands_[c].add(t, n);
  }
  return Status::ok();
}

Status KifReader::read_board_row(const Line& line) {
  if (Status s = position_line_allowed(line); !s) return s;
  if (position_line_ == 0) position_line_ = line.number;
  last_board_line_ = line.number;
  if (line.size() < 20 || line.at(19) != U'|')
    return error(line, std::min<size_t>(line.size(), 19),
                 "a board row is '|', nine squares of two characters (' ・', ' 歩', 'v歩'), '|'");
  const int rank = kanji_digit_of(line.at(20)) - 1;
  if (rank < 0 || line.size() > 21)
    return error(line, 20, "expected the rank (一 to 九) after the board row");
  if (ranks_seen_ & (1u << rank)) return error(line, 20, "a second board row for this rank");
  ranks_seen_ |= 1u << rank;
  for (int k = 0; k < 9; ++k) {
    const size_t i = 1 + size_t(k) * 2;
    const int file = 8 - k;
    const char32_t mark = line.at(i);
    if (line.at(i + 1) == U'・' && mark == U' ') {
      board_[make_square(file, rank)] = kNoPiece;
      continue;
    }
    size_t length = 0;
    const PieceType t = piece_at(line, i + 1, length);
    if (t == kNoPieceType || length != 1)
      return error(line, i + 1,
                   "expected a piece (歩 香 桂 銀 金 角 飛 玉 と 杏 圭 全 馬 龍) or ・");
    Color c;
    if (mark == U' ' || mark == U'^' || mark == U'+')
      c = kBlack;
    else if (mark == U'v' || mark == U'V')
      c = kWhite;
    else
      return error(line, i, "expected ' ' (Black's piece) or 'v' (White's) before the piece");
    board_[make_square(file, rank)] = make_piece(c, t);
  }
  return Status::ok();
}

// Fixes the start position: the diagram if there was one, else the 手合割 (平手 by default).
Status KifReader::start_moves(const Line& line) {
  moves_started_ = true;
  PositionSetup setup;
  if (ranks_seen_ != 0) {
    if (ranks_seen_ != 0x1FF) {
      int n = 0;
      for (int r = 0; r < 9; ++r) n += (ranks_seen_ >> r) & 1;
      return Status::error(std::string(name_) + ":" + std::to_string(last_board_line_) +
                           ":1: the board diagram has " + std::to_string(n) + " of its 9 ranks");
    }
    setup.board = board_;
    setup.side_to_move = side_.value_or(handicap_.side_to_move);
  } else {
    if (!unknown_handicap_.empty())
      return Status::error(std::string(name_) + ":" + std::to_string(unknown_handicap_line_) +
                           ":1: unknown 手合割 '" + unknown_handicap_ + "' and no board diagram");
    setup = handicap_;
    if (side_) setup.side_to_move = *side_;
  }
  for (Color c : {kBlack, kWhite})
    if (!hands_[c].empty()) setup.hands[c] = hands_[c];
  setup.game_ply = 1;
  if (Status s = pos_.set(setup); !s) {
    const int at = position_line_ > 0 ? position_line_ : line.number;
    return Status::error(std::string(name_) + ":" + std::to_string(at) +
                         ":1: invalid starting position: " + s.message());
  }
  out_.initial = setup;
  return Status::ok();
}

// "( 0:16/00:00:16)" at line[i]: the move's time; the total is checked for form only.
Status KifReader::read_time(const Line& line, size_t& i, std::optional<int64_t>& ms) {
  auto number = [&](int64_t& n) {
    const size_t from = i;
    n = 0;
    while (line.at(i) >= U'0' && line.at(i) <= U'9' && i - from < 9)
      n = n * 10 + (line.at(i++) - U'0');
    return i > from;
  };
  ++i;  // '('
  while (line.at(i) == U' ') ++i;
  int64_t minutes = 0, seconds = 0;
  if (!number(minutes) || line.at(i) != U':') return error(line, i, "bad time: expected M:SS");
  ++i;
  if (!number(seconds)) return error(line, i, "bad time: expected the seconds");
  if (line.at(i) == U'/') {
    ++i;
    while (line.at(i) == U' ' || line.at(i) == U':' || (line.at(i) >= U'0' && line.at(i) <= U'9'))
      ++i;
  }
  if (line.at(i) != U')') return error(line, i, "bad time: expected ')'");
  ++i;
  ms = (minutes * 60 + seconds) * 1000;
  return Status::ok();
}

Status KifReader::read_move_line(const Line& line) {
  size_t i = 0;
  while (line.at(i) == U' ' || line.at(i) == U'\t') ++i;
  const size_t number_at = i;
  int64_t number = 0;
  while (line.at(i) >= U'0' && line.at(i) <= U'9') {
    if (number < 100000) number = number * 10 + (line.at(i) - U'0');
    ++i;
  }
  while (line.at(i) == U' ' || line.at(i) == U'\t') ++i;
  if (!moves_started_)
    if (Status s = start_moves(line); !s) return s;
  if (out_.result != CsaSpecialMove::kNone)
    return error(line, number_at,
                 "a move after the end of the game (" +
                     std::string(csa_special_move_name(out_.result)) + ")");
  const int64_t expected = int64_t(out_.moves.size()) + 1;
  if (number != expected)
    return error(
        line, number_at,
        "move number " + std::to_string(number) + ", expected " + std::to_string(expected));
  const char32_t mark = line.at(i);
  if (mark == U'▲' || mark == U'△' || mark == U'☗' || mark == U'☖' || mark == U'▼' || mark == U'▽')
    ++i;
  const size_t move_at = i;

  // A special move: a word, then perhaps a time. A move starts with 同 or a digit.
  if (!line.starts_with(i, U"同") && ascii_or_wide_digit(line.at(i)) < 0) {
    while (i < line.size() && !is_space(line.at(i)) && line.at(i) != U'(') ++i;
    const std::string word(line.text(move_at, i));
    const CsaSpecialMove special = special_from_kif(word, pos_.side_to_move());
    if (special == CsaSpecialMove::kNone)
      return error(line, move_at, "unknown move or special move '" + word + "'");
    while (is_space(line.at(i))) ++i;
    if (line.at(i) == U'(')
      if (Status s = read_time(line, i, out_.result_time_ms); !s) return s;
    while (is_space(line.at(i))) ++i;
    if (i < line.size()) return error(line, i, "unexpected text after the special move");
    out_.result = special;
    return Status::ok();
  }

  CsaRecordMove entry;
  if (Status s = read_board_move(line, move_at, i, entry); !s) return s;
  while (is_space(line.at(i))) ++i;
  if (line.at(i) == U'(')
    if (Status s = read_time(line, i, entry.time_ms); !s) return s;
  while (is_space(line.at(i))) ++i;
  if (line.at(i) == U'+') ++i;  // Kifu for Windows: a variation branches off here
  if (i < line.size()) return error(line, i, "unexpected text after the move");
  last_to_ = entry.move.to();
  pos_.do_move(entry.move);
  out_.moves.push_back(std::move(entry));
  return Status::ok();
}

// The move at line[start]: destination (or 同), piece, 成 / 不成, origin "(77)" or 打.
Status KifReader::read_board_move(const Line& line, size_t start, size_t& i, CsaRecordMove& out) {
  Square to = kSquareNone;
  if (line.starts_with(i, U"同")) {
    if (last_to_ == kSquareNone) return error(line, i, "同 with no previous move");
    to = last_to_;
    ++i;
    while (is_space(line.at(i))) ++i;
  } else {
    const int file = digit_of(line.at(i)), rank = kanji_digit_of(line.at(i + 1));
    if (file == 0) return error(line, i, "bad square: expected the file, a digit １ to ９");
    if (rank == 0) return error(line, i + 1, "bad square: expected the rank, 一 to 九");
    to = make_square(file - 1, rank - 1);
    i += 2;
  }
  size_t length = 0;
  const size_t piece_at_index = i;
  const PieceType named = piece_at(line, i, length);
  if (named == kNoPieceType)
    return error(line, i,
                 "expected a piece name (歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍)");
  i += length;
  while (line.at(i) == U'\u3000') ++i;
  bool promotion = false;
  if (line.starts_with(i, U"不成") || line.at(i) == U'生') {
    i += line.at(i) == U'生' ? 1 : 2;
  } else if (line.at(i) == U'成') {
    promotion = true;
    ++i;
  }
  const Color us = pos_.side_to_move();
  std::string csa(1, us == kBlack ? '+' : '-');
  if (line.at(i) == U'打') {
    ++i;
    if (promotion) return error(line, i - 1, "a drop cannot promote");
    if (named < kPawn || named > kGold)
      return error(line, piece_at_index, std::string("cannot drop ") + kMoveNames[named]);
    csa += "00" + format_csa_square(to) + csa_piece_name(named);
  } else if (line.at(i) == U'(') {
    const int file = digit_of(line.at(i + 1)), rank = digit_of(line.at(i + 2));
    if (file == 0 || rank == 0 || line.at(i + 3) != U')')
      return error(line, i, "bad square: expected the origin as (77), digits 1 to 9");
    const Square from = make_square(file - 1, rank - 1);
    i += 4;
    const Piece p = pos_.piece_on(from);
    if (p != kNoPiece && color_of(p) == us && type_of(p) != named)
      return error(line, piece_at_index,
                   "the piece on " + format_csa_square(from) + " is " + kMoveNames[type_of(p)] +
                       ", not " + kMoveNames[named]);
    if (promotion && !can_promote(named))
      return error(line, piece_at_index, std::string(kMoveNames[named]) + " cannot promote");
    csa += format_csa_square(from) + format_csa_square(to) +
           csa_piece_name(promotion ? promote(named) : named);
  } else {
    return error(line, i, "expected the origin square as (77), or 打 for a drop");
  }
  const std::string kif(line.text(start, i));
  CsaMoveProblem problem;
  if (Status s = parse_csa_move(pos_, csa, out.move, problem); !s)
    return error(line, start, "illegal move " + kif + ": " + problem.reason);
  out.text = format_csa_move(out.move);
  return Status::ok();
}

}  // namespace

std::string write_kif_record(const CsaRecord& record) {
  std::string s = "#KIF version=2.0 encoding=UTF-8\n";
  for (const auto& [key, value] : record.info) s += kif_info_line(key, value);
  if (same_position_setup(record.initial, csa_start_setup()))
    s += "手合割：平手\n";
  else
    s += format_bod(record.initial);
  if (!record.black_name.empty()) s += "先手：" + record.black_name + "\n";
  if (!record.white_name.empty()) s += "後手：" + record.white_name + "\n";
  s += std::string(kMovesHeader) + "\n";
  write_comments(s, record.comments);

  Position pos;
  if (!pos.set(record.initial)) return s;
  int64_t totals_ms[kColorNb] = {0, 0};
  Square previous_to = kSquareNone;
  int ply = 0;
  auto numbered = [&](int n) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%4d ", n);
    return std::string(buf);
  };
  for (const CsaRecordMove& m : record.moves) {
    if (!legal_moves(pos).contains(m.move)) break;
    const Move move = pos.complete_move(m.move);
    const Color us = pos.side_to_move();
    const int64_t ms = m.time_ms.value_or(0);
    totals_ms[us] += ms;
    std::string line = numbered(++ply) + format_kif_move(pos, move, previous_to);
    pad_to(line, 5 + 12);
    s += line + " " + format_times(ms, totals_ms[us]) + "\n";
    write_comments(s, m.comments);
    previous_to = move.to();
    pos.do_move(move);
  }
  if (record.result == CsaSpecialMove::kNone) return s;
  const Ending ending = kif_ending(record, pos);
  const int64_t ms = record.result_time_ms.value_or(0);
  totals_ms[pos.side_to_move()] += ms;
  std::string line = numbered(ply + 1) + ending.word;
  pad_to(line, 5 + 12);
  s += line + " " + format_times(ms, totals_ms[pos.side_to_move()]) + "\n";
  if (record.rejected_last_move)
    s += "*" + std::string(kRejectedMovePrefix) + record.rejected_last_move->text + "\n";
  write_comments(s, record.result_comments);
  s += "まで" + ending.summary + "\n";
  return s;
}

Status read_kif_record(std::string_view text, std::string_view input_name, CsaRecord& out) {
  KifReader reader(input_name, out);
  return reader.read(text);
}

Status load_kif_record_file(const std::string& path, CsaRecord& out) {
  std::string text;
  if (Status st = read_record_file_text(path, text); !st) return st;
  return read_kif_record(text, path, out);
}

}  // namespace shogi
