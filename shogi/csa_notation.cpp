// CSA notation: piece names, moves and position blocks.
#include "shogi/csa_notation.h"

#include <algorithm>
#include <array>

#include "shogi/movegen.h"

namespace shogi {

namespace {

constexpr std::array<const char*, kPieceTypeNb> kCsaNames = {
    "", "FU", "KY", "KE", "GI", "KA", "HI", "KI", "OU", "TO", "NY", "NK", "NG", "UM", "RY"};

// How many pieces of each unpromoted kind a set holds (kings: one per side).
constexpr std::array<int, kPieceTypeNb> kSetCount = {0, 18, 4, 4, 4, 2, 2, 4, 2, 0, 0, 0, 0, 0, 0};

// The order in which hands and PI removals are written: most valuable first.
constexpr PieceType kWriteOrder[] = {kRook, kBishop, kGold, kSilver, kKnight, kLance, kPawn};

std::string_view rstrip(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

bool is_digit_1_9(char c) { return c >= '1' && c <= '9'; }

// "NAME:LINE:COL: message".
Status error_at(std::string_view name, int line, int column, const std::string& message) {
  return Status::error(std::string(name) + ":" + std::to_string(line) + ":" +
                       std::to_string(column) + ": " + message);
}

// The square of CSA digits file and rank ('1'..'9').
Square square_of(char file, char rank) { return make_square(file - '1', rank - '1'); }

// Fills `problem` and returns false.
bool fail(CsaMoveProblem& problem, bool syntax, int column, std::string reason) {
  problem.syntax = syntax;
  problem.column = column;
  problem.reason = std::move(reason);
  return false;
}

// Why a well-formed board move from `from` to `to` of the side to move is not legal.
std::string why_board_move_illegal(const Position& pos, Square from, Square to, bool promotion) {
  const Piece p = pos.piece_on(from);
  const Color us = color_of(p);
  const PieceType t = type_of(p);
  const Piece target = pos.piece_on(to);
  if (target != kNoPiece && color_of(target) == us)
    return "captures its own piece on " + format_csa_square(to);
  if (!piece_attacks(us, t, from, pos.pieces()).test(to))
    return std::string(kCsaNames[t]) + " on " + format_csa_square(from) + " cannot move to " +
           format_csa_square(to);
  if (promotion && !in_promotion_zone(us, from) && !in_promotion_zone(us, to))
    return "cannot promote outside the promotion zone";
  if (!promotion) {
    const int rr = relative_rank(us, rank_of(to));
    if (((t == kPawn || t == kLance) && rr < 1) || (t == kKnight && rr < 2))
      return std::string(kCsaNames[t]) + " on " + format_csa_square(to) +
             " could never move again: it must promote";
  }
  if (pos.king_square(us) != kSquareNone) return "leaves the king in check";
  return "not legal in this position";
}

// Why a drop of t on `to` by the side to move is not legal. REQUIRES: t is a hand kind.
std::string why_drop_illegal(const Position& pos, PieceType t, Square to) {
  const Color us = pos.side_to_move();
  if (!pos.hand(us).has(t)) return std::string("no ") + kCsaNames[t] + " in hand";
  if (pos.piece_on(to) != kNoPiece) return "square " + format_csa_square(to) + " is occupied";
  const int rr = relative_rank(us, rank_of(to));
  if (((t == kPawn || t == kLance) && rr < 1) || (t == kKnight && rr < 2))
    return std::string("a ") + kCsaNames[t] + " dropped on " + format_csa_square(to) +
           " could never move";
  if (t == kPawn && (pos.pieces(us, kPawn) & file_bb(file_of(to))).any())
    return "a second unpromoted pawn on file " + std::to_string(file_of(to) + 1) + " (nifu)";
  if (pos.in_check()) return "leaves the king in check";
  const Square enemy_king = pos.king_square(~us);
  if (t == kPawn && enemy_king != kSquareNone && step_attacks(us, kPawn, to).test(enemy_king))
    return "pawn-drop mate (uchifuzume)";
  return "not legal in this position";
}

// The body of parse_csa_move.
bool parse_move(const Position& pos, std::string_view text, Move& out, CsaMoveProblem& problem) {
  if (text.empty() || (text[0] != '+' && text[0] != '-'))
    return fail(problem, true, 1, "expected + or - (the side moving)");
  for (size_t i = 1; i < 5; ++i) {
    if (i >= text.size())
      return fail(problem, true, int(i) + 1, "too short: a CSA move has 7 characters");
    const char c = text[i];
    const bool origin = i < 3;
    if (origin && text[1] == '0') {
      if (c != '0')
        return fail(problem, true, int(i) + 1, "expected 0 (a drop's origin is written 00)");
      continue;
    }
    if (!is_digit_1_9(c))
      return fail(problem, true, int(i) + 1,
                  origin && i == 1 ? "expected a digit 0-9" : "expected a digit 1-9");
  }
  if (text.size() < 7)
    return fail(problem, true, int(text.size()) + 1, "too short: a CSA move has 7 characters");
  if (text.size() > 7) return fail(problem, true, 8, "unexpected text after the move");
  const PieceType named = piece_type_from_csa(text.substr(5, 2));
  if (named == kNoPieceType)
    return fail(problem, true, 6, "unknown piece name '" + std::string(text.substr(5, 2)) + "'");

  const Color mover = text[0] == '+' ? kBlack : kWhite;
  const Color us = pos.side_to_move();
  if (mover != us)
    return fail(problem, false, 1, std::string("it is ") + color_name(us) + "'s turn");

  const Square to = square_of(text[3], text[4]);
  MoveList legal;
  generate(pos, GenType::kLegal, legal);

  if (text[1] == '0') {  // a drop
    if (named < kPawn || named > kGold)
      return fail(problem, false, 6, std::string("cannot drop ") + kCsaNames[named]);
    for (Move m : legal) {
      if (m.is_drop() && m.dropped_type() == named && m.to() == to) {
        out = pos.complete_move(m);
        return true;
      }
    }
    return fail(problem, false, 0, why_drop_illegal(pos, named, to));
  }

  const Square from = square_of(text[1], text[2]);
  const Piece p = pos.piece_on(from);
  if (p == kNoPiece) return fail(problem, false, 2, "no piece on " + format_csa_square(from));
  if (color_of(p) != us)
    return fail(problem, false, 2,
                "the piece on " + format_csa_square(from) + " is " + color_name(~us) + "'s");
  const PieceType t = type_of(p);
  const bool promotion = named != t;
  if (promotion && !(can_promote(t) && named == promote(t)))
    return fail(problem, false, 6,
                "the piece on " + format_csa_square(from) + " is " + kCsaNames[t] + ", not " +
                    kCsaNames[named]);
  for (Move m : legal) {
    if (!m.is_drop() && m.from() == from && m.to() == to && m.is_promotion() == promotion) {
      out = pos.complete_move(m);
      return true;
    }
  }
  return fail(problem, false, 0, why_board_move_illegal(pos, from, to, promotion));
}

// Counts pieces by unpromoted kind while a position block is read.
struct PieceCounter {
  std::array<int, kPieceTypeNb> count{};
  // Adds one piece of kind t; false when the set has no more of that kind.
  bool add(PieceType t) {
    const PieceType base = unpromote(t);
    if (count[base] >= kSetCount[base]) return false;
    ++count[base];
    return true;
  }
};

}  // namespace

const char* csa_piece_name(PieceType t) {
  return t > kNoPieceType && t < kPieceTypeNb ? kCsaNames[t] : "";
}

PieceType piece_type_from_csa(std::string_view name) {
  if (name.size() != 2) return kNoPieceType;
  if (name == "GY") return kKing;
  for (int t = kPawn; t < kPieceTypeNb; ++t)
    if (name == kCsaNames[t]) return PieceType(t);
  return kNoPieceType;
}

std::string format_csa_square(Square s) {
  if (s < 0 || s >= kSquareNb) return "00";
  return std::string{char('1' + file_of(s)), char('1' + rank_of(s))};
}

std::string format_csa_move(Move m) {
  const Piece after = m.piece_after();
  std::string s(1, color_of(after) == kBlack ? '+' : '-');
  s += m.is_drop() ? std::string("00") : format_csa_square(m.from());
  s += format_csa_square(m.to());
  s += csa_piece_name(type_of(after));
  return s;
}

Status parse_csa_move(const Position& pos, std::string_view text, Move& out,
                      CsaMoveProblem& problem) {
  problem = CsaMoveProblem();
  if (parse_move(pos, text, out, problem)) return Status::ok();
  std::string message = "CSA move '" + std::string(text) + "': ";
  if (problem.column > 0) message += "column " + std::to_string(problem.column) + ": ";
  return Status::error(message + problem.reason);
}

Status parse_csa_move(const Position& pos, std::string_view text, Move& out) {
  CsaMoveProblem problem;
  return parse_csa_move(pos, text, out, problem);
}

PositionSetup csa_start_setup() {
  PositionSetup s;
  constexpr PieceType kBackRank[9] = {kLance, kKnight, kSilver, kGold, kKing,
                                      kGold,  kSilver, kKnight, kLance};
  for (int f = 0; f < 9; ++f) {
    s.board[make_square(f, 0)] = make_piece(kWhite, kBackRank[f]);
    s.board[make_square(f, 2)] = make_piece(kWhite, kPawn);
    s.board[make_square(f, 6)] = make_piece(kBlack, kPawn);
    s.board[make_square(f, 8)] = make_piece(kBlack, kBackRank[f]);
  }
  s.board[make_square(7, 1)] = make_piece(kWhite, kRook);    // 82
  s.board[make_square(1, 1)] = make_piece(kWhite, kBishop);  // 22
  s.board[make_square(7, 7)] = make_piece(kBlack, kBishop);  // 88
  s.board[make_square(1, 7)] = make_piece(kBlack, kRook);    // 28
  s.side_to_move = kBlack;
  s.game_ply = 1;
  return s;
}

bool same_position_setup(const PositionSetup& a, const PositionSetup& b) {
  return a.board == b.board && a.hands[kBlack] == b.hands[kBlack] &&
         a.hands[kWhite] == b.hands[kWhite] && a.side_to_move == b.side_to_move;
}

Status parse_csa_position(const std::vector<std::string>& lines, int first_line_number,
                          std::string_view input_name, PositionSetup& out) {
  PositionSetup s;
  PieceCounter counter;
  bool have_pi = false, have_pieces = false, side_seen = false;
  int first_row_line = 0;
  bool row_seen[9] = {};
  int al_line = 0;
  Color al_color = kBlack;
  const int last_line = first_line_number + std::max(int(lines.size()) - 1, 0);

  auto err = [&](int line, int column, const std::string& message) {
    return error_at(input_name, line, column, message);
  };

  for (size_t i = 0; i < lines.size(); ++i) {
    const int ln = first_line_number + int(i);
    const std::string_view l = rstrip(lines[i]);
    if (l.empty() || l[0] == '\'') continue;
    if (side_seen) return err(ln, 1, "unexpected line after the side to move");
    if (l == "+" || l == "-") {
      if (!have_pi && first_row_line == 0 && !have_pieces)
        return err(ln, 1, "no position lines (PI, P1..P9, P+, P-) before the side to move");
      s.side_to_move = l[0] == '+' ? kBlack : kWhite;
      side_seen = true;
      continue;
    }
    if (l.size() < 2 || l[0] != 'P')
      return err(ln, 1,
                 "expected a position line (PI, P1..P9, P+, P-) or the side to move (+ or -)");
    const char kind = l[1];

    if (kind == 'I') {
      if (have_pi) return err(ln, 1, "a second PI line");
      if (first_row_line) return err(ln, 1, "PI cannot be combined with P1..P9 lines");
      if (have_pieces) return err(ln, 1, "PI must come before the P+ and P- lines");
      have_pi = true;
      s.board = csa_start_setup().board;
      for (Square sq = 0; sq < kSquareNb; ++sq)
        if (s.board[sq] != kNoPiece) counter.add(type_of(s.board[sq]));
      for (size_t p = 2; p < l.size(); p += 4) {
        const int col = int(p) + 1;
        if (p + 4 > l.size())
          return err(ln, col, "incomplete item: PI is followed by <square><piece> items");
        if (!is_digit_1_9(l[p]) || !is_digit_1_9(l[p + 1]))
          return err(ln, col, "expected a square 11..99");
        const PieceType t = piece_type_from_csa(l.substr(p + 2, 2));
        if (t == kNoPieceType)
          return err(ln, col + 2, "unknown piece name '" + std::string(l.substr(p + 2, 2)) + "'");
        const Square sq = square_of(l[p], l[p + 1]);
        if (s.board[sq] == kNoPiece || type_of(s.board[sq]) != t)
          return err(ln, col,
                     std::string("PI: no ") + kCsaNames[t] + " on " + format_csa_square(sq) +
                         " to remove");
        s.board[sq] = kNoPiece;
        --counter.count[unpromote(t)];
      }
      continue;
    }

    if (is_digit_1_9(kind)) {
      const int rank = kind - '1';
      if (have_pi) return err(ln, 1, "P1..P9 lines cannot be combined with PI");
      if (have_pieces) return err(ln, 1, "P1..P9 lines must come before the P+ and P- lines");
      if (row_seen[rank]) return err(ln, 1, std::string("a second P") + kind + " line");
      row_seen[rank] = true;
      if (!first_row_line) first_row_line = ln;
      size_t p = 2;
      for (int cell = 0; cell < 9; ++cell) {
        const int col = int(p) + 1;
        const Square sq = make_square(8 - cell, rank);
        if (p >= l.size())
          return err(ln, col, "the rank has " + std::to_string(cell) + " cells; 9 expected");
        const char c = l[p];
        if (c == '+' || c == '-') {
          if (p + 3 > l.size()) return err(ln, col + 1, "expected a piece name after the sign");
          const PieceType t = piece_type_from_csa(l.substr(p + 1, 2));
          if (t == kNoPieceType)
            return err(ln, col + 1, "unknown piece name '" + std::string(l.substr(p + 1, 2)) + "'");
          if (!counter.add(t))
            return err(
                ln, col,
                std::string("too many ") + kCsaNames[unpromote(t)] + " (more than the set holds)");
          s.board[sq] = make_piece(c == '+' ? kBlack : kWhite, t);
          p += 3;
        } else if (c == ' ' && p + 1 < l.size() && l[p + 1] == '*') {
          p += 3;
          // Merged spaces (" * * "): the space after this '*' also starts the next cell.
          if (p < l.size() && l[p] == '*') --p;
        } else {
          return err(ln, col, "expected ' * ' (empty) or a piece such as '+FU' or '-KY'");
        }
      }
      if (p < l.size()) return err(ln, int(p) + 1, "unexpected text after the ninth cell");
      continue;
    }

    if (kind == '+' || kind == '-') {
      const Color c = kind == '+' ? kBlack : kWhite;
      have_pieces = true;
      for (size_t p = 2; p < l.size(); p += 4) {
        const int col = int(p) + 1;
        if (p + 4 > l.size())
          return err(ln, col, "incomplete item: expected <square><piece> such as 55KA or 00FU");
        const std::string_view name = l.substr(p + 2, 2);
        const bool in_hand = l[p] == '0' && l[p + 1] == '0';
        if (!in_hand && (!is_digit_1_9(l[p]) || !is_digit_1_9(l[p + 1])))
          return err(ln, col, "expected a square 11..99, or 00 for the hand");
        if (in_hand && name == "AL") {
          if (al_line) return err(ln, col, "00AL given twice");
          al_line = ln;
          al_color = c;
          continue;
        }
        const PieceType t = piece_type_from_csa(name);
        if (t == kNoPieceType)
          return err(ln, col + 2, "unknown piece name '" + std::string(name) + "'");
        if (in_hand && (t < kPawn || t > kGold))
          return err(ln, col + 2, std::string("a ") + kCsaNames[t] + " cannot be held in hand");
        if (!counter.add(t))
          return err(
              ln, col,
              std::string("too many ") + kCsaNames[unpromote(t)] + " (more than the set holds)");
        if (in_hand) {
          s.hands[c].add(t);
        } else {
          const Square sq = square_of(l[p], l[p + 1]);
          if (s.board[sq] != kNoPiece)
            return err(ln, col, "square " + format_csa_square(sq) + " is already occupied");
          s.board[sq] = make_piece(c, t);
        }
      }
      continue;
    }
    return err(ln, 2, "unknown position line: expected PI, P1..P9, P+ or P-");
  }

  if (!side_seen) return err(last_line, 1, "missing the side to move (a line '+' or '-')");
  if (first_row_line) {
    std::string missing;
    for (int r = 0; r < 9; ++r)
      if (!row_seen[r]) missing += (missing.empty() ? "P" : ", P") + std::to_string(r + 1);
    if (!missing.empty()) return err(first_row_line, 1, "missing rank lines: " + missing);
  }
  if (al_line) {
    for (int t = kPawn; t <= kGold; ++t) {
      const int rest = kSetCount[t] - counter.count[t];
      if (rest > 0) s.hands[al_color].add(PieceType(t), rest);
    }
  }
  s.game_ply = 1;
  out = s;
  return Status::ok();
}

std::string format_csa_position(const PositionSetup& setup) {
  const PositionSetup start = csa_start_setup();
  const char side = setup.side_to_move == kBlack ? '+' : '-';

  // A start position minus some pieces, nothing in hand: PI with the removed pieces.
  if (setup.hands[kBlack].empty() && setup.hands[kWhite].empty()) {
    bool subset = true;
    for (Square sq = 0; sq < kSquareNb && subset; ++sq)
      subset = setup.board[sq] == kNoPiece || setup.board[sq] == start.board[sq];
    if (subset) {
      std::string s = "PI";
      constexpr PieceType kRemovalOrder[] = {kRook,   kBishop, kGold, kSilver,
                                             kKnight, kLance,  kPawn, kKing};
      for (PieceType t : kRemovalOrder)
        for (Square sq = 0; sq < kSquareNb; ++sq)
          if (start.board[sq] != kNoPiece && type_of(start.board[sq]) == t &&
              setup.board[sq] == kNoPiece)
            s += format_csa_square(sq) + kCsaNames[t];
      return s + "\n" + side + "\n";
    }
  }

  std::string s;
  for (int r = 0; r < 9; ++r) {
    s += 'P';
    s += char('1' + r);
    for (int f = 8; f >= 0; --f) {
      const Piece p = setup.board[make_square(f, r)];
      if (p == kNoPiece) {
        s += " * ";
      } else {
        s += color_of(p) == kBlack ? '+' : '-';
        s += kCsaNames[type_of(p)];
      }
    }
    s += '\n';
  }
  for (Color c : {kBlack, kWhite}) {
    if (setup.hands[c].empty()) continue;
    s += c == kBlack ? "P+" : "P-";
    for (PieceType t : kWriteOrder)
      for (int n = setup.hands[c].count(t); n > 0; --n) s += std::string("00") + kCsaNames[t];
    s += '\n';
  }
  return s + side + "\n";
}

}  // namespace shogi
