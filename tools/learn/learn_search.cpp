// The learning's shallow search (1 ply + quiescence) and the raw features of its leaves.
#include "tools/learn/learn_search.h"

#include <algorithm>

#include "engine/eval/feature_visitor.h"
#include "engine/eval/features.h"
#include "engine/mate/mate1.h"
#include "engine/see.h"

namespace tools {

using shogi::Move;
using shogi::Position;
using shogi::Value;
namespace eval = engine::eval;

namespace {

// Collects raw (index, count) pairs; phase features under their opening index.
struct RawSink {
  std::vector<RawFeature>& out;
  int sign;
  void base(int index, int count) { out.push_back({uint16_t(index), int16_t(count * sign)}); }
  void phase(int index, int count) {
    out.push_back({uint16_t(eval::kOpeningOffset + index), int16_t(count * sign)});
  }
  void king(shogi::Color, int, int, int, int) {}
};

// The quiescence search's fixed inputs.
struct QuiescenceContext {
  eval::IncrementalEvaluator& evaluator;
  const eval::Weights& w;
  int threatmate_penalty;
  bool threat_stand_pat;
};

// What the side not to move threatens to win by its captures, if it were to move: the
// largest and the second largest gain over the attacked squares, each the victim's
// capture_gain when the exchange wins it outright, else the victim's less the attacker's
// when it still pays, else nothing. REQUIRES: the side to move is not in check.
std::pair<Value, Value> capture_threats(Position& pos) {
  pos.do_null_move();
  shogi::MoveList moves;
  shogi::generate(pos, shogi::GenType::kCapturesPromotions, moves);
  Value gain_at[shogi::kSquareNb] = {};
  for (Move m : moves) {
    if (m.is_drop() || !pos.is_capture(m) || !pos.is_legal(m)) continue;
    const Value victim = engine::capture_gain(shogi::type_of(pos.piece_on(m.to())));
    const Value attacker = engine::capture_gain(shogi::type_of(pos.piece_on(m.from())));
    Value gain = 0;
    if (engine::see_ge(pos, m, victim))
      gain = victim;
    else if (victim > attacker && engine::see_ge(pos, m, victim - attacker))
      gain = victim - attacker;
    gain_at[m.to()] = std::max(gain_at[m.to()], gain);
  }
  pos.undo_null_move();
  Value first = 0, second = 0;
  for (Value g : gain_at) {
    if (g > first)
      second = first, first = g;
    else if (g > second)
      second = g;
  }
  return {first, second};
}

// True when the side not to move would mate in one if it were to move. REQUIRES: the side to
// move is not in check.
bool threatened_with_mate(Position& pos) {
  pos.do_null_move();
  const bool threat = engine::mate::mate_in_1(pos) != shogi::kMoveNone;
  pos.undo_null_move();
  return threat;
}

// Quiescence search; fills pv with the line to the leaf (empty: this node is the leaf).
// Sets *mated when the line ends in a mate, and *bonus to the constant part of the leaf's
// value (the threatmate penalty or the threat stand-pat's loss), from this node's side to
// move.
Value quiescence(Position& pos, const QuiescenceContext& c, Value alpha, Value beta, int depth,
                 int ply, std::vector<Move>& pv, bool* mated, Value* bonus) {
  pv.clear();
  *mated = false;
  *bonus = 0;
  const bool in_check = pos.in_check();
  Value best = -shogi::kValueInfinite;
  if (!in_check && c.threatmate_penalty > 0) {
    if (const Move mate = engine::mate::mate_in_1(pos); mate != shogi::kMoveNone) {
      pv.assign(1, mate);
      *mated = true;
      return shogi::mate_in(ply + 1);
    }
  }
  if (!in_check || depth <= 0) {
    best = c.evaluator.evaluate(pos, c.w);
    if (c.threatmate_penalty > 0 && !in_check && threatened_with_mate(pos)) {
      *bonus = Value(-c.threatmate_penalty);
    } else if (c.threat_stand_pat && !in_check) {
      // GPS Shogi's stand-pat (QuiescenceSearch2::staticValueWithThreat): the side to move
      // saves its most threatened piece at a sixth of its worth and loses the second (half
      // of it below the first ply of the quiescence).
      const auto [first, second] = capture_threats(pos);
      *bonus = Value(-std::max(first / 6, ply == 1 ? second : second / 2));
    }
    best += *bonus;
    if (depth <= 0 || best >= beta) return best;
    alpha = std::max(alpha, best);
  }
  shogi::MoveList moves;
  shogi::generate(pos, in_check ? shogi::GenType::kEvasions : shogi::GenType::kCapturesPromotions,
                  moves);
  std::vector<Move> child_pv;
  bool any_legal = false;
  for (Move m : moves) {
    if (!pos.is_legal(m)) continue;
    any_legal = true;
    if (!in_check && !engine::see_ge(pos, m, 0)) continue;
    bool child_mated;
    Value child_bonus;
    pos.do_move(m);
    const Value v = -quiescence(pos, c, -beta, -alpha, depth - 1, ply + 1, child_pv, &child_mated,
                                &child_bonus);
    pos.undo_move();
    if (v > best) {
      best = v;
      if (v > alpha) {
        pv.assign(1, m);
        pv.insert(pv.end(), child_pv.begin(), child_pv.end());
        *mated = child_mated;
        *bonus = Value(-child_bonus);
        if (v >= beta) break;
        alpha = v;
      }
    }
  }
  if (in_check && !any_legal) {
    pv.clear();
    *mated = true;
    *bonus = 0;
    return shogi::mated_in(ply);
  }
  return best;
}

}  // namespace

void collect_raw_features(const Position& pos, shogi::Color view, RawFeatures& out) {
  out.entries.clear();
  RawSink sink{out.entries, view == shogi::kBlack ? 1 : -1};
  out.progress_fixed = eval::progress_from_points(eval::detail::visit_features(pos, sink));
  std::sort(out.entries.begin(), out.entries.end(),
            [](const RawFeature& a, const RawFeature& b) { return a.index < b.index; });
  size_t kept = 0;
  for (size_t i = 0; i < out.entries.size();) {
    RawFeature merged = out.entries[i];
    for (++i; i < out.entries.size() && out.entries[i].index == merged.index; ++i)
      merged.count = int16_t(merged.count + out.entries[i].count);
    if (merged.count != 0) out.entries[kept++] = merged;
  }
  out.entries.resize(kept);
}

double raw_value(const double* w, const RawFeature* entries, size_t count, int progress_fixed) {
  const double pe = double(progress_fixed) / eval::kProgressOne, po = 1 - pe;
  double base = 0, opening = 0, endgame = 0;
  for (size_t i = 0; i < count; ++i) {
    const int index = entries[i].index;
    const double c = entries[i].count;
    if (index < eval::kOpeningOffset) {
      base += w[index] * c;
    } else {
      opening += w[index] * c;
      endgame += w[index + eval::kPhaseSize] * c;
    }
  }
  return base + po * opening + pe * endgame;
}

void add_raw_gradient(const RawFeature* entries, size_t count, int progress_fixed, double scale,
                      double* gradient) {
  const double pe = double(progress_fixed) / eval::kProgressOne, po = 1 - pe;
  for (size_t i = 0; i < count; ++i) {
    const int index = entries[i].index;
    const double c = scale * entries[i].count;
    if (index < eval::kOpeningOffset) {
      gradient[index] += c;
    } else {
      gradient[index] += po * c;
      gradient[index + eval::kPhaseSize] += pe * c;
    }
  }
}

MoveLeaf search_move_leaf(Position& pos, eval::IncrementalEvaluator& evaluator,
                          const eval::Weights& w, Move m, int quiescence_depth,
                          int threatmate_penalty, bool threat_stand_pat) {
  MoveLeaf leaf;
  leaf.move = m;
  const QuiescenceContext context{evaluator, w, threatmate_penalty, threat_stand_pat};
  Value bonus;
  pos.do_move(m);
  leaf.value = -quiescence(pos, context, -shogi::kValueInfinite, shogi::kValueInfinite,
                           quiescence_depth, 1, leaf.pv, &leaf.mated, &bonus);
  leaf.bonus = Value(-bonus);
  pos.undo_move();
  return leaf;
}

Position leaf_position(const Position& pos, const MoveLeaf& leaf) {
  Position p = pos;
  p.do_move(leaf.move);
  for (Move m : leaf.pv) p.do_move(m);
  return p;
}

eval::Weights weights_from_doubles(const std::vector<double>& w) {
  eval::Weights out;
  for (int i = 0; i < eval::kFeatureCount; ++i) out.set(i, w[i]);
  return out;
}

}  // namespace tools
