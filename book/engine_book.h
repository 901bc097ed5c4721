// EngineBook: a Book as the engine's BookAdvisor, with the cut-offs users of other engines expect.
#pragma once

#include <memory>
#include <string>

#include "base/status.h"
#include "book/book.h"
#include "engine/book_advisor.h"
#include "engine/engine.h"

namespace book {

// Answers the engine's probes from an in-memory Book: the candidates of Book::probe, then
// the narrow-book cut (moves under narrow_cut_percent of the count), the evaluation-
// difference limit (moves whose stored value trails the best stored value by more than
// eval_diff_cp) and the depth limit (moves whose stored value is shallower than min_depth),
// the survivors' weights renormalised. Immutable; thread-safe.
class EngineBook : public engine::BookAdvisor {
 public:
  explicit EngineBook(std::vector<BookEntry> entries) : book_(std::move(entries)) {}
  std::vector<engine::BookSuggestion> suggest(const shogi::Position& pos,
                                              const engine::BookRequest& request) const override;
  const Book& book() const { return book_; }

 private:
  Book book_;
};

// Loads the book directory into memory and closes it (so that any number of engines share
// one book). Errors name the directory.
base::Status load_engine_book(const std::string& directory,
                              std::shared_ptr<const engine::BookAdvisor>& out);

// Gives the engine a BookFile loader backed by load_engine_book.
void install_book_loader(engine::Engine& engine);

}  // namespace book
