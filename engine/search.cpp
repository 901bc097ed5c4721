// Search: PVS alpha-beta with quiescence, pruning and reductions; Lazy-SMP threads.
#include "engine/search.h"

#include <algorithm>
#include <cmath>
#include <system_error>

#include "engine/eval/evaluate.h"
#include "engine/mate/mate1.h"
#include "engine/mate/mate_table.h"
#include "engine/mate/svm_control.h"
#include "engine/names.h"
#include "engine/see.h"

namespace engine {

// Late-move reductions, indexed by depth and move number: 0.5 + ln(d) ln(m) / divisor. The
// divisor (LmrDivisor, 1.6) beat both fewer and more reductions in self-play at low and high
// node counts (docs/search-parameters.md).
struct ReductionTable {
  int8_t r[64][64];
  explicit ReductionTable(int divisor_x100) {
    const double divisor = divisor_x100 / 100.0;
    for (int d = 0; d < 64; ++d)
      for (int m = 0; m < 64; ++m)
        r[d][m] = d && m ? int8_t(0.5 + std::log(double(d)) * std::log(double(m)) / divisor) : 0;
  }
  int get(int depth, int move_count) const {
    return r[std::min(depth, 63)][std::min(move_count, 63)];
  }
};

namespace {

// Mate scores are stored relative to the node, not the root.
Value value_to_tt(Value v, int ply) {
  if (v >= kValueMateInMaxPly) return v + ply;
  if (v <= kValueMatedInMaxPly) return v - ply;
  return v;
}
Value value_from_tt(Value v, int ply) {
  if (v == kValueNone) return kValueNone;
  if (v >= kValueMateInMaxPly) return v - ply;
  if (v <= kValueMatedInMaxPly) return v + ply;
  return v;
}

// The value of a repeated position (one earlier occurrence suffices in search), or
// kValueNone. Perpetual check loses for the checking side.
Value repetition_value(const Position& pos, int ply) {
  switch (pos.repetition(2)) {
    case Repetition::kDraw:
      return kValueDraw;
    case Repetition::kWin:
      return mate_in(ply);
    case Repetition::kLoss:
      return mated_in(ply);
    case Repetition::kNone:
      break;
  }
  return kValueNone;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Worker

Worker::Worker(SearchManager& manager, int id) : manager_(manager), id_(id) { clear(); }

void Worker::clear() {
  history_.clear();
  capture_history_.clear();
  continuation_.clear();
  correction_.clear();
  for (auto& k : killers_) k[0] = k[1] = kMoveNone;
  mate_table_.reset();  // made again at the first call (the settings may have changed)
  mate_limit_.reset();
  guard_table_.reset();
}

void Worker::prepare(const Position& root, Move root_hint) {
  pos_ = root;
  evaluator_.reset();  // the weights may have been replaced since the last search
  nnue_evaluator_.reset();
  nodes_.store(0, std::memory_order_relaxed);
  seldepth_ = 0;
  completed_depth_ = 0;
  best_value_ = -kValueInfinite;
  best_pv_.clear();
  root_hint_ = root_hint;
  calls_ = 0;
  mate_calls_ = mate_nodes_ = mate_found_ = 0;
  root_moves_.clear();
  guarded_.clear();
  for (Move m : legal_moves(pos_))
    if (!is_useless_non_promotion(pos_, m)) root_moves_.push_back(m);
  for (auto& k : killers_) k[0] = k[1] = kMoveNone;
  // Nodes read these only for plies above them, always set by then; filled for tidiness.
  std::fill(std::begin(continuation_at_), std::end(continuation_at_), &continuation_.sentinel());
  std::fill(std::begin(static_eval_), std::end(static_eval_), kValueNone);
  std::fill(std::begin(current_move_), std::end(current_move_), kMoveNone);
  std::fill(std::begin(excluded_), std::end(excluded_), kMoveNone);
  std::fill(std::begin(double_extensions_), std::end(double_extensions_), 0);
}

Value Worker::book_bonus(const std::vector<BookBonus>* bonuses, Move m) const {
  if (!bonuses) return 0;
  for (const BookBonus& b : *bonuses)
    if (b.move16 == m.key16()) return b.bonus;
  return 0;
}

inline void Worker::count_node() {
  nodes_.store(nodes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

Value Worker::evaluate() {
  const Value v = manager_.network_ ? nnue_evaluator_.evaluate(pos_, *manager_.network_)
                                    : evaluator_.evaluate(pos_, *manager_.weights_);
  if (!manager_.noise_.on()) return v;
  return std::clamp(Value(v + manager_.noise_.for_side_to_move(pos_)), kValueMatedInMaxPly + 1,
                    kValueMateInMaxPly - 1);
}

Value Worker::corrected_eval(Value raw, Move previous) const {
  return std::clamp(Value(raw + correction_.correction(pos_, previous)), kValueMatedInMaxPly + 1,
                    kValueMateInMaxPly - 1);
}

bool Worker::stopped() const { return manager_.stop_.load(std::memory_order_relaxed); }

void Worker::check_limits() {
  if (id_ != 0 || ++calls_ < 512) return;
  calls_ = 0;
  SearchManager& m = manager_;
  if (m.limits_.nodes && m.nodes() >= m.limits_.nodes) m.stop_ = true;
  if (m.budget_.managed && !m.pondering_.load(std::memory_order_relaxed) &&
      m.elapsed_ms() - m.ponderhit_ms_.load(std::memory_order_relaxed) >= m.budget_.maximum_ms)
    m.stop_ = true;
}

void Worker::update_pv(int ply, Move m) {
  pv_[ply][ply] = m;
  for (int i = ply + 1; i < pv_length_[ply + 1]; ++i) pv_[ply][i] = pv_[ply + 1][i];
  pv_length_[ply] = std::max(pv_length_[ply + 1], ply + 1);
}

namespace {

// The history reward of a cut-off at this depth. Linear: shallow nodes, where most cut-offs
// happen, move the tables by a few per cent of their range (the former depth^2 * 16 gave 16
// at depth 1, a thousandth of the butterfly range).
// Also rewarding a quiet TT move that cuts a node off from the table, and the opponent's
// quiet move before a node that fails low (half the reward), as Stockfish does, was not
// adopted: no gain shown in self-play (docs/search-parameters.md).
int history_bonus(const SearchParams& p, int depth) {
  return std::min(p[kHistoryBonusSlope] * depth - p[kHistoryBonusOffset], p[kHistoryBonusMax]);
}

// The plies back whose moves index the continuation histories.
constexpr int kContinuationPlies[3] = {1, 2, 4};
constexpr int kMaxDoubleExtensions = 6;  // per path
}  // namespace

ContinuationEntry* Worker::continuation_before(int ply, int back) {
  return ply >= back && current_move_[ply - back].is_ok() ? continuation_at_[ply - back]
                                                          : &continuation_.sentinel();
}

MoveHistories Worker::histories(int ply) {
  MoveHistories h;
  h.butterfly = &history_;
  h.captures = &capture_history_;
  for (int i = 0; i < 3; ++i) h.continuation[i] = continuation_before(ply, kContinuationPlies[i]);
  return h;
}

bool Worker::improving(int ply, Value static_eval) const {
  if (static_eval == kValueNone) return false;
  if (ply >= 2 && static_eval_[ply - 2] != kValueNone) return static_eval > static_eval_[ply - 2];
  if (ply >= 4 && static_eval_[ply - 4] != kValueNone) return static_eval > static_eval_[ply - 4];
  return true;
}

void Worker::update_quiet_stats(int ply, Move best, const Move* quiets, int quiet_count,
                                int depth) {
  if (killers_[ply][0] != best) {
    killers_[ply][1] = killers_[ply][0];
    killers_[ply][0] = best;
  }
  const Color us = pos_.side_to_move();
  const int bonus = history_bonus(manager_.params_, depth);
  history_.update(us, best, bonus);
  for (int i = 0; i < quiet_count; ++i)
    if (quiets[i] != best) history_.update(us, quiets[i], -bonus);
  for (int back : kContinuationPlies) {
    if (ply < back || !current_move_[ply - back].is_ok()) continue;
    ContinuationEntry& entry = *continuation_at_[ply - back];
    entry.update(best, bonus);
    for (int i = 0; i < quiet_count; ++i)
      if (quiets[i] != best) entry.update(quiets[i], -bonus);
  }
}

void Worker::update_capture_stats(Move best, const Move* captures, int capture_count, int depth) {
  const int bonus = history_bonus(manager_.params_, depth);
  if (best != kMoveNone && (pos_.is_capture(best) || best.is_promotion()))
    capture_history_.update(pos_, best, bonus);
  for (int i = 0; i < capture_count; ++i)
    if (captures[i] != best) capture_history_.update(pos_, captures[i], -bonus);
}

template <Worker::NodeType NT>
Value Worker::search(Value alpha, Value beta, int depth, int ply, bool cut_node) {
  constexpr bool kPvNode = NT != kNonPV;
  constexpr bool kRootNode = NT == kRoot;
  if (depth <= 0) return qsearch<kPvNode>(alpha, beta, 0, ply);
  const SearchParams& P = manager_.params_;

  // Step 1. Limits, draws and the rules that end the game.
  check_limits();
  if (kPvNode) pv_length_[ply] = ply;
  if (kPvNode && ply > seldepth_) seldepth_ = ply;
  if (!kRootNode) {
    if (stopped()) return kValueZero;
    if (const Value r = repetition_value(pos_, ply); r != kValueNone) return r;
    if (ply >= kMaxPly) return pos_.in_check() ? kValueDraw : evaluate();
    if (pos_.can_declare_win()) return mate_in(ply);
    // Mate distance pruning.
    alpha = std::max(mated_in(ply), alpha);
    beta = std::min(mate_in(ply + 1), beta);
    if (alpha >= beta) return alpha;
  }

  // Step 2. Transposition table.
  // A singular-extension test (a move excluded) keeps its results apart from the node's
  // own: it has its own key.
  TranspositionTable& tt = manager_.tt_;
  const Move excluded = excluded_[ply];
  const uint64_t key =
      excluded == kMoveNone ? pos_.key() : pos_.key() ^ (0x9E3779B97F4A7C15ull * excluded.raw());
  bool tt_hit;
  TTEntry* tte = tt.probe(key, &tt_hit);
  // What the entry says, read once: the searches below (null move, ProbCut, the moves) may
  // store another position in the same slot.
  const Value tt_value = tt_hit ? value_from_tt(tte->value(), ply) : kValueNone;
  const Bound tt_bound = tt_hit ? tte->bound() : kBoundNone;
  const int tt_depth = tt_hit ? tte->stored_depth() : -TTEntry::kDepthOffset;
  const uint16_t tt_move16 = tt_hit ? tte->move16() : 0;
  Move tt_move =
      kRootNode ? root_hint_ : (tt_move16 ? pos_.complete_move(Move(tt_move16)) : kMoveNone);
  if (!kPvNode && tt_hit && tt_depth >= depth && tt_value != kValueNone &&
      (tt_bound & (tt_value >= beta ? kBoundLower : kBoundUpper)))
    return tt_value;

  // Step 2b. Mate in one: exact, and cheap next to searching the node. Tried once per
  // position, on a TT miss: afterwards the entry holds the mate (or the node's own result).
  // Not at depth 1, where it costs more time than it saves (the node's own search finds
  // the mate through quiescence checks).
  const bool in_check = pos_.in_check();
  if (!kRootNode && !tt_hit && !in_check && depth >= 2 && excluded == kMoveNone) {
    if (const Move mating = mate::mate_in_1(pos_); mating != kMoveNone) {
      const Value v = mate_in(ply + 1);
      tt.store(tte, key, value_to_tt(v, ply), kBoundExact, std::min(depth + 6, kMaxPly - 1), mating,
               kValueNone);
      if (kPvNode) {
        pv_length_[ply + 1] = ply + 1;
        update_pv(ply, mating);
      }
      return v;
    }
  }

  // Step 3. Static evaluation: the evaluation function's value (raw_eval, what the table
  // keeps) plus the correction history's; `eval` is the table's value instead when its
  // bound says the true value lies beyond the static one (pruning decisions use it).
  const Move previous_move = ply >= 1 ? current_move_[ply - 1] : kMoveNone;
  Value static_eval = kValueNone, raw_eval = kValueNone;
  if (excluded != kMoveNone) {
    // The node's own, already computed (corrected: the excluded key's entry, which only
    // this test reads, keeps it as it is; it is never corrected twice).
    static_eval = raw_eval = static_eval_[ply];
  } else if (!in_check) {
    const Value tt_eval = tt_hit ? tte->eval() : kValueNone;
    raw_eval = tt_eval != kValueNone ? tt_eval : evaluate();
    if (!tt_hit)
      tt.store(tte, key, kValueNone, kBoundNone, -TTEntry::kDepthOffset, kMoveNone, raw_eval);
    static_eval = corrected_eval(raw_eval, previous_move);
  }
  static_eval_[ply] = static_eval;
  const bool improving = this->improving(ply, static_eval);
  Value eval = static_eval;
  if (!in_check && tt_value != kValueNone && std::abs(tt_value) < kValueMateInMaxPly &&
      (tt_bound & (tt_value > static_eval ? kBoundLower : kBoundUpper)))
    eval = tt_value;

  // Step 3b. The mate solver: a mate by checks within a small node limit ends the node.
  // Here, or with MateAfterCuts only at nodes that Steps 4 to 5 did not cut (Step 5a).
  const bool mate_call = !kRootNode && !in_check && manager_.mate_.enabled &&
                         depth >= manager_.mate_.min_depth && beta > -kValueMateInMaxPly &&
                         excluded == kMoveNone;
  auto call_mate_solver = [&] {
    Move mating = kMoveNone;
    const Value mate = probe_mate(ply, mating);
    if (mate != kValueNone)
      tt.store(tte, key, value_to_tt(mate, ply), kBoundLower, depth, mating, raw_eval);
    return mate;
  };
  if (mate_call && !manager_.mate_.after_cuts) {
    if (const Value mate = call_mate_solver(); mate != kValueNone) return mate;
    if (stopped()) return kValueZero;
  }

  // Steps 4, 4b and 5 cut only where a cut is safe: no PV, no check, no singular search,
  // beta not a mate score.
  const bool prunable =
      !kPvNode && !in_check && excluded == kMoveNone && std::abs(beta) < kValueMateInMaxPly;

  // Step 4. Futility pruning at frontier and pre-frontier nodes (fail-high side), with the
  // margin chosen by target precision. Nodes it leaves alone feed the statistics.
  // Quiet moves of such nodes may be skipped by the mirror rule (Step 7), with margins
  // chosen the same way from their own statistics.
  FutilityController& futility = manager_.futility_;
  const bool futility_node = prunable && depth <= 2;
  Value move_futility_margin = kValueNone;
  if (futility_node) {
    const Value margin = futility.margin(FutilityController::kFailHigh, depth, pos_.key());
    if (margin != kValueNone && eval - margin >= beta) return eval;
    move_futility_margin = futility.margin(FutilityController::kFailLow, depth, pos_.key());
  }

  // Step 4b. Reverse futility pruning at depths 3 to ReverseFutilityMaxDepth: a node whose
  // evaluation beats beta by a margin that grows with the depth is cut (fixed margins: the
  // controller's statistics cover depths 1 and 2 only). The margin, 150 cp a ply, gained
  // most in self-play. Not cutting where the opponent, were we to pass, mates in one
  // (mate_in_1 after a null move) showed no gain, here or at Step 4
  // (docs/search-parameters.md).
  if (prunable && depth >= 3 && depth <= P[kReverseFutilityMaxDepth] &&
      eval - P[kReverseFutilityMargin] * (depth - improving) >= beta)
    return eval;

  // Step 5. Null-move pruning. The reduction's base (3 plies) and its depth term (a ply per
  // 3 plies of depth, rather than 4) are those that won in self-play on every opening set
  // tried (docs/search-parameters.md).
  if (prunable && depth >= 2 && eval >= beta && current_move_[std::max(ply - 1, 0)] != kMoveNull &&
      pos_.pieces(pos_.side_to_move()).count() > 3) {
    const int r = P[kNullMoveBase] + depth / P[kNullMoveDepthDivisor] +
                  std::min((eval - beta) / P[kNullMoveEvalDivisor], 3);
    current_move_[ply] = kMoveNull;
    continuation_at_[ply] = &continuation_.sentinel();
    pos_.do_null_move();
    count_node();
    Value v = -search<kNonPV>(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
    pos_.undo_null_move();
    if (stopped()) return kValueZero;
    if (v >= beta) return v >= kValueMateInMaxPly ? beta : v;
  }

  // Step 5a. The mate solver at a node the cuts left (MateAfterCuts).
  if (mate_call && manager_.mate_.after_cuts) {
    if (const Value mate = call_mate_solver(); mate != kValueNone) return mate;
    if (stopped()) return kValueZero;
  }

  // Step 5b. ProbCut: a capture that, searched 4 plies shallower, beats beta by a margin
  // would very likely beat beta at full depth too. Only captures whose SEE already covers
  // the distance from the static evaluation are tried; quiescence filters them first.
  const Value probcut_beta = beta + P[kProbCutMargin] - (improving ? P[kProbCutImproving] : 0);
  if (!kPvNode && !in_check && depth >= 5 && excluded == kMoveNone &&
      std::abs(beta) < kValueMateInMaxPly &&
      !(tt_hit && tt_depth >= depth - 3 && tt_value != kValueNone && tt_value < probcut_beta)) {
    MovePicker captures(pos_, tt_move, false, &capture_history_);
    for (Move m = captures.next(); m != kMoveNone; m = captures.next()) {
      if (!pos_.is_capture(m) || !pos_.is_legal(m) || !see_ge(pos_, m, probcut_beta - static_eval))
        continue;
      const bool gives_check = pos_.gives_check(m);
      current_move_[ply] = m;
      continuation_at_[ply] = &continuation_.after(m);
      pos_.do_move(m, gives_check);
      count_node();
      Value v = -qsearch<false>(-probcut_beta, -probcut_beta + 1, 0, ply + 1);
      if (v >= probcut_beta)
        v = -search<kNonPV>(-probcut_beta, -probcut_beta + 1, depth - 4, ply + 1, !cut_node);
      pos_.undo_move();
      if (stopped()) return kValueZero;
      if (v >= probcut_beta) {
        // The table keeps the evaluation function's own value, as every store does (a
        // corrected value stored here would be corrected again when read back).
        tt.store(tte, key, value_to_tt(v, ply), kBoundLower, depth - 3, m, raw_eval);
        return v;
      }
    }
  }

  // Step 5c. Internal iterative reduction: a node the table knows no move for was not
  // searched before, or not deep enough to matter; search it shallower.
  if (!kRootNode && depth >= 4 && tt_move == kMoveNone && (kPvNode || cut_node)) --depth;

  // Step 6. The moves. In the first plies of an opening the book's moves get bonuses that
  // carry into the values (the search is guided, not overruled: docs/techniques.md §3).
  const std::vector<BookBonus>* bonuses =
      ply < manager_.book_plies_ ? manager_.book_bonuses(key) : nullptr;

  const MoveHistories node_histories = histories(ply);
  const bool tt_capture = tt_move != kMoveNone && pos_.is_capture(tt_move);
  MovePicker picker(pos_, tt_move, killers_[ply], node_histories);
  Value best_value = -kValueInfinite;
  Move best_move = kMoveNone;
  Move quiets[64], captures[32];
  int quiet_count = 0, capture_count = 0;
  int move_count = 0;
  const Value original_alpha = alpha;
  for (Move m = picker.next(); m != kMoveNone; m = picker.next()) {
    if (kRootNode && (std::find(root_moves_.begin(), root_moves_.end(), m) == root_moves_.end() ||
                      std::find(pv_taken_.begin(), pv_taken_.end(), m) != pv_taken_.end()))
      continue;
    if (m == excluded) continue;
    if (!kRootNode && !pos_.is_legal(m)) continue;
    ++move_count;
    const bool gives_check = pos_.gives_check(m);
    const bool tactical = pos_.is_capture(m) || m.is_promotion();
    const int quiet_score = tactical ? 0 : node_histories.quiet_score(pos_.side_to_move(), m);

    // Step 7. Pruning at shallow depth, once a move has kept us from being mated.
    if (!kRootNode && best_value > kValueMatedInMaxPly) {
      if (!tactical && !gives_check) {
        if (!in_check && depth <= 3 &&
            move_count > (P[kLateMovePruningBase] + P[kLateMovePruningScale] * depth * depth) /
                             (2 - improving))
          continue;
        // Quiet moves the histories rate badly, near the leaves (HistoryPruningScale;
        // pruning more of them lost: docs/search-parameters.md).
        if (!in_check && depth <= 4 && quiet_score < -P[kHistoryPruningScale] * depth) continue;
        if (futility_node && move_futility_margin != kValueNone &&
            static_eval + move_futility_margin <= alpha)
          continue;
        if (depth <= 4 && !see_ge(pos_, m, -P[kSeeQuietMargin] * depth * depth)) continue;
      } else if (depth <= 4 && !see_ge(pos_, m, -P[kSeeTacticalMargin] * depth)) {
        continue;
      }
    }

    // Step 8. Extensions: checks that do not lose material, and a singular TT move: one
    // the table found good enough when every other move, searched to half the depth,
    // stays below its value less a margin (two plies outside PV nodes when they stay 40 cp
    // further below, at most kMaxDoubleExtensions times on a path). When even the others
    // beat beta, the node is cut at once (multi-cut); when they come close and the TT move
    // beat beta, it is searched a ply shallower. Checks are extended at every depth: limiting
    // it to depth <= 6 showed no gain (docs/search-parameters.md).
    int extension = gives_check && see_ge(pos_, m, 0) ? 1 : 0;
    if (!kRootNode && m == tt_move && excluded == kMoveNone && depth >= P[kSingularMinDepth] &&
        ply < 2 * root_depth_ && tt_value != kValueNone &&
        std::abs(tt_value) < kValueMateInMaxPly && (tt_bound & kBoundLower) &&
        tt_depth >= depth - 3) {
      const Value singular_beta = tt_value - 2 * depth;
      excluded_[ply] = m;
      const Value v =
          search<kNonPV>(singular_beta - 1, singular_beta, (depth - 1) / 2, ply, cut_node);
      excluded_[ply] = kMoveNone;
      if (stopped()) return kValueZero;
      if (v < singular_beta)
        extension = !kPvNode && v < singular_beta - P[kDoubleExtensionMargin] &&
                            double_extensions_[ply] < kMaxDoubleExtensions
                        ? 2
                        : 1;
      else if (singular_beta >= beta)
        return singular_beta;
      else if (tt_value >= beta)
        extension = -1;  // other moves nearly as good: the TT move needs less depth
    }
    const int new_depth = depth - 1 + extension;
    double_extensions_[ply + 1] = double_extensions_[ply] + (extension == 2);

    // The child is searched against the window shifted by the move's book bonus.
    const Value bonus = std::abs(alpha) < kValueMateInMaxPly && std::abs(beta) < kValueMateInMaxPly
                            ? book_bonus(bonuses, m)
                            : 0;
    const Value a = alpha - bonus, b = beta - bonus;
    const int capture_score = tactical ? capture_history_.get(pos_, m) : 0;
    tt.prefetch(pos_.key_after(m));
    current_move_[ply] = m;
    continuation_at_[ply] = &continuation_.after(m);
    pos_.do_move(m, gives_check);
    count_node();
    Value v = -kValueInfinite;
    // Step 9. Late-move reductions (late captures and promotions too, by less), then the
    // re-searches: a reduced move that beats alpha is searched again at full depth, a ply
    // deeper when it beat the best so far by a wide margin, a ply shallower when it barely
    // did; then the PVS re-search. A root move the mate guard found to allow a mate keeps
    // its mated value unsearched.
    const std::optional<Value> guard = kRootNode ? guarded(m) : std::nullopt;
    const bool guard_mated = guard && *guard != kValueNone;
    if (guard_mated) {
      v = *guard;
      if (kPvNode) pv_length_[ply + 1] = ply + 1;  // the move alone, should it be the best
    } else if (depth >= 3 && move_count > 1 + (kPvNode ? 1 : 0) && (!tactical || move_count > 3)) {
      int r = manager_.reductions_->get(depth, move_count);
      if (kPvNode) --r;
      if (cut_node) ++r;
      if (in_check || gives_check) --r;
      if (!improving) ++r;
      if (tactical) {
        r -= 1 + capture_score / P[kLmrCaptureDivisor];
      } else {
        if (tt_capture) ++r;  // the best move is likely the TT's capture; quiet ones less so
        r -= quiet_score / P[kLmrQuietDivisor];  // smaller lost: docs/search-parameters.md
      }
      const int reduced = std::clamp(new_depth - r, 1, new_depth);
      v = -search<kNonPV>(-(a + 1), -a, reduced, ply + 1, true);
      if (v > a && reduced < new_depth) {
        const Value gain = v + bonus - best_value;
        const int full = new_depth + (gain > P[kLmrDeeperMargin] + 2 * new_depth) - (gain < 10);
        if (full > reduced) v = -search<kNonPV>(-(a + 1), -a, full, ply + 1, !cut_node);
      }
    } else if (!kPvNode || move_count > 1) {
      v = -search<kNonPV>(-(a + 1), -a, new_depth, ply + 1, !cut_node);
    }
    if (kPvNode && !guard_mated && (move_count == 1 || (v > a && (kRootNode || v < b)))) {
      pv_length_[ply + 1] = ply + 1;
      v = -search<kPV>(-b, -a, new_depth, ply + 1, false);
    }
    // The mate guard checks a root move once it would become the best (the opponent is to
    // move in pos_ here).
    if (kRootNode && !guard && v > a && depth >= MateGuardSettings::kMinDepth &&
        manager_.guard_.nodes > 0 && !stopped() && std::abs(v) < kValueMateInMaxPly)
      if (const Value mated = guard_root_move(m); mated != kValueNone) v = mated;
    if (bonus && std::abs(v) < kValueMateInMaxPly) v += bonus;
    pos_.undo_move();
    if (stopped()) return kValueZero;
    if (futility_node && !tactical && !gives_check)
      futility.record_move(depth, static_eval, alpha, v);

    if (v > best_value) {
      best_value = v;
      if (v > alpha) {
        best_move = m;
        if (kPvNode) update_pv(ply, m);
        if (kRootNode) root_value_ = v;
        if (v >= beta) break;
        alpha = v;
      }
    }
    if (m == best_move) continue;
    if (!tactical && quiet_count < 64) quiets[quiet_count++] = m;
    if (tactical && capture_count < 32) captures[capture_count++] = m;
  }

  // Step 10. No legal move: in shogi that loses, in check or not.
  if (move_count == 0) return excluded != kMoveNone ? alpha : mated_in(ply);

  if (best_value >= beta && best_move != kMoveNone) {
    if (!pos_.is_capture(best_move) && !best_move.is_promotion())
      update_quiet_stats(ply, best_move, quiets, quiet_count, depth);
    update_capture_stats(best_move, captures, capture_count, depth);
  }

  if (futility_node) futility.record_node(depth, eval, beta, best_value);

  const Bound bound = best_value >= beta                         ? kBoundLower
                      : (kPvNode && best_value > original_alpha) ? kBoundExact
                                                                 : kBoundUpper;
  // A MultiPV line after the first lacks the root's best moves: its value is not the root's.
  if (kRootNode && pv_index_ > 0) return best_value;
  // The correction history learns from quiet results whose bound says on which side of
  // the static evaluation the true value lies (not under book bonuses, nor in a
  // singular-extension test, whose value lacks the best move).
  if (!in_check && excluded == kMoveNone && !bonuses && std::abs(best_value) < kValueMateInMaxPly &&
      (best_move == kMoveNone || (!pos_.is_capture(best_move) && !best_move.is_promotion())) &&
      !(bound == kBoundLower && best_value <= static_eval) &&
      !(bound == kBoundUpper && best_value >= static_eval))
    correction_.update(pos_, previous_move, best_value - static_eval, depth);
  tt.store(tte, key, value_to_tt(best_value, ply), bound, depth, best_move, raw_eval);
  return best_value;
}

template <bool PvNode>
Value Worker::qsearch(Value alpha, Value beta, int qdepth, int ply) {
  if (PvNode) {
    pv_length_[ply] = ply;
    if (ply > seldepth_) seldepth_ = ply;
  }
  check_limits();
  if (stopped()) return kValueZero;
  const bool in_check = pos_.in_check();
  if (ply >= kMaxPly) return in_check ? kValueDraw : evaluate();
  if (in_check) {
    if (const Value r = repetition_value(pos_, ply); r != kValueNone) return r;
  }

  TranspositionTable& tt = manager_.tt_;
  const uint64_t key = pos_.key();
  bool tt_hit;
  TTEntry* tte = tt.probe(key, &tt_hit);
  const Value tt_value = tt_hit ? value_from_tt(tte->value(), ply) : kValueNone;
  const Bound tt_bound = tt_hit ? tte->bound() : kBoundNone;
  const int tt_depth = qdepth == 0 ? 0 : -1;
  if (!PvNode && tt_hit && tte->stored_depth() >= tt_depth && tt_value != kValueNone &&
      (tt_bound & (tt_value >= beta ? kBoundLower : kBoundUpper)))
    return tt_value;
  const uint16_t tt_move16 = tt_hit ? tte->move16() : 0;
  const Move tt_move = tt_move16 ? pos_.complete_move(Move(tt_move16)) : kMoveNone;

  Value best_value, static_eval = kValueNone, raw_eval = kValueNone;
  if (in_check) {
    best_value = -kValueInfinite;
  } else {
    const Value tt_eval = tt_hit ? tte->eval() : kValueNone;
    raw_eval = tt_eval != kValueNone ? tt_eval : evaluate();
    static_eval = corrected_eval(raw_eval, ply >= 1 ? current_move_[ply - 1] : kMoveNone);
    best_value = static_eval;
    // The table's value, when its bound says the true value lies beyond the static one, is
    // the better stand-pat value.
    if (tt_value != kValueNone && std::abs(tt_value) < kValueMateInMaxPly &&
        (tt_bound & (tt_value > best_value ? kBoundLower : kBoundUpper)))
      best_value = tt_value;
    if (best_value >= beta) {
      if (!tt_hit)
        tt.store(tte, key, value_to_tt(best_value, ply), kBoundLower, -TTEntry::kDepthOffset,
                 kMoveNone, raw_eval);
      return best_value;
    }
    alpha = std::max(alpha, best_value);
  }

  MovePicker picker(pos_, tt_move, manager_.quiescence_checks_ && qdepth == 0 && !in_check,
                    &capture_history_);
  Move best_move = kMoveNone;
  int move_count = 0;
  const Value original_alpha = alpha;
  for (Move m = picker.next(); m != kMoveNone; m = picker.next()) {
    if (!pos_.is_legal(m)) continue;
    ++move_count;
    const bool gives_check = pos_.gives_check(m);
    if (!in_check && best_value > kValueMatedInMaxPly) {
      // Delta pruning: even winning the piece cannot reach alpha. (Cutting also the moves
      // whose SEE is not positive when the static evaluation is 150 below alpha: -16.)
      if (!gives_check && pos_.is_capture(m) &&
          static_eval + capture_gain(type_of(pos_.piece_on(m.to()))) + 200 <= alpha)
        continue;
      if (!see_ge(pos_, m, 0)) continue;
    }
    tt.prefetch(pos_.key_after(m));
    current_move_[ply] = m;
    pos_.do_move(m, gives_check);
    count_node();
    const Value v = -qsearch<PvNode>(-beta, -alpha, qdepth - 1, ply + 1);
    pos_.undo_move();
    if (stopped()) return kValueZero;
    if (v > best_value) {
      best_value = v;
      if (v > alpha) {
        best_move = m;
        if (PvNode) update_pv(ply, m);
        if (v >= beta) break;
        alpha = v;
      }
    }
  }
  if (in_check && move_count == 0) return mated_in(ply);
  const Bound bound = best_value >= beta                        ? kBoundLower
                      : (PvNode && best_value > original_alpha) ? kBoundExact
                                                                : kBoundUpper;
  tt.store(tte, key, value_to_tt(best_value, ply), bound, tt_depth, best_move, raw_eval);
  return best_value;
}

// An unfinished iteration still counts where a root move's search finished above
// alpha: that move beat the last iteration's best at this depth (or confirmed it
// deeper), or failed high in an earlier window. (Before depth 1 is finished, the
// search has no value to go by: see unsearched_move.) It beat throwing the unfinished
// iteration away in self-play: under byoyomi and node limits every search ends inside an
// iteration (docs/search-parameters.md).
void Worker::keep_unfinished_iteration(int depth, Value beta, const std::vector<Move>& fail_high_pv,
                                       Value fail_high_value) {
  SearchInfo::Bound bound = SearchInfo::Bound::kExact;
  if (pv_length_[0] > 0) {
    best_pv_.assign(pv_[0], pv_[0] + pv_length_[0]);
    best_value_ = root_value_;
    if (root_value_ >= beta) bound = SearchInfo::Bound::kLower;
  } else if (!fail_high_pv.empty()) {
    best_pv_ = fail_high_pv;
    best_value_ = fail_high_value;
    bound = SearchInfo::Bound::kLower;
  } else {
    return;
  }
  if (id_ == 0) manager_.report(*this, depth, bound);
}

void Worker::iterate() {
  SearchManager& m = manager_;
  // MultiPV: the best `lines` root moves, each searched with the ones before it skipped.
  const int lines = std::clamp(m.multipv_, 1, std::max(int(root_moves_.size()), 1));
  std::vector<Value> previous(size_t(lines), kValueZero);  // each line's last value
  const int max_depth =
      m.limits_.depth > 0 ? std::min(m.limits_.depth, kMaxPly - 10) : kMaxPly - 10;
  Move last_best = kMoveNone;
  struct Line {
    Value value;
    std::vector<Move> pv;
  };
  std::vector<Line> found;
  // Helper threads start at staggered depths so that they diverge from the main thread.
  for (int depth = 1 + (id_ % 2); depth <= max_depth; ++depth) {
    root_depth_ = depth;
    pv_taken_.clear();
    found.clear();
    for (pv_index_ = 0; pv_index_ < lines; ++pv_index_) {
      const Value last = previous[size_t(pv_index_)];
      Value alpha = -kValueInfinite, beta = kValueInfinite,
            delta = manager_.params_[kAspirationDelta];
      if (depth >= 4 && std::abs(last) < kValueMateInMaxPly) {
        alpha = std::max(last - delta, -kValueInfinite);
        beta = std::min(last + delta, kValueInfinite);
      }
      Value v = -kValueInfinite;
      // The move that failed high in an earlier window of this iteration, with its value.
      std::vector<Move> fail_high_pv;
      Value fail_high_value = kValueNone;
      for (;;) {
        seldepth_ = 0;
        v = search<kRoot>(alpha, beta, depth, 0, false);
        if (stopped()) {
          if (completed_depth_ > 0 && pv_index_ == 0)
            keep_unfinished_iteration(depth, beta, fail_high_pv, fail_high_value);
          break;
        }
        if (v <= alpha) {
          fail_high_pv.clear();
          beta = (alpha + beta) / 2;
          alpha = std::max(v - delta, -kValueInfinite);
        } else if (v >= beta) {
          fail_high_pv.assign(pv_[0], pv_[0] + pv_length_[0]);
          fail_high_value = v;
          beta = std::min(v + delta, kValueInfinite);
        } else {
          break;
        }
        delta += delta / 2;
        if (pv_length_[0] > 0) root_hint_ = pv_[0][0];
      }
      if (stopped() || pv_length_[0] == 0) break;
      found.push_back({v, std::vector<Move>(pv_[0], pv_[0] + pv_length_[0])});
      pv_taken_.push_back(pv_[0][0]);
    }
    pv_taken_.clear();
    const int searched = pv_index_;
    pv_index_ = 0;
    // Stopped in the first line: the iteration gave nothing (keep_unfinished_iteration
    // kept what it could). Stopped in a later one: the lines finished so far stand.
    if (found.empty()) break;
    std::stable_sort(found.begin(), found.end(),
                     [](const Line& a, const Line& b) { return a.value > b.value; });
    const Value v = found.front().value;
    completed_depth_ = depth;
    best_value_ = v;
    best_pv_ = found.front().pv;
    root_hint_ = best_pv_.front();
    const bool score_dropped = depth > 4 && v < previous[0] - 60;
    for (size_t i = 0; i < found.size(); ++i) previous[i] = found[i].value;
    if (id_ == 0) {
      if (m.multipv_ > 1) {
        for (size_t i = 0; i < found.size(); ++i)
          m.report_line(*this, depth, int(i) + 1, found[i].value, found[i].pv);
      } else {
        m.report(*this, depth);
      }
    }
    if (searched < lines && stopped()) break;
    if (id_ != 0) continue;
    // Time: stop starting new iterations once the optimum is spent, scaled up in critical
    // positions: the best move keeps changing, or the score falls.
    if (best_pv_.front() != last_best && last_best != kMoveNone)
      m.instability_ = std::min(m.instability_ * 1.4, 2.5);
    else if (score_dropped)
      m.instability_ = std::min(m.instability_ * 1.3, 2.5);
    else
      m.instability_ = std::max(m.instability_ * 0.9, 1.0);
    last_best = best_pv_.front();
    if (m.budget_.managed && !m.budget_.spend_all && !m.pondering_.load() &&
        m.elapsed_ms() >= int64_t(double(m.budget_.optimum_ms) * m.instability_ * 0.6))
      break;
    if (std::abs(v) >= kValueMateInMaxPly && m.limits_.depth == 0 && !m.limits_.infinite &&
        depth > 2 * (kValueMate - std::abs(v)) + 4)
      break;  // a proven mate does not get better with more depth
    if (m.limits_.nodes && m.nodes() >= m.limits_.nodes) break;
  }
}

// ---------------------------------------------------------------------------------------
// SearchManager

SearchManager::SearchManager()
    : reductions_(std::make_unique<ReductionTable>(params_[kLmrDivisor])) {
  set_threads(1);
}

void SearchManager::set_param(SearchParam p, int value) {
  wait();
  const SearchParamSpec& spec = search_param_spec(p);
  params_.values[size_t(p)] = std::clamp(value, spec.min, spec.max);
  if (p == kLmrDivisor) reductions_ = std::make_unique<ReductionTable>(params_[kLmrDivisor]);
}

void SearchManager::set_eval_noise(EvalNoise noise) {
  wait();
  if (!noise.on()) noise = EvalNoise{};  // off is off whatever the seed: nothing to clear
  if (noise == noise_) return;
  noise_ = noise;
  tt_.clear();
}

SearchManager::~SearchManager() {
  stop();
  wait();
}

void SearchManager::set_threads(int count) {
  wait();
  // Built aside first: when memory runs out the error propagates and the old threads stay.
  std::vector<std::unique_ptr<Worker>> workers;
  for (int i = 0; i < std::max(count, 1); ++i)
    workers.push_back(std::make_unique<Worker>(*this, i));
  workers_ = std::move(workers);
}

void SearchManager::new_game() {
  wait();
  tt_.clear();
  for (auto& w : workers_) w->clear();
  if (!keep_futility_stats_) futility_.reset();
}

uint64_t SearchManager::nodes() const {
  uint64_t n = 0;
  for (const auto& w : workers_) n += w->nodes();
  return n;
}

int64_t SearchManager::elapsed_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               start_time_)
      .count();
}

void SearchManager::start(const Position& root, const SearchLimits& limits,
                          Engine::InfoCallback on_info, Engine::ResultCallback on_result) {
  begin(root, limits, std::move(on_info), std::move(on_result));
  main_thread_ = std::thread([this] { run(); });
}

void SearchManager::search_here(const Position& root, const SearchLimits& limits,
                                Engine::InfoCallback on_info, Engine::ResultCallback on_result) {
  begin(root, limits, std::move(on_info), std::move(on_result));
  run();
}

void SearchManager::begin(const Position& root, const SearchLimits& limits,
                          Engine::InfoCallback on_info, Engine::ResultCallback on_result) {
  wait();
  start_time_ = std::chrono::steady_clock::now();
  root_ = root;
  limits_ = limits;
  futility_.set_root_ply(root.game_ply());
  SearchLimits unpondered = limits;
  unpondered.ponder = false;
  budget_ = compute_time_budget(unpondered, root.side_to_move(), root.game_ply(), time_, params_);
  on_info_ = std::move(on_info);
  on_result_ = std::move(on_result);
  stop_ = false;
  pondering_ = limits.ponder;
  ponderhit_ms_ = 0;
  instability_ = 1.0;
}

void SearchManager::stop() {
  std::lock_guard<std::mutex> lock(mutex_);
  stop_ = true;
  pondering_ = false;
  wake_.notify_all();
}

void SearchManager::ponderhit() {
  std::lock_guard<std::mutex> lock(mutex_);
  pondering_ = false;
  // The move's clock starts now: the hard limit counts from the ponderhit. The time already
  // thought counts toward the optimum (a search past it stops), except when the whole
  // budget is to be spent (byoyomi without main time): that is ours from now on as well.
  const int64_t elapsed = elapsed_ms();
  ponderhit_ms_ = elapsed;
  if (budget_.managed && !budget_.spend_all && elapsed >= budget_.optimum_ms) stop_ = true;
  wake_.notify_all();
}

void SearchManager::wait() {
  if (main_thread_.joinable()) main_thread_.join();
}

void SearchManager::report(const Worker& w, int depth, SearchInfo::Bound bound) {
  if (!on_info_) return;
  SearchInfo info;
  info.depth = depth;
  info.bound = bound;
  info.seldepth = std::max(w.seldepth(), depth);
  info.score = w.best_value();
  info.nodes = nodes();
  info.time_ms = elapsed_ms();
  info.nps = info.time_ms > 0 ? info.nodes * 1000 / uint64_t(info.time_ms) : info.nodes * 1000;
  info.hashfull = tt_.hashfull();
  if (multipv_ > 1) info.multipv = 1;
  info.pv = w.best_pv();
  on_info_(info);
}

void SearchManager::report_line(const Worker& w, int depth, int multipv, Value value,
                                const std::vector<Move>& pv, SearchInfo::Bound bound) {
  if (!on_info_) return;
  SearchInfo info;
  info.depth = depth;
  info.bound = bound;
  info.seldepth = std::max(w.seldepth(), depth);
  info.score = value;
  info.nodes = nodes();
  info.time_ms = elapsed_ms();
  info.nps = info.time_ms > 0 ? info.nodes * 1000 / uint64_t(info.time_ms) : info.nodes * 1000;
  info.hashfull = tt_.hashfull();
  info.multipv = multipv;
  info.pv = pv;
  on_info_(info);
}

SearchResult SearchManager::pick_result() {
  SearchResult r;
  const Worker& main = *workers_[0];
  r.nodes = nodes();
  r.depth = main.completed_depth();
  r.score = main.best_value();
  for (const auto& w : workers_) {
    r.mate_calls += w->mate_calls();
    r.mate_nodes += w->mate_nodes();
    r.mate_found += w->mate_found();
  }
  if (!main.best_pv().empty()) {
    r.kind = SearchResult::Kind::kMove;
    r.best = main.best_pv()[0];
    if (main.best_pv().size() > 1) r.ponder = main.best_pv()[1];
  }
  return r;
}

Move unsearched_move(const Position& root, const MoveList& legal, const TranspositionTable& tt,
                     const eval::Weights& weights) {
  Position pos = root;
  if (const Move mate = mate::mate_in_1(pos); mate != kMoveNone && legal.contains(mate))
    return mate;
  bool found = false;
  const TTEntry* entry = tt.probe(pos.key(), &found);
  if (const uint16_t move16 = found ? entry->move16() : 0; move16) {
    const Move m = pos.complete_move(Move(move16));
    if (legal.contains(m)) return m;
  }
  Move best = legal[0];
  Value best_value = -kValueInfinite;
  bool best_safe = false;
  for (Move m : legal) {
    const bool safe = see_ge(pos, m, 0);
    if (best_safe && !safe) continue;
    pos.do_move(m);
    const Value v = -eval::evaluate(pos, weights);
    pos.undo_move();
    if (v > best_value || (safe && !best_safe)) best = m, best_value = v, best_safe = safe;
  }
  return best;
}

void SearchManager::run() {
  SearchResult result;
  MoveList legal = legal_moves(root_);
  if (root_.can_declare_win()) {
    result.kind = SearchResult::Kind::kWin;
    result.score = kValueMate;
  } else if (legal.empty()) {
    result.kind = SearchResult::Kind::kResign;
    result.score = -kValueMate;
  } else if (const std::vector<BookSuggestion> book = prepare_book(legal);
             const auto book_move = choose_book_move(book)) {
    result = *book_move;
  } else {
    if (!book.empty() && !book_bonuses_.empty() && on_info_) {
      SearchInfo note;
      note.message = describe_book_suggestions(book, book.size());
      on_info_(note);
    }
    tt_.new_search();
    for (auto& w : workers_) w->prepare(root_, kMoveNone);
    std::vector<std::thread> helpers;
    // A thread the system refuses (memory, a limit) leaves the search to those that started.
    try {
      for (size_t i = 1; i < workers_.size(); ++i)
        helpers.emplace_back([this, i] { workers_[i]->iterate(); });
    } catch (const std::system_error&) {
    }
    workers_[0]->iterate();
    // The main thread finished by itself (depth limit, mate found, time): keep the others
    // from going on, unless we must wait for stop or ponderhit.
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock,
                 [this] { return stop_.load() || (!pondering_.load() && !limits_.infinite); });
      stop_ = true;
    }
    for (auto& t : helpers) t.join();
    result = pick_result();
    if (result.best == kMoveNone) {  // stopped before depth 1 finished: no value to go by
      result.kind = SearchResult::Kind::kMove;
      result.best = unsearched_move(root_, legal, tt_, *weights_);
      result.score = kValueNone;
    }
    // Only a finished iteration's value can resign (an unfinished one is -infinite).
    if (resign_value_ > 0 && result.depth > 0 && result.score <= -resign_value_)
      result.kind = SearchResult::Kind::kResign;
    if (result.kind == SearchResult::Kind::kMove && !legal.contains(result.best))
      result.best = legal[0];
  }
  if (result.kind != SearchResult::Kind::kMove || result.depth == 0) {
    // Declarations, resignations and book moves also wait for stop while pondering or
    // infinite.
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait(lock, [this] { return stop_.load() || (!pondering_.load() && !limits_.infinite); });
  }
  if (on_result_) on_result_(result);
}

}  // namespace engine
