// The record comment of a search report.
#include "tools/match/match_search_info.h"

namespace tools {

using usi::format_search_score;
using usi::SearchReport;

std::string search_comment(const SearchReport& report, shogi::Color mover) {
  if (!report.depth && !report.score) return "";
  std::string s = "** ";
  if (report.score)
    s += format_search_score(mover == shogi::kBlack ? *report.score : report.score->negated());
  else
    s += "?";
  if (report.depth) s += " depth " + std::to_string(*report.depth);
  if (report.nodes) s += " nodes " + std::to_string(*report.nodes);
  return s;
}

}  // namespace tools
