// The local CSA server: connections, LOGIN, pairing and timers over Boost.Asio (see
// csa_server.h). One io_context on one thread; every handler runs there.
#include "tools/server/csa_server.h"

#include <array>
#include <atomic>
#include <boost/asio.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <deque>
#include <filesystem>
#include <iostream>
#include <random>
#include <utility>  // before any Asio header (Boost 1.74 with g++ 12, C++20)
#include <vector>

#include "base/file_write.h"
#include "client/csa_protocol.h"
#include "shogi/csa_record.h"
#include "tools/server/csa_server_game.h"
#include "tools/server/csa_server_login.h"
#include "tools/server/server_status.h"

namespace tools {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using shogi::Color;
using shogi::kBlack;
using shogi::kWhite;

namespace {

constexpr size_t kMaxPendingOutput = 1 << 20;  // a client that does not read is dropped

}  // namespace

// The server's clients and games. A named namespace rather than an anonymous one: Impl, which
// holds them, has external linkage (GCC warns of that when this file is compiled in a group).
namespace csa_server_detail {

struct GameSlot;

// One client. Owned by the server's connection list (and kept alive by pending handlers).
struct Connection : std::enable_shared_from_this<Connection> {
  enum class State { kLogin, kWaiting, kGame, kClosed };
  Connection(tcp::socket s, int i)
      : socket(std::move(s)),
        id(i),
        login_timer(socket.get_executor()),
        delay_timer(socket.get_executor()) {}

  tcp::socket socket;
  int id;
  State state = State::kLogin;
  std::string name;  // after LOGIN
  LoginRequest request;
  std::shared_ptr<GameSlot> game;
  Color color = kBlack;
  std::array<char, 4096> buf{};
  std::string line;
  bool overlong = false;
  std::deque<std::string> out;
  size_t out_bytes = 0;
  bool writing = false;
  bool closing = false;  // close once the output is flushed; read nothing more
  asio::steady_timer login_timer;
  // With ServerOptions::delay_ms: lines sent but held back, with the time they may leave.
  std::deque<std::pair<std::chrono::steady_clock::time_point, std::string>> delayed;
  asio::steady_timer delay_timer;
  bool delay_armed = false;

  std::string label() const { return name.empty() ? "#" + std::to_string(id) : name; }
};

struct GameSlot {
  GameSlot(const ServerGameConfig& config, asio::io_context& io) : game(config), timer(io) {}
  ServerGame game;
  std::shared_ptr<Connection> players[shogi::kColorNb];
  asio::steady_timer timer;
  int64_t created_ms = 0;
  bool counted = false;  // counted in games_started
  bool ended = false;    // end_game done
};

}  // namespace csa_server_detail

struct CsaServer::Impl {
  using Connection = csa_server_detail::Connection;
  using GameSlot = csa_server_detail::GameSlot;

  Impl(const ServerOptions& o, std::ostream& os)
      : options(o), out(os), acceptor(io), signals(io), t0(std::chrono::steady_clock::now()) {}

  ServerOptions options;
  std::ostream& out;
  asio::io_context io;
  tcp::acceptor acceptor;
  asio::signal_set signals;
  std::chrono::steady_clock::time_point t0;
  std::vector<std::shared_ptr<Connection>> connections;
  std::vector<std::shared_ptr<Connection>> waiting;  // logged in, in login order
  std::vector<std::shared_ptr<GameSlot>> games;      // not yet ended
  GameIdClock id_clock;
  std::mt19937 rng{std::random_device{}()};
  int next_id = 1;
  std::atomic<int> started{0};
  bool stopping = false;  // no more logins
  bool shut_down = false;
  int records_not_written = 0;
  std::string first_record_error;        // what run() returns when a record was not written
  std::unique_ptr<ServerStatus> status;  // the status page's model, when one is shown

  int64_t now_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 t0)
        .count();
  }

  void log(const Connection& c, const char* arrow, std::string_view text) {
    if (!options.log) return;
    char head[64];
    std::snprintf(head, sizeof head, "%8.3f %-6s %s ", double(now_ms()) / 1000.0, c.label().c_str(),
                  arrow);
    out << head << (text.empty() ? "[empty line]" : client::quote_line(text, 300)) << std::endl;
  }

  // ---- Accepting and reading ----

  void start_accept() {
    acceptor.async_accept([this](boost::system::error_code ec, tcp::socket s) {
      if (ec || stopping) return;
      auto c = std::make_shared<Connection>(std::move(s), next_id++);
      boost::system::error_code ignored;
      c->socket.set_option(tcp::no_delay(true), ignored);
      connections.push_back(c);
      c->login_timer.expires_after(std::chrono::seconds(options.login_timeout_s));
      c->login_timer.async_wait([this, c](boost::system::error_code e) {
        if (!e && c->state == Connection::State::kLogin) drop(c);
      });
      read(c);
      start_accept();
    });
  }

  void read(const std::shared_ptr<Connection>& c) {
    c->socket.async_read_some(
        asio::buffer(c->buf), [this, c](boost::system::error_code ec, size_t n) {
          if (c->state == Connection::State::kClosed) return;
          if (ec) return drop(c);
          for (size_t i = 0; i < n && !c->closing && c->state != Connection::State::kClosed; ++i) {
            const char ch = c->buf[i];
            if (ch == '\n') {
              std::string line = std::move(c->line);
              const bool overlong = c->overlong;
              c->line.clear();
              c->overlong = false;
              if (!line.empty() && line.back() == '\r') line.pop_back();
              on_line(c, line, overlong);
            } else if (c->overlong) {
              continue;
            } else if (c->line.size() >= client::kMaxLineLength) {
              c->overlong = true;
              c->line.clear();
            } else {
              c->line.push_back(ch);
            }
          }
          if (c->state != Connection::State::kClosed) read(c);
        });
  }

  // ---- Writing and closing ----

  void send(const std::shared_ptr<Connection>& c, const std::string& text) {
    if (c->state == Connection::State::kClosed || c->closing) return;
    log(*c, "<<", text);
    if (options.delay_ms > 0) {
      c->delayed.emplace_back(
          std::chrono::steady_clock::now() + std::chrono::milliseconds(options.delay_ms), text);
      return arm_delay(c);
    }
    enqueue(c, text);
  }

  void enqueue(const std::shared_ptr<Connection>& c, const std::string& text) {
    c->out.push_back(text + "\n");
    c->out_bytes += text.size() + 1;
    if (c->out_bytes > kMaxPendingOutput) return drop(c);
    if (!c->writing) write(c);
  }

  // One timer per connection releases the held-back lines in order when they are due.
  void arm_delay(const std::shared_ptr<Connection>& c) {
    if (c->delay_armed || c->delayed.empty()) return;
    c->delay_armed = true;
    c->delay_timer.expires_at(c->delayed.front().first);
    c->delay_timer.async_wait([this, c](boost::system::error_code) {
      c->delay_armed = false;
      if (c->state == Connection::State::kClosed) return;
      const auto now = std::chrono::steady_clock::now();
      while (!c->delayed.empty() && c->delayed.front().first <= now) {
        enqueue(c, c->delayed.front().second);
        if (c->state == Connection::State::kClosed) return;
        c->delayed.pop_front();
      }
      if (c->delayed.empty()) {
        if (c->closing && !c->writing) write(c);  // closes the socket once flushed
        return;
      }
      arm_delay(c);
    });
  }

  void write(const std::shared_ptr<Connection>& c) {
    if (c->out.empty()) {
      if (c->closing && c->delayed.empty()) close_socket(c);
      return;
    }
    c->writing = true;
    asio::async_write(c->socket, asio::buffer(c->out.front()),
                      [this, c](boost::system::error_code ec, size_t) {
                        c->writing = false;
                        if (c->state == Connection::State::kClosed) return;
                        if (ec) return drop(c);
                        c->out_bytes -= c->out.front().size();
                        c->out.pop_front();
                        write(c);
                      });
  }

  // Closes once everything queued is sent (the end of a game, LOGIN:incorrect, LOGOUT).
  void close_after_flush(const std::shared_ptr<Connection>& c) {
    if (c->state == Connection::State::kClosed) return;
    forget_waiting(c);
    c->closing = true;
    if (!c->writing) write(c);
  }

  void close_socket(const std::shared_ptr<Connection>& c) {
    if (c->state == Connection::State::kClosed) return;
    c->state = Connection::State::kClosed;
    if (options.log) log(*c, "--", "[connection closed by server]");
    boost::system::error_code ignored;
    c->socket.shutdown(tcp::socket::shutdown_both, ignored);
    c->socket.close(ignored);
    c->login_timer.cancel();
    c->delay_timer.cancel();
    c->game.reset();  // the game holds its players: break the cycle
    forget_waiting(c);
    std::erase(connections, c);
    maybe_finish();
  }

  // The connection ended badly (closed by the peer, an error, a client that does not read):
  // the game it was in ends as a disconnect.
  void drop(const std::shared_ptr<Connection>& c) {
    if (c->state == Connection::State::kClosed) return;
    const std::shared_ptr<GameSlot> g = c->game;
    c->closing = true;
    close_socket(c);
    if (g && !g->game.over()) dispatch(g, g->game.disconnect(c->color, now_ms()));
  }

  void forget_waiting(const std::shared_ptr<Connection>& c) { std::erase(waiting, c); }

  // ---- Lines ----

  void error_reply(const std::shared_ptr<Connection>& c, std::string_view line) {
    // quote_line makes bytes safe (\xFF) and adds quotes, which shogi-server does not.
    std::string shown = client::quote_line(line, 80);
    if (shown.size() >= 2 && shown.front() == '\'' && shown.back() == '\'')
      shown = shown.substr(1, shown.size() - 2);
    send(c, "##[ERROR] unknown command: " + shown);
  }

  void on_line(const std::shared_ptr<Connection>& c, const std::string& line, bool overlong) {
    log(*c, ">>", overlong ? "[overlong line]" : line);
    if (overlong) {
      if (c->state == Connection::State::kLogin) {
        send(c, "LOGIN:incorrect");
        return close_after_flush(c);
      }
      return send(c, "##[ERROR] line too long");
    }
    switch (c->state) {
      case Connection::State::kLogin:
        return on_login_line(c, line);
      case Connection::State::kWaiting:
        return on_waiting_line(c, line);
      case Connection::State::kGame:
        return on_game_line(c, line);
      case Connection::State::kClosed:
        return;
    }
  }

  void on_login_line(const std::shared_ptr<Connection>& c, const std::string& line) {
    if (line.empty() || line == " ") return;
    client::ClientLine l;
    std::optional<LoginRequest> req;
    const bool ok = client::parse_client_line(line, l).is_ok() &&
                    l.type == client::ClientLineType::kLogin && !l.x1 && !stopping &&
                    (req = parse_login_password(l.password)) && !name_in_use(l.name);
    if (!ok) {
      send(c, "LOGIN:incorrect");
      return close_after_flush(c);
    }
    c->name = l.name;
    c->request = *req;
    c->state = Connection::State::kWaiting;
    c->login_timer.cancel();
    send(c, client::format_login_ok(c->name));
    waiting.push_back(c);
    try_match(c);
  }

  bool name_in_use(const std::string& name) const {
    for (const auto& c : connections)
      if (c->state != Connection::State::kLogin && c->state != Connection::State::kClosed &&
          !c->closing && c->name == name)
        return true;
    return false;
  }

  void on_waiting_line(const std::shared_ptr<Connection>& c, const std::string& line) {
    if (line.empty()) return send(c, "");
    if (line == " ") return;
    if (line == "LOGOUT") {
      send(c, "LOGOUT:completed");
      return close_after_flush(c);
    }
    error_reply(c, line);
  }

  void on_game_line(const std::shared_ptr<Connection>& c, const std::string& line) {
    const std::shared_ptr<GameSlot> g = c->game;
    if (!g || g->game.over()) return;
    const int64_t now = now_ms();
    if (line.empty()) {
      send(c, "");
      return dispatch(g, g->game.check_time(now));
    }
    if (line == " ") return;
    const bool playing = g->game.phase() == ServerGame::Phase::kPlaying;
    client::ClientLine l;
    const bool parsed = client::parse_client_line(line, l).is_ok();
    const bool move_like =
        (line[0] == '+' || line[0] == '-' || line[0] == '%') && !line.starts_with("%%");
    if (playing && move_like) return dispatch(g, g->game.play(c->color, line, now));
    if (parsed && l.type == client::ClientLineType::kAgree && !playing)
      return dispatch(g, g->game.agree(c->color, now));
    if (parsed && l.type == client::ClientLineType::kReject && !playing)
      return dispatch(g, g->game.reject(c->color));
    if (parsed && l.type == client::ClientLineType::kLogout) return drop(c);
    error_reply(c, line);
  }

  // ---- Pairing and games ----

  void try_match(const std::shared_ptr<Connection>& c) {
    for (const auto& w : waiting) {
      if (w == c || w->request.game_name != c->request.game_name || w->name == c->name) continue;
      const char a = w->request.color, b = c->request.color;
      if (a != '*' && a == b) continue;
      bool w_black;
      if (a == '+' || b == '-')
        w_black = true;
      else if (a == '-' || b == '+')
        w_black = false;
      else if (options.colors == "first")
        w_black = true;
      else
        w_black = std::uniform_int_distribution<int>(0, 1)(rng) == 0;
      const std::shared_ptr<Connection> other = w;  // `w` dies with the erase below
      forget_waiting(other);
      forget_waiting(c);
      return start_game(w_black ? other : c, w_black ? c : other);
    }
  }

  void start_game(const std::shared_ptr<Connection>& black,
                  const std::shared_ptr<Connection>& white) {
    ServerGameConfig config;
    config.event = options.event;
    config.game_name = black->request.game_name;
    config.names[kBlack] = black->name;
    config.names[kWhite] = white->name;
    config.id_time = id_clock.next(std::time(nullptr));
    config.max_moves = options.max_moves;
    config.least_time_per_move_s = options.least_time_per_move_s;
    config.time_roundup = options.time_roundup;
    auto g = std::make_shared<GameSlot>(config, io);
    g->created_ms = now_ms();
    g->game.record().info.push_back({"START_TIME", format_record_time(std::time(nullptr))});
    games.push_back(g);
    for (Color col : {kBlack, kWhite}) {
      const auto& p = col == kBlack ? black : white;
      g->players[col] = p;
      p->game = g;
      p->color = col;
      p->state = Connection::State::kGame;
      for (const std::string& l : g->game.summary(col)) send(p, l);
    }
    if (status) status->game_started(g->game);
    arm_timer(g);
  }

  void dispatch(const std::shared_ptr<GameSlot>& g, const ServerGame::Lines& lines) {
    for (Color col : {kBlack, kWhite})
      for (const std::string& l : lines[col]) send(g->players[col], l);
    if (status && !g->game.over()) status->game_changed(g->game);
    if (!g->counted && g->game.phase() != ServerGame::Phase::kAgreeWaiting &&
        g->game.result().kind != "rejected") {
      g->counted = true;
      if (++started >= options.games && options.games > 0) stop_accepting();
    }
    if (g->game.over()) return end_game(g);
    arm_timer(g);
  }

  void arm_timer(const std::shared_ptr<GameSlot>& g) {
    g->timer.cancel();
    int64_t at;
    if (g->game.phase() == ServerGame::Phase::kAgreeWaiting) {
      at = g->created_ms + int64_t(options.agree_timeout_s) * 1000;
    } else if (const auto t = g->game.time_up_at_ms()) {
      at = *t;
    } else {
      return;
    }
    g->timer.expires_at(t0 + std::chrono::milliseconds(at));
    g->timer.async_wait([this, g](boost::system::error_code ec) {
      if (ec || g->game.over()) return;
      if (g->game.phase() == ServerGame::Phase::kAgreeWaiting) {
        if (now_ms() >= g->created_ms + int64_t(options.agree_timeout_s) * 1000)
          return dispatch(g, g->game.reject(kBlack, /*by_server=*/true));
        return arm_timer(g);
      }
      dispatch(g, g->game.check_time(now_ms()));
    });
  }

  void end_game(const std::shared_ptr<GameSlot>& g) {
    if (g->ended) return;
    g->ended = true;
    g->timer.cancel();
    std::erase(games, g);
    const std::string record_path = write_record(*g);
    if (status) status->game_ended(g->game, record_path);
    const ServerGameResult& r = g->game.result();
    out << "game " << g->game.game_id() << " " << r.kind << " "
        << (!r.winner             ? "-"
            : *r.winner == kBlack ? "black"
                                  : "white")
        << " (" << r.detail << ")" << std::endl;
    for (const auto& p : g->players) close_after_flush(p);
    maybe_finish();
  }

  // Returns the record's path ("" when none was written).
  std::string write_record(GameSlot& g) {
    if (options.records_dir.empty()) return "";
    shogi::CsaRecord& rec = g.game.record();
    rec.info.push_back({"END_TIME", format_record_time(std::time(nullptr))});
    const std::string path =
        (std::filesystem::path(options.records_dir) / (g.game.game_id() + ".csa")).string();
    const base::Status s =
        base::replace_file(path, shogi::write_csa_record(rec, shogi::CsaVersion::kV22));
    if (s) return path;
    // The server goes on (the next games may be written); run() returns the failure.
    out << "record not written: " << s.message() << std::endl;
    if (records_not_written++ == 0) first_record_error = s.message();
    return "";
  }

  // ---- Stopping ----

  void stop_accepting() {
    if (stopping) return;
    stopping = true;
    boost::system::error_code ignored;
    acceptor.close(ignored);
    const auto idle = connections;  // close_socket edits the list
    for (const auto& c : idle)
      if (c->state == Connection::State::kLogin || c->state == Connection::State::kWaiting)
        close_after_flush(c);
    maybe_finish();
  }

  void maybe_finish() {
    if (stopping && games.empty() && connections.empty()) shutdown();
  }

  void shutdown() {
    if (shut_down) return;
    shut_down = true;
    stopping = true;
    boost::system::error_code ignored;
    acceptor.close(ignored);
    signals.cancel(ignored);
    const auto running = games;
    for (const auto& g : running) {
      g->game.abort("server shutdown");
      end_game(g);
    }
    const auto all = connections;
    for (const auto& c : all) close_socket(c);
    io.stop();
  }
};

CsaServer::CsaServer(const ServerOptions& options, std::ostream& out)
    : impl_(std::make_unique<Impl>(options, out)) {}

CsaServer::~CsaServer() = default;

base::Status CsaServer::listen(bool handle_signals) {
  Impl& s = *impl_;
  if (handle_signals) {
    s.signals.add(SIGINT);
    s.signals.add(SIGTERM);
    s.signals.async_wait([&s](boost::system::error_code ec, int) {
      if (!ec) s.shutdown();
    });
  }
  const std::string where = s.options.host + ":" + std::to_string(s.options.port);
  if (s.options.port < 0 || s.options.port > 65535)
    return base::Status::error("server: bad port " + std::to_string(s.options.port));
  if (!s.options.records_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(s.options.records_dir, ec);
    if (ec)
      return base::Status::error("server: cannot create the records directory " +
                                 s.options.records_dir + ": " + ec.message());
  }
  boost::system::error_code ec;
  const auto address = asio::ip::make_address(s.options.host, ec);
  if (ec) return base::Status::error("server: bad address " + s.options.host + ": " + ec.message());
  const tcp::endpoint endpoint(address, static_cast<unsigned short>(s.options.port));
  s.acceptor.open(endpoint.protocol(), ec);
  if (!ec) s.acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) s.acceptor.bind(endpoint, ec);
  if (!ec) s.acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return base::Status::error("server: cannot listen on " + where + ": " + ec.message());
  return base::Status::ok();
}

int CsaServer::port() const { return impl_->acceptor.local_endpoint().port(); }

void CsaServer::set_status_board(client::StatusBoard* board) {
  Impl& s = *impl_;
  if (!board) return s.status.reset();
  const int64_t origin_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(s.t0.time_since_epoch()).count();
  s.status = std::make_unique<ServerStatus>(*board, s.options.host + ":" + std::to_string(port()),
                                            origin_ms);
}

int CsaServer::games_started() const { return impl_->started.load(); }

base::Status CsaServer::run() {
  Impl& s = *impl_;
  s.start_accept();
  s.io.run();
  if (s.records_not_written == 0) return base::Status::ok();
  return base::Status::error(std::to_string(s.records_not_written) +
                             " game record(s) not written; the first: " + s.first_record_error);
}

void CsaServer::stop() {
  asio::post(impl_->io, [this] { impl_->shutdown(); });
}

}  // namespace tools
