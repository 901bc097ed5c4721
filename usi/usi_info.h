// What a USI engine says about its search: "info" lines parsed, and the report of one search
// (depth, score, nodes) that the match runner, book think and the CSA client read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "shogi/types.h"

namespace usi {

// A USI score: "score cp 30" or "score mate 5" / "mate -4" / "mate +" / "mate -".
struct SearchScore {
  bool is_mate = false;
  int cp = 0;           // when !is_mate: centipawns, the engine's point of view
  int mate_plies = -1;  // when is_mate: plies to the mate, -1 when the engine gave none
  bool mating = true;   // when is_mate: the engine mates (true) or is mated (false)

  // The same score from the opponent's point of view.
  SearchScore negated() const;
  bool operator==(const SearchScore&) const = default;
};

// "30", "-120" (centipawns, no '+'); mates as "+M5" (the point of view mates in 5 plies),
// "-M4" (it is mated in 4), "+M" / "-M" when the engine gave no distance.
std::string format_search_score(const SearchScore& score);

// The fields of one info line that matter to a match and to the client's status page. Each is
// empty when the line does not have it or has it malformed ("depth x", "nodes" at the end, a
// number out of range).
struct UsiInfoLine {
  std::optional<int> depth;
  std::optional<SearchScore> score;
  std::optional<int64_t> nodes;
  std::optional<int64_t> nps;
  int multipv = 1;  // 1 when absent or malformed
};

// Parses `line` as "info ...": the words depth, score cp|mate, nodes, nps and multipv; "pv" and
// "string" end the parse (the rest of the line is theirs); other words are skipped. False
// when the line is not an info line. Never fails otherwise: malformed fields are left empty.
bool parse_usi_info(std::string_view line, UsiInfoLine& out);

// The search behind one move, as the last reports before bestmove gave it.
struct SearchReport {
  std::optional<int> depth;
  std::optional<SearchScore> score;  // the engine's point of view
  std::optional<int64_t> nodes;
  bool operator==(const SearchReport&) const = default;
};

// Follows the info lines of one search (from "go" to "bestmove") and keeps:
//   depth and score: from the last line with a depth (of the first PV when the engine sends
//     several, "multipv 1"); a line with a depth but no score ("info depth 12 currmove ...",
//     a progress line) does not replace the depth of a line that had a score;
//   nodes: the largest count of any info line (counts only grow within a search; the final
//     "info nodes N ..." line some engines send has no depth).
// Not thread-safe; a plain value.
class SearchInfoTracker {
 public:
  void reset() { *this = SearchInfoTracker(); }
  // Any line the engine sent; lines other than info lines are ignored.
  void on_line(std::string_view line);
  const SearchReport& report() const { return report_; }

 private:
  SearchReport report_;
  bool scored_depth_ = false;  // report_.depth came from a line that had a score
};

}  // namespace usi
