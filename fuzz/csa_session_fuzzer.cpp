// libFuzzer target: a CsaSession fed arbitrary server lines after a login, with the engine,
// the clock, the operator and the connection driven by the input too.
//
// The input is LF-separated lines (split by LineSplitter, as the transport does). A line is a
// server line, except for driver lines starting with "!!" (no CSA server line starts so):
//   before anything else (configuration):
//     !!L<login line>   "!!LLOGIN alice demo-60-5,tripA" or "... x1": name, password, x1
//     !!G<n>            games to play;  !!F  reject every game (game_filter)
//     !!K               keep-alive every 30 s;  !!X<game> <+|-|*>  the x1 %%GAME request
//                       (ignored unless the game name is printable ASCII without spaces)
//   any time:
//     !!T<ms>           advance the clock by ms and fire every timer due
//     !!M<csa> [<score> <pv...>]  the engine answers the pending search with this move
//                       (built by hand when not legal, as a buggy engine would)
//     !!E<k>            the engine answers with its k-th legal move (resigns when none)
//     !!R / !!W         the engine resigns / declares the entering-king win
//     !!e[<t>]          the server echoes our last move with ",T<t>"
//     !!Q / !!QI        the operator quits after the game / at once
//     !!U<line>         an x1 command from the operator
//     !!D               the connection drops (or the server closes it)
// Each other line arrives 1 ms after the previous one. A Connect action is answered by
// Connected after its delay (at most 20 reconnections).
//
// Oracles beyond "no crash, no sanitizer report":
//   - every line the session sends is one line (no CR/LF), at most kMaxLineLength bytes, and
//     parses as a client line;
//   - every search request names a legal position: its SFEN sets and its moves are legal;
//   - a Timer never leaves the next wakeup at or before the time it fired.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/csa_protocol.h"
#include "client/csa_session.h"
#include "client/transport.h"
#include "fuzz/fuzz_check.h"
#include "shogi/csa_notation.h"
#include "shogi/movegen.h"
#include "shogi/notation.h"
#include "shogi/position.h"

using namespace client;

namespace {

constexpr int kMaxConnects = 20;
constexpr int kMaxTimerFires = 2000;
constexpr int64_t kMaxAdvanceMs = int64_t(1) << 40;

std::optional<int64_t> parse_int(std::string_view s) {
  if (s.empty() || s.size() > 12) return std::nullopt;
  int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

shogi::Position request_position(const SearchRequest& r) {
  shogi::Position pos;
  const base::Status st = pos.set_sfen(r.sfen);
  FUZZ_CHECK(st, "search request with a bad SFEN '" + r.sfen + "': " + st.message());
  for (const std::string& u : r.usi_moves) {
    shogi::Move m;
    const base::Status ms = shogi::parse_usi_move(pos, u, m);
    FUZZ_CHECK(ms, "search request with an illegal move " + u + " after " + pos.sfen());
    pos.do_move(m);
  }
  return pos;
}

class Harness {
 public:
  void configure(std::string_view cmd) {
    if (cmd.starts_with("L")) {
      ClientLine cl;
      if (parse_client_line(cmd.substr(1), cl) && cl.type == ClientLineType::kLogin) {
        config_.name = cl.name;
        config_.password = cl.password;
        config_.x1 = cl.x1;
      }
    } else if (cmd.starts_with("G")) {
      if (auto n = parse_int(cmd.substr(1))) config_.games = int(std::min<int64_t>(*n, 100));
    } else if (cmd == "F") {
      config_.game_filter = [](const GameSummary&) { return std::string("fuzz rejection"); };
    } else if (cmd == "K") {
      config_.keep_alive_s = 30;
    } else if (cmd.starts_with("X") && cmd.size() >= 4) {
      // Neither the session nor csa_config checks the game name: one holding a control byte
      // or LF goes out in "%%GAME ..." as it is. Only names the protocol allows are used here,
      // so that the fuzzer looks past that known gap.
      const std::string_view game = cmd.substr(1, cmd.size() - 3);
      const bool clean =
          std::all_of(game.begin(), game.end(), [](char c) { return c > ' ' && c < 0x7f; });
      if (clean && std::string_view("+-*").find(cmd.back()) != std::string_view::npos) {
        config_.x1_game_name = std::string(game);
        config_.x1_color = cmd.back();
      }
    }
  }

  void start() {
    session_.emplace(config_);
    handle(event::Start{});
  }
  bool started() const { return session_.has_value(); }

  void command(std::string_view cmd) {
    if (cmd.starts_with("T")) {
      if (auto ms = parse_int(cmd.substr(1))) advance(std::min(*ms, kMaxAdvanceMs));
    } else if (cmd.starts_with("M")) {
      engine_move(cmd.substr(1));
    } else if (cmd.starts_with("E")) {
      if (!search_) return;
      const shogi::Position pos = request_position(*search_);
      const shogi::MoveList moves = shogi::legal_moves(pos);
      EngineMove em;
      if (moves.size() == 0) {
        em.kind = EngineMove::Kind::kResign;
      } else {
        em.move = moves[parse_int(cmd.substr(1)).value_or(0) % moves.size()];
        em.score = int(moves.size()) * 7 - 100;
        em.pv.push_back(em.move);
      }
      answer(em);
    } else if (cmd == "R" || cmd == "W") {
      EngineMove em;
      em.kind = cmd == "R" ? EngineMove::Kind::kResign : EngineMove::Kind::kWin;
      answer(em);
    } else if (cmd.starts_with("e")) {
      if (last_move_.empty()) return;
      const std::string t = cmd.size() > 1 ? std::string(cmd.substr(1)) : "1";
      line(last_move_ + ",T" + t);
    } else if (cmd == "Q" || cmd == "QI") {
      handle(event::QuitRequested{cmd == "QI"});
    } else if (cmd.starts_with("U")) {
      handle(event::UserCommand{std::string(cmd.substr(1))});
    } else if (cmd == "D") {
      if (!connected_) return;
      connected_ = false;
      handle(event::Disconnected{});
    }
  }

  void line(const std::string& text) {
    now_ += 1;
    if (connected_) handle(event::LineReceived{text});
  }

 private:
  void engine_move(std::string_view text) {
    if (!search_) return;
    const shogi::Position pos = request_position(*search_);
    std::vector<std::string_view> words;
    for (size_t p = 0; p < text.size();) {
      const size_t e = std::min(text.find(' ', p), text.size());
      if (e > p) words.push_back(text.substr(p, e - p));
      p = e + 1;
    }
    if (words.empty()) return;
    EngineMove em;
    if (!shogi::parse_csa_move(pos, words[0], em.move)) {
      // A buggy engine's move: "+7776FU" built by hand, whatever the board holds.
      const std::string_view t = words[0];
      if (t.size() != 7) return;
      auto digit = [&](size_t i) { return t[i] >= '1' && t[i] <= '9'; };
      const shogi::PieceType pt = shogi::piece_type_from_csa(t.substr(5, 2));
      if (!digit(1) || !digit(2) || !digit(3) || !digit(4) || pt == shogi::kNoPieceType) return;
      auto sq = [&](size_t i) { return shogi::make_square(t[i] - '1', t[i + 1] - '1'); };
      em.move = shogi::Move::board(sq(1), sq(3), false, shogi::make_piece(pos.side_to_move(), pt));
      return answer(em);
    }
    if (words.size() >= 2) {
      if (auto s = parse_int(words[1])) em.score = int(std::min<int64_t>(*s, 100000)) - 50000;
      shogi::Position p = pos;
      em.pv.push_back(em.move);
      p.do_move(em.move);
      for (size_t i = 2; i < words.size(); ++i) {
        shogi::Move m;
        if (!shogi::parse_csa_move(p, words[i], m)) break;
        em.pv.push_back(m);
        p.do_move(m);
      }
    }
    answer(em);
  }

  void answer(const EngineMove& em) {
    if (!search_) return;
    handle(event::EngineMoveReady{search_->id, em});
  }

  void advance(int64_t ms) {
    const int64_t target = now_ + ms;
    int fires = 0;
    for (int64_t w; (w = session_->next_wakeup_ms()) <= target && fires < kMaxTimerFires; ++fires) {
      now_ = std::max(now_, w);
      handle(event::Timer{});
      FUZZ_CHECK(session_->next_wakeup_ms() > now_,
                 "the session's wakeup did not advance past " + std::to_string(now_));
    }
    now_ = std::max(now_, target);
  }

  void handle(const Event& e) {
    std::deque<Event> queue{e};
    while (!queue.empty()) {
      const Event ev = std::move(queue.front());
      queue.pop_front();
      for (const Action& a : session_->handle(now_, ev)) execute(a, queue);
    }
  }

  void execute(const Action& a, std::deque<Event>& queue) {
    if (auto* s = std::get_if<action::SendLine>(&a)) {
      check_sent(s->line);
    } else if (std::holds_alternative<action::Close>(a)) {
      connected_ = false;
    } else if (auto* c = std::get_if<action::Connect>(&a)) {
      if (++connects_ > kMaxConnects) return;
      now_ += std::clamp<int64_t>(c->delay_ms, 0, kMaxAdvanceMs);
      connected_ = true;
      queue.push_back(event::Connected{});
    } else if (auto* s = std::get_if<action::StartSearch>(&a)) {
      (void)request_position(s->request);
      search_ = s->request;
    } else if (std::holds_alternative<action::GameEnded>(a)) {
      search_.reset();
    } else if (std::holds_alternative<action::RecordUpdated>(a)) {
      (void)shogi::write_csa_record(session_->record(), shogi::CsaVersion::kV30);
    }
  }

  void check_sent(const std::string& line) {
    const std::string q = quote_line(line, 200);
    FUZZ_CHECK(line.find_first_of("\r\n") == std::string::npos, "sent a line with CR/LF: " + q);
    FUZZ_CHECK(line.size() <= kMaxLineLength, "sent an overlong line: " + q);
    ClientLine cl;
    const base::Status st = parse_client_line(line, cl);
    FUZZ_CHECK(st, "sent a line that is not a client line: " + q + ": " + st.message());
    if (cl.type == ClientLineType::kMove) last_move_ = cl.move.move;
  }

  SessionConfig config_;
  std::optional<CsaSession> session_;
  int64_t now_ = 0;
  bool connected_ = false;
  int connects_ = 0;
  std::optional<SearchRequest> search_;
  std::string last_move_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  LineSplitter splitter;
  std::vector<std::string> lines;
  splitter.append(std::string_view(reinterpret_cast<const char*>(data), size), lines);
  if (splitter.has_partial()) lines.push_back(splitter.take_partial());

  Harness h;
  h.configure("LLOGIN alice demo-60-5,tripA");
  for (const std::string& l : lines) {
    const bool driver = l.starts_with("!!");
    if (!h.started()) {
      if (driver && (l[2] == 'L' || l[2] == 'G' || l[2] == 'F' || l[2] == 'K' || l[2] == 'X')) {
        h.configure(std::string_view(l).substr(2));
        continue;
      }
      h.start();
    }
    if (driver) {
      h.command(std::string_view(l).substr(2));
    } else {
      h.line(l);
    }
  }
  if (!h.started()) h.start();
  return 0;
}
