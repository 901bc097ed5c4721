// TomlReader: reads a TOML configuration key by key, every error naming the file, the dotted
// key and the line (the CSA client's and the council's configuration files).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <toml.hpp>
#include <utility>
#include <vector>

#include "base/status.h"

namespace base {

// An ordered table keeps errors and USI options in key order.
using TomlValue = toml::basic_value<toml::discard_comments, std::map, std::vector>;

// Reads one file: every error names the file, the dotted key and the line.
class TomlReader {
 public:
  explicit TomlReader(std::string file) : file_(std::move(file)) {}

  std::string origin(const TomlValue& v) const {
    const auto line = v.location().line();
    return line > 0 ? file_ + ":" + std::to_string(line) : file_;
  }
  Status fail(const TomlValue& v, const std::string& key, const std::string& message) const {
    return Status::error(origin(v) + ": " + key + ": " + message);
  }

  using Handler = std::function<Status(const TomlValue&, const std::string& key)>;

  // Runs the handler of each key of `table`; a key without one is an error.
  Status read_table(const TomlValue& table, const std::string& prefix,
                    const std::map<std::string, Handler>& handlers) const {
    for (const auto& [k, v] : table.as_table()) {
      const std::string key = prefix.empty() ? k : prefix + "." + k;
      auto it = handlers.find(k);
      if (it == handlers.end()) {
        std::string known;
        for (const auto& h : handlers) known += (known.empty() ? "" : ", ") + h.first;
        return Status::error(origin(v) + ": unknown key '" + key + "' (known here: " + known + ")");
      }
      if (Status st = it->second(v, key); !st) return st;
    }
    return Status::ok();
  }

  Handler string_key(std::string& out) const {
    return [this, &out](const TomlValue& v, const std::string& key) {
      if (!v.is_string()) return fail(v, key, "expected a string, got " + type_name(v));
      out = v.as_string().str;
      return Status::ok();
    };
  }
  Handler bool_key(bool& out) const {
    return [this, &out](const TomlValue& v, const std::string& key) {
      if (!v.is_boolean()) return fail(v, key, "expected true or false, got " + type_name(v));
      out = v.as_boolean();
      return Status::ok();
    };
  }
  // An integer in [lo, hi]; `zero_ok` also allows 0 below lo ("0 = off").
  Handler int_key(int& out, int64_t lo, int64_t hi, bool zero_ok = false) const {
    return [this, &out, lo, hi, zero_ok](const TomlValue& v, const std::string& key) {
      if (!v.is_integer()) return fail(v, key, "expected an integer, got " + type_name(v));
      const int64_t x = v.as_integer();
      if ((x < lo || x > hi) && !(zero_ok && x == 0))
        return fail(v, key,
                    std::to_string(x) + " is out of range " + (zero_ok ? "0 or " : "") +
                        std::to_string(lo) + ".." + std::to_string(hi));
      out = int(x);
      return Status::ok();
    };
  }
  // A number (integer or float) in [lo, hi].
  Handler number_key(double& out, double lo, double hi) const {
    return [this, &out, lo, hi](const TomlValue& v, const std::string& key) {
      double x;
      if (v.is_floating())
        x = v.as_floating();
      else if (v.is_integer())
        x = double(v.as_integer());
      else
        return fail(v, key, "expected a number, got " + type_name(v));
      if (!(x >= lo && x <= hi))
        return fail(v, key,
                    std::to_string(x) + " is out of range " + std::to_string(lo) + ".." +
                        std::to_string(hi));
      out = x;
      return Status::ok();
    };
  }
  // An array of strings.
  Handler strings_key(std::vector<std::string>& out) const {
    return [this, &out](const TomlValue& v, const std::string& key) {
      if (!v.is_array()) return fail(v, key, "expected an array of strings, got " + type_name(v));
      out.clear();
      for (const TomlValue& e : v.as_array()) {
        if (!e.is_string()) return fail(e, key, "expected a string, got " + type_name(e));
        out.push_back(e.as_string().str);
      }
      return Status::ok();
    };
  }
  // One of `choices`; stores its index.
  Handler choice_key(int& out, std::vector<std::string> choices) const {
    return [this, &out, choices](const TomlValue& v, const std::string& key) {
      std::string list;
      for (const std::string& c : choices) list += (list.empty() ? "\"" : ", \"") + c + "\"";
      if (!v.is_string()) return fail(v, key, "expected one of " + list + ", got " + type_name(v));
      for (size_t i = 0; i < choices.size(); ++i)
        if (v.as_string().str == choices[i]) {
          out = int(i);
          return Status::ok();
        }
      return fail(v, key, "'" + v.as_string().str + "' is not one of " + list);
    };
  }

  static std::string type_name(const TomlValue& v) {
    switch (v.type()) {
      case toml::value_t::boolean:
        return "a boolean";
      case toml::value_t::integer:
        return "an integer";
      case toml::value_t::floating:
        return "a float";
      case toml::value_t::string:
        return "a string";
      case toml::value_t::array:
        return "an array";
      case toml::value_t::table:
        return "a table";
      case toml::value_t::empty:
        return "nothing";
      default:
        return "a date or time";
    }
  }

  // A USI option's value as the configuration may write it (a string, an integer or a
  // boolean), as the text setoption sends; false for any other type.
  static bool scalar_text(const TomlValue& v, std::string& text) {
    if (v.is_string())
      text = v.as_string().str;
    else if (v.is_integer())
      text = std::to_string(v.as_integer());
    else if (v.is_boolean())
      text = v.as_boolean() ? "true" : "false";
    else
      return false;
    return true;
  }

 private:
  std::string file_;
};

// Parses TOML text; `name` is the file named in errors.
Status parse_toml(const std::string& text, const std::string& name, TomlValue& root);
// Reads and parses a file; errors name it (missing, a directory, bad TOML).
Status load_toml(const std::string& path, TomlValue& root);

}  // namespace base
