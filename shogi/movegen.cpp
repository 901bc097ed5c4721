// Move generation by piece kind: board moves with the promotion rules, drops, evasions.
#include "shogi/movegen.h"

#include "shogi/attacks.h"

namespace shogi {
namespace {

// Which variants of a board move to emit.
enum Variants { kBoth, kPromotionsOnly, kNonPromotionsOnly };

// Adds the moves of one piece of kind T (unpromoted, promotable) from `from` to `targets`.
template <Color Us, PieceType T, Variants V>
inline void add_promotable(Square from, Bitboard targets, MoveList& list) {
  constexpr Piece kPlain = make_piece(Us, T);
  constexpr Piece kPromoted = make_piece(Us, promote(T));
  const Bitboard zone = far_ranks_bb(Us, 3);
  // Destinations where a non-promotion is forbidden (the piece could never move again).
  constexpr int kForcedRanks = T == kKnight ? 2 : (T == kPawn || T == kLance) ? 1 : 0;
  const Bitboard forced = far_ranks_bb(Us, kForcedRanks);
  const bool from_zone = zone.test(from);
  for (Square to : targets) {
    const bool promotable = from_zone || zone.test(to);
    if (V != kNonPromotionsOnly && promotable) list.push(Move::board(from, to, true, kPromoted));
    if (V != kPromotionsOnly && !(kForcedRanks && forced.test(to)))
      list.push(Move::board(from, to, false, kPlain));
  }
}

// Adds the moves of a piece that never promotes (gold-likes, king, horse, dragon).
inline void add_plain(Square from, Piece p, Bitboard targets, MoveList& list) {
  for (Square to : targets) list.push(Move::board(from, to, false, p));
}

// Board moves of every piece but the king, to `targets`.
template <Color Us, Variants V>
void generate_piece_moves(const Position& pos, Bitboard targets, MoveList& list) {
  const Bitboard occ = pos.pieces();
  // Pawns: one step forward, computed for all pawns at once.
  {
    Bitboard pawns = pos.pieces(Us, kPawn);
    Bitboard to_set = Us == kBlack ? Bitboard(pawns.lo >> 1, pawns.hi >> 1)
                                   : Bitboard((pawns.lo << 1) & Bitboard::kLoMask,
                                              (pawns.hi << 1) | (pawns.lo >> 62));
    to_set &= targets;
    const Bitboard zone = far_ranks_bb(Us, 3);
    const Bitboard last = far_ranks_bb(Us, 1);
    for (Square to : to_set) {
      const Square from = Us == kBlack ? to + 1 : to - 1;
      const bool promotable = zone.test(to);
      if (V != kNonPromotionsOnly && promotable)
        list.push(Move::board(from, to, true, make_piece(Us, kProPawn)));
      if (V != kPromotionsOnly && !last.test(to))
        list.push(Move::board(from, to, false, make_piece(Us, kPawn)));
    }
  }
  for (Square from : pos.pieces(Us, kLance))
    add_promotable<Us, kLance, V>(from, lance_attacks(Us, from, occ) & targets, list);
  for (Square from : pos.pieces(Us, kKnight))
    add_promotable<Us, kKnight, V>(from, step_attacks(Us, kKnight, from) & targets, list);
  for (Square from : pos.pieces(Us, kSilver))
    add_promotable<Us, kSilver, V>(from, step_attacks(Us, kSilver, from) & targets, list);
  for (Square from : pos.pieces(Us, kBishop))
    add_promotable<Us, kBishop, V>(from, bishop_attacks(from, occ) & targets, list);
  for (Square from : pos.pieces(Us, kRook))
    add_promotable<Us, kRook, V>(from, rook_attacks(from, occ) & targets, list);
  if (V == kPromotionsOnly) return;
  for (Square from : pos.golds(Us))
    add_plain(from, pos.piece_on(from), step_attacks(Us, kGold, from) & targets, list);
  for (Square from : pos.pieces(Us, kHorse))
    add_plain(from, make_piece(Us, kHorse), horse_attacks(from, occ) & targets, list);
  for (Square from : pos.pieces(Us, kDragon))
    add_plain(from, make_piece(Us, kDragon), dragon_attacks(from, occ) & targets, list);
}

template <Color Us>
void generate_king_moves(const Position& pos, Bitboard targets, MoveList& list) {
  const Square ksq = pos.king_square(Us);
  if (ksq == kSquareNone) return;
  add_plain(ksq, make_piece(Us, kKing), step_attacks(Us, kKing, ksq) & targets, list);
}

// Files holding an unpromoted pawn of Us, as a mask of whole files.
template <Color Us>
Bitboard pawn_files(const Position& pos) {
  Bitboard pawns = pos.pieces(Us, kPawn);
  Bitboard files;
  for (Square s : pawns) files |= file_bb(file_of(s));
  return files;
}

// Drops onto `targets` (which must be empty squares).
template <Color Us>
void generate_drops(const Position& pos, Bitboard targets, MoveList& list) {
  const Hand hand = pos.hand(Us);
  if (hand.empty()) return;
  if (hand.has(kPawn)) {
    Bitboard to_set = targets.and_not(far_ranks_bb(Us, 1)).and_not(pawn_files<Us>(pos));
    for (Square to : to_set) list.push(Move::drop(kPawn, to, Us));
  }
  if (hand.has(kLance)) {
    for (Square to : targets.and_not(far_ranks_bb(Us, 1))) list.push(Move::drop(kLance, to, Us));
  }
  if (hand.has(kKnight)) {
    for (Square to : targets.and_not(far_ranks_bb(Us, 2))) list.push(Move::drop(kKnight, to, Us));
  }
  PieceType others[4];
  int n = 0;
  for (PieceType t : {kSilver, kGold, kBishop, kRook})
    if (hand.has(t)) others[n++] = t;
  if (n == 0) return;
  for (Square to : targets) {
    for (int i = 0; i < n; ++i) list.push(Move::drop(others[i], to, Us));
  }
}

template <Color Us>
void generate_evasions(const Position& pos, MoveList& list) {
  const Square ksq = pos.king_square(Us);
  const Bitboard checkers = pos.checkers();
  generate_king_moves<Us>(pos, ~pos.pieces(Us), list);
  if (checkers.more_than_one()) return;
  const Square checker = checkers.lsb();
  const Bitboard between = between_bb(ksq, checker);
  generate_piece_moves<Us, kBoth>(pos, between | square_bb(checker), list);
  generate_drops<Us>(pos, between, list);
}

// The non-evasion moves that may give check, in the order generate_for's kNonEvasions
// gives them: when no piece of ours shields the enemy king (no discovered check), only
// the moves landing on a square from which some piece could attack the king (its rook and
// bishop lines in the current occupancy, its king and knight steps), else all. A move's
// own square cannot open a line to the king from its destination: it would have checked
// from where it stood. A superset of the checking moves, for kChecks to filter.
template <Color Us>
void generate_check_candidates(const Position& pos, MoveList& list) {
  const Square ksq = pos.king_square(~Us);
  if (ksq == kSquareNone) return;  // nothing gives check
  const Bitboard occupied = pos.pieces();
  Bitboard targets = ~pos.pieces(Us);
  if ((pos.blockers_for_king(~Us) & pos.pieces(Us)).none())
    targets &= rook_attacks(ksq, occupied) | bishop_attacks(ksq, occupied) |
               step_attacks(~Us, kKing, ksq) | step_attacks(~Us, kKnight, ksq);
  generate_piece_moves<Us, kBoth>(pos, targets, list);
  generate_king_moves<Us>(pos, targets, list);
  generate_drops<Us>(pos, targets.and_not(occupied), list);
}

template <Color Us>
void generate_for(const Position& pos, GenType type, MoveList& list) {
  const Bitboard empty = ~pos.pieces();
  const Bitboard enemies = pos.pieces(~Us);
  switch (type) {
    case GenType::kCapturesPromotions:
      generate_piece_moves<Us, kBoth>(pos, enemies, list);
      generate_piece_moves<Us, kPromotionsOnly>(pos, empty, list);
      generate_king_moves<Us>(pos, enemies, list);
      break;
    case GenType::kQuiets:
      generate_piece_moves<Us, kNonPromotionsOnly>(pos, empty, list);
      generate_king_moves<Us>(pos, empty, list);
      generate_drops<Us>(pos, empty, list);
      break;
    case GenType::kNonEvasions:
      generate_piece_moves<Us, kBoth>(pos, empty | enemies, list);
      generate_king_moves<Us>(pos, empty | enemies, list);
      generate_drops<Us>(pos, empty, list);
      break;
    case GenType::kEvasions:
      generate_evasions<Us>(pos, list);
      break;
    case GenType::kChecks: {
      MoveList all;
      if (pos.in_check())
        generate_evasions<Us>(pos, all);
      else
        generate_check_candidates<Us>(pos, all);
      for (Move m : all)
        if (pos.gives_check(m)) list.push(m);
      break;
    }
    case GenType::kLegal: {
      const int start = list.count;
      if (pos.in_check())
        generate_evasions<Us>(pos, list);
      else
        generate_for<Us>(pos, GenType::kNonEvasions, list);
      int out = start;
      for (int i = start; i < list.count; ++i)
        if (pos.is_legal(list[i])) list[out++] = list[i];
      list.count = out;
      break;
    }
  }
}

}  // namespace

void generate(const Position& pos, GenType type, MoveList& list) {
  if (pos.side_to_move() == kBlack)
    generate_for<kBlack>(pos, type, list);
  else
    generate_for<kWhite>(pos, type, list);
}

}  // namespace shogi
