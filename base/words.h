// split_words and trim_blanks: a line of text cut into its words at spaces and tabs, or
// stripped of the blanks around it (file formats, USI, CSA).
#pragma once

#include <string_view>
#include <vector>

namespace base {

// The words of `line`, in order, as views into it; runs of spaces and tabs separate them.
inline std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

// `text` without the spaces, tabs, carriage returns and newlines at its ends.
inline std::string_view trim_blanks(std::string_view text) {
  constexpr std::string_view kBlanks = " \t\r\n";
  const size_t b = text.find_first_not_of(kBlanks);
  if (b == std::string_view::npos) return {};
  return text.substr(b, text.find_last_not_of(kBlanks) - b + 1);
}

}  // namespace base
