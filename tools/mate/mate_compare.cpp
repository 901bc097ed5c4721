// Runs a problem set under several mate controls and prints the comparison tables.
#include "tools/mate/mate_compare.h"

#include <chrono>
#include <cstdio>
#include <ostream>
#include <string>

namespace tools {

using engine::mate::MateControl;
using engine::mate::MateResult;
using engine::mate::MateStatus;

namespace {

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string percent_change(double base, double value) {
  if (base <= 0) return "-";
  const double change = (value - base) / base * 100;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%+.1f%%", change);
  return buf;
}

void print_tables(const std::vector<MateCompareRow>& rows, const MateCompareOptions& o,
                  int positions, std::ostream& out) {
  const int n = int(rows.size());
  out << "positions " << positions << ", " << engine::mate::to_string(o.solver.algo)
      << ", node limit " << o.solver.node_limit << "\n\n";
  out << "Table A (the seed's 4.7 / 4.15): nodes and time over all positions\n";
  out << "control\tnodes\ttime [s]\tnodes vs " << to_string(o.controls[0]) << "\ttime vs "
      << to_string(o.controls[0]) << "\n";
  for (int i = 0; i < n; ++i)
    out << to_string(o.controls[i]) << '\t' << rows[i].all.nodes << '\t'
        << fixed(rows[i].all_seconds, 1) << '\t'
        << percent_change(double(rows[0].all.nodes), double(rows[i].all.nodes)) << '\t'
        << percent_change(rows[0].all_seconds, rows[i].all_seconds) << '\n';
  out << "\nTable B (4.8 / 4.16): nodes and time over the "
      << rows[0].both_solved.mate + rows[0].both_solved.nomate
      << " positions no run left unknown\n";
  out << "control\tnodes\ttime [s]\tnodes vs " << to_string(o.controls[0]) << "\ttime vs "
      << to_string(o.controls[0]) << "\n";
  for (int i = 0; i < n; ++i)
    out << to_string(o.controls[i]) << '\t' << rows[i].both_solved.nodes << '\t'
        << fixed(rows[i].both_solved_seconds, 2) << '\t'
        << percent_change(double(rows[0].both_solved.nodes), double(rows[i].both_solved.nodes))
        << '\t' << percent_change(rows[0].both_solved_seconds, rows[i].both_solved_seconds) << '\n';
  out << "\nTable C (4.9 / 4.17): answers\n";
  out << "control\tmate\tnomate\tunknown\n";
  for (int i = 0; i < n; ++i)
    out << to_string(o.controls[i]) << '\t' << rows[i].all.mate << '\t' << rows[i].all.nomate
        << '\t' << rows[i].all.unknown << '\n';
  out.flush();
}

}  // namespace

std::vector<MateCompareRow> run_mate_comparison(const std::vector<MateProblem>& problems,
                                                const MateCompareOptions& o, std::ostream& out,
                                                std::ostream& err) {
  const int n = int(o.controls.size());
  std::vector<MateCompareRow> rows(n);
  engine::mate::MateTable table(o.solver.table_megabytes);
  std::vector<std::unique_ptr<engine::mate::SvmMateHooks>> hooks(n);
  std::vector<std::unique_ptr<engine::mate::MateNodeLimitControl>> limits(n);
  for (int i = 0; i < n; ++i) {
    if (o.controls[i] == MateControl::kInit)
      hooks[i] =
          std::make_unique<engine::mate::SvmMateHooks>(*o.model, MateControl::kInit, o.init_a);
    if (o.controls[i] == MateControl::kThreshold)
      hooks[i] = std::make_unique<engine::mate::SvmMateHooks>(*o.model, MateControl::kThreshold,
                                                              o.threshold_a);
    if (o.controls[i] == MateControl::kLimit)
      limits[i] = std::make_unique<engine::mate::MateNodeLimitControl>(o.model, o.limit_multiplier);
  }
  int positions = 0;
  std::vector<MateResult> results(n);
  std::vector<double> seconds(n);
  for (const MateProblem& p : problems) {
    shogi::Position pos;
    if (base::Status s = pos.set_sfen(p.sfen); !s) {
      err << "line " << p.line_number << ": error: " << s.message() << std::endl;
      continue;
    }
    bool any_unknown = false;
    for (int i = 0; i < n; ++i) {
      engine::mate::MateOptions options = o.solver;
      options.hooks = hooks[i].get();
      if (limits[i]) options.node_limit = limits[i]->node_limit(pos, o.solver.node_limit);
      table.clear();
      const auto start = std::chrono::steady_clock::now();
      engine::mate::solve_mate(pos, options, results[i], &table);
      seconds[i] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (limits[i]) limits[i]->record(results[i].nodes, options.node_limit, o.solver.node_limit);
      rows[i].all.add(results[i]);
      rows[i].all_seconds += seconds[i];
      any_unknown |= results[i].status == MateStatus::kUnknown;
    }
    if (!any_unknown)
      for (int i = 0; i < n; ++i) {
        rows[i].both_solved.add(results[i]);
        rows[i].both_solved_seconds += seconds[i];
      }
    if (o.details) {
      *o.details << p.line_number;
      for (int i = 0; i < n; ++i)
        *o.details << '\t' << to_string(results[i].status) << '\t' << results[i].nodes << '\t'
                   << fixed(seconds[i] * 1000, 2);
      *o.details << '\n';
    }
    ++positions;
    if (o.progress && positions % 500 == 0) {
      *o.progress << "mate compare: " << positions << " positions";
      for (int i = 0; i < n; ++i)
        *o.progress << "; " << to_string(o.controls[i]) << " " << rows[i].all.mate << "/"
                    << rows[i].all.nomate << "/" << rows[i].all.unknown;
      *o.progress << std::endl;
    }
  }
  print_tables(rows, o, positions, out);
  return rows;
}

}  // namespace tools
