// EngineAdapter: engine::Engine behind the EnginePlayer interface.
#include "client/engine_player.h"

#include "book/engine_book.h"

namespace client {

using base::Status;

EngineMove engine_move_from(const engine::SearchResult& result,
                            const std::vector<shogi::Move>& last_pv) {
  EngineMove m;
  switch (result.kind) {
    case engine::SearchResult::Kind::kResign:
      m.kind = EngineMove::Kind::kResign;
      return m;
    case engine::SearchResult::Kind::kWin:
      m.kind = EngineMove::Kind::kWin;
      return m;
    case engine::SearchResult::Kind::kMove:
      break;
  }
  m.kind = EngineMove::Kind::kMove;
  m.move = result.best;
  // kValueNone: the search stopped before its first iteration ended (no value to show).
  if (result.score != shogi::kValueNone) m.score = result.score;
  if (!last_pv.empty() && last_pv.front() == result.best)
    m.pv = last_pv;
  else
    m.pv.push_back(result.best);
  return m;
}

EngineAdapter::EngineAdapter() {
  book::install_book_loader(engine_);
  engine_.set_info_callback([this](const engine::SearchInfo& info) {
    if (info.pv.empty() || info.multipv > 1) return;  // the best line only
    std::lock_guard<std::mutex> lock(mutex_);
    last_pv_ = info.pv;
    last_nps_ = info.nps;
  });
  engine_.set_result_callback([this](const engine::SearchResult& result) {
    uint64_t id;
    std::vector<shogi::Move> pv;
    uint64_t nps = 0;
    AnswerCallback answer;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      id = search_id_;
      pv = last_pv_;
      nps = last_nps_;
      answer = answer_;
      running_ = false;
    }
    if (!answer) return;
    EngineMove move = engine_move_from(result, pv);
    move.nodes = result.nodes;
    if (nps > 0) move.nps = nps;
    answer(id, std::move(move));
  });
}

EngineAdapter::~EngineAdapter() {
  engine_.stop();
  engine_.wait();
}

Status EngineAdapter::configure(const CsaConfig& c) {
  const std::pair<std::string, std::string> fixed[] = {
      {"Threads", std::to_string(c.threads)},
      {"USI_Hash", std::to_string(c.hash_mb)},
      {"USI_Ponder", c.ponder ? "true" : "false"},
      {"ResignValue", std::to_string(c.resign_threshold_cp)},
  };
  for (const auto& [name, value] : fixed)
    if (Status st = engine_.set_option(name, value); !st) return st;
  if (!c.weights.empty())
    if (Status st = engine_.set_option("EvalFile", c.weights); !st)
      return Status::error("engine.weights: " + st.message());
  // The engine's own book guides its search; with move_choice "play" the client plays the
  // book's moves in front of it (BookFrontPlayer) and the engine searches without one.
  if (c.book == "off" || c.book_mode == "off" || c.effective_book_move_choice() == "play") {
    if (Status st = engine_.set_option("USI_OwnBook", "false"); !st) return st;
  } else {
    if (!c.book.empty())
      if (Status st = engine_.set_option("BookFile", c.book); !st)
        return Status::error("engine.book: " + st.message());
    const std::pair<std::string, std::string> book[] = {
        {"BookMode", c.book_mode},
        {"BookMaxPly", std::to_string(c.book_max_ply == 0 ? 1000 : c.book_max_ply)},
        {"BookMaxDistance", std::to_string(c.book_max_distance)},
    };
    for (const auto& [name, value] : book)
      if (Status st = engine_.set_option(name, value); !st)
        return Status::error("book: " + st.message());
  }
  for (const CsaConfig::UsiOption& o : c.usi_options)
    if (Status st = engine_.set_option(o.name, o.value); !st)
      return Status::error(o.origin + ": engine.usi." + o.name + ": " + st.message());
  return Status::ok();
}

Status EngineAdapter::prepare() { return engine_.prepare(); }

void EngineAdapter::new_game(const GameSummary&) {
  engine_.wait();
  engine_.new_game();
}

void EngineAdapter::start(const SearchRequest& request, AnswerCallback answer) {
  engine_.stop();
  engine_.wait();
  if (Status st = engine_.set_position(request.root, request.moves); !st) {
    // The session built the position from moves it checked: this is a bug, so resign.
    EngineMove resign;
    resign.kind = EngineMove::Kind::kResign;
    answer(request.id, resign);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    search_id_ = request.id;
    last_pv_.clear();
    last_nps_ = 0;
    answer_ = std::move(answer);
    running_ = true;
  }
  engine_.go(request.limits);
}

void EngineAdapter::ponderhit(uint64_t search_id, const SearchRequest&) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!running_ || search_id != search_id_) return;
  }
  engine_.ponderhit();
}

void EngineAdapter::stop(uint64_t search_id) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!running_ || (search_id != 0 && search_id != search_id_)) return;
  }
  engine_.stop();
}

void EngineAdapter::wait() { engine_.wait(); }

}  // namespace client
