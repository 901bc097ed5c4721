// BookFrontPlayer: the opening book in front of any engine: book moves first, then the engine.
#pragma once

// Wraps the EnginePlayer that searches (the built-in engine or an external one). A search
// request whose position the book knows (BookPlayer::choose) is answered at once with the
// book's move, its note in EngineMove::note for the log and the record; other requests go to
// the engine. A ponder request on a book position is not pondered: its ponderhit answers with
// the book's move. Called from the client's loop thread, as EnginePlayer requires.

#include <cstdint>
#include <optional>

#include "client/book_player.h"
#include "client/engine_player.h"

namespace client {

class BookFrontPlayer : public EnginePlayer {
 public:
  // `book` must be open; both must outlive this player. A book move is played only for the
  // position itself or one at most `max_play_distance` away (0: the position itself): a
  // similar position's move unchecked by any search is a guess, good as a search's bonus
  // (guide) but not to play blind.
  BookFrontPlayer(const BookPlayer& book, EnginePlayer& engine, double max_play_distance = 0)
      : book_(book), engine_(engine), max_play_distance_(max_play_distance) {}

  void set_log(LogSink sink) override;
  base::Status prepare() override { return engine_.prepare(); }
  void new_game(const GameSummary& summary) override;
  void start(const SearchRequest& request, AnswerCallback answer) override;
  void ponderhit(uint64_t search_id, const SearchRequest& request) override;
  void stop(uint64_t search_id) override;
  void game_over(std::optional<GameOutcome> outcome) override { engine_.game_over(outcome); }
  void quit() override { engine_.quit(); }
  void wait() override { engine_.wait(); }

  int book_moves() const { return book_moves_; }

 private:
  // The book's move for the request's position, logged, or nullopt.
  std::optional<EngineMove> book_move(const SearchRequest& request);

  const BookPlayer& book_;
  EnginePlayer& engine_;
  double max_play_distance_;
  LogSink log_;
  bool out_of_book_ = false;  // this game left the book: the engine plays the rest
  // A ponder request answered by the book at its ponderhit.
  uint64_t book_ponder_id_ = 0;
  EngineMove book_ponder_move_;
  AnswerCallback book_ponder_answer_;
  int book_moves_ = 0;
};

}  // namespace client
