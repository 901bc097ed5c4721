// solve_mate: runs PDS or df-pn, then extracts and verifies the mate line.
#include "engine/mate/solver.h"

#include <chrono>
#include <memory>

#include "engine/mate/mate_line.h"
#include "engine/mate/mate_search.h"

namespace engine::mate {

const char* to_string(MateStatus status) {
  switch (status) {
    case MateStatus::kMate: return "mate";
    case MateStatus::kNoMate: return "nomate";
    case MateStatus::kUnknown: break;
  }
  return "unknown";
}

const char* to_string(MateAlgo algo) { return algo == MateAlgo::kPds ? "pds" : "dfpn"; }

Status solve_mate(const Position& start, const MateOptions& options, MateResult& result,
                  MateTable* table) {
  result = MateResult{};
  const auto t0 = std::chrono::steady_clock::now();
  // A defender without a king cannot be checked: the search answers nomate at once.
  std::unique_ptr<MateTable> own;
  if (!table) {
    own = std::make_unique<MateTable>(options.table_megabytes);
    table = own.get();
  }
  Position pos = start;
  // An escape problem: the side to move is in check and the other side has no king, so
  // it can only be the defender; the other side attacks.
  const Color stm = start.side_to_move();
  const bool escape = start.in_check() && start.king_square(~stm) == kSquareNone;
  const Color attacker = escape ? ~stm : stm;
  MateSearch search(pos, *table, options, attacker);
  result.status = search.run(result.note);
  result.nodes = search.nodes();
  result.max_ply_reached = search.max_ply_reached();
  result.stack_bytes = search.stack_bytes();
  if (result.status == MateStatus::kMate) {
    Status s = extract_mate_line(start, attacker, *table, options.max_ply + 2, result.line);
    if (s && options.verify_line) {
      // The defender's other escapes: proven in the table, or by a small search now.
      ProvenFn proven = [&](Position& p) {
        const MateLookup l = table->lookup(p.board_key(), p.hand(attacker));
        if (l.found && l.pn == 0) return true;
        MateOptions sub = options;
        sub.node_limit = 100000;
        sub.hooks = nullptr;
        Position copy = p;
        MateSearch again(copy, *table, sub, attacker);
        std::string note;
        return again.run(note) == MateStatus::kMate;
      };
      s = verify_mate_line(start, attacker, result.line, proven);
    }
    if (!s) {
      result.status = MateStatus::kUnknown;
      result.note = "proof found but " + s.message();
    }
  }
  result.ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::steady_clock::now() - t0)
                  .count();
  return Status::ok();
}

}  // namespace engine::mate
