// The mate solver's front: options, the hooks the SVM applications plug into, the result,
// and solve_mate() which runs PDS or df-pn, extracts the mate line and verifies it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "engine/mate/mate_table.h"
#include "engine/names.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace engine::mate {

enum class MateAlgo { kPds, kDfpn };
enum class MateStatus { kMate, kNoMate, kUnknown };

const char* to_string(MateStatus status);  // "mate", "nomate", "unknown"
const char* to_string(MateAlgo algo);      // "pds", "dfpn"

// Where the mate-prediction applications (docs/techniques.md §1) plug in. The defaults change
// nothing: leaves start at 1/1, PDS raises its thresholds by 1.
class MateHooks {
 public:
  virtual ~MateHooks() = default;
  // Application 2 (df-pn+ style): initial proof and disproof numbers of a position not yet
  // in the table. `or_node`: the attacker is to move in `pos`; `ply` from the root.
  // Called only when wants_initial_numbers() is true (it costs a do/undo per child).
  virtual bool wants_initial_numbers() const { return false; }
  // `pos` may be changed during the call (a null move) but is restored before it returns.
  virtual void initial_numbers(Position& pos, int ply, bool or_node, uint32_t& pn, uint32_t& dn) {
    (void)pos, (void)ply, (void)or_node, (void)pn, (void)dn;
  }
  // Application 3: PDS's threshold increments at a node (its multiple iterative deepening);
  // PDS raises the threshold whose (number / increment) is smaller.
  virtual bool wants_threshold_increments() const { return false; }
  virtual void threshold_increments(Position& pos, int ply, bool or_node, uint32_t& pn_increment,
                                    uint32_t& dn_increment) {
    (void)pos, (void)ply, (void)or_node, (void)pn_increment, (void)dn_increment;
  }
};

struct MateOptions {
  MateAlgo algo = MateAlgo::kDfpn;  // Default: df-pn
  // Node limit of the call (application 1 scales it). A search stopped by it answers unknown.
  uint64_t node_limit = 1'000'000;          // Default: 1,000,000
  int64_t time_limit_ms = -1;               // Default: none
  const std::atomic<bool>* stop = nullptr;  // set to stop the search (answers unknown)
  // Longest path searched, in plies. Deeper paths count as unknown, never as no mate.
  int max_ply = 4000;  // Default: 4000 (Microcosmos is 1525)
  // df-pn's 1+epsilon trick: a child's threshold is ceil(second best * (1+epsilon)).
  double dfpn_epsilon = 0.25;   // Default: 0.25 (solves more: docs/search-parameters.md)
  size_t table_megabytes = 64;  // Default: 64 (when solve_mate makes its own table)
  MateHooks* hooks = nullptr;   // Default: none
  bool verify_line = true;      // Default: replay and check the mate line
  // Called from the searching thread about once a second (`go mate`'s info lines): the nodes
  // so far, the milliseconds since the start and the deepest ply reached.
  std::function<void(uint64_t nodes, int64_t ms, int max_ply)> progress;  // Default: none
  // After the first proof, search for shorter mates (each bounded two plies under the best
  // line so far) until none is left or a limit stops it. The limits cover every search.
  bool shortest = false;  // Default: false (the first mate found)
  // Called from the searching thread with each verified mate line (the shorter ones too).
  std::function<void(const std::vector<Move>& line, uint64_t nodes, int64_t ms)>
      found_line;  // Default: none
};

struct MateResult {
  MateStatus status = MateStatus::kUnknown;
  std::vector<Move> line;  // the mate line (attacker, defender, ..., mating move)
  uint64_t nodes = 0;
  int64_t ms = 0;
  int max_ply_reached = 0;  // the deepest path the search walked
  size_t stack_bytes = 0;   // the most stack the search used below its root (C++ frames)
  std::string note;         // why unknown (node limit, time, depth, unverified line, ...)
  // With MateOptions::shortest: no mate shorter than `line` exists (a bounded search
  // refuted every shorter one). Mate in 1 is always the shortest.
  bool proven_shortest = false;
};

// Solves the position: is the side to move able to mate by checks alone? Uses `table` when
// given (kept between calls: positions of one game share it), else a fresh one.
// A defender without a king is never mated (nomate). Returns ok (errors are reserved for
// bad input the front cannot search).
Status solve_mate(const Position& pos, const MateOptions& options, MateResult& result,
                  MateTable* table = nullptr);

// A solver kept from call to call, one per thread (the main search's calls of a few dozen
// nodes): its position copy, child lists and path keys keep their memory, so a call that
// finds no mate allocates nothing. solve() answers as solve_mate() does.
class MateSolver {
 public:
  MateSolver();
  ~MateSolver();
  MateSolver(const MateSolver&) = delete;
  MateSolver& operator=(const MateSolver&) = delete;

  Status solve(const Position& pos, const MateOptions& options, MateResult& result,
               MateTable* table = nullptr);

  struct Memory;  // what the calls share (solver.cpp)

 private:
  std::unique_ptr<Memory> memory_;
};

}  // namespace engine::mate
