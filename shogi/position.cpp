// Position: setting up, do/undo with incremental hashing, checks, pins and legality.
#include "shogi/position.h"

#include <algorithm>
#include <iterator>
#include <mutex>

#include "shogi/notation.h"

namespace shogi {

namespace zobrist {
uint64_t psq[kPieceNb][kSquareNb];
uint64_t hand[kColorNb][kPieceTypeNb];
}  // namespace zobrist

namespace {

void init_zobrist() {
  static std::once_flag once;
  std::call_once(once, [] {
    uint64_t s = 0x2545F4914F6CDD1DULL;
    auto next = [&s] {  // splitmix64
      uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      return z ^ (z >> 31);
    };
    for (auto& row : zobrist::psq)
      for (auto& k : row) k = next() & ~zobrist::kSide;
    for (auto& row : zobrist::hand)
      for (auto& k : row) k = next() & ~zobrist::kSide;
  });
}

}  // namespace

Position::Position() {
  init_attacks();
  init_zobrist();
  states_.reserve(1024);
  PositionSetup setup;
  parse_sfen(kStartSfen, setup);
  set(setup);
}

void Position::copy_current(const Position& other) {
  if (this == &other) {
    states_.erase(states_.begin(), states_.end() - 1);
    return;
  }
  board_ = other.board_;
  std::copy(std::begin(other.by_color_), std::end(other.by_color_), std::begin(by_color_));
  std::copy(std::begin(other.by_type_), std::end(other.by_type_), std::begin(by_type_));
  occupied_ = other.occupied_;
  std::copy(std::begin(other.hands_), std::end(other.hands_), std::begin(hands_));
  std::copy(std::begin(other.king_square_), std::end(other.king_square_), std::begin(king_square_));
  side_to_move_ = other.side_to_move_;
  game_ply_ = other.game_ply_;
  states_.clear();
  states_.push_back(other.st());
}

void Position::put_piece(Square s, Piece p) {
  board_[s] = p;
  Bitboard b = square_bb(s);
  by_color_[color_of(p)] |= b;
  by_type_[type_of(p)] |= b;
  occupied_ |= b;
  if (type_of(p) == kKing) king_square_[color_of(p)] = s;
}

void Position::remove_piece(Square s) {
  Piece p = board_[s];
  Bitboard b = square_bb(s);
  by_color_[color_of(p)] ^= b;
  by_type_[type_of(p)] ^= b;
  occupied_ ^= b;
  board_[s] = kNoPiece;
}

Status Position::set(const PositionSetup& setup) {
  // Validate before touching *this.
  int counts[kPieceTypeNb] = {};
  int kings[kColorNb] = {};
  for (Square s = 0; s < kSquareNb; ++s) {
    Piece p = setup.board[s];
    if (p == kNoPiece) continue;
    PieceType t = type_of(p);
    Color c = color_of(p);
    if (t == kNoPieceType || t >= kPieceTypeNb || (p & ~31) || (p & 16 && t == 0))
      return Status::error("invalid piece code on square " + format_usi_square(s));
    if (t == kKing) ++kings[c];
    counts[unpromote(t)]++;
    int rr = relative_rank(c, rank_of(s));
    if (((t == kPawn || t == kLance) && rr == 0) || (t == kKnight && rr <= 1))
      return Status::error("piece on " + format_usi_square(s) + " can never move");
  }
  for (Color c : {kBlack, kWhite}) {
    if (kings[c] > 1) return Status::error(std::string(color_name(c)) + " has more than one king");
    for (int t = kPawn; t <= kGold; ++t) {
      int n = setup.hands[c].count(PieceType(t));
      if (n > Hand::kMaxCount[t]) return Status::error("too many pieces of one kind in hand");
      counts[t] += n;
    }
    for (int f = 0; f < 9; ++f) {
      int pawns = 0;
      for (int r = 0; r < 9; ++r) pawns += setup.board[make_square(f, r)] == make_piece(c, kPawn);
      if (pawns > 1)
        return Status::error("two unpromoted pawns of one side on file " + std::to_string(f + 1) +
                             " (nifu)");
    }
  }
  // Composed positions (perft tables, problems) may hold more than a set; accept them as
  // long as every piece could still be counted in a hand.
  for (int t = kPawn; t <= kGold; ++t)
    if (counts[t] > int(Hand::kMask[t]))
      return Status::error("more pieces of one kind than a hand can count");
  if (setup.game_ply < 1) return Status::error("move number must be at least 1");

  Position previous = *this;
  board_.fill(kNoPiece);
  for (auto& b : by_color_) b = Bitboard();
  for (auto& b : by_type_) b = Bitboard();
  occupied_ = Bitboard();
  king_square_[kBlack] = king_square_[kWhite] = kSquareNone;
  for (Square s = 0; s < kSquareNb; ++s)
    if (setup.board[s] != kNoPiece) put_piece(s, setup.board[s]);
  hands_[kBlack] = setup.hands[kBlack];
  hands_[kWhite] = setup.hands[kWhite];
  side_to_move_ = setup.side_to_move;
  game_ply_ = setup.game_ply;
  states_.clear();
  states_.emplace_back();
  recompute_keys(st());
  update_check_info();
  Square them_king = king_square_[~side_to_move_];
  if (them_king != kSquareNone && is_attacked(side_to_move_, them_king)) {
    *this = std::move(previous);
    return Status::error("the side not to move is in check");
  }
  return Status::ok();
}

PositionSetup Position::setup() const {
  PositionSetup s;
  s.board = board_;
  s.hands[kBlack] = hands_[kBlack];
  s.hands[kWhite] = hands_[kWhite];
  s.side_to_move = side_to_move_;
  s.game_ply = game_ply_;
  return s;
}

Status Position::set_sfen(std::string_view sfen) {
  PositionSetup setup;
  Status status = parse_sfen(sfen, setup);
  if (!status) return status;
  Position copy = *this;
  status = copy.set(setup);
  if (!status) return Status::error("SFEN '" + std::string(sfen) + "': " + status.message());
  *this = std::move(copy);
  return Status::ok();
}

std::string Position::sfen(bool with_ply) const { return format_sfen(setup(), with_ply); }

void Position::recompute_keys(StateInfo& si) const {
  si.board_key = side_to_move_ == kWhite ? zobrist::kSide : 0;
  for (Square s = 0; s < kSquareNb; ++s)
    if (board_[s] != kNoPiece) si.board_key ^= zobrist::psq[board_[s]][s];
  si.hand_key = 0;
  for (Color c : {kBlack, kWhite})
    for (int t = kPawn; t <= kGold; ++t)
      si.hand_key += zobrist::hand[c][t] * uint64_t(hands_[c].count(PieceType(t)));
}

Bitboard Position::attackers_to(Color by, Square s, Bitboard occupied) const {
  const Color them = ~by;  // step tables of the other colour, read backwards
  const Bitboard mine = by_color_[by];
  Bitboard b =
      (step_attacks(them, kPawn, s) & by_type_[kPawn]) |
      (step_attacks(them, kKnight, s) & by_type_[kKnight]) |
      (step_attacks(them, kSilver, s) & by_type_[kSilver]) |
      (step_attacks(them, kGold, s) & (by_type_[kGold] | by_type_[kProPawn] | by_type_[kProLance] |
                                       by_type_[kProKnight] | by_type_[kProSilver])) |
      (step_attacks(them, kKing, s) & (by_type_[kKing] | by_type_[kHorse] | by_type_[kDragon])) |
      (lance_attacks(them, s, occupied) & by_type_[kLance]) |
      (bishop_attacks(s, occupied) & (by_type_[kBishop] | by_type_[kHorse])) |
      (rook_attacks(s, occupied) & (by_type_[kRook] | by_type_[kDragon]));
  return b & mine;
}

void Position::compute_blockers(Color c, StateInfo& si) const {
  si.blockers[c] = Bitboard();
  si.pinners[c] = Bitboard();
  const Square ksq = king_square_[c];
  if (ksq == kSquareNone) return;
  const Color them = ~c;
  Bitboard snipers =
      ((step_attacks(c, kLance, ksq) & by_type_[kLance]) |
       (step_attacks(kBlack, kBishop, ksq) & (by_type_[kBishop] | by_type_[kHorse])) |
       (step_attacks(kBlack, kRook, ksq) & (by_type_[kRook] | by_type_[kDragon]))) &
      by_color_[them];
  const Bitboard occupancy = occupied_ ^ snipers;
  while (snipers) {
    Square sniper = snipers.pop();
    Bitboard b = between_bb(ksq, sniper) & occupancy;
    if (b.any() && !b.more_than_one()) {
      si.blockers[c] |= b;
      if (b & by_color_[c]) si.pinners[c].set(sniper);
    }
  }
}

void Position::update_check_info() {
  StateInfo& si = st();
  const Color us = side_to_move_;
  const Square ksq = king_square_[us];
  si.checkers = ksq == kSquareNone ? Bitboard() : attackers_to(~us, ksq);
  compute_blockers(kBlack, si);
  compute_blockers(kWhite, si);
}

bool Position::gives_check(Move m) const {
  const Color us = side_to_move_;
  const Square ksq = king_square_[~us];
  if (ksq == kSquareNone) return false;
  const Square to = m.to();
  const PieceType after = type_of(m.piece_after());
  if (m.is_drop()) {
    return piece_attacks(us, after, to, occupied_).test(ksq);
  }
  const Square from = m.from();
  Bitboard occ = (occupied_ ^ square_bb(from)) | square_bb(to);
  if (piece_attacks(us, after, to, occ).test(ksq)) return true;
  // Discovered check: the moving piece shielded the enemy king from one of our sliders.
  if (st().blockers[~us].test(from) && !aligned(from, to, ksq)) return true;
  return false;
}

bool Position::is_pawn_drop_mate(Square to) const {
  const Color us = side_to_move_, them = ~us;
  const Square ksq = king_square_[them];
  const Bitboard occ = occupied_ | square_bb(to);
  // Can a piece other than the king capture the pawn without exposing its king?
  Bitboard defenders = attackers_to(them, to, occ).and_not(square_bb(ksq));
  while (defenders) {
    Square from = defenders.pop();
    Bitboard occ2 = occ ^ square_bb(from);
    // Our sliders that would then see the king (the pawn itself is captured, not a slider).
    Bitboard sliders = ((lance_attacks(them, ksq, occ2) & by_type_[kLance]) |
                        (bishop_attacks(ksq, occ2) & (by_type_[kBishop] | by_type_[kHorse])) |
                        (rook_attacks(ksq, occ2) & (by_type_[kRook] | by_type_[kDragon]))) &
                       by_color_[us];
    if (sliders.none()) return false;
  }
  // Can the king step anywhere (the pawn's square included) out of attack?
  Bitboard escapes = step_attacks(them, kKing, ksq).and_not(by_color_[them]);
  const Bitboard occ_king = occ ^ square_bb(ksq);
  while (escapes) {
    Square s = escapes.pop();
    if (s == to) {
      if (attackers_to(us, s, occ_king).none()) return false;
    } else if (attackers_to(us, s, occ_king).none()) {
      return false;
    }
  }
  return true;
}

bool Position::is_legal(Move m) const {
  const Color us = side_to_move_;
  const Square ksq = king_square_[us];
  if (m.is_drop()) {
    if (m.dropped_type() == kPawn) {
      const Square their_king = king_square_[~us];
      if (their_king != kSquareNone && step_attacks(us, kPawn, m.to()).test(their_king) &&
          is_pawn_drop_mate(m.to()))
        return false;
    }
    return true;  // a drop never exposes one's own king; evasion drops interpose
  }
  if (ksq == kSquareNone) return true;
  const Square from = m.from();
  if (from == ksq) {
    return attackers_to(~us, m.to(), occupied_ ^ square_bb(from)).none();
  }
  if (st().blockers[us].test(from) && !aligned(from, m.to(), ksq)) return false;
  return true;
}

Move Position::complete_move(Move m) const {
  if (m.is_drop()) return Move::drop(m.dropped_type(), m.to(), side_to_move_);
  Piece p = board_[m.from()];
  if (p == kNoPiece) return m;
  Piece after = m.is_promotion() ? make_piece(color_of(p), promote(type_of(p))) : p;
  return Move::board(m.from(), m.to(), m.is_promotion(), after);
}

bool Position::is_pseudo_legal(Move m) const {
  const Color us = side_to_move_;
  const Square to = m.to();
  if (to >= kSquareNb || !m.is_ok()) return false;
  if (m.is_drop()) {
    PieceType t = m.dropped_type();
    if (t < kPawn || t > kGold || m.is_promotion()) return false;
    if (!hands_[us].has(t) || board_[to] != kNoPiece) return false;
    int rr = relative_rank(us, rank_of(to));
    if ((t == kPawn || t == kLance) && rr == 0) return false;
    if (t == kKnight && rr <= 1) return false;
    if (t == kPawn && (pieces(us, kPawn) & file_bb(file_of(to)))) return false;
    if (m.piece_after() != make_piece(us, t)) return false;
    if (in_check()) {
      if (checkers().more_than_one()) return false;
      if (!between_bb(king_square_[us], checkers().lsb()).test(to)) return false;
    }
    return true;
  }
  const Square from = m.from();
  if (from >= kSquareNb) return false;
  const Piece p = board_[from];
  if (p == kNoPiece || color_of(p) != us) return false;
  if (board_[to] != kNoPiece && color_of(board_[to]) == us) return false;
  const PieceType t = type_of(p);
  if (!piece_attacks(us, t, from, occupied_).test(to)) return false;
  if (m.is_promotion()) {
    if (!can_promote(t)) return false;
    if (!in_promotion_zone(us, from) && !in_promotion_zone(us, to)) return false;
  } else {
    int rr = relative_rank(us, rank_of(to));
    if ((t == kPawn || t == kLance) && rr == 0) return false;
    if (t == kKnight && rr <= 1) return false;
  }
  Piece after = m.is_promotion() ? make_piece(us, promote(t)) : p;
  if (m.piece_after() != after) return false;
  if (in_check() && t != kKing) {
    if (checkers().more_than_one()) return false;
    Square checker = checkers().lsb();
    if (to != checker && !between_bb(king_square_[us], checker).test(to)) return false;
  }
  return true;
}

uint64_t Position::key_after(Move m) const {
  const Color us = side_to_move_;
  uint64_t board_key = st().board_key ^ zobrist::kSide;
  uint64_t hand_key = st().hand_key;
  const Square to = m.to();
  if (m.is_drop()) {
    board_key ^= zobrist::psq[m.piece_after()][to];
    hand_key -= zobrist::hand[us][m.dropped_type()];
  } else {
    const Square from = m.from();
    board_key ^= zobrist::psq[board_[from]][from] ^ zobrist::psq[m.piece_after()][to];
    if (Piece cap = board_[to]; cap != kNoPiece) {
      board_key ^= zobrist::psq[cap][to];
      hand_key += zobrist::hand[us][unpromote(type_of(cap))];
    }
  }
  return board_key + hand_key;
}

void Position::do_move(Move m, bool gives_check) {
  const Color us = side_to_move_;
  const StateInfo& prev = states_.back();
  StateInfo next;
  next.board_key = prev.board_key ^ zobrist::kSide;
  next.hand_key = prev.hand_key;
  next.move = m;
  next.plies_from_null = prev.plies_from_null + 1;
  next.continuous_checks[us] = gives_check ? prev.continuous_checks[us] + 1 : 0;
  next.continuous_checks[~us] = prev.continuous_checks[~us];
  const Square to = m.to();
  const Piece after = m.piece_after();
  if (m.is_drop()) {
    const PieceType t = m.dropped_type();
    hands_[us].remove(t);
    next.hand_key -= zobrist::hand[us][t];
    put_piece(to, after);
    next.board_key ^= zobrist::psq[after][to];
  } else {
    const Square from = m.from();
    const Piece moved = board_[from];
    const Piece captured = board_[to];
    if (captured != kNoPiece) {
      const PieceType ht = unpromote(type_of(captured));
      remove_piece(to);
      next.board_key ^= zobrist::psq[captured][to];
      if (type_of(captured) != kKing) {
        hands_[us].add(ht);
        next.hand_key += zobrist::hand[us][ht];
      } else {
        king_square_[~us] = kSquareNone;  // only in positions that were already lost
      }
      next.captured = captured;
    }
    remove_piece(from);
    next.board_key ^= zobrist::psq[moved][from];
    put_piece(to, after);
    next.board_key ^= zobrist::psq[after][to];
  }
  side_to_move_ = ~us;
  ++game_ply_;
  states_.push_back(next);
  StateInfo& si = states_.back();
  const Square ksq = king_square_[~us];
  if (gives_check && ksq != kSquareNone)
    si.checkers = attackers_to(us, ksq);
  else
    si.checkers = Bitboard();
  compute_blockers(kBlack, si);
  compute_blockers(kWhite, si);
}

void Position::undo_move() {
  const StateInfo& si = states_.back();
  const Move m = si.move;
  side_to_move_ = ~side_to_move_;
  const Color us = side_to_move_;
  --game_ply_;
  const Square to = m.to();
  if (m.is_drop()) {
    remove_piece(to);
    hands_[us].add(m.dropped_type());
  } else {
    const Square from = m.from();
    const Piece after = board_[to];
    remove_piece(to);
    Piece before = m.is_promotion() ? make_piece(us, unpromote(type_of(after))) : after;
    put_piece(from, before);
    if (si.captured != kNoPiece) {
      put_piece(to, si.captured);
      if (type_of(si.captured) != kKing) hands_[us].remove(unpromote(type_of(si.captured)));
    }
  }
  states_.pop_back();
}

void Position::do_null_move() {
  StateInfo next = states_.back();
  next.board_key ^= zobrist::kSide;
  next.move = kMoveNull;
  next.captured = kNoPiece;
  next.plies_from_null = 0;
  next.continuous_checks[side_to_move_] = 0;
  side_to_move_ = ~side_to_move_;
  ++game_ply_;
  states_.push_back(next);
  StateInfo& si = states_.back();
  const Square ksq = king_square_[side_to_move_];
  si.checkers = ksq == kSquareNone ? Bitboard() : attackers_to(~side_to_move_, ksq);
}

void Position::undo_null_move() {
  states_.pop_back();
  side_to_move_ = ~side_to_move_;
  --game_ply_;
}

Repetition Position::repetition(int occurrences) const {
  const int n = int(states_.size()) - 1;
  const StateInfo& now = states_[n];
  const int limit = now.plies_from_null;
  int found = 0;
  int first = -1;
  for (int back = 4; back <= limit; back += 2) {
    const StateInfo& earlier = states_[n - back];
    if (earlier.key() == now.key()) {
      ++found;
      first = back;
      if (found >= occurrences - 1) break;
    }
  }
  if (found < occurrences - 1) return Repetition::kNone;
  // The cycle spans `first` plies: half are moves of each side.
  const int moves_each = first / 2;
  const Color us = side_to_move_;
  if (now.continuous_checks[~us] >= moves_each) return Repetition::kWin;
  if (now.continuous_checks[us] >= moves_each) return Repetition::kLoss;
  return Repetition::kDraw;
}

bool Position::can_declare_win() const {
  const Color us = side_to_move_;
  const Square ksq = king_square_[us];
  if (ksq == kSquareNone || in_check()) return false;
  if (!in_promotion_zone(us, ksq)) return false;
  const Bitboard camp = far_ranks_bb(us, 3);
  const Bitboard mine = (by_color_[us] & camp).and_not(square_bb(ksq));
  if (mine.count() < 10) return false;
  const Bitboard big = by_type_[kBishop] | by_type_[kRook] | by_type_[kHorse] | by_type_[kDragon];
  int points = mine.count() + 4 * (mine & big).count();
  const Hand h = hands_[us];
  points += h.total() + 4 * (h.count(kBishop) + h.count(kRook));
  return points >= (us == kBlack ? 28 : 27);
}

bool Position::is_consistent() const {
  Bitboard color[kColorNb], type[kPieceTypeNb], occ;
  Square kings[kColorNb] = {kSquareNone, kSquareNone};
  for (Square s = 0; s < kSquareNb; ++s) {
    Piece p = board_[s];
    if (p == kNoPiece) continue;
    color[color_of(p)].set(s);
    type[type_of(p)].set(s);
    occ.set(s);
    if (type_of(p) == kKing) kings[color_of(p)] = s;
  }
  if (occ != occupied_) return false;
  for (int c = 0; c < kColorNb; ++c)
    if (color[c] != by_color_[c] || kings[c] != king_square_[c]) return false;
  for (int t = 0; t < kPieceTypeNb; ++t)
    if (type[t] != by_type_[t]) return false;
  StateInfo fresh;
  recompute_keys(fresh);
  if (fresh.board_key != st().board_key || fresh.hand_key != st().hand_key) return false;
  const Square ksq = king_square_[side_to_move_];
  Bitboard checkers = ksq == kSquareNone ? Bitboard() : attackers_to(~side_to_move_, ksq);
  if (checkers != st().checkers) return false;
  StateInfo pins;
  compute_blockers(kBlack, pins);
  compute_blockers(kWhite, pins);
  for (int c = 0; c < kColorNb; ++c)
    if (pins.blockers[c] != st().blockers[c] || pins.pinners[c] != st().pinners[c]) return false;
  return true;
}

}  // namespace shogi
