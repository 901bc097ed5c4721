// The three uses of mate prediction that steer the mate solver (docs/techniques.md §1): the node
// limit of an in-search call (application 1), initial proof and disproof numbers
// (application 2) and PDS's threshold increments (application 3).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "engine/mate/solver.h"
#include "engine/mate/svm_model.h"
#include "engine/names.h"
#include "shogi/position.h"

namespace engine::mate {

// Which application steers a solver call: none, or one of the three.
enum class MateControl { kNone, kLimit, kInit, kThreshold };
const char* to_string(MateControl control);  // "none", "limit", "init", "threshold"
bool parse_mate_control(std::string_view text, MateControl& out);

// The decision value of the model for the attacker of a node: the position as it stands
// when the attacker is to move (an OR node); at an AND node (the defender to move, in check)
// the features are read after a null move, so that the attacker is again the side to move.
double attacker_decision(const SvmModel& model, Position& pos, bool attacker_to_move);

// Applications 2 and 3 as solver hooks. Both shrink with the depth and vanish at ply >= a.
//   init (df-pn+): a node not yet in the table starts at pn 1, dn 1 + (a - ply) when the
//     model predicts mate for it, at pn 1 + (a - ply), dn 1 when it predicts no mate
//     (the document's best: a = 5, no sigmoid).
//   threshold (PDS): at a node predicted mate, the proof-number threshold rises by
//     1 + round((a - ply) * sigmoid(d)) instead of 1; predicted no mate, the disproof
//     threshold by 1 + round((a - ply) * sigmoid(-d)); PDS picks which to raise by
//     number / increment (the document: a = 7).
class SvmMateHooks : public MateHooks {
 public:
  // REQUIRES: control is kInit or kThreshold; model outlives the hooks.
  SvmMateHooks(const SvmModel& model, MateControl control, int a);
  static constexpr int kDefaultInitA = 5;       // Default of init's a
  static constexpr int kDefaultThresholdA = 7;  // Default of threshold's a

  bool wants_initial_numbers() const override { return control_ == MateControl::kInit; }
  void initial_numbers(Position& pos, int ply, bool or_node, uint32_t& pn, uint32_t& dn) override;
  bool wants_threshold_increments() const override { return control_ == MateControl::kThreshold; }
  void threshold_increments(Position& pos, int ply, bool or_node, uint32_t& pn_increment,
                            uint32_t& dn_increment) override;

 private:
  const SvmModel& model_;
  MateControl control_;
  int a_;
};

// Application 1: the node limit of one solver call, scaled by f(d) = sigmoid of the model's
// decision value d for the side to move, relative to the running mean of f:
//   limit = base * scale * f(d) / mean(f)
// `scale` keeps the nodes the calls actually search at `multiplier` times what calls with
// the plain base limit would have searched. Keeping the sum of the limits alone is not enough
// (the search ran far longer: data/mate/README.md): calls predicted mate run to their larger
// limits, while calls predicted no mate mostly end by themselves below the base anyway. So after
// each call record() compares the nodes it searched with what a call limited to `base` would
// have: the same when it ended below both limits, `base` when its limit and base were both
// reached, and halfway between its limit and base when it stopped at a limit below base.
// Both sums decay (a window of about 1000 calls); scale = multiplier * shadow / (nodes per
// unit of scale). One per search thread.
class MateNodeLimitControl {
 public:
  static constexpr double kPriorCalls = 64;
  static constexpr double kDecay = 0.999;

  // model may be null: then every call gets base * multiplier and record() changes nothing.
  MateNodeLimitControl(std::shared_ptr<const SvmModel> model, double multiplier);
  // The limit for a call from pos (the side to move attacking). Updates the running mean.
  uint64_t node_limit(const Position& pos, uint64_t base);
  // After the call node_limit() gave `limit`: the nodes it searched.
  void record(uint64_t nodes, uint64_t limit, uint64_t base);
  double mean_probability() const { return sum_ / count_; }
  double scale() const { return scale_; }

 private:
  std::shared_ptr<const SvmModel> model_;
  double multiplier_;
  double sum_ = 0.5 * kPriorCalls;
  double count_ = kPriorCalls;
  double scale_;          // the current scale (starts at multiplier)
  double shadow_ = 0;     // decayed sum: nodes base-limited calls would have searched
  double per_scale_ = 0;  // decayed sum: nodes searched / the scale they were given
  bool primed_ = false;
};

}  // namespace engine::mate
