// AsioTransport: the Transport over a Boost.Asio TCP socket.
#pragma once

// Blocking calls with deadlines over an io_context that only the owner's thread runs:
//  - connect resolves and connects within its timeout, then sets TCP_NODELAY, SO_KEEPALIVE
//    (idle 60 s, probes every 10 s, 6 of them) and TCP_USER_TIMEOUT (unacknowledged data
//    for 60 s kills the connection);
//  - send_line writes the whole line with its LF before returning, or closes the connection
//    when the peer takes none of it for write_timeout_ms (a dead or stuck peer);
//  - receive_lines feeds what arrives through a LineSplitter, so any byte sequence is safe.
// interrupt() may be called from any thread: it makes a waiting receive_lines return early
// (the engine's answers arrive on a search thread). Everything else: the owner's thread only.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "client/transport.h"

namespace client {

class AsioTransport : public Transport {
 public:
  // How long a write may wait for the peer before the connection is taken as dead.
  explicit AsioTransport(int64_t write_timeout_ms = 20000);
  ~AsioTransport() override;
  AsioTransport(const AsioTransport&) = delete;
  AsioTransport& operator=(const AsioTransport&) = delete;

  Status connect(const std::string& host, int port, int64_t timeout_ms) override;
  bool send_line(std::string_view line) override;
  ReceiveStatus receive_lines(int64_t timeout_ms, std::vector<std::string>& lines) override;
  void close() override;
  bool is_open() const override;

  // Thread-safe: wakes a receive_lines that is waiting.
  void interrupt();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace client
