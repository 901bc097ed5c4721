// Test doubles for the CSA client: a scripted Transport, the driver loop, a fake engine.
#pragma once

// The Driver is the loop the Asio client will run, minus the network and the engine: it
// carries the session's actions out on a ScriptedTransport and records the rest (searches,
// stops, results, logs) for the tests to check.

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "client/csa_protocol.h"
#include "client/csa_session.h"
#include "client/transport.h"
#include "shogi/csa_notation.h"
#include "shogi/notation.h"

namespace csa_test {

using namespace client;

class ScriptedTransport : public Transport {
 public:
  Status connect(const std::string&, int, int64_t) override {
    ++connects;
    open_ = true;
    peer_closed_ = false;
    return Status::ok();
  }
  bool send_line(std::string_view line) override {
    if (!open_) return false;
    sent.emplace_back(line);
    return true;
  }
  ReceiveStatus receive_lines(int64_t, std::vector<std::string>& lines) override {
    splitter_.append(inbox_, lines);
    inbox_.clear();
    if (peer_closed_ && open_) {
      open_ = false;
      return ReceiveStatus::kClosed;
    }
    return ReceiveStatus::kOpen;
  }
  void close() override { open_ = false; }
  bool is_open() const override { return open_; }

  void server_sends(std::string_view line) { (inbox_ += line) += "\r\n"; }
  void server_closes() { peer_closed_ = true; }
  std::vector<std::string> sent;
  int connects = 0;

 private:
  LineSplitter splitter_;
  std::string inbox_;
  bool open_ = false, peer_closed_ = false;
};

struct Driver {
  explicit Driver(SessionConfig config) : session(std::move(config)) {}

  void handle(int64_t now, const Event& e) {
    for (const Action& a : session.handle(now, e)) execute(now, a);
  }
  void execute(int64_t now, const Action& a) {
    if (auto* s = std::get_if<action::SendLine>(&a)) {
      if (!transport.send_line(s->line)) sent_while_closed.push_back(s->line);
    } else if (std::holds_alternative<action::Close>(a)) {
      transport.close();
    } else if (auto* c = std::get_if<action::Connect>(&a)) {
      connect_delays.push_back(c->delay_ms);
      if (c->delay_ms == 0 || auto_reconnect) {
        transport.connect("localhost", 4081, 1000);
        handle(now + c->delay_ms, event::Connected{});
      }
    } else if (auto* s = std::get_if<action::StartSearch>(&a)) {
      searches.push_back(s->request);
      if (on_search) on_search(s->request, now);
    } else if (auto* s = std::get_if<action::StopSearch>(&a)) {
      stops.push_back({s->search_id, now});
    } else if (auto* p = std::get_if<action::PonderHit>(&a)) {
      ponderhits.push_back(*p);
    } else if (auto* g = std::get_if<action::GameEnded>(&a)) {
      results.push_back(g->result);
    } else if (auto* r = std::get_if<action::GameRejected>(&a)) {
      rejections.push_back(*r);
    } else if (std::holds_alternative<action::GameStarted>(a)) {
      ++games_started;
    } else if (std::holds_alternative<action::RecordUpdated>(a)) {
      ++record_updates;
    } else if (auto* l = std::get_if<action::Log>(&a)) {
      logs.push_back(*l);
    } else if (auto* f = std::get_if<action::Finished>(&a)) {
      finished = *f;
    }
  }
  // Moves what the transport received into the session.
  void pump(int64_t now) {
    std::vector<std::string> lines;
    const bool was_open = transport.is_open();
    const auto status = transport.receive_lines(0, lines);
    for (const std::string& l : lines) handle(now, event::LineReceived{l});
    if (was_open && status == Transport::ReceiveStatus::kClosed) handle(now, event::Disconnected{});
  }
  void server(int64_t now, const std::string& line) {
    transport.server_sends(line);
    pump(now);
  }
  // Fires every timer due by `now`. A timer that stays due after firing is a session bug.
  void advance_to(int64_t now) {
    for (int64_t w, last = -1; (w = session.next_wakeup_ms()) <= now; last = w) {
      REQUIRE_MESSAGE(w > last, "the session's wakeup did not advance past " << w);
      handle(w, event::Timer{});
    }
  }
  int count_logs(LogLevel level, const std::string& part = "") const {
    int n = 0;
    for (const auto& l : logs) n += l.level == level && l.message.find(part) != std::string::npos;
    return n;
  }

  CsaSession session;
  ScriptedTransport transport;
  std::function<void(const SearchRequest&, int64_t)> on_search;
  bool auto_reconnect = false;
  std::vector<SearchRequest> searches;
  std::vector<std::pair<uint64_t, int64_t>> stops;
  std::vector<action::PonderHit> ponderhits;
  std::vector<GameResult> results;
  std::vector<action::GameRejected> rejections;
  std::vector<action::Log> logs;
  std::vector<std::string> sent_while_closed;
  std::vector<int64_t> connect_delays;
  std::optional<action::Finished> finished;
  int games_started = 0, record_updates = 0;
};

// The fake engine: answers with the line the transcript's client sent, its floodgate comment
// turned back into a score and PV. Illegal moves are built by hand, as a buggy engine would.
inline EngineMove engine_answer(const SearchRequest& r, const std::string& line) {
  ClientLine cl;
  REQUIRE(parse_client_line(line, cl));
  EngineMove em;
  if (cl.type == ClientLineType::kSpecialMove) {
    em.kind = cl.special == shogi::CsaSpecialMove::kKachi ? EngineMove::Kind::kWin
                                                          : EngineMove::Kind::kResign;
    return em;
  }
  REQUIRE(cl.type == ClientLineType::kMove);
  shogi::Position pos = r.position();
  const std::string& t = cl.move.move;
  if (!shogi::parse_csa_move(pos, t, em.move)) {
    auto sq = [&](int i) { return shogi::make_square(t[i] - '1', t[i + 1] - '1'); };
    em.move = shogi::Move::board(
        sq(1), sq(3), false,
        shogi::make_piece(pos.side_to_move(), shogi::piece_type_from_csa(t.substr(5, 2))));
    return em;
  }
  if (cl.move.comment.empty()) return em;
  std::vector<std::string> words;
  for (size_t p = 0; p < cl.move.comment.size();) {
    const size_t e = std::min(cl.move.comment.find(' ', p), cl.move.comment.size());
    words.push_back(cl.move.comment.substr(p, e - p));
    p = e + 1;
  }
  REQUIRE(words.size() >= 2);
  REQUIRE(words[0] == "*");
  const int black_score = std::stoi(words[1]);
  em.score = r.us == shogi::kBlack ? black_score : -black_score;
  em.pv.push_back(em.move);
  pos.do_move(em.move);
  for (size_t i = 2; i < words.size(); ++i) {
    shogi::Move m;
    REQUIRE_MESSAGE(shogi::parse_csa_move(pos, words[i], m), words[i]);
    em.pv.push_back(m);
    pos.do_move(m);
  }
  return em;
}

}  // namespace csa_test
