// Options: typed settings with range checks and USI descriptions.
#include "engine/options.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>

#include "engine/names.h"

namespace engine {
namespace {

bool equal_ignoring_case(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

bool parse_int(const std::string& text, int64_t& out) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, out);
  return ec == std::errc() && ptr == end && !text.empty();
}

const char* type_name(Option::Type t) {
  switch (t) {
    case Option::Type::kCheck:
      return "check";
    case Option::Type::kSpin:
      return "spin";
    case Option::Type::kCombo:
      return "combo";
    case Option::Type::kString:
      return "string";
    case Option::Type::kFilename:
      return "filename";
    case Option::Type::kButton:
      return "button";
  }
  return "string";
}

}  // namespace

int64_t Option::as_int() const {
  int64_t v = 0;
  parse_int(value, v);
  return v;
}

Option& Options::add(Option option) {
  options_.push_back(std::move(option));
  return options_.back();
}

Option& Options::add_check(const std::string& name, bool default_value, const std::string& help) {
  Option o;
  o.name = name;
  o.help = help;
  o.type = Option::Type::kCheck;
  o.default_value = o.value = default_value ? "true" : "false";
  return add(std::move(o));
}

Option& Options::add_spin(const std::string& name, int64_t default_value, int64_t min, int64_t max,
                          const std::string& help) {
  Option o;
  o.name = name;
  o.help = help;
  o.type = Option::Type::kSpin;
  o.default_value = o.value = std::to_string(default_value);
  o.min = min;
  o.max = max;
  return add(std::move(o));
}

Option& Options::add_combo(const std::string& name, const std::string& default_value,
                           std::vector<std::string> choices, const std::string& help) {
  Option o;
  o.name = name;
  o.help = help;
  o.type = Option::Type::kCombo;
  o.default_value = o.value = default_value;
  o.choices = std::move(choices);
  return add(std::move(o));
}

Option& Options::add_string(const std::string& name, const std::string& default_value,
                            const std::string& help) {
  Option o;
  o.name = name;
  o.help = help;
  o.type = Option::Type::kString;
  o.default_value = o.value = default_value;
  return add(std::move(o));
}

Option& Options::add_filename(const std::string& name, const std::string& default_value,
                              const std::string& help) {
  Option& o = add_string(name, default_value, help);
  o.type = Option::Type::kFilename;
  return o;
}

Option& Options::add_button(const std::string& name, const std::string& help) {
  Option o;
  o.name = name;
  o.help = help;
  o.type = Option::Type::kButton;
  return add(std::move(o));
}

const Option* Options::find(const std::string& name) const {
  for (const Option& o : options_)
    if (equal_ignoring_case(o.name, name)) return &o;
  return nullptr;
}

const Option& Options::get(const std::string& name) const {
  const Option* o = find(name);
  if (!o) throw std::logic_error("no option named " + name);
  return *o;
}

Status Options::set(const std::string& name, const std::string& value) {
  Option* o = const_cast<Option*>(find(name));
  if (!o) return Status::error("no such option: '" + name + "'");
  const std::string what = "option " + o->name + ": value '" + value + "'";
  switch (o->type) {
    case Option::Type::kCheck:
      if (value != "true" && value != "false") return Status::error(what + " is not true or false");
      break;
    case Option::Type::kSpin: {
      int64_t v;
      if (!parse_int(value, v)) return Status::error(what + " is not an integer");
      if (v < o->min || v > o->max)
        return Status::error(what + " is out of range [" + std::to_string(o->min) + ", " +
                             std::to_string(o->max) + "]");
      break;
    }
    case Option::Type::kCombo: {
      auto it = std::find_if(o->choices.begin(), o->choices.end(),
                             [&](const std::string& c) { return equal_ignoring_case(c, value); });
      if (it == o->choices.end()) return Status::error(what + " is not one of the choices");
      o->value = *it;
      if (o->on_change) o->on_change(*o);
      return Status::ok();
    }
    case Option::Type::kString:
    case Option::Type::kFilename:
    case Option::Type::kButton:
      break;
  }
  o->value = value;
  if (o->on_change) o->on_change(*o);
  return Status::ok();
}

std::vector<std::string> Options::usi_lines() const {
  std::vector<std::string> lines;
  for (const Option& o : options_) {
    std::string line = "option name " + o.name + " type " + type_name(o.type);
    if (o.type != Option::Type::kButton)
      line += " default " + (o.default_value.empty() ? std::string("<empty>") : o.default_value);
    if (o.type == Option::Type::kSpin)
      line += " min " + std::to_string(o.min) + " max " + std::to_string(o.max);
    for (const std::string& c : o.choices) line += " var " + c;
    lines.push_back(line);
  }
  return lines;
}

std::string Options::markdown_table() const {
  std::string table = "| option | type | default | range | meaning |\n|---|---|---|---|---|\n";
  for (const Option& o : options_) {
    std::string range;
    if (o.type == Option::Type::kSpin)
      range = std::to_string(o.min) + " .. " + std::to_string(o.max);
    for (const std::string& c : o.choices) range += (range.empty() ? "" : ", ") + c;
    std::string help = o.help;
    for (size_t at = 0; (at = help.find('|', at)) != std::string::npos; at += 2)
      help.replace(at, 1, "\\|");
    table += "| `" + o.name + "` | " + type_name(o.type) + " | " +
             (o.type == Option::Type::kButton ? "" : "`" + o.default_value + "`") + " | " + range +
             " | " + help + " |\n";
  }
  return table;
}

}  // namespace engine
