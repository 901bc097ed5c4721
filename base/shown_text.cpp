// shown_text: escaping and cutting quoted input.
#include "base/shown_text.h"

#include <cstdio>

namespace base {

namespace {

// The length of the UTF-8 sequence starting at s[i], or 0 when it is not a valid one.
size_t utf8_length(std::string_view s, size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return 0;
  return n;
}

std::string escaped(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += char(c);
      ++i;
    } else if (const size_t n = c >= 0x80 ? utf8_length(s, i) : 0; n > 0) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
      ++i;
    }
  }
  return out;
}

}  // namespace

std::string shown_text(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return escaped(text);
  const size_t head = max_bytes * 2 / 3, tail = max_bytes - head;
  return escaped(text.substr(0, head)) + " ...(" + std::to_string(text.size()) + " bytes)... " +
         escaped(text.substr(text.size() - tail));
}

}  // namespace base
