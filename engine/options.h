// Options: the engine's settings as USI exposes them (check, spin, combo, string, button).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "engine/names.h"

namespace engine {

// One option. Values are kept as strings; typed accessors parse them.
struct Option {
  enum class Type { kCheck, kSpin, kCombo, kString, kFilename, kButton };
  std::string name;
  Type type = Type::kString;
  std::string default_value;
  std::string value;
  int64_t min = 0, max = 0;                      // kSpin
  std::vector<std::string> choices;              // kCombo
  std::string help;                              // one line for people (the README's options table)
  std::function<void(const Option&)> on_change;  // called after a successful set

  bool as_bool() const { return value == "true"; }
  int64_t as_int() const;
};

// The option table, in the order options were added (USI lists them in that order).
// Names are matched case-insensitively, as USI GUIs expect. Not thread-safe: set options
// only while no search runs.
class Options {
 public:
  Option& add_check(const std::string& name, bool default_value, const std::string& help = "");
  Option& add_spin(const std::string& name, int64_t default_value, int64_t min, int64_t max,
                   const std::string& help = "");
  Option& add_combo(const std::string& name, const std::string& default_value,
                    std::vector<std::string> choices, const std::string& help = "");
  Option& add_string(const std::string& name, const std::string& default_value,
                     const std::string& help = "");
  Option& add_filename(const std::string& name, const std::string& default_value,
                       const std::string& help = "");
  Option& add_button(const std::string& name, const std::string& help = "");

  // Sets a value after checking its type and range; the error names the option and value.
  Status set(const std::string& name, const std::string& value);
  const Option* find(const std::string& name) const;
  const Option& get(const std::string& name) const;  // REQUIRES: the option exists
  bool get_bool(const std::string& name) const { return get(name).as_bool(); }
  int64_t get_int(const std::string& name) const { return get(name).as_int(); }
  const std::string& get_string(const std::string& name) const { return get(name).value; }

  // "option name USI_Hash type spin default 256 min 1 max 33554432", one line per option.
  std::vector<std::string> usi_lines() const;
  // The options as a Markdown table (name, type, default, range or choices, meaning), the
  // README's options table, generated so that it cannot drift from the engine.
  std::string markdown_table() const;
  const std::vector<Option>& all() const { return options_; }

 private:
  Option& add(Option option);
  std::vector<Option> options_;
};

}  // namespace engine
