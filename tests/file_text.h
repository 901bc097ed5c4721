// read_text: a file's whole text, for tests that compare what a command wrote.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

// The bytes of the file at `path`, or "" when it cannot be read.
inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}
