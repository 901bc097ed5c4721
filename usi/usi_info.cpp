// USI info lines parsed, and the last report of a search kept.
#include "usi/usi_info.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <vector>

#include "base/words.h"

namespace usi {

namespace {

using base::split_words;

// A whole word as a decimal integer in [min, max], an optional '+' or '-' in front.
template <typename Int>
std::optional<Int> parse_integer(std::string_view word, Int min, Int max) {
  if (!word.empty() && word.front() == '+') word.remove_prefix(1);
  if (word.empty() || word.front() == '+') return std::nullopt;
  Int value{};
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (ec != std::errc() || end != word.data() + word.size()) return std::nullopt;
  if (value < min || value > max) return std::nullopt;
  return value;
}

// Centipawn scores beyond this are nonsense; the bound keeps negation safe.
constexpr int kMaxCp = 1000000000;
constexpr int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();

// The word after "mate": "5", "+5", "-4", "-0", "+", "-".
std::optional<SearchScore> parse_mate(std::string_view word) {
  SearchScore s;
  s.is_mate = true;
  if (word == "+" || word == "-") {
    s.mating = word == "+";
    return s;
  }
  const bool negative = !word.empty() && word.front() == '-';
  if (negative) word.remove_prefix(1);
  const std::optional<int> plies = parse_integer<int>(word, 0, kMaxCp);
  if (!plies) return std::nullopt;
  s.mate_plies = *plies;
  s.mating = !negative;
  return s;
}

}  // namespace

SearchScore SearchScore::negated() const {
  SearchScore s = *this;
  if (is_mate)
    s.mating = !mating;
  else
    s.cp = -cp;
  return s;
}

std::string format_search_score(const SearchScore& score) {
  if (!score.is_mate) return std::to_string(score.cp);
  std::string s = score.mating ? "+M" : "-M";
  if (score.mate_plies >= 0) s += std::to_string(score.mate_plies);
  return s;
}

bool parse_usi_info(std::string_view line, UsiInfoLine& out) {
  out = UsiInfoLine();
  const std::vector<std::string_view> words = split_words(line);
  if (words.empty() || words[0] != "info") return false;
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string_view w = words[i];
    const bool has_next = i + 1 < words.size();
    if (w == "pv" || w == "string") break;
    // A malformed value is not consumed: it may be the next keyword ("pv", "string").
    if (w == "depth" && has_next) {
      if (const std::optional<int> d = parse_integer<int>(words[i + 1], 0, 100000)) {
        out.depth = d;
        ++i;
      }
    } else if (w == "nodes" && has_next) {
      if (const std::optional<int64_t> n = parse_integer<int64_t>(words[i + 1], 0, kMaxInt64)) {
        out.nodes = n;
        ++i;
      }
    } else if (w == "nps" && has_next) {
      if (const std::optional<int64_t> n = parse_integer<int64_t>(words[i + 1], 0, kMaxInt64)) {
        out.nps = n;
        ++i;
      }
    } else if (w == "multipv" && has_next) {
      if (const std::optional<int> k = parse_integer<int>(words[i + 1], 1, 100000)) {
        out.multipv = *k;
        ++i;
      }
    } else if (w == "score" && i + 2 < words.size()) {
      const std::string_view kind = words[i + 1], value = words[i + 2];
      if (kind == "cp") {
        ++i;
        if (std::optional<int> cp = parse_integer<int>(value, -kMaxCp, kMaxCp)) {
          out.score = SearchScore();
          out.score->cp = *cp;
          ++i;
        }
      } else if (kind == "mate") {
        ++i;
        if (const std::optional<SearchScore> mate = parse_mate(value)) {
          out.score = mate;
          ++i;
        }
      }
      // Another word after "score" is not a score; the loop goes on from it.
    }
  }
  return true;
}

void SearchInfoTracker::on_line(std::string_view line) {
  UsiInfoLine info;
  if (!parse_usi_info(line, info)) return;
  if (info.nodes) report_.nodes = std::max(report_.nodes.value_or(0), *info.nodes);
  if (!info.depth || info.multipv != 1) return;
  if (info.score) {
    report_.depth = info.depth;
    report_.score = info.score;
    scored_depth_ = true;
  } else if (!scored_depth_) {
    report_.depth = info.depth;
  }
}

}  // namespace usi
