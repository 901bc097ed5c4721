// Move generation and legality: promotion rules, drops, pawn-drop mate (打ち歩詰め), pins,
// check evasions, and the agreement of the partial generators with each other, with the
// legality tests, with hashing and with do/undo. A small reference implementation of the
// rules (below, written from the rules and not from engine/) checks every legal move list.
#include "shogi/movegen.h"

#include <doctest/doctest.h>

#include <cctype>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "shogi/notation.h"
#include "shogi/position.h"
#include "tests/test_prng.h"

namespace movegen_test {

using namespace base;
using namespace shogi;

namespace {

using test::Prng;

// ---------------------------------------------------------------------------------------
// Reference rules on a PositionSetup: slow, simple, and independent of Position/movegen.
// Coordinates: file index f (0 = file 1), rank index r (0 = rank a). Directions are given
// from Black's side (dr = -1 is forward); White's are mirrored.
namespace ref {

bool on_board(int f, int r) { return f >= 0 && f < 9 && r >= 0 && r < 9; }

bool steps(PieceType t, int df, int dr) {  // one-step moves, Black's frame
  const bool orthogonal = (df == 0) != (dr == 0);
  const bool diagonal = df != 0 && dr != 0;
  switch (t) {
    case kPawn:
      return df == 0 && dr == -1;
    case kSilver:
      return (df == 0 && dr == -1) || diagonal;
    case kGold:
    case kProPawn:
    case kProLance:
    case kProKnight:
    case kProSilver:
      return orthogonal || (diagonal && dr == -1);
    case kKing:
      return true;
    case kHorse:
      return orthogonal;
    case kDragon:
      return diagonal;
    default:
      return false;
  }
}

bool slides(PieceType t, int df, int dr) {  // sliding moves, Black's frame
  switch (t) {
    case kLance:
      return df == 0 && dr == -1;
    case kBishop:
    case kHorse:
      return df != 0 && dr != 0;
    case kRook:
    case kDragon:
      return (df == 0) != (dr == 0);
    default:
      return false;
  }
}

int forward(Color c) { return c == kBlack ? -1 : 1; }
// 0 for the side's last rank, 8 for its first.
int rel_rank(Color c, int r) { return c == kBlack ? r : 8 - r; }
bool zone(Color c, int r) { return rel_rank(c, r) < 3; }
PieceType base(PieceType t) { return t > kKing ? PieceType(t - 8) : t; }
bool promotable(PieceType t) { return t >= kPawn && t <= kRook; }

// True when a piece of `by` attacks square (f, r).
bool attacked(const PositionSetup& s, int f, int r, Color by) {
  const int fw = forward(by);
  for (int df : {-1, 1}) {  // a knight of `by` at (f - df, r - 2 fw) jumps to (f, r)
    const int af = f - df, ar = r - 2 * fw;
    if (on_board(af, ar) && s.board[make_square(af, ar)] == make_piece(by, kKnight)) return true;
  }
  for (int df = -1; df <= 1; ++df)
    for (int dr = -1; dr <= 1; ++dr) {
      if (df == 0 && dr == 0) continue;
      // An attacker moving by (df, dr) per step stands at (f - k df, r - k dr).
      for (int k = 1;; ++k) {
        const int af = f - k * df, ar = r - k * dr;
        if (!on_board(af, ar)) break;
        const Piece p = s.board[make_square(af, ar)];
        if (p == kNoPiece) continue;
        if (color_of(p) == by) {
          const int black_dr = by == kBlack ? dr : -dr;
          if ((k == 1 && steps(type_of(p), df, black_dr)) || slides(type_of(p), df, black_dr))
            return true;
        }
        break;
      }
    }
  return false;
}

int king_of(const PositionSetup& s, Color c) {
  for (Square sq = 0; sq < kSquareNb; ++sq)
    if (s.board[sq] == make_piece(c, kKing)) return sq;
  return kSquareNone;
}

bool in_check(const PositionSetup& s, Color c) {
  const int k = king_of(s, c);
  return k != kSquareNone && attacked(s, file_of(k), rank_of(k), ~c);
}

PositionSetup after(const PositionSetup& s, Move m) {
  PositionSetup n = s;
  const Color us = s.side_to_move;
  if (m.is_drop()) {
    n.hands[us].remove(m.dropped_type());
    n.board[m.to()] = make_piece(us, m.dropped_type());
  } else {
    const Piece moved = s.board[m.from()];
    const Piece captured = s.board[m.to()];
    if (captured != kNoPiece) n.hands[us].add(base(type_of(captured)));
    n.board[m.from()] = kNoPiece;
    n.board[m.to()] = m.is_promotion() ? make_piece(us, PieceType(type_of(moved) + 8)) : moved;
  }
  n.side_to_move = ~us;
  return n;
}

std::vector<Move> legal_moves(const PositionSetup& s, bool pawn_drop_mate_rule = true);

// Adds m when it does not leave the mover's king attacked (and is not a pawn-drop mate).
void add_if_legal(const PositionSetup& s, Move m, bool pawn_drop_mate_rule,
                  std::vector<Move>& out) {
  const Color us = s.side_to_move;
  const PositionSetup n = after(s, m);
  if (in_check(n, us)) return;
  if (pawn_drop_mate_rule && m.is_drop() && m.dropped_type() == kPawn) {
    const int f = file_of(m.to()), r = rank_of(m.to()) + forward(us);
    if (on_board(f, r) && s.board[make_square(f, r)] == make_piece(~us, kKing) &&
        legal_moves(n, false).empty())
      return;
  }
  out.push_back(m);
}

std::vector<Move> legal_moves(const PositionSetup& s, bool pawn_drop_mate_rule) {
  std::vector<Move> out;
  const Color us = s.side_to_move;
  const int fw = forward(us);
  for (Square from = 0; from < kSquareNb; ++from) {
    const Piece p = s.board[from];
    if (p == kNoPiece || color_of(p) != us) continue;
    const PieceType t = type_of(p);
    const int f = file_of(from), r = rank_of(from);
    std::vector<Square> targets;
    auto try_target = [&](int tf, int tr) {  // false when the square stops a slider
      if (!on_board(tf, tr)) return false;
      const Piece q = s.board[make_square(tf, tr)];
      if (q != kNoPiece && color_of(q) == us) return false;
      targets.push_back(make_square(tf, tr));
      return q == kNoPiece;
    };
    if (t == kKnight)
      for (int df : {-1, 1}) try_target(f + df, r + 2 * fw);
    for (int df = -1; df <= 1; ++df)
      for (int dr = -1; dr <= 1; ++dr) {
        if (df == 0 && dr == 0) continue;
        const int black_dr = us == kBlack ? dr : -dr;
        if (steps(t, df, black_dr)) try_target(f + df, r + dr);
        if (slides(t, df, black_dr))
          for (int k = 1; try_target(f + k * df, r + k * dr); ++k) {
          }
      }
    for (Square to : targets) {
      const int rr = rel_rank(us, rank_of(to));
      const bool dead = ((t == kPawn || t == kLance) && rr == 0) || (t == kKnight && rr <= 1);
      if (promotable(t) && (zone(us, r) || zone(us, rank_of(to))))
        add_if_legal(s, Move::board(from, to, true, make_piece(us, PieceType(t + 8))),
                     pawn_drop_mate_rule, out);
      if (!dead) add_if_legal(s, Move::board(from, to, false, p), pawn_drop_mate_rule, out);
    }
  }
  for (int ti = kPawn; ti <= kGold; ++ti) {
    const PieceType t = PieceType(ti);
    if (s.hands[us].count(t) == 0) continue;
    for (Square to = 0; to < kSquareNb; ++to) {
      if (s.board[to] != kNoPiece) continue;
      const int rr = rel_rank(us, rank_of(to));
      if (((t == kPawn || t == kLance) && rr == 0) || (t == kKnight && rr <= 1)) continue;
      if (t == kPawn) {
        bool nifu = false;
        for (int r = 0; r < 9; ++r)
          nifu |= s.board[make_square(file_of(to), r)] == make_piece(us, kPawn);
        if (nifu) continue;
      }
      add_if_legal(s, Move::drop(t, to, us), pawn_drop_mate_rule, out);
    }
  }
  return out;
}

}  // namespace ref
// ---------------------------------------------------------------------------------------

constexpr uint32_t kMoveBits = (1u << 21) - 1;  // destination .. piece after the move

template <class List>
std::set<uint32_t> raw_set(const List& moves) {
  std::set<uint32_t> out;
  for (Move m : moves) out.insert(m.raw() & kMoveBits);
  return out;
}

std::string describe(const std::set<uint32_t>& moves) {
  std::string s;
  for (uint32_t raw : moves) s += format_usi_move(Move(raw)) + " ";
  return s;
}

// "missing: ... extra: ..." for two move sets.
std::string difference(const std::set<uint32_t>& got, const std::set<uint32_t>& want) {
  std::set<uint32_t> missing, extra;
  for (uint32_t m : want)
    if (!got.count(m)) missing.insert(m);
  for (uint32_t m : got)
    if (!want.count(m)) extra.insert(m);
  return "missing: " + describe(missing) + " extra: " + describe(extra);
}

std::set<std::string> usi_set(const MoveList& moves) {
  std::set<std::string> out;
  for (Move m : moves) out.insert(format_usi_move(m));
  return out;
}

std::set<std::string> legal_usi(const Position& pos) { return usi_set(legal_moves(pos)); }

// The legal moves whose USI text starts with `prefix` (a square such as "5g", or "P*").
std::set<std::string> legal_from(const Position& pos, const std::string& prefix) {
  std::set<std::string> out;
  for (const std::string& m : legal_usi(pos))
    if (m.starts_with(prefix)) out.insert(m);
  return out;
}

Position position(const std::string& sfen) {
  Position pos;
  Status status = pos.set_sfen(sfen);
  INFO(status.message());
  REQUIRE(status.is_ok());
  return pos;
}

// A move of the side to move given in USI, whether legal or not (drop, or from/to/+).
Move usi_move(const Position& pos, const std::string& text) {
  auto square = [](const std::string& t, size_t i) {
    return make_square(t[i] - '1', t[i + 1] - 'a');
  };
  if (text[1] == '*')
    return Move::drop(piece_type_from_usi_letter(text[0]), square(text, 2), pos.side_to_move());
  return pos.complete_move(
      Move::board(square(text, 0), square(text, 2), text.size() == 5, kNoPiece));
}

std::vector<std::string> read_sfen_file(const std::string& name) {
  std::ifstream in(std::string(SASHITE_TEST_DATA_DIR) + "/" + name);
  REQUIRE(in.good());
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    if (size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

struct Coverage {
  int nodes = 0, in_check = 0, double_check = 0, legal = 0, checks = 0, drops = 0, promotions = 0,
      captures = 0, pawn_drop_mates = 0, garbage_accepted = 0;
};

// Every cross-check of the generators, the legality tests, hashing and do/undo on pos.
void check_node(Position& pos, Position& scratch, Prng& prng, Coverage& cov) {
  const std::string sfen = pos.sfen();
  const uint64_t key = pos.key();
  CAPTURE(sfen);
  ++cov.nodes;
  CHECK(pos.is_consistent());
  // The incremental key equals the key of the same position set from its SFEN.
  REQUIRE(scratch.set_sfen(sfen).is_ok());
  CHECK(scratch.key() == key);

  MoveList legal;
  generate(pos, GenType::kLegal, legal);
  const std::set<uint32_t> legal_set = raw_set(legal);
  CHECK(legal_set.size() == size_t(legal.size()));  // no duplicates
  const std::set<uint32_t> reference = raw_set(ref::legal_moves(pos.setup()));
  CHECK_MESSAGE(legal_set == reference, difference(legal_set, reference));
  cov.legal += legal.size();

  MoveList pseudo;
  if (pos.in_check()) {
    ++cov.in_check;
    if (pos.checkers().more_than_one()) ++cov.double_check;
    generate(pos, GenType::kEvasions, pseudo);
    CHECK(raw_set(pseudo).size() == size_t(pseudo.size()));  // no duplicates
  } else {
    MoveList captures, quiets, checks;
    generate(pos, GenType::kCapturesPromotions, captures);
    generate(pos, GenType::kQuiets, quiets);
    generate(pos, GenType::kNonEvasions, pseudo);
    generate(pos, GenType::kChecks, checks);
    std::set<uint32_t> both = raw_set(captures);
    const std::set<uint32_t> quiet_set = raw_set(quiets);
    both.insert(quiet_set.begin(), quiet_set.end());
    const std::set<uint32_t> non_evasions = raw_set(pseudo);
    CHECK_MESSAGE(both == non_evasions, difference(both, non_evasions));
    CHECK(captures.size() + quiets.size() == pseudo.size());  // disjoint, no duplicates
    CHECK(non_evasions.size() == size_t(pseudo.size()));
    for (Move m : captures)
      if (!pos.is_capture(m) && !m.is_promotion())
        FAIL_CHECK("kCapturesPromotions gave a quiet move " << format_usi_move(m));
    for (Move m : quiets)
      if (pos.is_capture(m) || m.is_promotion()) FAIL_CHECK("kQuiets gave " << format_usi_move(m));
    // kChecks, filtered by is_legal, is exactly the legal moves that give check.
    std::set<uint32_t> legal_checks, generated_checks;
    for (Move m : legal)
      if (pos.gives_check(m)) legal_checks.insert(m.raw() & kMoveBits);
    for (Move m : checks) {
      if (!pos.gives_check(m)) FAIL_CHECK("kChecks gave a non-check " << format_usi_move(m));
      if (!non_evasions.count(m.raw() & kMoveBits))
        FAIL_CHECK("kChecks gave a move kNonEvasions lacks: " << format_usi_move(m));
      if (pos.is_legal(m)) generated_checks.insert(m.raw() & kMoveBits);
    }
    CHECK_MESSAGE(generated_checks == legal_checks, difference(generated_checks, legal_checks));
    CHECK(raw_set(checks).size() == size_t(checks.size()));  // no duplicates
    // Exactly kNonEvasions filtered by gives_check, in its order (the search's move order).
    std::vector<uint32_t> filtered, generated;
    for (Move m : pseudo)
      if (pos.gives_check(m)) filtered.push_back(m.raw());
    for (Move m : checks) generated.push_back(m.raw());
    CHECK(generated == filtered);
    cov.checks += int(legal_checks.size());

    // Moves of the side not to move are never pseudo-legal.
    pos.do_null_move();
    MoveList theirs;
    generate(pos, GenType::kNonEvasions, theirs);
    pos.undo_null_move();
    CHECK(pos.key() == key);
    CHECK(pos.sfen() == sfen);
    for (Move m : theirs)
      if (pos.is_pseudo_legal(m))
        FAIL_CHECK("is_pseudo_legal accepts the opponent's " << format_usi_move(m));
  }
  // kLegal is the pseudo-legal list filtered by is_legal.
  std::set<uint32_t> filtered;
  for (Move m : pseudo) {
    if (!pos.is_pseudo_legal(m))
      FAIL_CHECK("is_pseudo_legal rejects generated " << format_usi_move(m));
    if (pos.is_legal(m)) filtered.insert(m.raw() & kMoveBits);
    if (m.is_drop() && m.dropped_type() == kPawn && !pos.is_legal(m)) ++cov.pawn_drop_mates;
  }
  CHECK_MESSAGE(filtered == legal_set, difference(filtered, legal_set));

  // is_pseudo_legal on garbage and near-misses: true exactly for the generated moves.
  const std::set<uint32_t> pseudo_set = raw_set(pseudo);
  for (int i = 0; i < 64; ++i) {
    uint32_t raw;
    if (i < 16 || pseudo.empty())
      raw = uint32_t(prng.next());
    else
      raw = pseudo[prng.below(pseudo.size())].raw() ^ (1u << prng.below(21));
    const bool expected = pseudo_set.count(raw & kMoveBits) > 0;
    cov.garbage_accepted += expected;
    if (pos.is_pseudo_legal(Move(raw)) != expected)
      FAIL_CHECK("is_pseudo_legal(0x" << std::hex << raw << std::dec << " = "
                                      << format_usi_move(Move(raw)) << ") should be " << expected);
  }

  for (Move m : legal) {
    if (pos.complete_move(m).raw() != m.raw())
      FAIL_CHECK("piece-after bits of " << format_usi_move(m) << " are wrong");
    cov.drops += m.is_drop();
    cov.promotions += m.is_promotion();
    cov.captures += pos.is_capture(m);
    const Color us = pos.side_to_move();
    const bool gives_check = pos.gives_check(m);
    const uint64_t expected_key = pos.key_after(m);
    pos.do_move(m);
    const Square their_king = pos.king_square(~us);
    const bool attacked = their_king != kSquareNone && pos.is_attacked(us, their_king);
    const Square our_king = pos.king_square(us);
    if (gives_check != attacked)
      FAIL_CHECK("gives_check(" << format_usi_move(m) << ") = " << gives_check);
    if (pos.in_check() != attacked) FAIL_CHECK("in_check() wrong after " << format_usi_move(m));
    if (our_king != kSquareNone && pos.is_attacked(~us, our_king))
      FAIL_CHECK(format_usi_move(m) << " leaves the king in check");
    if (pos.key() != expected_key) FAIL_CHECK("key_after(" << format_usi_move(m) << ") wrong");
    if (!pos.is_consistent()) FAIL_CHECK("inconsistent after " << format_usi_move(m));
    pos.undo_move();
    if (pos.key() != key || pos.sfen() != sfen)
      FAIL_CHECK("undo of " << format_usi_move(m) << " does not restore the position");
  }
}

}  // namespace

TEST_CASE("the reference rules agree with published facts") {
  // Self-test of the reference implementation used below.
  Position start;
  CHECK(ref::legal_moves(start.setup()).size() == 30);
  // The position with the most legal moves known (593).
  Position most = position("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1");
  CHECK(ref::legal_moves(most.setup()).size() == 593);
  CHECK(legal_moves(most).size() == 593);
}

TEST_CASE("promotion rules") {
  struct Case {
    const char* sfen;
    const char* from;
    std::set<std::string> moves;
  };
  const Case cases[] = {
      // Black pawn: into the zone optional, onto the last rank forced, outside none.
      {"8k/9/9/4P4/9/9/9/9/K8 b - 1", "5d", {"5d5c", "5d5c+"}},
      {"8k/9/4P4/9/9/9/9/9/K8 b - 1", "5c", {"5c5b", "5c5b+"}},
      {"8k/4P4/9/9/9/9/9/9/K8 b - 1", "5b", {"5b5a+"}},
      {"8k/9/9/9/4P4/9/9/9/K8 b - 1", "5e", {"5e5d"}},
      // Lance: forced on the last rank only.
      {"8k/9/9/9/4L4/9/9/9/K8 b - 1", "5e", {"5e5d", "5e5c", "5e5c+", "5e5b", "5e5b+", "5e5a+"}},
      // Knight: forced on the last two ranks.
      {"8k/9/9/9/4N4/9/9/9/K8 b - 1", "5e", {"5e4c", "5e4c+", "5e6c", "5e6c+"}},
      {"8k/9/9/4N4/9/9/9/9/K8 b - 1", "5d", {"5d4b+", "5d6b+"}},
      {"8k/9/4N4/9/9/9/9/9/K8 b - 1", "5c", {"5c4a+", "5c6a+"}},
      // Silver: into the zone, inside it, and out of it (from inside) all optional.
      {"8k/9/9/4S4/9/9/9/9/K8 b - 1",
       "5d",
       {"5d5c", "5d5c+", "5d4c", "5d4c+", "5d6c", "5d6c+", "5d4e", "5d6e"}},
      {"8k/9/4S4/9/9/9/9/9/K8 b - 1",
       "5c",
       {"5c5b", "5c5b+", "5c4b", "5c4b+", "5c6b", "5c6b+", "5c4d", "5c4d+", "5c6d", "5c6d+"}},
      // Gold, king and promoted pieces never promote.
      {"8k/9/4G4/9/9/9/9/9/K8 b - 1", "5c", {"5c5b", "5c4b", "5c6b", "5c4c", "5c6c", "5c5d"}},
      {"8k/4K4/9/9/9/9/9/9/9 b - 1",
       "5b",
       {"5b4a", "5b5a", "5b6a", "5b4b", "5b6b", "5b4c", "5b5c", "5b6c"}},
      {"8k/9/4+P4/9/9/9/9/9/K8 b - 1", "5c", {"5c5b", "5c4b", "5c6b", "5c4c", "5c6c", "5c5d"}},
      {"8k/9/9/9/9/9/9/9/K3+B4 b - 1",
       "5i",
       {"5i4h", "5i3g", "5i2f", "5i1e", "5i6h", "5i7g", "5i8f", "5i9e", "5i5h", "5i4i", "5i6i"}},
      // White, mirrored.
      {"8k/9/9/9/9/4p4/9/9/K8 w - 1", "5f", {"5f5g", "5f5g+"}},
      {"8k/9/9/9/9/9/9/4p4/K8 w - 1", "5h", {"5h5i+"}},
      {"8k/9/9/9/4p4/9/9/9/K8 w - 1", "5e", {"5e5f"}},
      {"8k/9/9/9/4l4/9/9/9/K8 w - 1", "5e", {"5e5f", "5e5g", "5e5g+", "5e5h", "5e5h+", "5e5i+"}},
      {"8k/9/9/9/4n4/9/9/9/K8 w - 1", "5e", {"5e4g", "5e4g+", "5e6g", "5e6g+"}},
      {"8k/9/9/9/9/4n4/9/9/K8 w - 1", "5f", {"5f4h+", "5f6h+"}},
      {"8k/9/9/9/9/9/4s4/9/K8 w - 1",
       "5g",
       {"5g5h", "5g5h+", "5g4h", "5g4h+", "5g6h", "5g6h+", "5g4f", "5g4f+", "5g6f", "5g6f+"}},
      {"8k/9/9/9/9/9/4g4/9/K8 w - 1", "5g", {"5g5h", "5g4h", "5g6h", "5g4g", "5g6g", "5g5f"}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.sfen);
    Position pos = position(c.sfen);
    CHECK(legal_from(pos, c.from) == c.moves);
  }

  SUBCASE("bishop and rook: into, inside and out of the zone") {
    Position pos = position("4k4/9/7BR/9/9/9/9/9/K8 b - 1");  // bishop 2c, rook 1c
    const std::set<std::string> bishop = legal_from(pos, "2c");
    for (const char* m : {"2c7h", "2c7h+", "2c8i", "2c8i+", "2c3b", "2c3b+", "2c4a", "2c4a+",
                          "2c1b", "2c1b+", "2c1d", "2c1d+"})
      CHECK(bishop.count(m) == 1);
    const std::set<std::string> rook = legal_from(pos, "1c");
    for (const char* m : {"1c1h", "1c1h+", "1c1i", "1c1i+", "1c1b", "1c1b+", "1c1d", "1c1d+"})
      CHECK(rook.count(m) == 1);
    CHECK(rook.count("1c1a") == 1);
    CHECK(rook.count("1c1a+") == 1);
    pos = position("4k4/9/9/9/9/9/9/9/K6BR b - 1");  // from outside to inside only
    CHECK(legal_from(pos, "2i").count("2i7d+") == 0);
    CHECK(legal_from(pos, "2i").count("2i7d") == 1);
    CHECK(legal_from(pos, "2i").count("2i8c+") == 1);
    CHECK(legal_from(pos, "2i").count("2i8c") == 1);
    CHECK(legal_from(pos, "1i").count("1i1b+") == 1);
    CHECK(legal_from(pos, "1i").count("1i1d+") == 0);
  }
}

TEST_CASE("drops: dead squares and nifu") {
  auto drops_of = [](const Position& pos, char letter) {
    std::set<std::string> out;
    for (const std::string& m : legal_usi(pos))
      if (m[0] == letter && m[1] == '*') out.insert(m);
    return out;
  };
  SUBCASE("Black: pawn and lance not on rank a, knight not on ranks a and b") {
    // 79 empty squares; 8 of them on rank a, 17 on ranks a and b.
    Position pos = position("8k/9/9/9/9/9/9/9/K8 b PLNSGBR 1");
    CHECK(drops_of(pos, 'P').size() == 71);
    CHECK(drops_of(pos, 'L').size() == 71);
    CHECK(drops_of(pos, 'N').size() == 62);
    for (char c : {'S', 'G', 'B', 'R'}) CHECK(drops_of(pos, c).size() == 79);
    for (const std::string& m : drops_of(pos, 'P')) CHECK(m[3] != 'a');
    for (const std::string& m : drops_of(pos, 'L')) CHECK(m[3] != 'a');
    for (const std::string& m : drops_of(pos, 'N')) CHECK((m[3] != 'a' && m[3] != 'b'));
    CHECK(drops_of(pos, 'N').count("N*5c") == 1);
    CHECK(drops_of(pos, 'G').count("G*5a") == 1);
  }
  SUBCASE("White: pawn and lance not on rank i, knight not on ranks h and i") {
    Position pos = position("8k/9/9/9/9/9/9/9/K8 w plnsgbr 1");
    CHECK(drops_of(pos, 'P').size() == 71);
    CHECK(drops_of(pos, 'L').size() == 71);
    CHECK(drops_of(pos, 'N').size() == 62);
    for (char c : {'S', 'G', 'B', 'R'}) CHECK(drops_of(pos, c).size() == 79);
    for (const std::string& m : drops_of(pos, 'P')) CHECK(m[3] != 'i');
    for (const std::string& m : drops_of(pos, 'N')) CHECK((m[3] != 'h' && m[3] != 'i'));
    CHECK(drops_of(pos, 'N').count("N*5g") == 1);
  }
  SUBCASE("nifu") {
    Position pos = position("8k/9/9/9/9/9/4P4/9/K8 b P 1");
    std::set<std::string> pawns = drops_of(pos, 'P');
    for (const std::string& m : pawns) CHECK(m[2] != '5');
    CHECK(pawns.size() == 71 - 8);  // file 5 has 8 empty squares, 5a already excluded
    CHECK(pawns.count("P*4e") == 1);
    // A promoted pawn, or the opponent's pawn, on the file does not count.
    pos = position("8k/9/9/9/9/9/4+P4/9/K8 b P 1");
    CHECK(drops_of(pos, 'P').count("P*5e") == 1);
    pos = position("8k/9/9/4p4/9/9/9/9/K8 b P 1");
    CHECK(drops_of(pos, 'P').count("P*5e") == 1);
    CHECK(drops_of(pos, 'P').count("P*5c") == 1);
    // White's nifu.
    pos = position("8k/9/9/4p4/9/9/9/9/K8 w p 1");
    for (const std::string& m : drops_of(pos, 'P')) CHECK(m[2] != '5');
    // Lances may share a file.
    pos = position("8k/9/9/9/9/9/4L4/9/K8 b L 1");
    CHECK(drops_of(pos, 'L').count("L*5e") == 1);
  }
  SUBCASE("drops never on occupied squares, never of pieces not in hand") {
    Position pos;
    CHECK(drops_of(pos, 'P').empty());
    pos = position("lnsgkgsnl/1r5b1/pppp1pppp/9/9/9/PPPP1PPPP/1B5R1/LNSGKGSNL b P 1");
    const std::set<std::string> pawns = drops_of(pos, 'P');
    CHECK(pawns == std::set<std::string>{"P*5b", "P*5c", "P*5d", "P*5e", "P*5f", "P*5g", "P*5h"});
    CHECK(pos.is_pseudo_legal(usi_move(pos, "P*5e")));
    CHECK_FALSE(pos.is_pseudo_legal(usi_move(pos, "P*5a")));  // dead square
    CHECK_FALSE(pos.is_pseudo_legal(usi_move(pos, "P*5i")));  // occupied by the king
    CHECK_FALSE(pos.is_pseudo_legal(usi_move(pos, "P*4e")));  // nifu
    CHECK_FALSE(pos.is_pseudo_legal(usi_move(pos, "G*5e")));  // not in hand
  }
}

TEST_CASE("pawn-drop mate (uchifuzume) is illegal; other pawn-drop checks are legal") {
  // In all of these: White's king on 1a, Black drops a pawn on 1b.
  SUBCASE("mate: defended pawn, no escape, no capture") {
    Position pos = position("7nk/7s1/8G/9/9/9/9/9/K8 b GP 1");
    const Move drop = usi_move(pos, "P*1b");
    CHECK(pos.is_pseudo_legal(drop));
    CHECK(pos.gives_check(drop));
    CHECK(pos.is_pawn_drop_mate(drop.to()));
    CHECK_FALSE(pos.is_legal(drop));
    CHECK(legal_usi(pos).count("P*1b") == 0);
    CHECK(legal_usi(pos).count("P*2c") == 1);  // other pawn drops stay legal
    MoveList pseudo;
    generate(pos, GenType::kNonEvasions, pseudo);
    CHECK(pseudo.contains(drop));
    MoveList checks;
    generate(pos, GenType::kChecks, checks);
    CHECK(checks.contains(drop));
    // Dropping a gold there is mate and legal.
    const Move gold = usi_move(pos, "G*1b");
    REQUIRE(legal_moves(pos).contains(gold));
    pos.do_move(gold);
    CHECK(pos.in_check());
    CHECK(legal_moves(pos).empty());
  }
  SUBCASE("not mate: the king can escape") {
    Position pos = position("8k/7s1/8G/9/9/9/9/9/K8 b P 1");
    const Move drop = usi_move(pos, "P*1b");
    CHECK_FALSE(pos.is_pawn_drop_mate(drop.to()));
    REQUIRE(legal_moves(pos).contains(drop));
    pos.do_move(drop);
    CHECK(pos.in_check());
    CHECK(legal_usi(pos) == std::set<std::string>{"1a2a"});
  }
  SUBCASE("not mate: the pawn is undefended and the king takes it") {
    Position pos = position("7nk/7s1/9/9/9/9/9/9/K8 b P 1");
    const Move drop = usi_move(pos, "P*1b");
    CHECK_FALSE(pos.is_pawn_drop_mate(drop.to()));
    REQUIRE(legal_moves(pos).contains(drop));
    pos.do_move(drop);
    CHECK(legal_usi(pos) == std::set<std::string>{"1a1b"});
  }
  SUBCASE("mate: a distant bishop defends the pawn") {
    Position pos = position("7nk/7s1/9/9/5B3/9/9/9/K8 b P 1");
    CHECK(pos.is_pawn_drop_mate(usi_move(pos, "P*1b").to()));
    CHECK(legal_usi(pos).count("P*1b") == 0);
  }
  SUBCASE("mate: the defender is pinned to Black's own king, yet still guards") {
    Position pos = position("7nk/7s1/9/r6NK/9/9/9/9/9 b P 1");
    CHECK(pos.pinned(kBlack).test(make_square(1, 3)));  // the knight on 2d
    CHECK(legal_usi(pos).count("P*1b") == 0);
  }
  SUBCASE("not mate: another piece captures the pawn") {
    Position pos = position("7nk/7g1/8G/9/9/9/9/9/K8 b P 1");
    const Move drop = usi_move(pos, "P*1b");
    CHECK_FALSE(pos.is_pawn_drop_mate(drop.to()));
    REQUIRE(legal_moves(pos).contains(drop));
    pos.do_move(drop);
    CHECK(legal_usi(pos) == std::set<std::string>{"2b1b"});
  }
  SUBCASE("mate: the only capturer is pinned off the line") {
    // The gold on 2b is pinned by the bishop on 4d along 4d-3c-2b-1a.
    Position pos = position("7nk/7g1/8G/5B3/9/9/9/9/K8 b P 1");
    CHECK(pos.blockers_for_king(kWhite).test(make_square(1, 1)));
    CHECK(pos.is_pawn_drop_mate(usi_move(pos, "P*1b").to()));
    CHECK(legal_usi(pos).count("P*1b") == 0);
  }
  SUBCASE("not mate: a pinned piece captures along its pin line") {
    // The gold on 1c is pinned by the lance on 1e; the knight on 2d guards 1b.
    Position pos = position("7nk/7s1/8g/7N1/8L/9/9/9/K8 b P 1");
    const Move drop = usi_move(pos, "P*1b");
    CHECK_FALSE(pos.is_pawn_drop_mate(drop.to()));
    REQUIRE(legal_moves(pos).contains(drop));
    pos.do_move(drop);
    CHECK(legal_usi(pos) == std::set<std::string>{"1c1b"});
  }
  SUBCASE("not mate: the dropped pawn itself blocks the line guarding an escape") {
    // Before the drop the bishop on 7d guards 4a through 5b; the pawn on 5b cuts it.
    Position pos = position("3nk4/3s1s3/4G4/2B6/9/9/9/9/K8 b P 1");
    const Move drop = usi_move(pos, "P*5b");
    CHECK(pos.is_attacked(kBlack, make_square(3, 0)));
    CHECK_FALSE(pos.is_pawn_drop_mate(drop.to()));
    REQUIRE(legal_moves(pos).contains(drop));
    pos.do_move(drop);
    CHECK(legal_usi(pos) == std::set<std::string>{"5a4a"});
  }
  SUBCASE("a pawn pushed (not dropped) may mate") {
    Position pos = position("7nk/7s1/8P/7N1/9/9/9/9/K8 b - 1");
    const std::set<std::string> moves = legal_from(pos, "1c");
    CHECK(moves == std::set<std::string>{"1c1b", "1c1b+"});
    pos.do_move(usi_move(pos, "1c1b"));
    CHECK(pos.in_check());
    CHECK(legal_moves(pos).empty());
  }
  SUBCASE("White's pawn-drop mate, and the fixture cases") {
    Position pos = position("9/9/9/9/9/9/1s7/9/NKL6 w 2R2B4G3S3N3L17Pp 1");
    const Move drop = usi_move(pos, "P*8h");
    CHECK(pos.is_pseudo_legal(drop));
    CHECK_FALSE(pos.is_legal(drop));
    CHECK(legal_usi(pos).count("P*8h") == 0);
    pos = position("6lkn/9/7S1/9/9/9/9/9/9 b P2r2b4g3s3n3l17p 1");
    CHECK_FALSE(pos.is_legal(usi_move(pos, "P*2b")));
    CHECK(legal_usi(pos).count("P*2b") == 0);
  }
}

TEST_CASE("pinned pieces move along the pin line only") {
  struct Case {
    const char* sfen;
    const char* from;
    std::set<std::string> moves;
  };
  const Case cases[] = {
      // Gold pinned on the file by a rook: forward and back along the file.
      {"4r3k/9/9/9/9/9/4G4/9/4K4 b - 1", "5g", {"5g5f", "5g5h"}},
      // Rook pinned by a rook: anywhere on the file, capturing the pinner included.
      {"4r3k/9/9/9/4R4/9/9/9/4K4 b - 1",
       "5e",
       {"5e5d", "5e5c", "5e5c+", "5e5b", "5e5b+", "5e5a", "5e5a+", "5e5f", "5e5g", "5e5h"}},
      // Silver pinned on a diagonal by a bishop.
      {"8k/9/9/9/8b/9/6S2/9/4K4 b - 1", "3g", {"3g2f", "3g4h"}},
      // Bishop pinned on a diagonal: slides along it and captures.
      {"8k/9/9/9/8b/9/6B2/9/4K4 b - 1", "3g", {"3g2f", "3g1e", "3g4h"}},
      // Knight pinned: no move at all.
      {"8k/9/9/9/4r4/9/4N4/9/4K4 b - 1", "5g", {}},
      // Silver pinned by a lance.
      {"8k/9/4l4/9/9/4S4/9/9/4K4 b - 1", "5f", {"5f5e"}},
      // Two pieces in the line: neither is pinned.
      {"4r3k/9/9/9/4G4/9/4S4/9/4K4 b - 1", "5g", {"5g5f", "5g4f", "5g6f", "5g4h", "5g6h"}},
      // White's gold pinned by Black's dragon on the rank.
      {"9/9/9/9/+R2g1k3/9/9/9/K8 w - 1", "6e", {"6e7e", "6e5e"}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.sfen);
    Position pos = position(c.sfen);
    CHECK(legal_from(pos, c.from) == c.moves);
  }
  Position pos = position("4r3k/9/9/9/9/9/4G4/9/4K4 b - 1");
  CHECK(pos.pinned(kBlack) == square_bb(make_square(4, 6)));
  CHECK_FALSE(pos.is_legal(usi_move(pos, "5g4g")));
  CHECK(pos.is_legal(usi_move(pos, "5g5f")));
}

TEST_CASE("check evasions") {
  SUBCASE("a distant check: king moves, capture, interposition by move and by drop") {
    Position pos = position("8k/9/4r4/9/9/9/5G2B/9/4K4 b P 1");
    REQUIRE(pos.in_check());
    CHECK(legal_usi(pos) == std::set<std::string>{"5i4h", "5i6h", "5i4i", "5i6i", "1g5c", "1g5c+",
                                                  "4g5f", "4g5g", "P*5d", "P*5e", "P*5f", "P*5g",
                                                  "P*5h"});
  }
  SUBCASE("double check: king moves only") {
    Position pos = position("k8/4r3R/9/9/b8/9/9/9/3GK4 b P 1");
    REQUIRE(pos.checkers().count() == 2);
    CHECK(legal_usi(pos) == std::set<std::string>{"5i4h", "5i4i"});
    MoveList evasions;
    generate(pos, GenType::kEvasions, evasions);
    for (Move m : evasions) CHECK(m.from() == pos.king_square(kBlack));
    CHECK_FALSE(pos.is_pseudo_legal(usi_move(pos, "1b5b")));  // capturing one checker
    CHECK_FALSE(pos.is_pseudo_legal(usi_move(pos, "P*5h")));  // blocking one
  }
  SUBCASE("the king may not step back along the checking line") {
    Position pos = position("4r3k/9/9/9/4K4/9/9/9/9 b - 1");
    CHECK(legal_usi(pos) == std::set<std::string>{"5e4d", "5e6d", "5e4e", "5e6e", "5e4f", "5e6f"});
    CHECK(pos.is_pseudo_legal(usi_move(pos, "5e5f")));
    CHECK_FALSE(pos.is_legal(usi_move(pos, "5e5f")));
  }
  SUBCASE("the king captures an undefended checker, not a defended one") {
    Position pos = position("8k/9/9/9/9/9/9/4g4/4K4 b - 1");
    CHECK(legal_usi(pos) == std::set<std::string>{"5i5h"});
    pos = position("8k/9/4l4/9/9/9/9/4g4/4K4 b - 1");
    CHECK(pos.in_check());
    CHECK(legal_moves(pos).empty());  // mate
  }
  SUBCASE("a pinned piece can neither interpose nor capture") {
    Position pos = position("8k/9/4r4/9/8b/9/9/5S3/4K4 b - 1");
    CHECK(legal_usi(pos) == std::set<std::string>{"5i6h", "5i4i", "5i6i"});
  }
  SUBCASE("a knight's check cannot be blocked") {
    Position pos = position("8k/9/9/9/9/9/3n5/9/4K4 b G 1");
    CHECK(legal_usi(pos) == std::set<std::string>{"5i4h", "5i5h", "5i6h", "5i4i", "5i6i"});
  }
  SUBCASE("a knight captures the checker") {
    Position pos = position("8k/9/9/9/9/9/3n5/9/4K2N1 b - 1");  // knight on 2i does not reach 6g
    CHECK(legal_from(pos, "2i").empty());
    pos = position("8k/9/9/9/9/9/3n5/9/4KN3 b - 1");  // knight on 4i jumps to 3g or 5g
    CHECK(legal_from(pos, "4i").empty());
    pos = position("8k/9/9/9/9/9/3n5/9/2N1K4 b - 1");  // knight on 7i jumps to 6g
    CHECK(legal_from(pos, "7i") == std::set<std::string>{"7i6g"});
  }
  SUBCASE("the evasion fixtures") {
    for (const std::string& sfen : read_sfen_file("mate/evasion_cases.sfen")) {
      CAPTURE(sfen);
      Position pos = position(sfen);
      CHECK(pos.in_check());
      MoveList evasions;
      generate(pos, GenType::kEvasions, evasions);
      std::set<uint32_t> filtered;
      for (Move m : evasions)
        if (pos.is_legal(m)) filtered.insert(m.raw() & kMoveBits);
      const std::set<uint32_t> reference = raw_set(ref::legal_moves(pos.setup()));
      CHECK_MESSAGE(filtered == reference, difference(filtered, reference));
    }
  }
}

TEST_CASE("moves that leave the own king in check are excluded") {
  // The king may not step next to the enemy king, onto a guarded square, or capture a
  // guarded piece.
  Position pos = position("9/9/9/9/4k4/9/4K4/9/9 b - 1");
  CHECK(legal_usi(pos) == std::set<std::string>{"5g4g", "5g6g", "5g4h", "5g5h", "5g6h"});
  // The lance on 5h checks and is guarded by the pawn on 5g.
  pos = position("8k/9/9/9/9/9/4p4/4l4/4K4 b - 1");
  CHECK(legal_usi(pos) == std::set<std::string>{"5i4h", "5i6h", "5i4i", "5i6i"});
  // 5h is attacked by the pawn on 5g.
  pos = position("8k/9/9/9/4l4/9/4p4/9/4K4 b - 1");
  CHECK(legal_usi(pos) == std::set<std::string>{"5i4h", "5i6h", "5i4i", "5i6i"});
}

TEST_CASE("the check-generation fixtures") {
  const std::vector<std::string> cases = read_sfen_file("mate/checkgen_cases.sfen");
  CHECK(cases.size() == 36);
  int without_checks = 0;
  for (const std::string& sfen : cases) {
    CAPTURE(sfen);
    Position pos = position(sfen);
    REQUIRE_FALSE(pos.in_check());
    MoveList checks;
    generate(pos, GenType::kChecks, checks);
    std::set<uint32_t> legal_checks, reference_checks;
    for (Move m : checks)
      if (pos.is_legal(m)) legal_checks.insert(m.raw() & kMoveBits);
    for (Move m : ref::legal_moves(pos.setup())) {
      const Color us = pos.side_to_move();
      PositionSetup next = ref::after(pos.setup(), m);
      if (ref::in_check(next, ~us)) reference_checks.insert(m.raw() & kMoveBits);
    }
    CHECK_MESSAGE(legal_checks == reference_checks, difference(legal_checks, reference_checks));
    without_checks += legal_checks.empty();
  }
  // Only "6Snl/5+B3/8p/7+R1/9/4S2Ps/7k1/9/9 b rb4gs3n3l16p 1" has no checking move.
  CHECK(without_checks == 1);
}

TEST_CASE("generators, legality, hashing and do/undo agree on many positions") {
  std::vector<std::string> seeds = {std::string(Position::kStartSfen)};
  for (const char* file : {"mate/checkgen_cases.sfen", "mate/evasion_cases.sfen"})
    for (const std::string& s : read_sfen_file(file)) seeds.push_back(s);
  seeds.push_back("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1");
  seeds.push_back("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1");
  seeds.push_back("k8/4r3R/9/9/b8/9/9/9/3GK4 b P 1");  // double check
  seeds.push_back("8k/9/4r4/9/8b/9/9/5S3/4K4 b - 1");  // check and a pin
  seeds.push_back("ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1PP1/PPSP1P2P/2GB1K1R1/LN3G1NL b Bp 1");

  Prng prng(0x5eed);
  Coverage cov;
  Position scratch;
  for (size_t i = 0; i < seeds.size(); ++i) {
    Position pos = position(seeds[i]);
    const int plies = i == 0 ? 160 : 14;
    for (int ply = 0; ply < plies; ++ply) {
      check_node(pos, scratch, prng, cov);
      MoveList legal = legal_moves(pos);
      if (legal.empty()) break;
      // Prefer checks now and then, to reach more positions in check.
      Move next = legal[prng.below(legal.size())];
      if (prng.below(3) == 0)
        for (int tries = 0; tries < 8 && !pos.gives_check(next); ++tries)
          next = legal[prng.below(legal.size())];
      pos.do_move(next);
    }
  }
  MESSAGE("nodes " << cov.nodes << ", in check " << cov.in_check << ", double check "
                   << cov.double_check << ", legal moves " << cov.legal << ", checks " << cov.checks
                   << ", drops " << cov.drops << ", promotions " << cov.promotions << ", captures "
                   << cov.captures << ", pawn-drop mates " << cov.pawn_drop_mates
                   << ", valid near-misses " << cov.garbage_accepted);
  CHECK(cov.nodes > 500);
  CHECK(cov.in_check > 30);
  CHECK(cov.captures > 100);
  CHECK(cov.promotions > 100);
  CHECK(cov.drops > 1000);
  CHECK(cov.pawn_drop_mates > 0);
}

}  // namespace movegen_test
