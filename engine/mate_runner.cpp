// MateRunner: the easy problems at once, the rest on a thread, reported as the facade's types.
#include "engine/mate_runner.h"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "engine/mate/solver.h"

namespace engine {
namespace {

MateSearchResult search_result(const mate::MateResult& r) {
  MateSearchResult out;
  switch (r.status) {
    case mate::MateStatus::kMate:
      out.kind = MateSearchResult::Kind::kMate;
      break;
    case mate::MateStatus::kNoMate:
      out.kind = MateSearchResult::Kind::kNoMate;
      break;
    case mate::MateStatus::kUnknown:
      out.kind = MateSearchResult::Kind::kUnknown;
      break;
  }
  out.line = r.line;
  out.proven_shortest = r.proven_shortest;
  out.note = r.note;
  return out;
}

// A report of the mate `line` just found: depth its length, seldepth at least that.
MateSearchInfo line_info(const std::vector<Move>& line, int seldepth, uint64_t nodes, int64_t ms) {
  const int plies = int(line.size());
  return {plies, std::max(seldepth, plies), nodes, ms, line};
}

}  // namespace

void MateRunner::start(const Position& pos, int64_t time_ms, size_t table_mb,
                       Engine::MateInfoCallback on_info, Engine::MateResultCallback on_result) {
  stop();
  wait();
  stop_ = false;
  if (!table_ || table_mb != table_mb_) {
    table_.reset();  // the old table's memory is free before the new one is taken
    table_ = std::make_unique<mate::MateTable>(table_mb);
    table_mb_ = table_mb;
  }
  table_->clear();
  // Easy problems are answered at once, before the caller goes on (so that a USI answer
  // comes before, say, the readyok of a following isready): when the quick search settles
  // them, the shortest mate included.
  {
    mate::MateOptions quick;
    quick.algo = mate::MateAlgo::kDfpn;
    quick.node_limit = kQuickNodes;
    quick.time_limit_ms = time_ms;
    quick.shortest = true;
    mate::MateResult result;
    if (solve_mate(pos, quick, result, table_.get()).is_ok() &&
        (result.status == mate::MateStatus::kNoMate ||
         (result.status == mate::MateStatus::kMate && result.proven_shortest))) {
      if (result.status == mate::MateStatus::kMate && on_info)
        on_info(line_info(result.line, result.max_ply_reached, result.nodes, result.ms));
      if (on_result) on_result(search_result(result));
      return;
    }
  }
  thread_ = std::thread(
      [this, pos, time_ms, on_info = std::move(on_info), on_result = std::move(on_result)]() {
        mate::MateOptions options;
        options.algo = mate::MateAlgo::kDfpn;
        options.node_limit = std::numeric_limits<uint64_t>::max();
        options.time_limit_ms = time_ms;
        options.stop = &stop_;
        options.shortest = true;
        // A report about once a second while solving, as GUIs' mate modes show, and one with the
        // line whenever a (shorter) mate is found.
        int depth = 0;
        options.progress = [&on_info, &depth](uint64_t nodes, int64_t ms, int max_ply) {
          if (on_info) on_info({depth, max_ply, nodes, ms, {}});
        };
        options.found_line = [&on_info, &depth](const std::vector<Move>& line, uint64_t nodes,
                                                int64_t ms) {
          depth = int(line.size());
          if (on_info) on_info(line_info(line, 0, nodes, ms));
        };
        mate::MateResult result;
        solve_mate(pos, options, result, table_.get());
        if (on_info) on_info({depth, result.max_ply_reached, result.nodes, result.ms, {}});
        if (on_result) on_result(search_result(result));
      });
}

void MateRunner::wait() {
  if (thread_.joinable()) thread_.join();
}

}  // namespace engine
