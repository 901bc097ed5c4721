// CouncilConfig: the TOML loader (see council_config.h for every key).
#include "council/council_config.h"

#include <map>

#include "base/toml_reader.h"

namespace council {

using base::Status;

const char* council_rule_name(CouncilRule rule) {
  return rule == CouncilRule::kOptimistic ? "optimistic" : "majority";
}

bool parse_council_rule(const std::string& text, CouncilRule& out) {
  if (text == "majority")
    out = CouncilRule::kMajority;
  else if (text == "optimistic")
    out = CouncilRule::kOptimistic;
  else
    return false;
  return true;
}

namespace {

using base::TomlReader;
using base::TomlValue;

Status read_member(const TomlReader& r, const TomlValue& v, const std::string& key,
                   CouncilMemberConfig& m) {
  if (!v.is_table()) return r.fail(v, key, "expected a table, got " + TomlReader::type_name(v));
  const TomlReader::Handler options = [&](const TomlValue& t, const std::string& k) {
    if (!t.is_table()) return r.fail(t, k, "expected a table, got " + TomlReader::type_name(t));
    for (const auto& [name, value] : t.as_table()) {
      std::string text;
      if (!TomlReader::scalar_text(value, text))
        return r.fail(value, k + "." + name,
                      "expected a string, integer or boolean, got " + TomlReader::type_name(value));
      m.options.emplace_back(name, text);
    }
    return Status::ok();
  };
  Status st = r.read_table(v, key,
                           {
                               {"name", r.string_key(m.name)},
                               {"command", r.string_key(m.command)},
                               {"args", r.strings_key(m.args)},
                               {"working_dir", r.string_key(m.working_dir)},
                               {"options", options},
                               {"weight", r.number_key(m.weight, 0.0, 1e6)},
                               {"scale", r.number_key(m.scale, 1e-3, 1e3)},
                               {"stderr", r.string_key(m.stderr_path)},
                           });
  if (!st) return st;
  if (m.command.empty()) return r.fail(v, key, "a member needs its own 'command'");
  return Status::ok();
}

Status read_config(const TomlValue& root, const std::string& file, CouncilConfig& c) {
  TomlReader r(file);
  int rule = int(c.rule);
  const TomlReader::Handler council = [&](const TomlValue& v, const std::string& key) {
    if (!v.is_table()) return r.fail(v, key, "expected a table, got " + TomlReader::type_name(v));
    return r.read_table(v, key,
                        {
                            {"rule", r.choice_key(rule, {"majority", "optimistic"})},
                            {"margin_ms", r.int_key(c.margin_ms, 0, 60000)},
                            {"straggler_ms", r.int_key(c.straggler_ms, 0, 3600000)},
                            {"startup_timeout_ms", r.int_key(c.startup_timeout_ms, 100, 3600000)},
                            {"log_file", r.string_key(c.log_file)},
                        });
  };
  const TomlReader::Handler members = [&](const TomlValue& v, const std::string& key) {
    if (!v.is_array())
      return r.fail(v, key,
                    "expected an array of tables ([[member]]), got " + TomlReader::type_name(v));
    for (const TomlValue& e : v.as_array()) {
      CouncilMemberConfig m;
      const std::string k = key + "[" + std::to_string(c.members.size() + 1) + "]";
      if (Status st = read_member(r, e, k, m); !st) return st;
      if (m.name.empty()) m.name = "member " + std::to_string(c.members.size() + 1);
      for (const CouncilMemberConfig& other : c.members)
        if (other.name == m.name)
          return r.fail(e, k, "a second member named '" + m.name + "' (names must differ)");
      c.members.push_back(std::move(m));
    }
    return Status::ok();
  };
  if (Status st = r.read_table(root, "", {{"council", council}, {"member", members}}); !st)
    return st;
  c.rule = CouncilRule(rule);
  if (c.members.empty()) return Status::error(file + ": no [[member]]: a council needs members");
  return Status::ok();
}

}  // namespace

Status parse_council_config(const std::string& text, const std::string& name, CouncilConfig& out) {
  TomlValue root;
  if (Status st = base::parse_toml(text, name, root); !st) return st;
  CouncilConfig c = out;
  c.members.clear();
  if (Status st = read_config(root, name, c); !st) return st;
  out = std::move(c);
  return Status::ok();
}

Status load_council_config(const std::string& path, CouncilConfig& out) {
  TomlValue root;
  if (Status st = base::load_toml(path, root); !st) return st;
  CouncilConfig c = out;
  c.members.clear();
  if (Status st = read_config(root, path, c); !st) return st;
  out = std::move(c);
  return Status::ok();
}

}  // namespace council
