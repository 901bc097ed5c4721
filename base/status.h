// Status: the outcome of an operation that can fail on bad input, returned as a value.
#pragma once

#include <string>
#include <utility>

namespace base {

// Either ok, or an error with a message meant for the user that names the input and the
// place in it ("SFEN 'lnsg...': column 12: ..."). A plain value type.
class Status {
 public:
  Status() = default;
  static Status ok() { return Status(); }
  static Status error(std::string message) { return Status(std::move(message)); }

  bool is_ok() const { return !failed_; }
  explicit operator bool() const { return is_ok(); }
  const std::string& message() const { return message_; }

 private:
  explicit Status(std::string message) : failed_(true), message_(std::move(message)) {}
  bool failed_ = false;
  std::string message_;
};

}  // namespace base
