// The status HTTP server over loopback with raw sockets: routes, errors, hostile and slow
// clients, the token, event streams, keep-alive and stopping. Every wait is bounded.
#include "client/status_http.h"

#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace status_http_test {

namespace {

using Clock = std::chrono::steady_clock;
using client::HttpReply;
using client::HttpRequest;
using client::StatusHttpOptions;
using client::StatusHttpServer;

int64_t ms_since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

bool wait_for(const std::function<bool()>& done, int timeout_ms) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  while (!done()) {
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

struct Reply {
  int status = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string head;                            // the raw status line and headers
  std::string body;
  std::string header(const std::string& name) const {
    const auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
};

// A blocking loopback client whose every read is bounded by a deadline.
class Client {
 public:
  explicit Client(int port, int receive_buffer = 0) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd_ >= 0);
    if (receive_buffer > 0) {
      ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
    }
    timeval tv{3, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  }
  ~Client() { close(); }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  bool connected() const { return connected_; }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  // False when the peer closed or the send timed out (both fine for hostile input).
  bool send(std::string_view data) {
    while (!data.empty()) {
      const ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      data.remove_prefix(static_cast<size_t>(n));
    }
    return true;
  }

  // Reads what arrives into pending(); false on EOF, error or the deadline.
  bool fill(Clock::time_point deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
    char buf[65536];
    const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n <= 0) {
      eof_ = true;
      return false;
    }
    pending_.append(buf, static_cast<size_t>(n));
    return true;
  }

  bool read_until(std::string_view needle, int timeout_ms = 3000) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    while (pending_.find(needle) == std::string::npos) {
      if (!fill(deadline)) return false;
    }
    return true;
  }

  // One reply: status line, headers, and a Content-Length body unless `head`.
  std::optional<Reply> reply(bool head = false, int timeout_ms = 3000) {
    if (!read_until("\r\n\r\n", timeout_ms)) return std::nullopt;
    Reply r;
    const size_t end = pending_.find("\r\n\r\n");
    r.head = pending_.substr(0, end);
    pending_.erase(0, end + 4);
    size_t pos = r.head.find("\r\n");
    const std::string status_line = r.head.substr(0, pos);
    if (status_line.rfind("HTTP/1.", 0) != 0 || status_line.size() < 12) return std::nullopt;
    r.status = std::stoi(status_line.substr(9, 3));
    while (pos != std::string::npos) {
      const size_t next = r.head.find("\r\n", pos + 2);
      const std::string line =
          r.head.substr(pos + 2, next == std::string::npos ? next : next - pos - 2);
      const size_t colon = line.find(':');
      if (colon != std::string::npos) {
        std::string value = line.substr(colon + 1);
        while (!value.empty() && value.front() == ' ') value.erase(0, 1);
        r.headers[lower(line.substr(0, colon))] = value;
      }
      pos = next;
    }
    const size_t length =
        r.headers.count("content-length") ? std::stoul(r.headers["content-length"]) : 0;
    if (!head) {
      const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
      while (pending_.size() < length) {
        if (!fill(deadline)) return std::nullopt;
      }
      r.body = pending_.substr(0, length);
      pending_.erase(0, length);
    }
    return r;
  }

  // True when the server closes (or resets) the connection within the time; drops what arrives.
  bool closed_within(int timeout_ms) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    while (!eof_) {
      if (!fill(deadline) && !eof_) return false;
    }
    return true;
  }

  std::string& pending() { return pending_; }

 private:
  int fd_ = -1;
  bool connected_ = false;
  bool eof_ = false;
  std::string pending_;
};

// A server with a route table answering "/hello", "/throw" and 404 for the rest.
struct Fixture {
  explicit Fixture(StatusHttpOptions options = {},
                   StatusHttpServer::EventRenderer events = nullptr) {
    if (!events) {
      events = [this](const std::string& channel) {
        ++renders;
        return "state " + channel + " v" + std::to_string(version.load());
      };
    }
    server = std::make_unique<StatusHttpServer>(
        std::move(options),
        [this](const HttpRequest& request) {
          {
            std::lock_guard lock(mutex);
            last = request;
          }
          if (request.path == "/throw") throw std::runtime_error("route failed");
          if (request.path == "/hello" || request.path == "/a b") {
            HttpReply reply;
            reply.content_type = "text/html; charset=utf-8";
            reply.body = "hello";
            reply.headers.emplace_back("X-Test", "yes");
            reply.headers.emplace_back("Bad\r\nHeader", "x");
            return reply;
          }
          return HttpReply{404, "text/plain; charset=utf-8", "not found\n", {}};
        },
        std::move(events));
    const base::Status st = server->start();
    REQUIRE_MESSAGE(st.is_ok(), st.message());
    port = server->port();
  }
  HttpRequest last_request() {
    std::lock_guard lock(mutex);
    return last;
  }
  // A normal GET on a fresh connection succeeds.
  bool serves() {
    Client c(port);
    if (!c.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
      return false;
    const auto r = c.reply();
    return r && r->status == 200 && r->body == "hello";
  }

  std::atomic<int> version{0};
  std::atomic<int> renders{0};
  std::mutex mutex;
  HttpRequest last;
  std::unique_ptr<StatusHttpServer> server;
  int port = 0;
};

StatusHttpOptions short_options() {
  StatusHttpOptions o;
  o.read_timeout_ms = 300;
  o.write_timeout_ms = 1000;
  return o;
}

}  // namespace

TEST_CASE("status http: a GET goes through the route handler with the standard headers") {
  Fixture f;
  Client c(f.port);
  REQUIRE(c.send("GET /a%20b?x=1+2&y=%41 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
  const auto r = c.reply();
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body == "hello");
  CHECK(r->header("content-length") == "5");
  CHECK(r->header("content-type") == "text/html; charset=utf-8");
  CHECK(r->header("cache-control") == "no-store");
  CHECK(r->header("x-content-type-options") == "nosniff");
  CHECK(r->header("x-test") == "yes");
  CHECK(r->head.find("Bad") == std::string::npos);  // a header with CR LF in its name: dropped
  const HttpRequest seen = f.last_request();
  CHECK(seen.method == "GET");
  CHECK(seen.path == "/a b");
  CHECK(seen.query == std::map<std::string, std::string>{{"x", "1 2"}, {"y", "A"}});
}

TEST_CASE("status http: HEAD has the headers and no body; 404 and 500 from the handler") {
  Fixture f;
  {
    Client c(f.port);
    REQUIRE(c.send("HEAD /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"));
    const auto r = c.reply(true);
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK(r->header("content-length") == "5");
    CHECK(r->header("cache-control") == "no-store");
    CHECK(c.closed_within(2000));
    CHECK(c.pending().empty());
    CHECK(f.last_request().method == "HEAD");
  }
  {
    Client c(f.port);
    REQUIRE(c.send("GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
    const auto r = c.reply();
    REQUIRE(r);
    CHECK(r->status == 404);
    CHECK(r->body == "not found\n");
    CHECK(r->header("x-content-type-options") == "nosniff");
    REQUIRE(c.send("GET /throw HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
    const auto r2 = c.reply();
    REQUIRE(r2);
    CHECK(r2->status == 500);
    CHECK(r2->body.find("route failed") == std::string::npos);
  }
}

TEST_CASE("status http: other methods get 405, a body 413, and the connection survives 405") {
  Fixture f;
  {
    Client c(f.port);
    REQUIRE(c.send("POST /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
    const auto r = c.reply();
    REQUIRE(r);
    CHECK(r->status == 405);
    CHECK(r->header("allow") == "GET, HEAD");
    REQUIRE(c.send("DELETE /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
    const auto r2 = c.reply();
    REQUIRE(r2);
    CHECK(r2->status == 405);
  }
  for (const char* request :
       {"GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\n0123456789",
        "POST /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\n\r\nabc",
        "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
        "3\r\nabc\r\n0\r\n\r\n"}) {
    CAPTURE(request);
    Client c(f.port);
    REQUIRE(c.send(request));
    const auto r = c.reply();
    REQUIRE(r);
    CHECK(r->status == 413);
    CHECK(c.closed_within(2000));
  }
  CHECK(f.serves());
}

TEST_CASE("status http: malformed requests get 400 and the server serves the next client") {
  Fixture f(short_options());
  const std::vector<std::string> bad = {std::string("\x00\xff\xfe garbage\r\n\r\n", 16),
                                        "GET\r\n\r\n",
                                        "GET / HTTP/9.9\r\n\r\n",
                                        "GET / FOO/1.1\r\n\r\n",
                                        "GET http://x/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                                        "GET /%zz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                                        "GET / HTTP/1.1\r\nBad Header\r\n\r\n",
                                        "GET /a%00b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                                        "\r\n\r\n\r\n\r\n"};
  for (const std::string& request : bad) {
    CAPTURE(request);
    Client c(f.port);
    c.send(request);
    const auto r = c.reply();
    if (r) CHECK(r->status == 400);
    CHECK(c.closed_within(2000));
    CHECK(f.serves());
  }
  // Random bytes, some after a valid-looking start.
  std::mt19937 rng(12345);
  for (int i = 0; i < 60; ++i) {
    std::string bytes(static_cast<size_t>(rng() % 600), '\0');
    for (char& b : bytes) b = static_cast<char>(rng());
    if (i % 3 == 0) bytes = "GET /" + bytes;
    if (i % 3 == 1) bytes = "GET / HTTP/1.1\r\n" + bytes + "\r\n\r\n";
    Client c(f.port);
    c.send(bytes);
    c.closed_within(1000);  // answered and closed, or closed by the read timeout
  }
  CHECK(f.serves());
  CHECK(wait_for([&] { return f.server->connection_count() == 0; }, 3000));
}

TEST_CASE("status http: a 1 MB request line gets 431 or a close, and memory stays bounded") {
  Fixture f(short_options());
  for (int round = 0; round < 2; ++round) {
    Client c(f.port);
    std::string request =
        "GET /" + std::string(1 << 20, 'a') + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    if (round == 1) request = "GET / HTTP/1.1\r\nX-Big: " + std::string(1 << 20, 'b') + "\r\n\r\n";
    c.send(request);
    const auto r = c.reply();
    if (r) CHECK(r->status == 431);
    CHECK(c.closed_within(3000));
    CHECK(f.serves());
  }
}

TEST_CASE("status http: a slowloris client is closed after the read timeout, others are served") {
  StatusHttpOptions o;
  o.read_timeout_ms = 3000;
  Fixture f(o);
  const auto start = Clock::now();
  Client slow(f.port);
  REQUIRE(slow.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
  Client idle(f.port);  // connects and sends nothing
  CHECK(f.serves());
  CHECK(ms_since(start) < 2500);  // served while the slow ones still hold their connections
  CHECK(wait_for([&] { return f.server->connection_count() == 2; }, 500));
  CHECK(slow.closed_within(8000));
  CHECK(idle.closed_within(8000));
  CHECK(ms_since(start) >= 2900);
  CHECK(wait_for([&] { return f.server->connection_count() == 0; }, 2000));
}

TEST_CASE("status http: without a token only loopback host names are served (DNS rebinding)") {
  Fixture f(short_options());
  for (const char* host :
       {"127.0.0.1", "127.0.0.1:8080", "localhost:5000", "LOCALHOST", "[::1]:80"}) {
    Client c(f.port);
    REQUIRE(c.send(std::string("GET /hello HTTP/1.1\r\nHost: ") + host +
                   "\r\nConnection: close\r\n\r\n"));
    const auto r = c.reply(false, 3000);
    REQUIRE(r);
    CHECK_MESSAGE(r->status == 200, host);
  }
  for (const char* host : {"evil.example", "evil.example:8080", "127.0.0.1.evil.example",
                           "[::2]:80", "localhost:80x"}) {
    Client c(f.port);
    REQUIRE(c.send(std::string("GET /hello HTTP/1.1\r\nHost: ") + host +
                   "\r\nConnection: close\r\n\r\n"));
    const auto r = c.reply(false, 3000);
    REQUIRE(r);
    CHECK_MESSAGE(r->status == 403, host);
  }
}

TEST_CASE("status http: past max_connections extra clients get 503, then all is served again") {
  StatusHttpOptions o = short_options();
  o.max_connections = 16;
  o.read_timeout_ms = 2000;  // the first 16 hold their places while the rest connect
  Fixture f(o);
  std::vector<std::unique_ptr<Client>> clients;
  for (int i = 0; i < 200; ++i) clients.push_back(std::make_unique<Client>(f.port));
  int refused = 0, closed = 0;
  for (auto& c : clients) {
    const auto r = c->reply(false, 3000);
    if (r && r->status == 503) ++refused;
    if (c->closed_within(3000)) ++closed;
  }
  CHECK(refused >= 150);  // 184 in principle; a reset may swallow an odd reply
  CHECK(closed == 200);
  CHECK(f.server->connection_count() <= 16);
  clients.clear();
  CHECK(wait_for([&] { return f.server->connection_count() == 0; }, 3000));
  CHECK(f.serves());
}

TEST_CASE("status http: the token is required, checked and never echoed") {
  StatusHttpOptions o;
  o.token = "s3cret-T0ken";
  Fixture f(o);
  const std::vector<std::string> refused = {
      "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
      "GET /hello?token=wrong HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
      "GET /hello?token=s3cret-T0ke HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
      "GET /hello?token=s3cret-T0kenX HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
      "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer nope\r\n\r\n",
      "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Basic s3cret-T0ken\r\n\r\n",
      "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
      "POST /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"};
  for (const std::string& request : refused) {
    CAPTURE(request);
    Client c(f.port);
    REQUIRE(c.send(request));
    const auto r = c.reply();
    REQUIRE(r);
    CHECK(r->status == 401);
    CHECK(r->body == "unauthorized\n");
    CHECK((r->head + r->body).find("s3cret") == std::string::npos);
    CHECK(r->head.find("wrong") == std::string::npos);
  }
  {
    Client c(f.port);
    REQUIRE(c.send("GET /hello?token=s3cret-T0ken&x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
    const auto r = c.reply();
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK(f.last_request().query == std::map<std::string, std::string>{{"x", "1"}});
    REQUIRE(c.send(
        "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer s3cret-T0ken\r\n\r\n"));
    const auto r2 = c.reply();
    REQUIRE(r2);
    CHECK(r2->status == 200);
    CHECK(r2->body == "hello");
  }
  {
    Client c(f.port);
    REQUIRE(c.send("GET /events?token=s3cret-T0ken HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
    CHECK(c.read_until("data: state  v0\n\n"));
  }
}

TEST_CASE("status http: event streams get the current render, then one per notification") {
  StatusHttpOptions o;
  o.keepalive_comment_ms = 100;
  Fixture f(o);
  Client a(f.port);
  REQUIRE(a.send("GET /events?channel=a HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
  REQUIRE(a.read_until("data: state a v0\n\n"));
  const auto r = a.reply(true);
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->header("content-type") == "text/event-stream");
  CHECK(r->header("cache-control") == "no-cache");
  CHECK(a.pending() == "retry: 2000\n\ndata: state a v0\n\n");
  a.pending().clear();

  Client b(f.port);
  REQUIRE(b.send("GET /events?game=b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
  REQUIRE(b.read_until("data: state b v0\n\n"));
  CHECK(wait_for([&] { return f.server->connection_count() == 2; }, 2000));

  f.version = 1;
  f.server->notify_changed();
  CHECK(a.read_until("data: state a v1\n\n"));
  CHECK(b.read_until("data: state b v1\n\n"));
  CHECK(a.pending().find("state b") == std::string::npos);
  a.pending().clear();
  CHECK(a.read_until(": keep-alive\n\n", 2000));

  // HEAD of the stream: its head, then the close.
  Client h(f.port);
  REQUIRE(h.send("HEAD /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
  const auto hr = h.reply(true);
  REQUIRE(hr);
  CHECK(hr->header("content-type") == "text/event-stream");
  CHECK(h.closed_within(2000));
  CHECK(h.pending().empty());

  // Payload lines become data: lines.
  f.version = 2;
  Fixture g(o, [](const std::string&) { return std::string("one\ntwo\r\nthree"); });
  Client m(g.port);
  REQUIRE(m.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
  CHECK(m.read_until("data: one\ndata: two\ndata: three\n\n"));
}

TEST_CASE("status http: one render per channel per notification, shared by its subscribers") {
  Fixture f;
  std::vector<std::unique_ptr<Client>> subscribers;
  for (int i = 0; i < 5; ++i) {
    subscribers.push_back(std::make_unique<Client>(f.port));
    REQUIRE(
        subscribers.back()->send("GET /events?channel=same HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
    REQUIRE(subscribers.back()->read_until("data: state same v0\n\n"));
  }
  const int before = f.renders.load();
  f.version = 7;
  f.server->notify_changed();
  for (auto& s : subscribers) CHECK(s->read_until("data: state same v7\n\n"));
  CHECK(f.renders.load() == before + 1);
}

TEST_CASE("status http: a subscriber that never reads stays bounded and is closed for stalling") {
  StatusHttpOptions o;
  o.event_stream_stall_ms = 200;
  o.write_timeout_ms = 20000;  // so that only the stall limit can close it in time
  std::atomic<int> renders{0};
  const std::string big(64 * 1024, 'x');
  Fixture f(o, [&](const std::string&) {
    ++renders;
    return big;
  });
  Client stalled(f.port, 4096);
  REQUIRE(stalled.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
  REQUIRE(wait_for([&] { return renders.load() >= 1; }, 2000));
  const auto start = Clock::now();
  int notifications = 0;
  bool closed = false;
  while (ms_since(start) < 10000 && !closed) {
    for (int i = 0; i < 100; ++i, ++notifications) f.server->notify_changed();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    closed = f.server->connection_count() == 0;
  }
  CHECK(closed);
  MESSAGE("notifications " << notifications << ", renders " << renders.load());
  CHECK(renders.load() < 1000);  // the socket buffers hold a few hundred events at most
  const int after_close = renders.load();
  for (int i = 0; i < 1000; ++i) f.server->notify_changed();
  CHECK(f.serves());
  CHECK(renders.load() == after_close);  // no subscribers: nothing rendered
}

TEST_CASE("status http: keep-alive for HTTP/1.1, close for HTTP/1.0 unless asked") {
  Fixture f;
  {
    Client c(f.port);
    REQUIRE(
        c.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /nothing HTTP/1.1\r\nHost: "
               "127.0.0.1\r\n\r\n"));
    const auto r1 = c.reply();
    const auto r2 = c.reply();
    REQUIRE(r1);
    REQUIRE(r2);
    CHECK(r1->status == 200);
    CHECK(r2->status == 404);
    REQUIRE(c.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
    const auto r3 = c.reply();
    REQUIRE(r3);
    CHECK(r3->body == "hello");
  }
  {
    Client c(f.port);
    REQUIRE(c.send("GET /hello HTTP/1.0\r\n\r\n"));
    const auto r = c.reply();
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK(c.closed_within(2000));
  }
  {
    Client c(f.port);
    REQUIRE(c.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
    const auto r = c.reply();
    REQUIRE(r);
    CHECK(lower(r->header("connection")) == "keep-alive");
    REQUIRE(c.send("GET /hello HTTP/1.0\r\n\r\n"));
    const auto r2 = c.reply();
    REQUIRE(r2);
    CHECK(r2->status == 200);
  }
}

TEST_CASE("status http: stop() with open connections returns promptly and is idempotent") {
  Fixture f;
  Client idle(f.port);
  Client half(f.port);
  REQUIRE(half.send("GET /hello HTTP/1.1\r\n"));
  Client events(f.port);
  REQUIRE(events.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
  REQUIRE(events.read_until("data: state  v0\n\n"));
  CHECK(wait_for([&] { return f.server->connection_count() == 3; }, 2000));
  const auto start = Clock::now();
  f.server->stop();
  CHECK(ms_since(start) < 3000);
  CHECK(f.server->connection_count() == 0);
  CHECK(idle.closed_within(1000));
  CHECK(half.closed_within(1000));
  CHECK(events.closed_within(1000));
  f.server->notify_changed();
  f.server->stop();
  CHECK_FALSE(f.server->start().is_ok());
  Client after(f.port);
  CHECK_FALSE(after.connected());
}

TEST_CASE("status http: start() on a port in use names the address and port") {
  Fixture f;
  StatusHttpOptions o;
  o.port = f.port;
  StatusHttpServer second(o, nullptr, nullptr);
  const base::Status st = second.start();
  REQUIRE_FALSE(st.is_ok());
  CHECK(st.message().find("127.0.0.1:" + std::to_string(f.port)) != std::string::npos);
  CHECK(st.message().find("bind") != std::string::npos);
  o.bind = "not an address";
  StatusHttpServer third(o, nullptr, nullptr);
  CHECK_FALSE(third.start().is_ok());
  CHECK(f.serves());
  // "localhost" binds the loopback address; without routes every path is 404.
  o.bind = "localhost";
  o.port = 0;
  StatusHttpServer fourth(o, nullptr, nullptr);
  REQUIRE(fourth.start().is_ok());
  Client c(fourth.port());
  REQUIRE(c.send("GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
  const auto r = c.reply();
  REQUIRE(r);
  CHECK(r->status == 404);
}

}  // namespace status_http_test
