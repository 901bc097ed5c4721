// The mate-prediction applications: hooks for the solver and the in-search node limit.
#include "engine/mate/svm_control.h"

#include <algorithm>
#include <cmath>

#include "engine/names.h"

namespace engine::mate {

const char* to_string(MateControl control) {
  switch (control) {
    case MateControl::kNone:
      return "none";
    case MateControl::kLimit:
      return "limit";
    case MateControl::kInit:
      return "init";
    case MateControl::kThreshold:
      return "threshold";
  }
  return "none";
}

bool parse_mate_control(std::string_view text, MateControl& out) {
  for (MateControl c :
       {MateControl::kNone, MateControl::kLimit, MateControl::kInit, MateControl::kThreshold}) {
    if (text == to_string(c)) {
      out = c;
      return true;
    }
  }
  return false;
}

double attacker_decision(const SvmModel& model, Position& pos, bool attacker_to_move) {
  if (attacker_to_move) return model.decision_value(pos);
  pos.do_null_move();
  const double d = model.decision_value(pos);
  pos.undo_null_move();
  return d;
}

SvmMateHooks::SvmMateHooks(const SvmModel& model, MateControl control, int a)
    : model_(model), control_(control), a_(a) {}

void SvmMateHooks::initial_numbers(Position& pos, int ply, bool or_node, uint32_t& pn,
                                   uint32_t& dn) {
  pn = dn = 1;
  if (ply >= a_) return;
  const uint32_t raised = uint32_t(1 + a_ - ply);
  if (SvmModel::predicts_mate(attacker_decision(model_, pos, or_node)))
    dn = raised;
  else
    pn = raised;
}

void SvmMateHooks::threshold_increments(Position& pos, int ply, bool or_node,
                                        uint32_t& pn_increment, uint32_t& dn_increment) {
  pn_increment = dn_increment = 1;
  if (ply >= a_) return;
  const double d = attacker_decision(model_, pos, or_node);
  const double p = model_.probability(d);
  if (SvmModel::predicts_mate(d))
    pn_increment = uint32_t(1 + std::lround((a_ - ply) * p));
  else
    dn_increment = uint32_t(1 + std::lround((a_ - ply) * (1 - p)));
}

MateNodeLimitControl::MateNodeLimitControl(std::shared_ptr<const SvmModel> model, double multiplier)
    : model_(std::move(model)), multiplier_(multiplier), scale_(multiplier) {}

uint64_t MateNodeLimitControl::node_limit(const Position& pos, uint64_t base) {
  if (!model_) return uint64_t(std::llround(double(base) * multiplier_));
  const double f = model_->probability(model_->decision_value(pos));
  const double mean = sum_ / count_;
  sum_ += f;
  count_ += 1;
  return uint64_t(std::llround(double(base) * scale_ * f / mean));
}

void MateNodeLimitControl::record(uint64_t nodes, uint64_t limit, uint64_t base) {
  if (!model_) return;
  double shadow;
  if (nodes < limit)
    shadow = double(std::min(nodes, base));  // ended by itself
  else if (limit >= base)
    shadow = double(base);  // a base-limited call would have stopped at base
  else
    shadow = 0.5 * double(limit + base);  // stopped early: somewhere between limit and base
  if (!primed_) {
    // The prior: kPriorCalls calls like this one at the starting scale.
    shadow_ = shadow * kPriorCalls;
    per_scale_ = double(nodes) / scale_ * kPriorCalls;
    primed_ = true;
  }
  shadow_ = shadow_ * kDecay + shadow;
  per_scale_ = per_scale_ * kDecay + double(nodes) / scale_;
  if (per_scale_ > 0) scale_ = std::clamp(multiplier_ * shadow_ / per_scale_, 0.01, 100.0);
}

}  // namespace engine::mate
