// StatusHttpServer: the acceptor and the connection state machines, all on the server's thread.
#include "client/status_http.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <chrono>
#include <mutex>
#include <optional>
#include <set>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "client/asio.h"

namespace client {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using boost::system::error_code;
using Event = std::shared_ptr<const std::string>;  // one formatted event, shared by subscribers

constexpr int64_t kLingerMs = 1000;              // draining a peer's input after the last reply
constexpr size_t kMaxDrainBytes = 4u << 20;      // ... at most this much of it
constexpr int64_t kAcceptRetryMs = 50;           // after a failed accept (EMFILE and the like)
constexpr int64_t kMaxTimeoutMs = 100000000000;  // a bound on every timeout, against overflow
constexpr const char* kPlain = "text/plain; charset=utf-8";
constexpr std::string_view kBusyReply =
    "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
    "Content-Length: 5\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n"
    "Connection: close\r\n\r\nbusy\n";
constexpr std::string_view kEventHead =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
    "X-Content-Type-Options: nosniff\r\n\r\nretry: 2000\n\n";

// base + ms; a timeout of 0 or less is none.
Clock::time_point after(Clock::time_point base, int64_t ms) {
  if (ms <= 0) return Clock::time_point::max();
  return base + std::chrono::milliseconds(std::min(ms, kMaxTimeoutMs));
}

std::string_view view(beast::string_view s) { return std::string_view(s.data(), s.size()); }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Percent-decodes `in` into `out`; false on a bad escape or a NUL.
bool percent_decode(std::string_view in, bool plus_is_space, std::string& out) {
  out.clear();
  for (size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    if (c == '%') {
      if (i + 2 >= in.size()) return false;
      const int hi = hex_value(in[i + 1]), lo = hex_value(in[i + 2]);
      if (hi < 0 || lo < 0) return false;
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      c = ' ';
    }
    if (c == '\0') return false;
    out += c;
  }
  return true;
}

// Splits an origin-form target into its decoded path and query; false when malformed.
bool parse_target(std::string_view target, HttpRequest& request) {
  if (target.empty() || target[0] != '/') return false;
  const size_t q = target.find('?');
  if (!percent_decode(target.substr(0, q), false, request.path)) return false;
  std::string_view rest = q == std::string_view::npos ? std::string_view() : target.substr(q + 1);
  while (!rest.empty()) {
    const size_t amp = rest.find('&');
    const std::string_view part = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
    if (part.empty()) continue;
    const size_t eq = part.find('=');
    std::string key, value;
    if (!percent_decode(part.substr(0, eq), true, key)) return false;
    if (eq != std::string_view::npos && !percent_decode(part.substr(eq + 1), true, value)) {
      return false;
    }
    request.query.emplace(std::move(key), std::move(value));  // the first of a repeated key wins
  }
  return true;
}

// Time independent of where `candidate` differs from `secret`.
bool constant_time_equal(std::string_view candidate, std::string_view secret) {
  unsigned diff = candidate.size() != secret.size() ? 1u : 0u;
  for (size_t i = 0; i < secret.size(); ++i) {
    const unsigned char c = i < candidate.size() ? static_cast<unsigned char>(candidate[i]) : 0;
    diff |= c ^ static_cast<unsigned char>(secret[i]);
  }
  return diff == 0;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

bool is_loopback_name(std::string_view host) {
  if (host == "::1" || host == "[::1]") return true;
  if (host.size() == 9 && std::equal(host.begin(), host.end(), "localhost", [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == b;
      }))
    return true;
  return host.starts_with("127.") &&
         host.find_first_not_of("0123456789.") == std::string_view::npos;
}

namespace {

// A Host header naming this machine's loopback (any port), or none (HTTP/1.0). Without a
// token only such requests are served: a page elsewhere whose name an attacker re-binds to
// 127.0.0.1 (DNS rebinding) sends its own name as Host.
bool loopback_host(std::string_view host) {
  if (host.empty()) return true;
  // The port: after the last ':' outside brackets ("[::1]:80", "localhost:5000").
  const size_t close = host.starts_with("[") ? host.find(']') : 0;
  if (close == std::string_view::npos) return false;
  if (const size_t colon = host.find(':', close); colon != std::string_view::npos) {
    if (host.find_first_not_of("0123456789", colon + 1) != std::string_view::npos) return false;
    host = host.substr(0, colon);
  }
  return is_loopback_name(host);
}

// The token as ?token=... or "Authorization: Bearer ..."; both are looked at, whatever matches.
bool authorized(const HttpRequest& request, std::string_view authorization,
                const std::string& token) {
  bool ok = false;
  if (auto it = request.query.find("token"); it != request.query.end()) {
    ok = constant_time_equal(it->second, token);
  }
  if (authorization.size() > 7 && iequals(authorization.substr(0, 7), "bearer ")) {
    authorization.remove_prefix(7);
    const size_t first = authorization.find_first_not_of(" \t");
    const size_t last = authorization.find_last_not_of(" \t");
    if (first != std::string_view::npos) {
      authorization = authorization.substr(first, last - first + 1);
    }
    ok = constant_time_equal(authorization, token) || ok;
  }
  return ok;
}

// A route's extra header is kept when its name is a token, its value has no CR, LF or NUL, and
// it is none of the headers the server owns.
bool allowed_header(std::string_view name, std::string_view value) {
  if (name.empty() || name.size() > 256 || value.size() > 8192) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) &&
        std::string_view("!#$%&'*+-.^_`|~").find(c) == std::string_view::npos) {
      return false;
    }
  }
  if (value.find_first_of(std::string_view("\r\n\0", 3)) != std::string_view::npos) return false;
  for (std::string_view owned :
       {"content-length", "transfer-encoding", "connection", "keep-alive", "upgrade",
        "cache-control", "x-content-type-options", "content-type"}) {
    if (iequals(name, owned)) return false;
  }
  return true;
}

// One server-sent event: a "data:" line per line of the payload (CR, LF or CRLF end a line).
std::string format_event(std::string_view payload) {
  std::string out;
  out.reserve(payload.size() + 16);
  size_t start = 0;
  for (;;) {
    const size_t end = payload.find_first_of("\r\n", start);
    out += "data: ";
    out += payload.substr(start, end == std::string_view::npos ? end : end - start);
    out += '\n';
    if (end == std::string_view::npos) break;
    start = end + 1;
    if (payload[end] == '\r' && start < payload.size() && payload[start] == '\n') ++start;
  }
  out += '\n';
  return out;
}

const Event& keepalive_comment() {
  static const Event comment = std::make_shared<const std::string>(": keep-alive\n\n");
  return comment;
}

class Connection;

// The acceptor, the connection table and the render cache. The members marked "server thread"
// are touched only there once start() has started it.
class ServerCore {
 public:
  ServerCore(StatusHttpOptions options, StatusHttpServer::RouteHandler routes,
             StatusHttpServer::EventRenderer events)
      : acceptor_(ioc_),
        accept_retry_(ioc_),
        options_(std::move(options)),
        routes_(std::move(routes)),
        events_(std::move(events)) {}
  ~ServerCore() { stop(); }

  base::Status start();
  void stop() {
    std::lock_guard lock(control_mutex_);
    stopped_ = true;
    running_ = false;
    if (!thread_.joinable()) return;
    if (!shutdown_posted_) {
      shutdown_posted_ = true;
      asio::post(ioc_, [this] { shutdown_all(); });
    }
    if (std::this_thread::get_id() != thread_.get_id()) thread_.join();  // else: unsupported
  }
  void notify_changed() {
    if (!running_.load() || notify_pending_.exchange(true)) return;
    asio::post(ioc_, [this] { render_pass(); });
  }
  int port() const { return port_; }
  size_t connection_count() const { return connection_count_.load(); }

  // For connections, on the server thread.
  asio::io_context& ioc() { return ioc_; }
  const StatusHttpOptions& options() const { return options_; }
  HttpReply route(const HttpRequest& request) {
    if (!routes_) return HttpReply{404, kPlain, "not found\n", {}};
    try {
      return routes_(request);
    } catch (...) {
      return HttpReply{500, kPlain, "internal server error\n", {}};
    }
  }
  // The channel's event for the latest notification, rendered at most once per notification;
  // `fresh`: rendered now and not cached (a new subscriber's first event). Null: the renderer
  // threw. The cache holds only channels that had subscribers at the last notification.
  Event event_for(const std::string& channel, bool fresh) {
    const auto render = [&]() -> Event {
      try {
        return std::make_shared<const std::string>(
            format_event(events_ ? events_(channel) : std::string()));
      } catch (...) {
        return nullptr;
      }
    };
    if (fresh) return render();
    CachedEvent& cached = cache_[channel];
    if (cached.generation != generation_) {
      cached.event = render();
      cached.generation = generation_;
    }
    return cached.event;
  }
  void remove(Connection* connection) {
    connections_.erase(connection);
    connection_count_ = connections_.size();
  }

 private:
  struct CachedEvent {
    uint64_t generation = UINT64_MAX;
    Event event;
  };
  void accept() {
    acceptor_.async_accept(
        [this](error_code ec, tcp::socket socket) { on_accept(ec, std::move(socket)); });
  }
  void on_accept(error_code ec, tcp::socket socket);
  void render_pass();
  void shutdown_all();

  asio::io_context ioc_;  // first: destroyed last
  tcp::acceptor acceptor_;
  asio::steady_timer accept_retry_;
  const StatusHttpOptions options_;
  const StatusHttpServer::RouteHandler routes_;
  const StatusHttpServer::EventRenderer events_;
  // Server thread.
  std::unordered_map<Connection*, std::shared_ptr<Connection>> connections_;
  std::map<std::string, CachedEvent> cache_;  // by channel, only channels with subscribers
  uint64_t generation_ = 0;                   // notifications handled so far
  // Any thread.
  std::atomic<size_t> connection_count_{0};
  std::atomic<bool> notify_pending_{false};
  std::atomic<bool> running_{false};
  std::mutex control_mutex_;  // start() and stop()
  bool started_ = false, stopped_ = false, shutdown_posted_ = false;
  int port_ = 0;
  std::thread thread_;
};

// One accepted socket: requests and replies, then possibly an event stream. Kept alive by the
// server's table and by its pending operations; close() removes it from the table. Its one
// deadline timer holds the next read, write or stall limit (max: none), and a single waiting
// handler closes the connection when the expiry it finds has passed.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(ServerCore& server, tcp::socket socket)
      : server_(server),
        options_(server.options()),
        socket_(std::move(socket)),
        buffer_(std::min<size_t>(options_.max_header_bytes, UINT32_MAX - 4096) + 4096),
        deadline_(server.ioc()),
        keepalive_(server.ioc()) {}

  void start() {
    read_request();
    watch_deadline();
  }
  bool event_stream() const { return event_mode_ && !closed_; }
  const std::string& channel() const { return channel_; }

  void close() {
    if (closed_) return;
    closed_ = true;
    error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
    deadline_.cancel();
    keepalive_.cancel();
    server_.remove(this);
  }

  // Event streams: a newer state exists. Sent at once when idle, else when the write ends.
  void state_changed() {
    if (!event_stream()) return;
    if (!dirty_) {
      dirty_ = true;
      dirty_since_ = Clock::now();
    }
    if (writing_) return update_event_deadline();
    pump();
  }

 private:
  void set_deadline(Clock::time_point t) {
    if (deadline_.expiry() != t) deadline_.expires_at(t);  // wakes watch_deadline to re-wait
  }
  void watch_deadline() {
    deadline_.async_wait([self = shared_from_this()](error_code) {
      if (self->closed_) return;
      if (self->deadline_.expiry() <= Clock::now()) return self->close();
      self->watch_deadline();
    });
  }

  void read_request() {
    parser_.emplace();
    parser_->header_limit(
        static_cast<uint32_t>(std::min<size_t>(options_.max_header_bytes, UINT32_MAX)));
    parser_->body_limit(0);  // a Content-Length > 0 fails at once with body_limit
    set_deadline(after(Clock::now(), options_.read_timeout_ms));
    http::async_read_header(
        socket_, buffer_, *parser_,
        [self = shared_from_this()](error_code ec, size_t) { self->on_header(ec); });
  }

  void on_header(error_code ec) {
    if (closed_) return;
    if (!ec) return handle_request();
    if (ec == http::error::header_limit || ec == http::error::buffer_overflow) {
      return fail(431, "request header too large\n");
    }
    if (ec == http::error::body_limit) return fail(413, "request body not accepted\n");
    if (ec.category() == make_error_code(http::error::bad_method).category() &&
        ec != http::error::end_of_stream && ec != http::error::partial_message) {
      return fail(400, "bad request\n");
    }
    close();  // the peer closed or reset, or the read deadline passed
  }

  void handle_request();

  void send_reply(HttpReply reply, bool head, unsigned version) {
    if (reply.status < 100 || reply.status > 599) {
      reply = HttpReply{500, kPlain, "internal server error\n", {}};
    }
    try {
      response_ = {};
      response_.version(version);
      response_.result(static_cast<unsigned>(reply.status));
      const bool type_ok = allowed_header("X", reply.content_type);
      response_.set(http::field::content_type, type_ok ? reply.content_type : kPlain);
      for (const auto& [name, value] : reply.headers) {
        if (allowed_header(name, value)) response_.insert(name, value);
      }
      response_.set(http::field::cache_control, "no-store");
      response_.set("X-Content-Type-Options", "nosniff");
      response_.content_length(reply.body.size());
      if (!head) response_.body() = std::move(reply.body);
      response_.keep_alive(keep_alive_);
    } catch (const std::exception&) {
      if (reply.status == 500) return close();
      return send_reply(HttpReply{500, kPlain, "internal server error\n", {}}, head, version);
    }
    write_response();
  }

  void fail(int status, std::string body) {
    keep_alive_ = false;
    send_reply(HttpReply{status, kPlain, std::move(body), {}}, false, 11);
  }

  void write_response() {
    set_deadline(after(Clock::now(), options_.write_timeout_ms));
    http::async_write(socket_, response_, [self = shared_from_this()](error_code ec, size_t) {
      if (self->closed_) return;
      if (ec) return self->close();
      if (self->keep_alive_) return self->read_request();
      self->linger();
    });
  }

  // Ends the connection after its last reply: FIN, then the peer's remaining input read and
  // dropped for a short while, so that closing with unread input (an RST) cannot destroy the
  // reply before the peer has read it.
  void linger() {
    error_code ec;
    socket_.shutdown(tcp::socket::shutdown_send, ec);
    if (ec) return close();
    const int64_t read_ms = options_.read_timeout_ms;
    set_deadline(after(Clock::now(), read_ms > 0 ? std::min(kLingerMs, read_ms) : kLingerMs));
    read_discard();
  }

  // Reads and drops input until the peer closes (lingering, or an event stream's peer).
  void read_discard() {
    socket_.async_read_some(asio::buffer(discard_),
                            [self = shared_from_this()](error_code ec, size_t n) {
                              if (self->closed_) return;
                              self->drained_ += n;
                              if (ec || (!self->event_mode_ && self->drained_ > kMaxDrainBytes)) {
                                return self->close();
                              }
                              self->read_discard();
                            });
  }

  void start_events(const std::string& channel) {
    event_mode_ = true;
    channel_ = channel;
    head_pending_ = true;
    last_write_ = Clock::now();
    write_event(server_.event_for(channel_, true));
    read_discard();  // notices the peer's close at once
    watch_keepalive();
  }

  void pump() {
    if (closed_ || writing_ || !dirty_) return;
    dirty_ = false;
    if (Event event = server_.event_for(channel_, false)) return write_event(std::move(event));
    update_event_deadline();
  }

  void write_event(Event event) {
    writing_ = true;
    in_flight_ = std::move(event);
    write_started_ = Clock::now();
    const std::array<asio::const_buffer, 2> buffers{
        head_pending_ ? asio::buffer(kEventHead.data(), kEventHead.size()) : asio::const_buffer(),
        in_flight_ ? asio::buffer(*in_flight_) : asio::const_buffer()};
    head_pending_ = false;
    update_event_deadline();
    asio::async_write(socket_, buffers, [self = shared_from_this()](error_code ec, size_t) {
      if (self->closed_) return;
      if (ec) return self->close();
      self->writing_ = false;
      self->in_flight_.reset();
      self->last_write_ = Clock::now();
      self->pump();
      self->update_event_deadline();
    });
  }

  // While an event is in flight: write_timeout_ms from its start; while a newer state waits:
  // event_stream_stall_ms from its arrival. Whichever comes first closes the connection.
  void update_event_deadline() {
    Clock::time_point t = Clock::time_point::max();
    if (writing_) t = after(write_started_, options_.write_timeout_ms);
    if (dirty_) t = std::min(t, after(dirty_since_, options_.event_stream_stall_ms));
    set_deadline(t);
  }

  void watch_keepalive() {
    const int64_t period = options_.keepalive_comment_ms;
    if (period <= 0 || closed_) return;
    keepalive_.expires_at(after(writing_ ? Clock::now() : last_write_, period));
    keepalive_.async_wait([self = shared_from_this(), period](error_code ec) {
      if (self->closed_ || ec == asio::error::operation_aborted) return;
      if (!self->writing_ && after(self->last_write_, period) <= Clock::now()) {
        self->write_event(keepalive_comment());
      }
      self->watch_keepalive();
    });
  }

  ServerCore& server_;
  const StatusHttpOptions& options_;
  tcp::socket socket_;
  beast::flat_buffer buffer_;  // bounded: a header section never grows it past its limit
  std::optional<http::request_parser<http::empty_body>> parser_;
  http::response<http::string_body> response_;
  asio::steady_timer deadline_;
  asio::steady_timer keepalive_;  // event streams: the next keep-alive comment check
  std::array<char, 2048> discard_{};
  size_t drained_ = 0;
  bool closed_ = false;
  bool keep_alive_ = false;
  // The event stream: at most one event in flight, and `dirty_` for a newer state unsent.
  bool event_mode_ = false;
  std::string channel_;
  bool head_pending_ = false;  // the response head goes out with the first event
  bool writing_ = false;
  bool dirty_ = false;
  Clock::time_point dirty_since_, write_started_, last_write_;
  Event in_flight_;  // kept until its write completes
};

void Connection::handle_request() {
  const auto& req = parser_->get();
  if (parser_->chunked() || !parser_->is_done()) return fail(413, "request body not accepted\n");
  HttpRequest request;
  if ((req.version() != 10 && req.version() != 11) || !parse_target(view(req.target()), request)) {
    return fail(400, "bad request\n");
  }
  keep_alive_ = req.keep_alive();
  const unsigned version = req.version();
  const bool head = req.method() == http::verb::head;
  request.method = std::string(view(req.method_string()));
  if (options_.token.empty() && !loopback_host(view(req[http::field::host]))) {
    return send_reply(HttpReply{403, kPlain, "forbidden: not a loopback host name\n", {}}, head,
                      version);
  }
  if (!options_.token.empty()) {
    const bool ok = authorized(request, view(req[http::field::authorization]), options_.token);
    request.query.erase("token");
    if (!ok) {
      return send_reply(HttpReply{401, kPlain, "unauthorized\n", {{"WWW-Authenticate", "Bearer"}}},
                        head, version);
    }
  }
  if (req.method() != http::verb::get && !head) {
    return send_reply(HttpReply{405, kPlain, "method not allowed\n", {{"Allow", "GET, HEAD"}}},
                      head, version);
  }
  if (request.path != "/events") return send_reply(server_.route(request), head, version);
  auto it = request.query.find("channel");
  if (it == request.query.end()) it = request.query.find("game");
  if (!head) return start_events(it == request.query.end() ? std::string() : it->second);
  keep_alive_ = false;  // HEAD of an event stream: its head, then the close that ends it
  response_ = {};
  response_.version(11);
  response_.result(http::status::ok);
  response_.set(http::field::content_type, "text/event-stream");
  response_.set(http::field::cache_control, "no-cache");
  response_.set("X-Content-Type-Options", "nosniff");
  write_response();
}

base::Status ServerCore::start() {
  std::lock_guard lock(control_mutex_);
  std::string host = options_.bind == "localhost" ? std::string("127.0.0.1") : options_.bind;
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  const std::string where =
      "status http: " + (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" +
      std::to_string(options_.port) + ": ";
  if (started_ || stopped_) return base::Status::error(where + "already started or stopped");
  if (options_.port < 0 || options_.port > 65535) {
    return base::Status::error(where + "port out of range");
  }
  error_code ec;
  const asio::ip::address address = asio::ip::make_address(host, ec);
  if (ec) return base::Status::error(where + "not an IP address");
  const tcp::endpoint endpoint(address, static_cast<unsigned short>(options_.port));
  const auto failed = [&](const char* step) {
    error_code ignored;
    acceptor_.close(ignored);
    return base::Status::error(where + step + ": " + ec.message());
  };
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
  if (ec) return failed("open");
  acceptor_.bind(endpoint, ec);
  if (ec) return failed("bind");
  acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (!ec) port_ = acceptor_.local_endpoint(ec).port();
  if (ec) return failed("listen");
  accept();
  started_ = true;
  running_ = true;
  thread_ = std::thread([this] {
    for (;;) {
      try {
        ioc_.run();  // returns once stop() has closed everything
        return;
      } catch (...) {
        // A handler threw (out of memory): the io_context stays usable, keep serving.
      }
    }
  });
  return base::Status::ok();
}

void ServerCore::on_accept(error_code ec, tcp::socket socket) {
  if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
  if (ec) {  // out of descriptors and the like: try again a little later, without spinning
    accept_retry_.expires_after(std::chrono::milliseconds(kAcceptRetryMs));
    accept_retry_.async_wait([this](error_code wait_ec) {
      if (!wait_ec && acceptor_.is_open()) accept();
    });
    return;
  }
  error_code ignored;
  if (connections_.size() >= options_.max_connections) {
    // The reply fits an empty send buffer: one non-blocking write, then the close.
    socket.non_blocking(true, ignored);
    socket.write_some(asio::buffer(kBusyReply.data(), kBusyReply.size()), ignored);
    socket.shutdown(tcp::socket::shutdown_send, ignored);
    socket.close(ignored);
  } else {
    socket.set_option(tcp::no_delay(true), ignored);
    auto connection = std::make_shared<Connection>(*this, std::move(socket));
    connections_.emplace(connection.get(), connection);
    connection_count_ = connections_.size();
    connection->start();
  }
  accept();
}

// One notification: every subscriber learns that a newer state exists; each channel is then
// rendered at most once, when its first subscriber able to take an event asks for it.
void ServerCore::render_pass() {
  notify_pending_ = false;
  ++generation_;
  std::vector<std::shared_ptr<Connection>> subscribers;
  std::set<std::string> channels;
  for (const auto& [key, connection] : connections_) {
    if (!connection->event_stream()) continue;
    subscribers.push_back(connection);
    channels.insert(connection->channel());
  }
  for (auto it = cache_.begin(); it != cache_.end();) {
    it = channels.count(it->first) ? std::next(it) : cache_.erase(it);
  }
  for (const auto& connection : subscribers) connection->state_changed();
}

void ServerCore::shutdown_all() {
  error_code ignored;
  acceptor_.close(ignored);
  accept_retry_.cancel();
  std::vector<std::shared_ptr<Connection>> all;
  for (const auto& [key, connection] : connections_) all.push_back(connection);
  for (const auto& connection : all) connection->close();
  cache_.clear();
}

}  // namespace

class StatusHttpServer::Impl : public ServerCore {
 public:
  using ServerCore::ServerCore;
};

StatusHttpServer::StatusHttpServer(StatusHttpOptions options, RouteHandler routes,
                                   EventRenderer events)
    : impl_(std::make_unique<Impl>(std::move(options), std::move(routes), std::move(events))) {}
StatusHttpServer::~StatusHttpServer() { impl_->stop(); }
base::Status StatusHttpServer::start() { return impl_->start(); }
int StatusHttpServer::port() const { return impl_->port(); }
void StatusHttpServer::stop() { impl_->stop(); }
void StatusHttpServer::notify_changed() { impl_->notify_changed(); }
size_t StatusHttpServer::connection_count() const { return impl_->connection_count(); }

}  // namespace client
