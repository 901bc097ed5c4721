// `go mate` for the USI loop: the solver on a thread, its answer in USI words.
#include "engine/mate/usi_mate.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "engine/mate/solver.h"
#include "engine/names.h"
#include "shogi/notation.h"

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
    case MateStatus::kNoMate:
      return "checkmate nomate";
    case MateStatus::kUnknown:
      break;
  }
  return "checkmate timeout";
}

namespace {

// "info depth D seldepth S time T nodes N nps R".
std::string info_progress(int depth, int seldepth, uint64_t nodes, int64_t ms) {
  return "info depth " + std::to_string(depth) + " seldepth " + std::to_string(seldepth) +
         " time " + std::to_string(ms) + " nodes " + std::to_string(nodes) + " nps " +
         std::to_string(ms > 0 ? nodes * 1000 / uint64_t(ms) : 0);
}

// The progress line of a mate line just found, then "score mate N pv ...".
std::string info_line(const std::vector<Move>& line, int seldepth, uint64_t nodes, int64_t ms) {
  const int plies = int(line.size());
  std::string s = info_progress(plies, std::max(seldepth, plies), nodes, ms);
  s += " score mate ";
  s += std::to_string(plies);
  s += " pv";
  for (Move m : line) {
    s += ' ';
    s += format_usi_move(m);
  }
  return s;
}

// "info string mate in N plies, proven shortest" (or why it is not proven).
std::string shortest_note(const MateResult& result) {
  return "info string mate in " + std::to_string(result.line.size()) + " plies, " +
         (result.proven_shortest ? std::string("proven shortest") : result.note);
}

}  // namespace

void UsiMateRunner::start(const Position& pos, int64_t time_ms, size_t table_mb,
                          std::function<void(const std::string&)> print) {
  stop_and_wait();
  stop_ = false;
  if (!table_ || table_mb != table_mb_) {
    table_.reset();  // the old table's memory is free before the new one is taken
    table_ = std::make_unique<MateTable>(table_mb);
    table_mb_ = table_mb;
  }
  table_->clear();
  // Easy problems are answered at once, before the loop reads the next command (so that
  // the answer comes before, say, the readyok of a following isready): when the quick
  // search settles them, the shortest mate included.
  {
    MateOptions quick;
    quick.algo = MateAlgo::kDfpn;
    quick.node_limit = kQuickNodes;
    quick.time_limit_ms = time_ms;
    quick.shortest = true;
    MateResult result;
    if (solve_mate(pos, quick, result, table_.get()).is_ok() &&
        (result.status == MateStatus::kNoMate ||
         (result.status == MateStatus::kMate && result.proven_shortest))) {
      if (result.status == MateStatus::kMate) {
        print(info_line(result.line, result.max_ply_reached, result.nodes, result.ms));
        print(shortest_note(result));
      }
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
    options.shortest = true;
    // An info line about once a second while solving, as GUIs' mate modes show, and one
    // with the line whenever a (shorter) mate is found.
    int depth = 0;
    options.progress = [&print, &depth](uint64_t nodes, int64_t ms, int max_ply) {
      print(info_progress(depth, max_ply, nodes, ms));
    };
    options.found_line = [&print, &depth](const std::vector<Move>& line, uint64_t nodes,
                                          int64_t ms) {
      depth = int(line.size());
      print(info_line(line, 0, nodes, ms));
    };
    MateResult result;
    solve_mate(pos, options, result, table_.get());
    print(info_progress(depth, result.max_ply_reached, result.nodes, result.ms));
    if (result.status == MateStatus::kMate) print(shortest_note(result));
    print(format_usi_checkmate(result));
  });
}

void UsiMateRunner::stop_and_wait() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

}  // namespace engine::mate
