// StatusHttpServer: a small read-only HTTP/1.1 server for a live status page (routes and events).
#pragma once

// Threading: the server runs its own io_context on its own thread, started by start() and
// joined by stop() or the destructor, so that no request can delay the thread that embeds it.
// RouteHandler and EventRenderer are called on that server thread only, one call at a time;
// they must not call stop() or destroy the server (stop() joins that very thread).
// notify_changed(), connection_count() and stop() may be called from any thread.
//
// Contracts, for any bytes a peer sends:
//  - GET and HEAD only (others: 405); a request body: 413; a malformed request: 400; a request
//    line plus headers over max_header_bytes: 431. Each of these closes the connection. Memory
//    per connection is bounded by max_header_bytes plus at most one event per connection and
//    one rendered event per channel.
//  - A request not complete within read_timeout_ms, or a reply the peer does not take within
//    write_timeout_ms, closes the connection; more than max_connections at once: 503.
//  - With a token, a request must carry it as ?token=... or "Authorization: Bearer ...", else
//    401; the token is compared in constant time, never echoed and never passed to routes.
//    Without a token, a request whose Host is not a loopback name (127.x.x.x, localhost,
//    [::1], with any port) gets 403: another site's page, its name re-bound to 127.0.0.1,
//    cannot read the status of a browser's machine (DNS rebinding).
//  - GET /events[?channel=NAME] (or ?game=NAME) is a text/event-stream: "retry: 2000", the
//    current render of the channel, then a new render after each notify_changed(). A slow
//    reader holds at most one pending event, which is replaced by newer ones; an event unsent
//    for event_stream_stall_ms closes the connection.
//  - Every reply carries Content-Length (except event streams), Cache-Control: no-store and
//    X-Content-Type-Options: nosniff.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"

namespace client {

struct HttpReply {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // extra headers
};

struct HttpRequest {
  std::string method;                        // "GET", "HEAD"
  std::string path;                          // "/status.json" (percent-decoded, without the query)
  std::map<std::string, std::string> query;  // decoded query parameters, without "token"
};

// The timeouts are in milliseconds; 0 or less: none.
struct StatusHttpOptions {
  std::string bind = "127.0.0.1";         // address to bind (IPv4 or IPv6 literal, or "localhost")
  int port = 0;                           // 0: any free port (see port())
  std::string token;                      // "": no token; else every request must carry it
  size_t max_connections = 64;            // more at once: answered 503 and closed
  size_t max_header_bytes = 8192;         // request line + headers; more: 431 and closed
  int64_t read_timeout_ms = 10000;        // a request not complete in this time: closed
  int64_t write_timeout_ms = 10000;       // a reply the peer does not take in this time: closed
  int64_t event_stream_stall_ms = 30000;  // an event stream's newer event unsent this long: closed
  int64_t keepalive_comment_ms = 15000;   // ": keep-alive\n\n" on idle event streams
};

// 127.x.x.x, localhost (any case), ::1 or [::1]: a name or address of this machine's loopback.
bool is_loopback_name(std::string_view host);

class StatusHttpServer {
 public:
  using RouteHandler = std::function<HttpReply(const HttpRequest&)>;             // server thread
  using EventRenderer = std::function<std::string(const std::string& channel)>;  // server thread

  StatusHttpServer(StatusHttpOptions options, RouteHandler routes, EventRenderer events);
  ~StatusHttpServer();  // stops
  StatusHttpServer(const StatusHttpServer&) = delete;
  StatusHttpServer& operator=(const StatusHttpServer&) = delete;

  // Binds, listens and starts the thread. The error names "ADDRESS:PORT" and what failed.
  // Once only: a second call, or a call after stop(), is an error.
  base::Status start();
  // The bound port. REQUIRES start() succeeded.
  int port() const;
  // Idempotent, any thread but the server's: closes the acceptor and every connection, joins.
  void stop();
  // Cheap and thread-safe: the state changed. Coalesced: at most one render pass is pending;
  // each channel with subscribers is rendered at most once per pass, on the server's thread,
  // and only when a subscriber can take the event. A no-op before start() and after stop().
  void notify_changed();
  // Open connections (for tests).
  size_t connection_count() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace client
