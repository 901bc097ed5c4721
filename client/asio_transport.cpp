// AsioTransport: blocking calls with deadlines over a private io_context (see the header).
#include "client/asio_transport.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <array>
#include <chrono>

#include "client/asio.h"

namespace client {

namespace {

using boost::asio::ip::tcp;
using Clock = std::chrono::steady_clock;

// TCP keep-alive probing, so that a peer that vanished (no FIN) is found within ~2 minutes
// even when nothing is being sent; and the longest unacknowledged data may wait.
constexpr int kKeepIdleS = 60, kKeepIntervalS = 10, kKeepCount = 6;
constexpr unsigned kUserTimeoutMs = 60000;

void set_socket_options(tcp::socket& s) {
  boost::system::error_code ec;
  s.set_option(tcp::no_delay(true), ec);
  s.set_option(boost::asio::socket_base::keep_alive(true), ec);
  const int fd = s.native_handle();
  ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &kKeepIdleS, sizeof kKeepIdleS);
  ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &kKeepIntervalS, sizeof kKeepIntervalS);
  ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &kKeepCount, sizeof kKeepCount);
  ::setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &kUserTimeoutMs, sizeof kUserTimeoutMs);
}

}  // namespace

struct AsioTransport::Impl {
  explicit Impl(int64_t write_timeout) : write_timeout_ms(write_timeout) {}

  boost::asio::io_context io;
  tcp::socket socket{io};
  LineSplitter splitter;
  std::vector<std::string> ready;  // complete lines not yet handed out
  std::array<char, 4096> buffer{};
  int64_t write_timeout_ms;
  uint64_t generation = 0;  // handlers of an earlier connection are ignored
  bool open = false;        // until receive_lines has reported kClosed, or close()
  bool dead = false;        // the peer closed, or a read or write failed
  bool reading = false;     // an async_read_some is outstanding
  bool interrupted = false;

  void start_read() {
    reading = true;
    const uint64_t gen = generation;
    socket.async_read_some(boost::asio::buffer(buffer),
                           [this, gen](const boost::system::error_code& ec, size_t n) {
                             if (gen != generation) return;
                             reading = false;
                             if (n > 0) splitter.append(std::string_view(buffer.data(), n), ready);
                             if (ec) dead = true;
                           });
  }

  // Runs handlers until `done` or the io_context has nothing left to do.
  void run_until(const bool& done) {
    while (!done) {
      if (io.run_one() == 0) {
        if (!io.stopped()) break;
        io.restart();
      }
    }
  }

  void shut() {
    boost::system::error_code ec;
    if (socket.is_open()) {
      socket.shutdown(tcp::socket::shutdown_both, ec);
      socket.close(ec);
    }
    ++generation;
    open = dead = reading = false;
    splitter = LineSplitter();
    ready.clear();
  }
};

AsioTransport::AsioTransport(int64_t write_timeout_ms)
    : impl_(std::make_unique<Impl>(write_timeout_ms)) {}

AsioTransport::~AsioTransport() { close(); }

Status AsioTransport::connect(const std::string& host, int port, int64_t timeout_ms) {
  Impl& m = *impl_;
  m.shut();
  m.io.restart();
  const std::string where = host + ":" + std::to_string(port);
  tcp::resolver resolver(m.io);
  boost::asio::steady_timer timer(m.io);
  boost::system::error_code result;
  bool done = false, timer_done = false, timed_out = false;
  timer.expires_after(std::chrono::milliseconds(timeout_ms));
  timer.async_wait([&](const boost::system::error_code& ec) {
    timer_done = true;
    if (ec || done) return;
    timed_out = true;
    resolver.cancel();
    boost::system::error_code ignored;
    m.socket.close(ignored);
  });
  resolver.async_resolve(
      host, std::to_string(port),
      [&](const boost::system::error_code& ec, const tcp::resolver::results_type& endpoints) {
        if (ec || timed_out) {
          result = ec ? ec : boost::asio::error::timed_out;
          done = true;
          timer.cancel();
          return;
        }
        boost::asio::async_connect(m.socket, endpoints,
                                   [&](const boost::system::error_code& ec2, const tcp::endpoint&) {
                                     result = ec2;
                                     done = true;
                                     timer.cancel();
                                   });
      });
  m.run_until(done);
  m.run_until(timer_done);
  if (timed_out) {
    m.shut();
    return Status::error(where + ": no connection within " + std::to_string(timeout_ms) + " ms");
  }
  if (result) {
    m.shut();
    return Status::error(where + ": " + result.message());
  }
  set_socket_options(m.socket);
  m.open = true;
  return Status::ok();
}

bool AsioTransport::send_line(std::string_view line) {
  Impl& m = *impl_;
  if (!m.open || m.dead) return false;
  std::string data(line);
  data += '\n';
  boost::asio::steady_timer timer(m.io);
  boost::system::error_code result;
  bool done = false, timer_done = false;
  timer.expires_after(std::chrono::milliseconds(m.write_timeout_ms));
  timer.async_wait([&](const boost::system::error_code& ec) {
    timer_done = true;
    if (!ec && !done) {
      boost::system::error_code ignored;
      m.socket.cancel(ignored);  // the write completes with operation_aborted
    }
  });
  boost::asio::async_write(m.socket, boost::asio::buffer(data),
                           [&](const boost::system::error_code& ec, size_t) {
                             result = ec;
                             done = true;
                             timer.cancel();
                           });
  m.run_until(done);
  m.run_until(timer_done);
  if (result) {
    // The connection is gone; receive_lines reports kClosed after the lines already read.
    // A cancelled read (from socket.cancel) will not come back: read again only if alive.
    m.dead = true;
    return false;
  }
  return true;
}

Transport::ReceiveStatus AsioTransport::receive_lines(int64_t timeout_ms,
                                                      std::vector<std::string>& lines) {
  Impl& m = *impl_;
  if (!m.open) return ReceiveStatus::kClosed;
  const auto deadline = Clock::now() + std::chrono::milliseconds(std::max<int64_t>(0, timeout_ms));
  m.io.poll();
  if (m.io.stopped()) m.io.restart();
  while (m.ready.empty() && !m.dead) {
    if (!m.reading) m.start_read();
    if (m.interrupted) break;
    if (m.io.run_one_until(deadline) == 0) {
      if (m.io.stopped()) m.io.restart();
      if (Clock::now() >= deadline) break;
    }
  }
  m.interrupted = false;
  for (std::string& l : m.ready) lines.push_back(std::move(l));
  m.ready.clear();
  if (m.dead) {
    m.shut();
    return ReceiveStatus::kClosed;
  }
  return ReceiveStatus::kOpen;
}

void AsioTransport::close() {
  impl_->shut();
  // Drain the aborted handlers so that none outlives a later connection's state.
  impl_->io.restart();
  impl_->io.poll();
  impl_->io.restart();
}

bool AsioTransport::is_open() const { return impl_->open; }

void AsioTransport::interrupt() {
  Impl* m = impl_.get();
  boost::asio::post(m->io, [m] { m->interrupted = true; });
}

}  // namespace client
