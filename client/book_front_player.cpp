// BookFrontPlayer: book moves first (see book_front_player.h).
#include "client/book_front_player.h"

#include <utility>

namespace client {

void BookFrontPlayer::set_log(LogSink sink) {
  log_ = sink;
  engine_.set_log(std::move(sink));
}

void BookFrontPlayer::new_game(const GameSummary& summary) {
  out_of_book_ = false;
  book_ponder_id_ = 0;
  engine_.new_game(summary);
}

std::optional<EngineMove> BookFrontPlayer::book_move(const SearchRequest& request) {
  if (out_of_book_ || !book_.active()) return std::nullopt;
  const std::optional<BookPlay> play = book_.choose(request.position());
  if (!play || (!play->exact && play->distance > max_play_distance_)) return std::nullopt;
  EngineMove move;
  move.kind = EngineMove::Kind::kMove;
  move.move = play->move;
  move.pv = {play->move};
  move.note = play->note;
  return move;
}

void BookFrontPlayer::start(const SearchRequest& request, AnswerCallback answer) {
  if (std::optional<EngineMove> move = book_move(request)) {
    if (request.limits.ponder) {
      // No pondering needed: the book answers when (if) the opponent plays the move.
      book_ponder_id_ = request.id;
      book_ponder_move_ = std::move(*move);
      book_ponder_answer_ = std::move(answer);
      return;
    }
    ++book_moves_;
    if (log_) log_(LogLevel::kInfo, move->note);
    return answer(request.id, std::move(*move));
  }
  // The first position the book does not know ends the book for this game: a similar
  // position found later would bring the game back into lines the engine has left.
  if (!request.limits.ponder && book_.active()) out_of_book_ = true;
  engine_.start(request, std::move(answer));
}

void BookFrontPlayer::ponderhit(uint64_t search_id, const SearchRequest& request) {
  if (search_id != 0 && search_id == book_ponder_id_) {
    book_ponder_id_ = 0;
    ++book_moves_;
    if (log_) log_(LogLevel::kInfo, book_ponder_move_.note);
    AnswerCallback answer = std::move(book_ponder_answer_);
    return answer(search_id, std::move(book_ponder_move_));
  }
  engine_.ponderhit(search_id, request);
}

void BookFrontPlayer::stop(uint64_t search_id) {
  if (search_id == 0 || search_id == book_ponder_id_) book_ponder_id_ = 0;
  engine_.stop(search_id);
}

}  // namespace client
