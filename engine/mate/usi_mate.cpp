// `go mate` for the USI loop: the solver on a thread, its answer in USI words.
#include "engine/mate/usi_mate.h"

#include <limits>
#include <string>

#include "engine/mate/solver.h"
#include "engine/notation.h"

namespace engine::mate {

std::string format_usi_checkmate(const MateResult& result) {
  switch (result.status) {
    case MateStatus::kMate: {
      std::string s = "checkmate";
      for (Move m : result.line) {
        s += ' ';
        s += format_usi_move(m);
      }
      return s;
    }
    case MateStatus::kNoMate: return "checkmate nomate";
    case MateStatus::kUnknown: break;
  }
  return "checkmate timeout";
}

void UsiMateRunner::start(const Position& pos, int64_t time_ms,
                          std::function<void(const std::string&)> print) {
  stop_and_wait();
  stop_ = false;
  if (!table_) table_ = std::make_unique<MateTable>(64);
  table_->clear();
  // Easy problems are answered at once, before the loop reads the next command (so that
  // the answer comes before, say, the readyok of a following isready).
  {
    MateOptions quick;
    quick.algo = MateAlgo::kDfpn;
    quick.node_limit = kQuickNodes;
    quick.time_limit_ms = time_ms;
    MateResult result;
    if (solve_mate(pos, quick, result, table_.get()).is_ok() && result.status != MateStatus::kUnknown) {
      print(format_usi_checkmate(result));
      return;
    }
  }
  thread_ = std::thread([this, pos, time_ms, print = std::move(print)]() {
    MateOptions options;
    options.algo = MateAlgo::kDfpn;
    options.node_limit = std::numeric_limits<uint64_t>::max();
    options.time_limit_ms = time_ms;
    options.stop = &stop_;
    // An info line about once a second while solving, as GUIs' mate modes show.
    options.progress = [&print](uint64_t nodes, int64_t ms, int max_ply) {
      print("info seldepth " + std::to_string(max_ply) + " time " + std::to_string(ms) + " nodes " +
            std::to_string(nodes) + " nps " + std::to_string(ms > 0 ? nodes * 1000 / uint64_t(ms) : 0));
    };
    MateResult result;
    solve_mate(pos, options, result, table_.get());
    print("info seldepth " + std::to_string(result.max_ply_reached) + " time " +
          std::to_string(result.ms) + " nodes " + std::to_string(result.nodes) + " nps " +
          std::to_string(result.ms > 0 ? result.nodes * 1000 / uint64_t(result.ms) : 0));
    print(format_usi_checkmate(result));
  });
}

void UsiMateRunner::stop_and_wait() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

}  // namespace engine::mate
