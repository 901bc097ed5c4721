// solve_mate: runs PDS or df-pn, then extracts and verifies the mate line.
#include "engine/mate/solver.h"

#include <chrono>
#include <memory>

#include "engine/mate/mate_line.h"
#include "engine/mate/mate_search.h"
#include "engine/names.h"

namespace engine::mate {

const char* to_string(MateStatus status) {
  switch (status) {
    case MateStatus::kMate:
      return "mate";
    case MateStatus::kNoMate:
      return "nomate";
    case MateStatus::kUnknown:
      break;
  }
  return "unknown";
}

const char* to_string(MateAlgo algo) { return algo == MateAlgo::kPds ? "pds" : "dfpn"; }

namespace {

int64_t elapsed_ms(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               t0)
      .count();
}

}  // namespace

struct MateSolver::Memory {
  Position pos;  // the copy each search plays its moves on
  MateSearch::Scratch scratch;
};

namespace {

// One solve: its searches (the first, the shorter-mate ones, the re-proofs of lost line nodes)
// share the table, the node and time budget, and the progress reports.
class Solve {
 public:
  Solve(const Position& start, const MateOptions& options, MateResult& result, MateTable& table,
        MateSolver::Memory& memory)
      : start_(start),
        options_(options),
        result_(result),
        table_(table),
        memory_(memory),
        t0_(std::chrono::steady_clock::now()) {
    // An escape problem: the side to move is in check and the other side has no king, so
    // it can only be the defender; the other side attacks. (A defender without a king
    // cannot be checked: the search answers nomate at once.)
    const Color stm = start.side_to_move();
    const bool escape = start.in_check() && start.king_square(~stm) == kSquareNone;
    attacker_ = escape ? ~stm : stm;
  }

  void run() {
    std::string note;
    const MateStatus first = search(start_, options_.max_ply, false, note);
    result_.status = first;
    result_.note = note;
    if (first != MateStatus::kMate) return;
    std::vector<Move> line;
    if (Status s = read_line(options_.max_ply, line); !s) {
      result_.status = MateStatus::kUnknown;
      result_.note = "proof found but " + s.message();
      return;
    }
    accept(std::move(line));
    if (options_.shortest) shorten();
  }

 private:
  // The budget left: false when it is spent (the reason in `why`).
  bool budget(MateOptions& sub, std::string& why) const {
    if (options_.node_limit <= result_.nodes) {
      why = "node limit " + std::to_string(options_.node_limit);
      return false;
    }
    sub.node_limit = options_.node_limit - result_.nodes;
    if (options_.time_limit_ms >= 0) {
      const int64_t left = options_.time_limit_ms - elapsed_ms(t0_);
      if (left <= 0) {
        why = "time limit " + std::to_string(options_.time_limit_ms) + " ms";
        return false;
      }
      sub.time_limit_ms = left;
    }
    return true;
  }

  // A search from `from` for a mate of at most max_ply plies. The first and the shorter-mate
  // searches share the budget; a re-proof (of a node the line needs) has its own small one,
  // so that a proof already found is not lost to a spent budget or a stop.
  // `refuted`, when given, says whether an unknown answer means no mate within max_ply.
  MateStatus search(const Position& from, int max_ply, bool reproof, std::string& note,
                    bool* refuted = nullptr) {
    MateOptions sub = options_;
    sub.max_ply = max_ply;
    if (reproof) {
      sub.node_limit = kReproofNodes;
      sub.time_limit_ms = -1;
      sub.stop = nullptr;
      sub.hooks = nullptr;
      sub.progress = nullptr;
    } else {
      if (!budget(sub, note)) return MateStatus::kUnknown;
      const uint64_t base = result_.nodes;
      const int64_t ms0 = elapsed_ms(t0_);
      if (options_.progress)
        sub.progress = [this, base, ms0](uint64_t nodes, int64_t ms, int deepest) {
          options_.progress(base + nodes, ms0 + ms, std::max(deepest, result_.max_ply_reached));
        };
    }
    // The searches of one solve follow each other (a re-proof starts after the search that
    // asked for it has ended), so they share the solver's memory.
    Position& pos = memory_.pos;
    pos.copy_current(from);
    MateSearch search(pos, table_, sub, attacker_, memory_.scratch);
    const MateStatus status = search.run(note);
    if (refuted) *refuted = search.refuted_within_max_ply();
    // The limits of the whole solve, not of what was left of them for this search.
    if (!reproof && note.rfind("node limit", 0) == 0)
      note = "node limit " + std::to_string(options_.node_limit);
    if (!reproof && note.rfind("time limit", 0) == 0)
      note = "time limit " + std::to_string(options_.time_limit_ms) + " ms";
    result_.nodes += search.nodes();
    result_.max_ply_reached = std::max(result_.max_ply_reached, search.max_ply_reached());
    result_.stack_bytes = std::max(result_.stack_bytes, search.stack_bytes());
    return status;
  }

  // The line of the proof in the table (at most max_plies plies), re-proving what the table
  // lost, then replayed and checked.
  Status read_line(int max_plies, std::vector<Move>& line) {
    ReproveFn reprove = [this](Position& p, int plies) {
      std::string note;
      return search(p, plies, true, note) == MateStatus::kMate;
    };
    const MateLookup root = table_.lookup(start_.board_key(), start_.hand(attacker_));
    if (root.found && root.pn == 0) max_plies = std::min(max_plies, root.mate_len);
    Status s = extract_mate_line(start_, attacker_, table_, max_plies, line, reprove);
    if (s && options_.verify_line) {
      // The defender's other escapes: proven in the table, or by a small search now.
      ProvenFn proven = [&](Position& p) {
        const MateLookup l = table_.lookup(p.board_key(), p.hand(attacker_));
        if (l.found && l.pn == 0) return true;
        std::string note;
        return search(p, options_.max_ply, true, note) == MateStatus::kMate;
      };
      s = verify_mate_line(start_, attacker_, line, proven);
    }
    return s;
  }

  void accept(std::vector<Move> line) {
    result_.line = std::move(line);
    result_.proven_shortest = result_.line.size() <= 1;
    if (options_.found_line) options_.found_line(result_.line, result_.nodes, elapsed_ms(t0_));
  }

  // Iterative shortening: a mate two plies shorter than the best line, until none is left.
  void shorten() {
    while (!result_.proven_shortest) {
      const int bound = int(result_.line.size()) - 2;
      std::string note;
      bool refuted = false;
      const MateStatus status = search(start_, bound, false, note, &refuted);
      if (status == MateStatus::kMate) {
        std::vector<Move> line;
        if (Status s = read_line(bound, line); !s) {
          result_.note = "shortest not proven: a shorter proof's " + s.message();
          return;
        }
        accept(std::move(line));
        continue;
      }
      // Every path of a shorter mate was walked and refuted within the bound.
      if (status == MateStatus::kUnknown && refuted) {
        result_.proven_shortest = true;
      } else {
        result_.note = "shortest not proven: " + note;
      }
      return;
    }
  }

  static constexpr uint64_t kReproofNodes = 200'000;  // per node of a line searched again

  const Position& start_;
  const MateOptions& options_;
  MateResult& result_;
  MateTable& table_;
  MateSolver::Memory& memory_;
  std::chrono::steady_clock::time_point t0_;
  Color attacker_ = kBlack;
};

}  // namespace

MateSolver::MateSolver() : memory_(std::make_unique<Memory>()) {}
MateSolver::~MateSolver() = default;

Status solve_mate(const Position& start, const MateOptions& options, MateResult& result,
                  MateTable* table) {
  return MateSolver().solve(start, options, result, table);
}

Status MateSolver::solve(const Position& start, const MateOptions& options, MateResult& result,
                         MateTable* table) {
  result = MateResult{};
  const auto t0 = std::chrono::steady_clock::now();
  std::unique_ptr<MateTable> own;
  if (!table) {
    own = std::make_unique<MateTable>(options.table_megabytes);
    table = own.get();
  }
  Solve(start, options, result, *table, *memory_).run();
  result.ms = elapsed_ms(t0);
  return Status::ok();
}

}  // namespace engine::mate
