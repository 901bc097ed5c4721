// split_words: a line of text cut into its words at spaces and tabs (file formats, USI info).
#pragma once

#include <string_view>
#include <vector>

namespace engine {

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

}  // namespace engine
