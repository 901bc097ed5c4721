// The mate solver inside the search: the per-node call, its table, and application 1 (the
// node limit steered by the mate prediction); the root's mate guard.
#include "engine/mate/solver.h"
#include "engine/mate/svm_control.h"
#include "engine/names.h"
#include "engine/search.h"

namespace engine {
namespace {

constexpr size_t kMateTableMegabytes = 8;    // per search thread
constexpr size_t kGuardTableMegabytes = 16;  // per search thread

}  // namespace

Worker::~Worker() = default;

void SearchManager::set_mate_calls(MateCallSettings settings) {
  wait();
  mate_ = std::move(settings);
  for (auto& w : workers_) w->clear();
}

mate::MateResult Worker::solve_here(mate::MateTable& table, uint64_t node_limit) {
  mate::MateOptions options;
  options.algo = mate::MateAlgo::kDfpn;
  options.node_limit = node_limit;
  options.max_ply = MateCallSettings::kMaxPlies;
  options.stop = &manager_.stop_;
  if (!mate_solver_) mate_solver_ = std::make_unique<mate::MateSolver>();
  mate::MateResult result;
  mate_solver_->solve(pos_, options, result, &table);
  nodes_.fetch_add(result.nodes, std::memory_order_relaxed);
  return result;
}

Value Worker::probe_mate(int ply, Move& first_move) {
  const MateCallSettings& settings = manager_.mate_;
  if (settings.observe) settings.observe(pos_);
  if (!mate_table_) mate_table_ = std::make_unique<mate::MateTable>(kMateTableMegabytes);
  uint64_t limit = settings.nodes;
  if (settings.step && settings.model) {
    const double d = settings.model->decision_value(pos_);
    if (!mate::SvmModel::predicts_mate(d)) return kValueNone;
    limit = std::max<uint64_t>(
        1,
        uint64_t(double(limit) * settings.multiplier * 2 * settings.model->probability(d) + 0.5));
  } else if (settings.control && settings.model) {
    if (!mate_limit_)
      mate_limit_ =
          std::make_unique<mate::MateNodeLimitControl>(settings.model, settings.multiplier);
    limit = mate_limit_->node_limit(pos_, settings.nodes);
  } else if (settings.multiplier != 1.0) {
    limit = uint64_t(double(limit) * settings.multiplier + 0.5);
  }
  if (limit == 0) {
    if (mate_limit_) mate_limit_->record(0, 0, settings.nodes);
    return kValueNone;
  }
  const mate::MateResult result = solve_here(*mate_table_, limit);
  if (mate_limit_) mate_limit_->record(result.nodes, limit, settings.nodes);
  ++mate_calls_;
  mate_nodes_ += result.nodes;
  if (result.status != mate::MateStatus::kMate) return kValueNone;
  const int length = int(result.line.size());
  if (ply + length >= kMaxPly) return kValueNone;
  ++mate_found_;
  first_move = result.line.front();
  return mate_in(ply + length);
}

void SearchManager::set_mate_guard(MateGuardSettings settings) {
  wait();
  guard_ = settings;
}

std::optional<Value> Worker::guarded(Move m) const {
  for (const auto& [move, value] : guarded_)
    if (move == m) return value;
  return std::nullopt;
}

Value Worker::guard_root_move(Move m) {
  if (!guard_table_) guard_table_ = std::make_unique<mate::MateTable>(kGuardTableMegabytes);
  const mate::MateResult result = solve_here(*guard_table_, manager_.guard_.nodes);
  Value v = kValueNone;
  // A stopped check proves nothing either way; it is not remembered.
  if (result.status == mate::MateStatus::kUnknown && stopped()) return v;
  if (result.status == mate::MateStatus::kMate && 1 + int(result.line.size()) < kMaxPly)
    v = mated_in(1 + int(result.line.size()));
  guarded_.emplace_back(m, v);
  return v;
}

}  // namespace engine
