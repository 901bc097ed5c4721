// The proof-number search core: expansion, child numbers, repetition bookkeeping, and the
// proof/disproof hands stored in the mate table.
#include "engine/mate/mate_search.h"

#include <algorithm>
#include <chrono>

#include "engine/mate/mate_hand.h"
#include "engine/mate/mate_moves.h"
#include "engine/names.h"
#include "shogi/attacks.h"

namespace engine::mate {
namespace {

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The attacker's hand after its move m (drops leave the hand, captures join it).
Hand hand_after(const Position& pos, Move m, Hand hand) {
  if (m.is_drop()) {
    hand.remove(m.dropped_type());
  } else if (Piece captured = pos.piece_on(m.to()); captured != kNoPiece) {
    hand.add(unpromote(type_of(captured)));
  }
  return hand;
}

// True when the defender (to move, in check) could answer by dropping a piece between its
// king and a distant checker, were it to hold one.
bool drop_interposition_possible(const Position& pos) {
  const Bitboard checkers = pos.checkers();
  if (checkers.more_than_one()) return false;
  return between_bb(pos.king_square(pos.side_to_move()), checkers.lsb()).any();
}

// The proof hand of a mated-or-proven AND node: `needed` from its children, plus, when
// interposing drops are possible, every kind the defender lacks, so that it keeps lacking it.
Hand and_proof_hand(const Position& pos, Color attacker, Hand needed) {
  if (!drop_interposition_possible(pos)) return needed;
  const Hand mine = pos.hand(attacker);
  const Hand theirs = pos.hand(~attacker);
  for (int t = kPawn; t <= kGold; ++t)
    if (theirs.count(PieceType(t)) == 0)
      needed = with_count(needed, PieceType(t), mine.count(PieceType(t)));
  return needed;
}

}  // namespace

MateSearch::MateSearch(Position& pos, MateTable& table, const MateOptions& options, Color attacker,
                       Scratch& scratch)
    : pos_(pos),
      table_(table),
      options_(options),
      attacker_(attacker),
      root_offset_(pos.side_to_move() == attacker ? 0 : 1),
      frames_(scratch.frames),
      on_path_(scratch.on_path) {
  const size_t plies = size_t(std::max(options.max_ply, 1)) + 2;
  if (frames_.size() < plies) frames_.resize(plies);
}

MateStatus MateSearch::run(std::string& note) {
  start_ms_ = now_ms();
  refuted_within_max_ply_ = false;
  on_path_.clear();
  on_path_.push(pos_.key(), 0);
  Value root;
  if (options_.algo == MateAlgo::kDfpn) {
    root = dfpn(0, kInfinitePn, kInfinitePn);
  } else {
    // Multiple iterative deepening at the root: raise the threshold whose number, divided
    // by its increment, is smaller (with increments of 1: the smaller number).
    uint32_t thpn = 1, thdn = 1;
    for (;;) {
      root = pds(0, thpn, thdn);
      if (aborted_ || root.pn == 0 || root.dn == 0) break;
      uint32_t pn_increment = 1, dn_increment = 1;
      threshold_increments(0, pn_increment, dn_increment);
      if (uint64_t(root.pn) * dn_increment <= uint64_t(root.dn) * pn_increment) {
        thpn = add_numbers(root.pn, pn_increment);
        thdn = root.dn;
      } else {
        thdn = add_numbers(root.dn, dn_increment);
        thpn = root.pn;
      }
    }
  }
  on_path_.clear();
  if (aborted_) {
    note = abort_reason_;
    return MateStatus::kUnknown;
  }
  if (root.pn == 0) return MateStatus::kMate;
  if (root.dn == 0) {
    if (root.min_rep >= 0) return MateStatus::kNoMate;
    note = "path longer than max_ply " + std::to_string(options_.max_ply);
    refuted_within_max_ply_ = true;
    return MateStatus::kUnknown;
  }
  note = "search ended unsolved";
  return MateStatus::kUnknown;
}

bool MateSearch::expand(int ply, Value* terminal) {
  if (aborted_) return false;
  if (nodes_ >= options_.node_limit) {
    aborted_ = true;
    abort_reason_ = "node limit " + std::to_string(options_.node_limit);
    return false;
  }
  ++nodes_;
  max_ply_reached_ = std::max(max_ply_reached_, ply);
  {
    // How much stack the recursion uses (the file's comment promises little per ply).
    char marker;
    const uintptr_t here = reinterpret_cast<uintptr_t>(&marker);
    if (ply == 0 && stack_root_ == 0) stack_root_ = here;
    if (stack_root_ > here) stack_bytes_ = std::max<size_t>(stack_bytes_, stack_root_ - here);
  }
  if ((nodes_ & 1023) == 0) {
    if (options_.stop && options_.stop->load(std::memory_order_relaxed)) {
      aborted_ = true;
      abort_reason_ = "stopped";
      return false;
    }
    if (options_.time_limit_ms >= 0 && now_ms() - start_ms_ >= options_.time_limit_ms) {
      aborted_ = true;
      abort_reason_ = "time limit " + std::to_string(options_.time_limit_ms) + " ms";
      return false;
    }
    if (options_.progress) {
      const int64_t elapsed = now_ms() - start_ms_;
      if (elapsed - last_progress_ms_ >= 1000) {
        last_progress_ms_ = elapsed;
        options_.progress(nodes_, elapsed, max_ply_reached_);
      }
    }
  }
  const bool or_node = is_or_node(ply);
  if (or_node && ply >= options_.max_ply) {
    *terminal = {kInfinitePn, 0, -1};  // cut: unknown, never stored
    return false;
  }
  MoveList moves;
  if (or_node)
    generate_checks(pos_, moves);
  else
    generate_evasions(pos_, moves);
  const Hand hand = attacker_hand();
  if (moves.empty()) {
    if (or_node) {
      // No check: not mated, whatever more the attacker held of the kinds it holds.
      Hand disproof = hand_full();
      for (int t = kPawn; t <= kGold; ++t)
        if (hand.count(PieceType(t)) == 0) disproof = with_count(disproof, PieceType(t), 0);
      table_.store(pos_.board_key(), disproof, kInfinitePn, 0, 1);
      *terminal = {kInfinitePn, 0, kSound};
    } else {
      table_.store(pos_.board_key(), and_proof_hand(pos_, attacker_, Hand()), 0, kInfinitePn, 1);
      *terminal = {0, kInfinitePn, kSound};
    }
    return false;
  }
  if (or_node) {
    // Mate in 1 closes the node at once (the checks are at hand; a reply is found fast
    // when there is one).
    for (Move m : moves) {
      pos_.do_move(m, true);
      const bool mated = is_checkmated(pos_);
      const Hand child_proof = mated ? and_proof_hand(pos_, attacker_, Hand()) : Hand();
      pos_.undo_move();
      if (!mated) continue;
      Hand proof = child_proof;
      if (m.is_drop()) {
        proof.add(m.dropped_type());
      } else if (Piece captured = pos_.piece_on(m.to()); captured != kNoPiece) {
        const PieceType t = unpromote(type_of(captured));
        if (proof.count(t) > 0) proof.remove(t);
      }
      if (!hand.dominates(proof)) proof = hand;
      table_.store(pos_.board_key(), proof, 0, kInfinitePn, 1, m, 1);
      *terminal = {0, kInfinitePn, kSound};
      return false;
    }
    // No mate in 1, and a mate in 3 or more would end beyond max_ply (its last check comes
    // at ply + 2, where the max_ply cut above stops it anyway): cut here.
    if (ply + 2 >= options_.max_ply) {
      *terminal = {kInfinitePn, 0, -1};
      return false;
    }
  }
  std::vector<Child>& children = frames_[ply];
  children.clear();
  const uint64_t hand_key = pos_.key() - pos_.board_key();
  const Color us = pos_.side_to_move();
  MateHooks* hooks = options_.hooks;
  const bool hook_numbers = hooks && hooks->wants_initial_numbers();
  // An evasion may check the attacker's king (a counter-check): the attacker must then
  // answer it, so the child must know it is in check.
  const bool counter_checks = !or_node && pos_.king_square(attacker_) != kSquareNone;
  for (Move m : moves) {
    Child c;
    c.move = m;
    c.gives_check = or_node || (counter_checks && pos_.gives_check(m));
    c.key = pos_.key_after(m);
    uint64_t child_hand_key = hand_key;
    if (m.is_drop()) {
      child_hand_key -= zobrist::hand[us][m.dropped_type()];
    } else if (Piece captured = pos_.piece_on(m.to()); captured != kNoPiece) {
      child_hand_key += zobrist::hand[us][unpromote(type_of(captured))];
    }
    c.board_key = c.key - child_hand_key;
    c.hand = or_node ? hand_after(pos_, m, hand) : hand;
    if (hook_numbers) {
      pos_.do_move(m, c.gives_check);
      hooks->initial_numbers(pos_, ply + 1, !or_node, c.init_pn, c.init_dn);
      pos_.undo_move();
      c.init_pn = std::clamp<uint32_t>(c.init_pn, 1, kInfinitePn - 1);
      c.init_dn = std::clamp<uint32_t>(c.init_dn, 1, kInfinitePn - 1);
    }
    children.push_back(c);
  }
  return true;
}

void MateSearch::refresh(int ply) {
  std::vector<Child>& children = frames_[ply];
  // A proof, or a disproof that rests on no repetition, is final: no need to look again.
  auto is_final = [](const Child& c) { return c.pn == 0 || (c.dn == 0 && c.min_rep == kSound); };
  for (const Child& c : children)
    if (!c.sticky && !is_final(c)) table_.prefetch(c.board_key);
  for (Child& c : children) {
    if (c.sticky || is_final(c)) continue;
    if (const int path_ply = on_path_.find(c.key); path_ply >= 0) {
      c.pn = kInfinitePn;
      c.dn = 0;
      c.min_rep = path_ply;
      c.solved_hand = c.hand;
      continue;
    }
    MateLookup l = table_.lookup(c.board_key, c.hand);
    c.min_rep = kSound;
    // A proof whose stored mate would end beyond max_ply is no proof within the bound (the
    // shortest-mate search bounds it); the child is searched again under the bound.
    if (l.found && l.pn == 0 && ply + 1 + l.mate_len > options_.max_ply) l.found = false;
    if (l.found) {
      c.pn = l.pn;
      c.dn = l.dn;
      c.solved_hand = l.hand;
      c.mate_len = l.mate_len;
      c.known = true;
    } else if (!c.known) {
      c.pn = c.init_pn;
      c.dn = c.init_dn;
    }
    // Else its entry was replaced since: the numbers last read or returned stand. Falling
    // back to the initial numbers made df-pn search the same child again and again without
    // progress.
  }
}

void MateSearch::numbers(int ply, uint32_t& pn, uint32_t& dn) const {
  const bool or_node = is_or_node(ply);
  uint32_t min = kInfinitePn, sum = 0;
  // At defender nodes, drops on one square (interpositions of different pieces) count as
  // one: the largest of their proof numbers, not the sum. The numbers are estimates; the
  // solved cases (all 0, or one infinite) are unchanged.
  uint32_t drop_max[kSquareNb];
  uint64_t drop_squares[2] = {0, 0};
  for (const Child& c : frames_[ply]) {
    const uint32_t mine = or_node ? c.pn : c.dn;
    const uint32_t theirs = or_node ? c.dn : c.pn;
    min = std::min(min, mine);
    if (!or_node && c.move.is_drop() && theirs != kInfinitePn) {
      const Square to = c.move.to();
      uint64_t& bits = drop_squares[to >> 6];
      const uint64_t bit = 1ull << (to & 63);
      if (!(bits & bit)) {
        bits |= bit;
        drop_max[to] = theirs;
      } else {
        drop_max[to] = std::max(drop_max[to], theirs);
      }
      continue;
    }
    sum =
        theirs == kInfinitePn ? kInfinitePn : (sum == kInfinitePn ? sum : add_numbers(sum, theirs));
  }
  for (int w = 0; w < 2 && sum != kInfinitePn; ++w)
    for (uint64_t bits = drop_squares[w]; bits; bits &= bits - 1)
      sum = add_numbers(sum, drop_max[w * 64 + __builtin_ctzll(bits)]);
  if (min == 0) sum = kInfinitePn;
  if (sum == kInfinitePn) min = 0;
  pn = or_node ? min : sum;
  dn = or_node ? sum : min;
}

void MateSearch::threshold_increments(int ply, uint32_t& pn_increment, uint32_t& dn_increment) {
  pn_increment = dn_increment = 1;
  MateHooks* hooks = options_.hooks;
  if (!hooks || !hooks->wants_threshold_increments()) return;
  hooks->threshold_increments(pos_, ply, is_or_node(ply), pn_increment, dn_increment);
  pn_increment = std::max<uint32_t>(pn_increment, 1);
  dn_increment = std::max<uint32_t>(dn_increment, 1);
}

MateSearch::Value MateSearch::search_child(int ply, Child& child, uint32_t thpn, uint32_t thdn,
                                           bool use_pds) {
  pos_.do_move(child.move, child.gives_check);
  on_path_.push(child.key, ply + 1);
  const Value v = use_pds ? pds(ply + 1, thpn, thdn) : dfpn(ply + 1, thpn, thdn);
  on_path_.pop();
  pos_.undo_move();
  if (!aborted_ && v.pn != 0 && v.dn != 0) {
    // Unsolved: kept for refresh() should the child's table entry be replaced meanwhile.
    child.pn = v.pn;
    child.dn = v.dn;
    child.known = true;
  }
  if (!aborted_ && v.dn == 0 && v.min_rep <= ply) {
    // A disproof that rests on a repetition above the child: valid while we stay here.
    child.sticky = true;
    child.pn = kInfinitePn;
    child.dn = 0;
    child.min_rep = v.min_rep;
    child.solved_hand = child.hand;
  }
  return v;
}

MateSearch::Value MateSearch::finish(int ply, uint64_t amount) {
  uint32_t pn, dn;
  numbers(ply, pn, dn);
  const std::vector<Child>& children = frames_[ply];
  const bool or_node = is_or_node(ply);
  const Hand hand = attacker_hand();
  const uint64_t board_key = pos_.board_key();
  const uint32_t work = uint32_t(std::min<uint64_t>(amount + 1, 0xffffffffu));
  if (pn == 0) {
    if (or_node) {
      const Child* best = nullptr;
      for (const Child& c : children)
        if (c.pn == 0 && (!best || c.mate_len < best->mate_len)) best = &c;
      Hand proof = best->solved_hand;
      if (best->move.is_drop()) {
        proof.add(best->move.dropped_type());
      } else if (Piece captured = pos_.piece_on(best->move.to()); captured != kNoPiece) {
        const PieceType t = unpromote(type_of(captured));
        if (proof.count(t) > 0) proof.remove(t);
      }
      if (!hand.dominates(proof)) proof = hand;  // cannot happen; stay sound if it does
      table_.store(board_key, proof, 0, kInfinitePn, work, best->move, best->mate_len + 1);
    } else {
      Hand needed;
      int longest = 0;
      for (const Child& c : children) {
        needed = hand_max(needed, c.solved_hand);
        longest = std::max(longest, c.mate_len);
      }
      Hand proof = and_proof_hand(pos_, attacker_, needed);
      if (!hand.dominates(proof)) proof = hand;
      table_.store(board_key, proof, 0, kInfinitePn, work, kMoveNone, longest + 1);
    }
    return {0, kInfinitePn, kSound};
  }
  if (dn == 0) {
    int min_rep = kSound;
    Hand disproof;
    if (or_node) {
      // Every check fails: the least of the children's disproof hands, translated back
      // through each move; kinds the attacker lacks stay lacking (new drops would appear).
      disproof = hand_full();
      for (const Child& c : children) {
        min_rep = std::min(min_rep, c.min_rep);
        Hand d = c.solved_hand;
        if (c.move.is_drop()) {
          const PieceType t = c.move.dropped_type();
          d = with_count(d, t, d.count(t) + 1);
        } else if (Piece captured = pos_.piece_on(c.move.to()); captured != kNoPiece) {
          const PieceType t = unpromote(type_of(captured));
          d = with_count(d, t, d.count(t) - 1);
        }
        disproof = hand_min(disproof, d);
      }
      for (int t = kPawn; t <= kGold; ++t)
        if (hand.count(PieceType(t)) == 0) disproof = with_count(disproof, PieceType(t), 0);
    } else {
      // One escape suffices: the one resting on the shallowest... no, on the least path.
      const Child* best = nullptr;
      for (const Child& c : children)
        if (c.pn == kInfinitePn && c.dn == 0 && (!best || c.min_rep > best->min_rep)) best = &c;
      min_rep = best->min_rep;
      disproof = best->solved_hand;
      if (best->move.is_drop()) {
        // The escape drops a piece: the defender must keep it, so the attacker no more.
        const PieceType t = best->move.dropped_type();
        disproof = with_count(disproof, t, std::min(disproof.count(t), hand.count(t)));
      }
    }
    if (!disproof.dominates(hand)) disproof = hand;  // stay sound
    if (min_rep >= ply) {
      table_.store(board_key, disproof, kInfinitePn, 0, work);
      return {kInfinitePn, 0, kSound};
    }
    return {kInfinitePn, 0, min_rep};  // path-dependent: the parent keeps it, the table not
  }
  table_.store(board_key, hand, pn, dn, work);
  return {pn, dn, kSound};
}

}  // namespace engine::mate
