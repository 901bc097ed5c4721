// `go mate` for the USI loop: the solver on a thread, its answer in USI words.
#include "engine/mate/usi_mate.h"

#include <limits>

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
    MateResult result;
    solve_mate(pos, options, result, table_.get());
    print(format_usi_checkmate(result));
  });
}

void UsiMateRunner::stop_and_wait() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

}  // namespace engine::mate
