// TomlReader's file reading: the one place that instantiates toml11's parser.
#include "base/toml_reader.h"

#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace base {

Status parse_toml(const std::string& text, const std::string& name, TomlValue& root) {
  std::istringstream in(text);
  try {
    root = toml::parse<toml::discard_comments, std::map, std::vector>(in, name);
  } catch (const std::exception& e) {
    return Status::error(std::string("cannot read configuration ") + name + ":\n" + e.what());
  }
  return Status::ok();
}

Status load_toml(const std::string& path, TomlValue& root) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::error("cannot open configuration file " + path);
  // A directory opens, then reads as an empty file: the errors would be about missing keys.
  if (std::error_code ec; std::filesystem::is_directory(path, ec))
    return Status::error("configuration file " + path + " is a directory");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_toml(text.str(), path, root);
}

}  // namespace base
