// CsaConfig: the TOML loader (see csa_config.h for every key).
#include "client/csa_config.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>

#include "base/toml_reader.h"
#include "client/csa_protocol.h"
#include "client/status_service.h"

namespace client {

using base::Status;

namespace {

using TValue = base::TomlValue;
using Reader = base::TomlReader;

Status read_config(const TValue& root, const std::string& file, CsaConfig& c) {
  Reader r(file);
  int login = c.x1 ? 1 : 0, color = c.x1_color == '+' ? 0 : c.x1_color == '-' ? 1 : 2;
  int on_quit = c.resign_on_quit ? 1 : 0;
  const std::vector<std::string> book_modes = {"relation", "simple", "exact", "off"};
  const std::vector<std::string> move_choices = {"", "play", "guide"};
  int book_mode =
      int(std::find(book_modes.begin(), book_modes.end(), c.book_mode) - book_modes.begin());
  int move_choice = int(std::find(move_choices.begin(), move_choices.end(), c.book_move_choice) -
                        move_choices.begin());
  std::string port_origin, reconnect_origin;
  const TValue* reconnect_max_value = nullptr;

  auto section = [&](std::map<std::string, Reader::Handler> handlers) -> Reader::Handler {
    return [&r, handlers](const TValue& v, const std::string& key) {
      if (!v.is_table()) return r.fail(v, key, "expected a table, got " + Reader::type_name(v));
      return r.read_table(v, key, handlers);
    };
  };
  const Reader::Handler usi = [&](const TValue& v, const std::string& key) {
    if (!v.is_table()) return r.fail(v, key, "expected a table, got " + Reader::type_name(v));
    for (const auto& [name, value] : v.as_table()) {
      const std::string k = key + "." + name;
      std::string text;
      if (!Reader::scalar_text(value, text))
        return r.fail(value, k,
                      "expected a string, integer or boolean, got " + Reader::type_name(value));
      c.usi_options.push_back({name, text, r.origin(value)});
    }
    return Status::ok();
  };
  const Reader::Handler record_formats = [&](const TValue& v, const std::string& key) {
    std::vector<std::string> formats;
    if (Status st = r.strings_key(formats)(v, key); !st) return st;
    c.record_csa = c.record_kif = false;
    for (const std::string& f : formats) {
      if (f == "csa")
        c.record_csa = true;
      else if (f == "kif")
        c.record_kif = true;
      else
        return r.fail(v, key, "'" + f + "' is not one of \"csa\", \"kif\"");
    }
    if (!c.record_csa && !c.record_kif) return r.fail(v, key, "no record format");
    return Status::ok();
  };
  const Reader::Handler reconnect_max = [&](const TValue& v, const std::string& key) {
    reconnect_max_value = &v;
    return r.int_key(c.reconnect_max_s, 1, 86400)(v, key);
  };

  const std::map<std::string, Reader::Handler> top = {
      {"server", section({
                     {"host", r.string_key(c.host)},
                     {"port", r.int_key(c.port, 1, 65535)},
                     {"name", r.string_key(c.name)},
                     {"password", r.string_key(c.password)},
                     {"game", r.string_key(c.game)},
                     {"trip", r.string_key(c.trip)},
                     {"login", r.choice_key(login, {"csa", "x1"})},
                     {"x1_color", r.choice_key(color, {"+", "-", "*"})},
                     {"connect_timeout_s", r.int_key(c.connect_timeout_s, 1, 600)},
                     {"keep_alive_s", r.int_key(c.keep_alive_s, 30, 3600, true)},
                     {"idle_timeout_s", r.int_key(c.idle_timeout_s, 60, 86400, true)},
                 })},
      {"session", section({
                      {"games", r.int_key(c.games, 0, 1000000)},
                      {"time_margin_ms", r.int_key(c.time_margin_ms, 0, 60000)},
                      {"reconnect_initial_s", r.int_key(c.reconnect_initial_s, 1, 3600)},
                      {"reconnect_max_s", reconnect_max},
                      {"max_connect_failures", r.int_key(c.max_connect_failures, 0, 1000000)},
                      {"on_quit", r.choice_key(on_quit, {"finish", "resign"})},
                  })},
      {"engine", section({
                     {"threads", r.int_key(c.threads, 1, 512)},
                     {"hash_mb", r.int_key(c.hash_mb, 1, 1 << 20)},
                     {"ponder", r.bool_key(c.ponder)},
                     {"weights", r.string_key(c.weights)},
                     {"book", r.string_key(c.book)},
                     {"floodgate_comments", r.bool_key(c.floodgate_comments)},
                     {"resign_threshold_cp", r.int_key(c.resign_threshold_cp, 0, 100000)},
                     {"usi", usi},
                     {"command", r.string_key(c.engine_command)},
                     {"args", r.strings_key(c.engine_args)},
                     {"working_dir", r.string_key(c.engine_working_dir)},
                     {"startup_timeout_s", r.int_key(c.engine_startup_timeout_s, 1, 3600)},
                     {"isready_timeout_s", r.int_key(c.engine_isready_timeout_s, 1, 3600)},
                     {"restart_engine_every_game", r.bool_key(c.restart_engine_every_game)},
                     {"send_increment", r.bool_key(c.engine_send_increment)},
                     {"budget_margin_ms", r.int_key(c.engine_budget_margin_ms, 0, 10000)},
                 })},
      {"book", section({
                   {"mode", r.choice_key(book_mode, book_modes)},
                   {"move_choice", r.choice_key(move_choice, move_choices)},
                   {"min_weight", r.number_key(c.book_min_weight, 0.0, 1.0)},
                   {"max_ply", r.int_key(c.book_max_ply, 0, 1000)},
                   {"max_distance", r.int_key(c.book_max_distance, 0, 200)},
                   {"play_max_distance", r.int_key(c.book_play_max_distance, 0, 200)},
               })},
      {"log", section({
                  {"log_dir", r.string_key(c.log_dir)},
                  {"record_dir", r.string_key(c.record_dir)},
                  {"console", r.bool_key(c.log_console)},
                  {"record_formats", record_formats},
              })},
      {"status", section({
                     {"port", r.int_key(c.status_port, 0, 65535)},
                     {"bind", r.string_key(c.status_bind)},
                     {"token", r.string_key(c.status_token)},
                 })},
  };
  if (Status st = r.read_table(root, "", top); !st) return st;
  c.x1 = login == 1;
  c.x1_color = "+-*"[color];
  c.resign_on_quit = on_quit == 1;
  c.book_mode = book_modes[size_t(book_mode)];
  c.book_move_choice = move_choices[size_t(move_choice)];
  if (c.book_move_choice == "guide" && !c.engine_command.empty())
    return Status::error(file +
                         ": book.move_choice \"guide\" (bonuses inside the search) is for "
                         "the built-in engine only; an external engine (engine.command) "
                         "takes \"play\"");
  if (c.reconnect_max_s < c.reconnect_initial_s)
    return reconnect_max_value ? r.fail(*reconnect_max_value, "session.reconnect_max_s",
                                        "less than session.reconnect_initial_s (" +
                                            std::to_string(c.reconnect_initial_s) + ")")
                               : Status::error(file + ": session.reconnect_initial_s (" +
                                               std::to_string(c.reconnect_initial_s) +
                                               ") is more than session.reconnect_max_s (" +
                                               std::to_string(c.reconnect_max_s) + ")");
  if (c.host.empty()) return Status::error(file + ": server.host is empty");
  if (c.log_dir.empty() || c.record_dir.empty())
    return Status::error(file + ": log.log_dir and log.record_dir must not be empty");
  if (c.status_bind.empty()) return Status::error(file + ": status.bind is empty");
  return Status::ok();
}

}  // namespace

Status validate_status_settings(const CsaConfig& c) {
  return validate_status_page(c.status_port, c.status_bind, c.status_token);
}

std::string CsaConfig::login_password() const {
  if (!password.empty()) return password;
  if (x1) return trip;
  return trip.empty() ? game : game + "," + trip;
}

int CsaConfig::effective_idle_timeout_s() const {
  if (idle_timeout_s > 0) return idle_timeout_s;
  if (keep_alive_s <= 0) return 0;
  return std::max(120, 3 * std::max(30, keep_alive_s));
}

Status parse_csa_config(const std::string& text, const std::string& name, CsaConfig& out) {
  TValue root;
  if (Status st = base::parse_toml(text, name, root); !st) return st;
  CsaConfig c = out;
  if (Status st = read_config(root, name, c); !st) return st;
  out = std::move(c);
  return Status::ok();
}

Status load_csa_config(const std::string& path, CsaConfig& out) {
  TValue root;
  if (Status st = base::load_toml(path, root); !st) return st;
  CsaConfig c = out;
  if (Status st = read_config(root, path, c); !st) return st;
  out = std::move(c);
  return Status::ok();
}

void apply_environment(CsaConfig& config) {
  if (const char* p = std::getenv(kPasswordEnv); p && *p) config.password = p;
  if (const char* t = std::getenv(kTripEnv); t && *t) config.trip = t;
  if (const char* t = std::getenv(kStatusTokenEnv); t && *t) config.status_token = t;
}

Status validate_for_login(const CsaConfig& c) {
  if (!is_valid_login_name(c.name))
    return Status::error("server.name '" + quote_line(c.name, 40) +
                         "' is not a valid login name ([0-9A-Za-z_@.-], 1 to 32 characters)");
  if (c.x1 && c.game.empty()) return Status::error("x1 login needs server.game (for %%GAME)");
  // The game name goes on the wire (in the password, or in %%GAME): one printable token.
  if (!c.game.empty() && !is_valid_password(c.game))
    return Status::error("server.game '" + quote_line(c.game, 40) +
                         "' is not a valid game name (printable ASCII without spaces)");
  if (c.password.empty() && c.trip.empty() && c.game.starts_with("floodgate-"))
    return Status::error(std::string("floodgate pairs only rated players: give a trip (set ") +
                         kTripEnv + ", or " + kPasswordEnv + " to '" + c.game + ",<trip>')");
  const std::string pw = c.login_password();
  if (pw.empty())
    return Status::error(std::string("no password: set server.password or server.game and ") +
                         "server.trip, or the environment variable " + kPasswordEnv + " or " +
                         kTripEnv);
  if (!is_valid_password(pw))  // never print it: it is a secret
    return Status::error(
        "the login password is not valid (1 to 256 printable ASCII "
        "characters without spaces)");
  return Status::ok();
}

}  // namespace client
