// ThinkEngines: starting, resetting and querying the engines of one book-think job.
#include "tools/book/book_think_engines.h"

#include "shogi/notation.h"

namespace tools {

using base::Status;
using Milliseconds = std::chrono::milliseconds;

std::string ThinkSearchLimits::go_command(bool byoyomi_form) const {
  std::string go = depth > 0      ? "go depth "
                   : byoyomi_form ? "go btime 0 wtime 0 byoyomi "
                                  : "go movetime ";
  go += std::to_string(depth > 0 ? depth : movetime_ms);
  return go;
}

Milliseconds ThinkSearchLimits::timeout() const {
  if (timeout_ms > 0) return Milliseconds(timeout_ms);
  if (depth > 0) return Milliseconds(600000);
  return Milliseconds(int64_t(movetime_ms) * 2 + 60000);
}

ThinkAnswer think_answer_from(const usi::BestMove& best) {
  ThinkAnswer a;
  a.best_move = best.move;
  if (best.search.score) {
    a.value = score_to_think_value(*best.search.score);
    a.depth = best.search.depth.value_or(0);
  } else if (best.move == "resign") {
    a.value = -kThinkMateValue;
  } else if (best.move == "win") {
    a.value = kThinkMateValue;
  }
  return a;
}

ThinkEngines::ThinkEngines(std::vector<usi::EngineConfig> configs, ThinkSearchLimits limits)
    : configs_(std::move(configs)), limits_(limits), processes_(configs_.size()) {
  for (const usi::EngineConfig& c : configs_)
    byoyomi_form_.push_back(usi::is_gpsusi_command(c.command));
}

ThinkEngines::~ThinkEngines() { shut_down(); }

std::string ThinkEngines::describe(size_t index) const {
  std::string s = "engine ";
  s += std::to_string(index);
  s += " (";
  s += configs_[index].command;
  s += ')';
  return s;
}

Status ThinkEngines::start_engine(size_t index) {
  auto process = std::make_unique<usi::UsiEngineProcess>();
  if (Status s = process->start(configs_[index]); !s)
    return Status::error(describe(index) + ": " + s.message());
  const usi::EngineReply r =
      process->start_session(configs_[index].options, Milliseconds(limits_.ready_timeout_ms));
  if (!r.ok()) return Status::error(describe(index) + ": " + r.detail);
  processes_[index] = std::move(process);
  return Status::ok();
}

Status ThinkEngines::start() {
  for (size_t i = 0; i < configs_.size(); ++i)
    if (!processes_[i])
      if (Status s = start_engine(i); !s) return s;
  return Status::ok();
}

Status ThinkEngines::new_position() {
  if (Status s = start(); !s) return s;
  for (size_t i = 0; i < processes_.size(); ++i) {
    const usi::EngineReply r = processes_[i]->new_game(Milliseconds(limits_.ready_timeout_ms));
    if (!r.ok()) return Status::error(describe(i) + ": " + r.detail);
  }
  return Status::ok();
}

Status ThinkEngines::search(int index, const std::string& root_sfen,
                            const std::vector<shogi::Move>& path, ThinkAnswer& answer) {
  const size_t i = size_t(index);
  if (!processes_[i]) return Status::error(describe(i) + ": not running");
  std::string position = "position sfen " + root_sfen;
  if (!path.empty()) {
    position += " moves";
    for (shogi::Move m : path) {
      position += ' ';
      position += shogi::format_usi_move(m);
    }
  }
  const usi::BestMove best =
      processes_[i]->think(position, limits_.go_command(byoyomi_form_[i]), limits_.timeout());
  if (!best.ok())
    return Status::error(describe(i) + ": " + best.detail + " after '" + position + "'");
  answer = think_answer_from(best);
  return Status::ok();
}

void ThinkEngines::restart() {
  for (auto& p : processes_) p.reset();  // the destructor kills the process
}

void ThinkEngines::shut_down() {
  const auto deadline = usi::UsiEngineProcess::Clock::now() + Milliseconds(2000);
  for (auto& p : processes_)
    if (p) p->quit();
  for (auto& p : processes_)
    if (p) p->stop(deadline);
  for (auto& p : processes_) p.reset();
}

Status ThinkEngines::think(const std::string& root_sfen, int tree_depth, ThinkNode& tree) {
  shogi::Position root;
  Status s = root.set_sfen(root_sfen);
  if (s) s = new_position();
  if (s)
    s = expand_think_tree(
        root, size(), tree_depth,
        [&](int e, const std::vector<shogi::Move>& path, ThinkAnswer& answer) {
          return search(e, root_sfen, path, answer);
        },
        tree);
  if (!s) restart();
  return s;
}

}  // namespace tools
