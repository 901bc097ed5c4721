// Transport: the line connection to a CSA server behind a small interface, and a line splitter.
#pragma once

// The Asio TCP client implements Transport later; tests replace it with a scripted fake. The
// CsaSession never sees a Transport: a driver loop moves lines between the two (SendLine
// actions to send_line, received lines to LineReceived events, kClosed to Disconnected).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "client/csa_protocol.h"

namespace client {

// A connection carrying LF-terminated ASCII lines. One owner calls it; not thread-safe.
class Transport {
 public:
  enum class ReceiveStatus {
    kOpen,    // still connected (the call may have returned no line: timeout)
    kClosed,  // the peer closed or the connection failed; every line before was delivered
  };

  virtual ~Transport() = default;
  // Opens a connection, closing any previous one. Errors name the host and port and say what
  // failed ("floodgate.example:4081: connection refused").
  virtual Status connect(const std::string& host, int port, int64_t timeout_ms) = 0;
  // Queues one line for sending; the transport appends the LF. False when not connected.
  virtual bool send_line(std::string_view line) = 0;
  // Waits at most timeout_ms for input and appends the complete lines received to `lines`,
  // without their LF (or CR LF). Lines longer than kMaxLineLength arrive cut to
  // kMaxLineLength + 1 bytes, so that the parser rejects them (see LineSplitter).
  virtual ReceiveStatus receive_lines(int64_t timeout_ms, std::vector<std::string>& lines) = 0;
  // Closes the connection; further sends fail. Idempotent.
  virtual void close() = 0;
  virtual bool is_open() const = 0;
};

// Splits a byte stream into lines. LF ends a line and a CR before it is dropped. A line longer
// than kMaxLineLength is delivered cut to kMaxLineLength + 1 bytes and the rest of it, up to
// its LF, is dropped: memory stays bounded whatever the peer sends. A plain value type.
class LineSplitter {
 public:
  void append(std::string_view bytes, std::vector<std::string>& lines) {
    for (char c : bytes) {
      if (c == '\n') {
        if (!partial_.empty() && partial_.back() == '\r' && !overlong_) partial_.pop_back();
        lines.push_back(std::move(partial_));
        partial_.clear();
        overlong_ = false;
      } else if (partial_.size() <= kMaxLineLength) {
        partial_ += c;
      } else {
        overlong_ = true;  // keep the kMaxLineLength + 1 bytes, drop the rest
      }
    }
  }
  // The unterminated tail, for a connection that closed in the middle of a line.
  bool has_partial() const { return !partial_.empty(); }
  std::string take_partial() {
    std::string s = std::move(partial_);
    partial_.clear();
    overlong_ = false;
    return s;
  }

 private:
  std::string partial_;
  bool overlong_ = false;
};

}  // namespace client
