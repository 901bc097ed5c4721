// MatchEngine: starting, reusing and replacing the process behind one engine of a match.
#include "tools/match/match_engine.h"

namespace tools {

using base::Status;

void MatchEngine::set_log(usi::UsiEngineProcess::LogSink sink) {
  log_ = std::move(sink);
  if (process_) process_->set_log(log_);
}

Status MatchEngine::prepare(const usi::EngineConfig& config, Milliseconds timeout,
                            usi::EngineReply& reply) {
  reply = {};
  restarted_ = false;
  if (process_ && kept_) {
    reply = process_->new_game(timeout);
    if (reply.ok()) return Status::ok();
    // It died or hangs between games: a new process takes its place.
    if (log_) log_("# restarting the engine: " + reply.detail);
    restarted_ = true;
  } else if (reuse_ && faulted_) {
    restarted_ = true;
  }
  kept_ = false;
  faulted_ = false;
  process_ = std::make_unique<usi::UsiEngineProcess>();  // the old one, if any, is killed
  process_->set_log(log_);
  if (Status s = process_->start(config); !s) {
    process_.reset();
    return s;
  }
  reply = process_->prepare_game(config.options, timeout);
  return Status::ok();
}

void MatchEngine::end_game(std::string_view result, bool faulted) {
  if (!process_) return;
  process_->send_gameover(result);
  faulted_ = faulted;
  kept_ = reuse_ && !faulted;
  if (!kept_) process_->quit();
}

void MatchEngine::release(Clock::time_point deadline) {
  if (!process_ || kept_) return;
  process_->stop(deadline);
  process_.reset();
}

void MatchEngine::shut_down() {
  if (!process_ || !kept_) return;
  process_->quit();
  kept_ = false;
}

}  // namespace tools
