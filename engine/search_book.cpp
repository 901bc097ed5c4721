// SearchManager's opening-book guidance: the bonus table of one search and book moves.
#include <algorithm>
#include <cstdio>

#include "engine/names.h"
#include "engine/search.h"
#include "shogi/notation.h"

namespace engine {
namespace {

// Bonuses for a position's suggestions: the favourite gets the full bonus, the others in
// proportion to their weight.
std::vector<BookBonus> to_bonuses(const std::vector<BookSuggestion>& suggestions, Value bonus) {
  std::vector<BookBonus> out;
  double top = 0;
  for (const BookSuggestion& s : suggestions) top = std::max(top, s.weight);
  if (top <= 0) return out;
  for (const BookSuggestion& s : suggestions) {
    const Value b = Value(bonus * s.weight / top + 0.5);
    if (b > 0) out.push_back({s.move.key16(), b});
  }
  return out;
}

}  // namespace

std::string describe_book_suggestions(const std::vector<BookSuggestion>& suggestions,
                                      size_t chosen) {
  std::string s = chosen < suggestions.size()
                      ? "book move " + format_usi_move(suggestions[chosen].move) + ", from"
                      : "book guides the search:";
  constexpr size_t kShown = 8;
  for (size_t i = 0; i < suggestions.size() && i < kShown; ++i) {
    const BookSuggestion& b = suggestions[i];
    char weight[16];
    std::snprintf(weight, sizeof weight, "%.0f%%", b.weight * 100);
    s += ' ' + format_usi_move(b.move) + ' ' + weight + " (" + std::to_string(b.count);
    if (b.value != kValueNone) s += ", " + std::to_string(b.value) + " cp";
    s += ')';
  }
  if (suggestions.size() > kShown)
    s += " and " + std::to_string(suggestions.size() - kShown) + " more";
  return s;
}

std::vector<BookSuggestion> SearchManager::prepare_book(const MoveList& legal) {
  book_bonuses_.clear();
  book_plies_ = 0;
  const BookGuidance& g = book_;
  if (!g.advisor || g.request.mode == BookMode::kOff || root_.game_ply() > g.max_game_ply ||
      (limits_.depth > 0 && limits_.depth <= 1))
    return {};
  std::vector<BookSuggestion> root = g.advisor->suggest(root_, g.request);
  if (g.choice != BookGuidance::Choice::kGuide || g.bonus == 0) return root;
  if (!root.empty()) book_bonuses_.push_back({root_.key(), to_bonuses(root, g.bonus)});
  if (g.search_plies >= 2 && root_.game_ply() + 1 <= g.max_game_ply) {
    Position child = root_;
    for (Move m : legal) {
      child.do_move(m);
      std::vector<BookSuggestion> replies = g.advisor->suggest(child, g.request);
      if (!replies.empty()) book_bonuses_.push_back({child.key(), to_bonuses(replies, g.bonus)});
      child.undo_move();
    }
  }
  if (!book_bonuses_.empty()) book_plies_ = std::clamp(g.search_plies, 1, 2);
  return root;
}

const std::vector<BookBonus>* SearchManager::book_bonuses(uint64_t key) const {
  for (const auto& [k, bonuses] : book_bonuses_)
    if (k == key) return &bonuses;
  return nullptr;
}

std::optional<SearchResult> SearchManager::choose_book_move(
    const std::vector<BookSuggestion>& suggestions) {
  if (book_.choice == BookGuidance::Choice::kGuide || suggestions.empty()) return std::nullopt;
  const size_t pick = pick_book_suggestion(
      suggestions, book_.choice == BookGuidance::Choice::kWeighted, book_random_);
  SearchResult r;
  r.kind = SearchResult::Kind::kMove;
  r.best = suggestions[pick].move;
  r.score = suggestions[pick].value == kValueNone ? 0 : suggestions[pick].value;
  r.depth = 0;
  if (on_info_) {
    SearchInfo note;
    note.message = describe_book_suggestions(suggestions, pick);
    on_info_(note);
    SearchInfo info;
    info.score = r.score;
    info.time_ms = elapsed_ms();
    info.pv = {r.best};
    on_info_(info);
  }
  return r;
}

}  // namespace engine
