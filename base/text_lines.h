// TextLines: a text cut into numbered lines, for the line-oriented file formats we read.
#pragma once

#include <string_view>

namespace base {

// Walks `text` line by line: LF or CRLF endings (the '\r' is dropped), a last line without
// an ending included, no empty line after a final newline. The text must outlive it.
//   TextLines lines(text);
//   for (std::string_view line; lines.next(line);) use(line, lines.number());
class TextLines {
 public:
  explicit TextLines(std::string_view text) : text_(text) {}

  // The next line into `line`; false when the text is used up.
  bool next(std::string_view& line) {
    if (start_ >= text_.size()) return false;
    size_t end = text_.find('\n', start_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(start_, end - start_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    start_ = end + 1;
    ++number_;
    return true;
  }
  // The 1-based number of the line next() returned last.
  int number() const { return number_; }

 private:
  std::string_view text_;
  size_t start_ = 0;
  int number_ = 0;
};

}  // namespace base
