// MovePicker: staged generation and ordering of moves.
#include "engine/movepick.h"

#include <algorithm>

#include "engine/names.h"
#include "engine/see.h"

namespace engine {

bool is_useless_non_promotion(const Position& pos, Move m) {
  if (m.is_drop() || m.is_promotion()) return false;
  const PieceType t = type_of(m.piece_after());
  if (t != kPawn && t != kBishop && t != kRook) return false;
  const Color us = pos.side_to_move();
  return in_promotion_zone(us, m.to()) || in_promotion_zone(us, m.from());
}

MovePicker::MovePicker(const Position& pos, Move tt_move, const Move killers[2],
                       const MoveHistories& histories)
    : pos_(pos), histories_(histories), tt_move_(tt_move) {
  killers_[0] = killers[0];
  killers_[1] = killers[1];
  stage_ = pos.in_check() ? kEvasionTT : kMainTT;
  if (!is_ok_tt_move(tt_move_)) tt_move_ = kMoveNone;
  if (tt_move_ == kMoveNone) stage_ = Stage(stage_ + 1);
}

MovePicker::MovePicker(const Position& pos, Move tt_move, bool with_checks,
                       const CaptureHistory* captures)
    : pos_(pos), tt_move_(tt_move), with_checks_(with_checks) {
  histories_.captures = captures;
  stage_ = pos.in_check() ? kEvasionTT : kQuiescenceTT;
  if (!is_ok_tt_move(tt_move_)) tt_move_ = kMoveNone;
  // In quiescence only tactical TT moves are tried (or any evasion).
  if (tt_move_ != kMoveNone && stage_ == kQuiescenceTT && !pos.is_capture(tt_move_) &&
      !tt_move_.is_promotion())
    tt_move_ = kMoveNone;
  if (tt_move_ == kMoveNone) stage_ = Stage(stage_ + 1);
}

bool MovePicker::is_ok_tt_move(Move m) const {
  return m != kMoveNone && pos_.is_pseudo_legal(m) && !is_useless_non_promotion(pos_, m);
}

bool MovePicker::in_quiet_stage() const {
  return stage_ == kKiller1 || stage_ == kKiller2 || stage_ == kQuietsInit || stage_ == kQuiets ||
         stage_ == kBadCaptures;
}

void MovePicker::score_captures(int begin, int end) {
  for (int i = begin; i < end; ++i) {
    const Move m = moves_[i].move;
    const PieceType victim = type_of(pos_.piece_on(m.to()));
    const PieceType attacker = type_of(pos_.piece_on(m.from()));
    int s = capture_gain(victim) * 16 - exchange_value(attacker) / 16;
    if (m.is_promotion()) s += (exchange_value(promote(attacker)) - exchange_value(attacker)) * 8;
    // The capture history reorders captures within about three pawns' worth of material.
    if (histories_.captures) s += histories_.captures->get(pos_, m) / 2;
    moves_[i].score = s;
  }
}

void MovePicker::score_quiets(int begin, int end) {
  const Color us = pos_.side_to_move();
  for (int i = begin; i < end; ++i) moves_[i].score = histories_.quiet_score(us, moves_[i].move);
}

void MovePicker::score_evasions(int begin, int end) {
  const Color us = pos_.side_to_move();
  for (int i = begin; i < end; ++i) {
    const Move m = moves_[i].move;
    if (pos_.is_capture(m))
      moves_[i].score = (1 << 20) + capture_gain(type_of(pos_.piece_on(m.to())));
    else
      moves_[i].score = histories_.quiet_score(us, m);
  }
}

Move MovePicker::pick_best(int& cursor, int end) {
  // Selection sort step: good enough for the few moves a node tries before a cut.
  int best = cursor;
  for (int i = cursor + 1; i < end; ++i)
    if (moves_[i].score > moves_[best].score) best = i;
  std::swap(moves_[cursor], moves_[best]);
  return moves_[cursor++].move;
}

// Appends a generator's output at `end`, skipping the TT move and useless moves.
int MovePicker::append(GenType type, int end) {
  MoveList list;
  generate(pos_, type, list);
  for (Move m : list) {
    if (m == tt_move_ || is_useless_non_promotion(pos_, m)) continue;
    moves_[end++] = {m, 0};
  }
  return end;
}

Move MovePicker::next() {
  for (;;) {
    switch (stage_) {
      case kMainTT:
      case kEvasionTT:
      case kQuiescenceTT:
        stage_ = Stage(stage_ + 1);
        return tt_move_;

      case kCapturesInit:
        cursor_ = 0;
        end_ = append(GenType::kCapturesPromotions, 0);
        bad_end_ = bad_begin_ = end_;  // bad captures are copied past the end
        score_captures(0, end_);
        stage_ = kGoodCaptures;
        [[fallthrough]];
      case kGoodCaptures:
        while (cursor_ < end_) {
          Move m = pick_best(cursor_, end_);
          if (see_ge(pos_, m, 0)) return m;
          moves_[bad_end_++] = {m, 0};
        }
        stage_ = kKiller1;
        [[fallthrough]];
      case kKiller1:
      case kKiller2: {
        const Move k = killers_[stage_ - kKiller1];
        stage_ = Stage(stage_ + 1);
        if (k != kMoveNone && k != tt_move_ && pos_.is_pseudo_legal(pos_.complete_move(k))) {
          const Move full = pos_.complete_move(k);
          if (!pos_.is_capture(full) && !full.is_promotion() &&
              !is_useless_non_promotion(pos_, full))
            return full;
        }
        break;
      }
      case kQuietsInit: {
        // Quiet moves go after the bad captures in the array.
        cursor_ = bad_end_;
        end_ = append(GenType::kQuiets, bad_end_);
        // Drop the killers (already tried).
        int out = cursor_;
        for (int i = cursor_; i < end_; ++i)
          if (moves_[i].move != killers_[0] && moves_[i].move != killers_[1])
            moves_[out++] = moves_[i];
        end_ = out;
        score_quiets(cursor_, end_);
        stage_ = kQuiets;
        [[fallthrough]];
      }
      case kQuiets:
        if (cursor_ < end_) {
          // The first few by selection (a cut-off usually comes early); the rest, at nodes
          // that try them all, sorted once instead of selected one by one.
          if (quiets_picked_ < kQuietsSelected) {
            const Move m = pick_best(cursor_, end_);
            if (++quiets_picked_ == kQuietsSelected)
              std::sort(moves_ + cursor_, moves_ + end_,
                        [](const Scored& a, const Scored& b) { return a.score > b.score; });
            return m;
          }
          return moves_[cursor_++].move;
        }
        cursor_ = bad_begin_;
        stage_ = kBadCaptures;
        [[fallthrough]];
      case kBadCaptures:
        if (cursor_ < bad_end_) return moves_[cursor_++].move;
        stage_ = kDone;
        break;

      case kEvasionsInit:
        cursor_ = 0;
        end_ = append(GenType::kEvasions, 0);
        score_evasions(0, end_);
        stage_ = kEvasions;
        [[fallthrough]];
      case kEvasions:
        if (cursor_ < end_) return pick_best(cursor_, end_);
        stage_ = kDone;
        break;

      case kQCapturesInit:
        cursor_ = 0;
        end_ = append(GenType::kCapturesPromotions, 0);
        score_captures(0, end_);
        stage_ = kQCaptures;
        [[fallthrough]];
      case kQCaptures:
        if (cursor_ < end_) return pick_best(cursor_, end_);
        if (!with_checks_) {
          stage_ = kDone;
          break;
        }
        stage_ = kQChecksInit;
        [[fallthrough]];
      case kQChecksInit: {
        MoveList checks;
        generate(pos_, GenType::kChecks, checks);
        cursor_ = end_ = 0;
        for (Move m : checks) {
          if (m == tt_move_ || pos_.is_capture(m) || m.is_promotion() ||
              is_useless_non_promotion(pos_, m))
            continue;
          moves_[end_++] = {m, 0};
        }
        stage_ = kQChecks;
        [[fallthrough]];
      }
      case kQChecks:
        if (cursor_ < end_) return moves_[cursor_++].move;
        stage_ = kDone;
        break;

      case kDone:
        return kMoveNone;
    }
  }
}

}  // namespace engine
