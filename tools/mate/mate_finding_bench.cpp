// The main search on mate problems: when its score first proves each mate.
#include "tools/mate/mate_finding_bench.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "engine/engine.h"
#include "engine/search_bench.h"
#include "tools/mate/mate_bench.h"

namespace tools {

MateFindingTotals run_mate_finding_bench(const MateFindingOptions& options, std::ostream& out) {
  MateFindingTotals totals;
  std::ifstream in(options.path);
  if (!in) {
    totals.error = "cannot read " + options.path;
    return totals;
  }
  // A directory opens, and would read as an empty file.
  if (std::error_code ec; std::filesystem::is_directory(options.path, ec)) {
    totals.error = "cannot read " + options.path + ": Is a directory";
    return totals;
  }
  const std::vector<MateProblem> problems = read_mate_problems(in);
  engine::Engine engine;
  engine.set_option("Threads", "1");
  engine.set_option("USI_Hash", "64");
  if (base::Status s = engine::set_bench_options(engine, options.options); !s) {
    totals.option_error = s.message();
    return totals;
  }
  if (base::Status s = engine.prepare(); !s) {
    totals.error = s.message();
    return totals;
  }
  // The first report whose score is a mate for the side to move (exact or a lower bound:
  // either proves a mate within that many plies).
  struct FirstMate {
    int plies = 0, depth = 0;
    uint64_t nodes = 0;
    int64_t ms = 0;
  } first;
  engine.set_info_callback([&first](const engine::SearchInfo& info) {
    if (first.plies > 0 || !info.message.empty() || info.score < shogi::kValueMateInMaxPly ||
        info.bound == engine::SearchInfo::Bound::kUpper)
      return;
    first = {shogi::kValueMate - info.score, info.depth, info.nodes, info.time_ms};
  });
  for (const MateProblem& problem : problems) {
    ++totals.problems;
    engine.new_game();
    if (base::Status s = engine.set_position(problem.sfen, {}); !s) {
      ++totals.errors;
      out << "line " << problem.line_number << ": " << s.message() << "\n";
      continue;
    }
    first = {};
    engine::SearchLimits limits;
    limits.nodes = options.nodes;
    const engine::SearchResult r = engine.search(limits);
    totals.nodes += r.nodes;
    totals.mate_calls += r.mate_calls;
    totals.mate_nodes += r.mate_nodes;
    char searched[120];
    std::snprintf(searched, sizeof searched, "searched %llu, mate calls %llu with %llu nodes",
                  (unsigned long long)r.nodes, (unsigned long long)r.mate_calls,
                  (unsigned long long)r.mate_nodes);
    char line[300];
    if (first.plies > 0) {
      ++totals.proven;
      totals.nodes_to_mate += first.nodes;
      totals.seconds_to_mate += double(first.ms) / 1000;
      std::snprintf(line, sizeof line,
                    "line %d: mate %d plies depth %d nodes %llu ms %lld (searched %llu)",
                    problem.line_number, first.plies, first.depth, (unsigned long long)first.nodes,
                    (long long)first.ms, (unsigned long long)r.nodes);
    } else {
      std::snprintf(line, sizeof line, "line %d: none (score %d depth %d, %s)", problem.line_number,
                    r.score, r.depth, searched);
    }
    out << line << "\n";
  }
  out << "Mates proven: " << totals.proven << " of " << totals.problems << "\n";
  out << "Nodes to the mates: " << totals.nodes_to_mate << "\n";
  char seconds[40];
  std::snprintf(seconds, sizeof seconds, "%.3f", totals.seconds_to_mate);
  out << "Seconds to the mates: " << seconds << "\n";
  out << "Mate calls: " << totals.mate_calls << " with " << totals.mate_nodes << " nodes\n";
  out << "Nodes searched: " << totals.nodes << "\n";
  return totals;
}

}  // namespace tools
