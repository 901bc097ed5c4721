// SFEN and USI notation: parsing with column-accurate errors, and formatting.
#include "shogi/notation.h"

#include <cctype>

#include "shogi/movegen.h"

namespace shogi {
namespace {

constexpr char kUsiLetters[] = " PLNSBRGK";  // indexed by unpromoted PieceType

Status sfen_error(std::string_view sfen, size_t column, const std::string& what) {
  return Status::error("SFEN '" + std::string(sfen) + "': column " + std::to_string(column + 1) +
                       ": " + what);
}

}  // namespace

char usi_piece_letter(PieceType t) { return kUsiLetters[unpromote(t) <= kKing ? unpromote(t) : 0]; }

PieceType piece_type_from_usi_letter(char c) {
  char u = char(std::toupper(static_cast<unsigned char>(c)));
  for (int t = kPawn; t <= kKing; ++t)
    if (kUsiLetters[t] == u) return PieceType(t);
  return kNoPieceType;
}

Status parse_sfen(std::string_view sfen, PositionSetup& out) {
  PositionSetup setup;
  std::string_view text = sfen;
  // Trim surrounding blanks.
  size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return sfen_error(sfen, 0, "empty");
  if (text.substr(begin).starts_with("startpos")) {
    std::string_view rest = text.substr(begin + 8);
    if (size_t extra = rest.find_first_not_of(" \t\r\n"); extra != std::string_view::npos)
      return sfen_error(sfen, begin + 8 + extra, "unexpected text after 'startpos'");
    return parse_sfen(Position::kStartSfen, out);
  }
  size_t i = begin;
  if (text.substr(i).starts_with("sfen ")) i += 5;
  // Board: ranks a..i from the top, each from file 9 to file 1.
  int rank = 0, file = 8;
  bool promoted = false;
  for (;; ++i) {
    if (i >= text.size()) return sfen_error(sfen, i, "board ends early");
    char c = text[i];
    if (c == ' ') {
      if (promoted) return sfen_error(sfen, i - 1, "'+' not followed by a piece");
      break;
    }
    if (c == '/') {
      if (promoted) return sfen_error(sfen, i, "'+' not followed by a piece");
      if (file != -1)
        return sfen_error(sfen, i,
                          "rank " + std::to_string(rank + 1) + " has fewer than 9 squares");
      if (++rank > 8) return sfen_error(sfen, i, "more than 9 ranks");
      file = 8;
      continue;
    }
    if (c >= '1' && c <= '9') {
      if (promoted) return sfen_error(sfen, i, "'+' not followed by a piece");
      file -= c - '0';
      if (file < -1)
        return sfen_error(sfen, i, "rank " + std::to_string(rank + 1) + " has more than 9 squares");
      continue;
    }
    if (c == '+') {
      if (promoted) return sfen_error(sfen, i, "'++'");
      promoted = true;
      continue;
    }
    PieceType t = piece_type_from_usi_letter(c);
    if (t == kNoPieceType)
      return sfen_error(sfen, i, std::string("unknown piece letter '") + c + "'");
    if (file < 0)
      return sfen_error(sfen, i, "rank " + std::to_string(rank + 1) + " has more than 9 squares");
    if (promoted) {
      if (!can_promote(t))
        return sfen_error(sfen, i, std::string("'") + c + "' cannot be promoted");
      t = promote(t);
      promoted = false;
    }
    Color color = std::isupper(static_cast<unsigned char>(c)) ? kBlack : kWhite;
    setup.board[make_square(file, rank)] = make_piece(color, t);
    --file;
  }
  if (rank != 8 || file != -1) return sfen_error(sfen, i, "the board does not have 9 full ranks");
  // Side to move.
  ++i;
  if (i >= text.size()) return sfen_error(sfen, i, "missing side to move");
  if (text[i] == 'b')
    setup.side_to_move = kBlack;
  else if (text[i] == 'w')
    setup.side_to_move = kWhite;
  else
    return sfen_error(sfen, i, "side to move must be 'b' or 'w'");
  ++i;
  if (i >= text.size() || text[i] != ' ')
    return sfen_error(sfen, i, "expected a space before the hands");
  ++i;
  // Hands: "-" or e.g. "2P3lRb".
  if (i >= text.size()) return sfen_error(sfen, i, "missing hands");
  if (text[i] == '-') {
    ++i;
  } else {
    int count = 0;
    bool has_count = false;
    size_t count_start = i;
    for (; i < text.size() && text[i] != ' ' && text[i] != '\r' && text[i] != '\n'; ++i) {
      char c = text[i];
      if (c >= '0' && c <= '9') {
        if (!has_count) {
          count_start = i;
          if (c == '0') return sfen_error(sfen, i, "hand count must not start with 0");
        }
        has_count = true;
        count = count * 10 + (c - '0');
        if (count > 18) return sfen_error(sfen, count_start, "hand count too large");
        continue;
      }
      PieceType t = piece_type_from_usi_letter(c);
      if (t == kNoPieceType || t == kKing)
        return sfen_error(sfen, i, std::string("'") + c + "' is not a piece that can be in hand");
      Color color = std::isupper(static_cast<unsigned char>(c)) ? kBlack : kWhite;
      int n = count == 0 ? 1 : count;
      if (setup.hands[color].count(t) + n > Hand::kMaxCount[t])
        return sfen_error(sfen, i, "too many pieces of one kind in hand");
      setup.hands[color].add(t, n);
      count = 0;
      has_count = false;
    }
    if (has_count) return sfen_error(sfen, i, "hand count without a piece");
  }
  // Optional move number.
  while (i < text.size() && text[i] == ' ') ++i;
  if (i < text.size() && text[i] != '\r' && text[i] != '\n') {
    size_t start = i;
    long long ply = 0;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
      ply = ply * 10 + (text[i] - '0');
      if (ply > 100000000) return sfen_error(sfen, start, "move number too large");
    }
    if (i == start || ply < 1)
      return sfen_error(sfen, start, "move number must be a positive integer");
    setup.game_ply = int(ply);
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i < text.size()) return sfen_error(sfen, i, "unexpected text after the move number");
  }
  out = setup;
  return Status::ok();
}

std::string format_sfen(const PositionSetup& setup, bool with_ply) {
  std::string s;
  for (int rank = 0; rank < 9; ++rank) {
    int empty = 0;
    for (int file = 8; file >= 0; --file) {
      Piece p = setup.board[make_square(file, rank)];
      if (p == kNoPiece) {
        ++empty;
        continue;
      }
      if (empty) s += char('0' + empty), empty = 0;
      if (is_promoted(type_of(p))) s += '+';
      char letter = usi_piece_letter(type_of(p));
      s += color_of(p) == kBlack ? letter : char(std::tolower(letter));
    }
    if (empty) s += char('0' + empty);
    if (rank < 8) s += '/';
  }
  s += setup.side_to_move == kBlack ? " b " : " w ";
  // Hands in the customary order: rook, bishop, gold, silver, knight, lance, pawn.
  std::string hands;
  for (Color c : {kBlack, kWhite}) {
    for (PieceType t : {kRook, kBishop, kGold, kSilver, kKnight, kLance, kPawn}) {
      int n = setup.hands[c].count(t);
      if (n == 0) continue;
      if (n > 1) hands += std::to_string(n);
      char letter = usi_piece_letter(t);
      hands += c == kBlack ? letter : char(std::tolower(letter));
    }
  }
  s += hands.empty() ? "-" : hands;
  if (with_ply) {
    s += ' ';
    s += std::to_string(setup.game_ply);
  }
  return s;
}

std::string format_usi_square(Square s) {
  return std::string(1, char('1' + file_of(s))) + char('a' + rank_of(s));
}

std::string format_usi_move(Move m) {
  if (m == kMoveNone) return "none";
  if (m == kMoveNull) return "pass";
  if (m.is_drop())
    return std::string(1, usi_piece_letter(m.dropped_type())) + "*" + format_usi_square(m.to());
  std::string s = format_usi_square(m.from()) + format_usi_square(m.to());
  if (m.is_promotion()) s += '+';
  return s;
}

Status parse_usi_move(const Position& pos, std::string_view text, Move& out) {
  auto fail = [&](const std::string& why) {
    return Status::error("USI move '" + std::string(text) + "': " + why);
  };
  auto square_at = [&](size_t i, Square& s) {
    if (i + 1 >= text.size()) return false;
    char f = text[i], r = text[i + 1];
    if (f < '1' || f > '9' || r < 'a' || r > 'i') return false;
    s = make_square(f - '1', r - 'a');
    return true;
  };
  Move candidate;
  if (text.size() == 4 && text[1] == '*') {
    PieceType t = piece_type_from_usi_letter(text[0]);
    if (t == kNoPieceType || t == kKing || !std::isupper(static_cast<unsigned char>(text[0])))
      return fail("column 1: not a piece that can be dropped");
    Square to;
    if (!square_at(2, to)) return fail("column 3: not a square");
    candidate = Move::drop(t, to, pos.side_to_move());
  } else if (text.size() == 4 || (text.size() == 5 && text[4] == '+')) {
    Square from, to;
    if (!square_at(0, from)) return fail("column 1: not a square");
    if (!square_at(2, to)) return fail("column 3: not a square");
    candidate = Move::board(from, to, text.size() == 5, kNoPiece);
  } else {
    return fail("not a move (expected e.g. 7g7f, 8h2b+ or P*5e)");
  }
  MoveList legal;
  generate(pos, GenType::kLegal, legal);
  for (Move m : legal) {
    if (m == candidate) {
      out = m;
      return Status::ok();
    }
  }
  return fail("illegal in position " + pos.sfen());
}

}  // namespace shogi
