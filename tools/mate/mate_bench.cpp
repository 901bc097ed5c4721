// Mate problem files: parsing, solving each problem, printing results and totals.
#include "tools/mate/mate_bench.h"

#include <istream>
#include <ostream>
#include <utility>

#include "base/words.h"
#include "shogi/notation.h"
#include "shogi/position.h"

namespace tools {
namespace {

std::string trimmed_line(std::string_view s) { return std::string(base::trim_blanks(s)); }

}  // namespace

std::vector<MateProblem> read_mate_problems(std::istream& in) {
  std::vector<MateProblem> problems;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    line = trimmed_line(line);
    if (line.empty()) continue;
    if (line.rfind("sfen ", 0) == 0) line = trimmed_line(line.substr(5));
    problems.push_back({number, line});
  }
  return problems;
}

void MateTotals::add(const engine::mate::MateResult& r) {
  using engine::mate::MateStatus;
  if (r.status == MateStatus::kMate)
    ++mate;
  else if (r.status == MateStatus::kNoMate)
    ++nomate;
  else
    ++unknown;
  nodes += r.nodes;
  ms += r.ms;
}

std::string format_mate_result(const engine::mate::MateResult& result) {
  std::string s = engine::mate::to_string(result.status);
  for (shogi::Move m : result.line) {
    s += ' ';
    s += shogi::format_usi_move(m);
  }
  s += " nodes ";
  s += std::to_string(result.nodes);
  s += " ms ";
  s += std::to_string(result.ms);
  return s;
}

std::string format_mate_totals(const MateTotals& t) {
  const uint64_t nps = t.ms > 0 ? t.nodes * 1000 / uint64_t(t.ms) : t.nodes * 1000;
  std::string s = "total";
  const std::pair<const char*, uint64_t> fields[] = {
      {"mate", t.mate},     {"nomate", t.nomate}, {"unknown", t.unknown},
      {"errors", t.errors}, {"nodes", t.nodes},   {"ms", uint64_t(t.ms)},
      {"nps", nps}};
  for (const auto& [name, value] : fields) {
    s += ' ';
    s += name;
    s += ' ';
    s += std::to_string(value);
  }
  return s;
}

MateTotals run_mate_problems(std::istream& in, const engine::mate::MateOptions& options,
                             std::ostream& out, std::ostream& err,
                             engine::mate::MateNodeLimitControl* limit) {
  MateTotals totals;
  engine::mate::MateTable table(options.table_megabytes);
  for (const MateProblem& p : read_mate_problems(in)) {
    shogi::Position pos;
    base::Status s = pos.set_sfen(p.sfen);
    engine::mate::MateResult result;
    if (s) {
      table.clear();  // problems are independent (their piece totals may differ)
      engine::mate::MateOptions these = options;
      if (limit) these.node_limit = limit->node_limit(pos, options.node_limit);
      s = engine::mate::solve_mate(pos, these, result, &table);
      if (s && limit) limit->record(result.nodes, these.node_limit, options.node_limit);
    }
    if (!s) {
      err << "line " << p.line_number << ": error: " << s.message() << std::endl;
      ++totals.errors;
      continue;
    }
    totals.add(result);
    out << format_mate_result(result);
    if (result.status == engine::mate::MateStatus::kUnknown && !result.note.empty())
      out << " # " << result.note;
    if (result.status == engine::mate::MateStatus::kMate && options.shortest) {
      out << " # " << result.line.size() << " plies, ";
      out << (result.proven_shortest ? "proven shortest" : result.note);
    }
    out << std::endl;
  }
  out << format_mate_totals(totals) << std::endl;
  return totals;
}

}  // namespace tools
