// CSA client configuration: the TOML loader, the shipped files, and every kind of mistake.
#include "client/csa_config.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#ifndef SASHITE_TEST_DATA_DIR
#define SASHITE_TEST_DATA_DIR "tests/data"
#endif

namespace csa_config_test {

using client::CsaConfig;

namespace {

const std::string kConfigDir = std::string(SASHITE_TEST_DATA_DIR) + "/../../config";

// Parses `text` as "test.toml"; returns the error message ("" when it loaded).
std::string load_error(const std::string& text, CsaConfig* out = nullptr) {
  CsaConfig c;
  base::Status st = client::parse_csa_config(text, "test.toml", c);
  if (out) *out = c;
  return st ? "" : st.message();
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST_SUITE_BEGIN("csa_config");

TEST_CASE("an empty file gives the documented defaults") {
  CsaConfig c;
  REQUIRE(load_error("", &c) == "");
  CHECK(c.host == "127.0.0.1");
  CHECK(c.port == 4081);
  CHECK(c.keep_alive_s == 40);
  CHECK(c.time_margin_ms == 1000);
  CHECK(c.games == 1);
  CHECK(c.reconnect_initial_s == 10);
  CHECK(c.reconnect_max_s == 300);
  CHECK(c.threads == 1);
  CHECK(c.hash_mb == 256);
  CHECK(c.floodgate_comments);
  CHECK(c.resign_threshold_cp == 0);
  CHECK(!c.x1);
  CHECK(!c.resign_on_quit);
  CHECK(c.log_dir == "logs");
  CHECK(c.record_dir == "records");
  CHECK(c.effective_idle_timeout_s() == 120);
}

TEST_CASE("a full file sets every key") {
  CsaConfig c;
  const std::string text = R"(
[server]
host = "example.org"
port = 4082
name = "bot_1"
password = ""
game = "floodgate-300-10F"
trip = "secret"
login = "x1"
x1_color = "-"
connect_timeout_s = 3
keep_alive_s = 60
idle_timeout_s = 600
[session]
games = 0
time_margin_ms = 250
reconnect_initial_s = 2
reconnect_max_s = 20
max_connect_failures = 4
on_quit = "resign"
[engine]
threads = 4
hash_mb = 1024
ponder = true
weights = "w.eval"
floodgate_comments = false
resign_threshold_cp = 2500
[engine.usi]
MoveOverhead = 50
FutilityMode = "off"
FutilityKeepStats = true
[log]
log_dir = "L"
record_dir = "R"
console = false
)";
  REQUIRE(load_error(text, &c) == "");
  CHECK(c.host == "example.org");
  CHECK(c.port == 4082);
  CHECK(c.name == "bot_1");
  CHECK(c.x1);
  CHECK(c.x1_color == '-');
  CHECK(c.login_password() == "secret");  // x1: the trip alone
  CHECK(c.connect_timeout_s == 3);
  CHECK(c.keep_alive_s == 60);
  CHECK(c.effective_idle_timeout_s() == 600);
  CHECK(c.games == 0);
  CHECK(c.time_margin_ms == 250);
  CHECK(c.reconnect_initial_s == 2);
  CHECK(c.reconnect_max_s == 20);
  CHECK(c.max_connect_failures == 4);
  CHECK(c.resign_on_quit);
  CHECK(c.threads == 4);
  CHECK(c.hash_mb == 1024);
  CHECK(c.ponder);
  CHECK(c.weights == "w.eval");
  CHECK(!c.floodgate_comments);
  CHECK(c.resign_threshold_cp == 2500);
  REQUIRE(c.usi_options.size() == 3);
  CHECK(c.usi_options[0].name == "FutilityKeepStats");  // key order
  CHECK(c.usi_options[0].value == "true");
  CHECK(c.usi_options[1].value == "off");
  CHECK(c.usi_options[2].value == "50");
  CHECK(c.usi_options[2].origin == "test.toml:29");
  CHECK(c.log_dir == "L");
  CHECK(c.record_dir == "R");
  CHECK(!c.log_console);
  c.x1 = false;
  CHECK(c.login_password() == "floodgate-300-10F,secret");
  c.password = "given";
  CHECK(c.login_password() == "given");
}

TEST_CASE("every shipped configuration file loads") {
  for (const char* file : {"floodgate.toml", "championship.toml", "local.toml"}) {
    CAPTURE(file);
    CsaConfig c;
    base::Status st = client::load_csa_config(kConfigDir + "/" + file, c);
    REQUIRE_MESSAGE(st, st.message());
    CHECK(!c.name.empty());
    CHECK(c.keep_alive_s >= 30);
  }
  CsaConfig f;
  REQUIRE(client::load_csa_config(kConfigDir + "/floodgate.toml", f));
  CHECK(f.host == "wdoor.c.u-tokyo.ac.jp");
  CHECK(f.port == 4081);
  CHECK(f.game == "floodgate-300-10F");
  CHECK(f.trip.empty());  // the secret comes from the environment
  CHECK(f.password.empty());
  CsaConfig l;
  REQUIRE(client::load_csa_config(kConfigDir + "/local.toml", l));
  CHECK(l.host == "127.0.0.1");
}

TEST_CASE("the environment supplies the secrets") {
  CsaConfig c;
  c.game = "floodgate-300-10F";
  ::setenv(client::kTripEnv, "fromenv", 1);
  ::unsetenv(client::kPasswordEnv);
  client::apply_environment(c);
  CHECK(c.login_password() == "floodgate-300-10F,fromenv");
  ::setenv(client::kPasswordEnv, "whole,pw", 1);
  client::apply_environment(c);
  CHECK(c.login_password() == "whole,pw");
  ::unsetenv(client::kTripEnv);
  ::unsetenv(client::kPasswordEnv);
}

TEST_CASE("validate_for_login names what is missing, never the password") {
  CsaConfig c;
  c.name = "bot";
  c.game = "test-300-10F";
  CHECK(client::validate_for_login(c));  // "test-300-10F" alone is a valid password
  c.game = "floodgate-300-10F";
  CHECK(contains(client::validate_for_login(c).message(), "SASHITE_CSA_TRIP"));
  c.trip.assign(1, 't');  // assign(): g++ 12 -Wrestrict false positive on = "t"
  CHECK(client::validate_for_login(c));
  c.trip = "";
  c.name = "bad name";
  CHECK(contains(client::validate_for_login(c).message(), "server.name"));
  c.name = "bot";
  c.game = "";
  CHECK(contains(client::validate_for_login(c).message(), "SASHITE_CSA_PASSWORD"));
  c.password = "has space";
  const std::string m = client::validate_for_login(c).message();
  CHECK(contains(m, "password is not valid"));
  CHECK(!contains(m, "has space"));
  c.password = "";
  c.x1 = true;
  CHECK(contains(client::validate_for_login(c).message(), "server.game"));
}

TEST_CASE("an unknown key is an error naming the file, the key and the line") {
  const std::string e = load_error("[server]\nhost = \"a\"\nhots = \"b\"\n");
  CHECK(contains(e, "test.toml:3"));
  CHECK(contains(e, "unknown key 'server.hots'"));
  CHECK(contains(load_error("[servr]\nport = 1\n"), "unknown key 'servr'"));
  CHECK(contains(load_error("top = 1\n"), "unknown key 'top'"));
  CHECK(contains(load_error("[engine]\nthreds = 2\n"), "engine.threds"));
}

TEST_CASE("a value of the wrong type is an error") {
  std::string e = load_error("[server]\n\nport = \"4081\"\n");
  CHECK(contains(e, "test.toml:3"));
  CHECK(contains(e, "server.port"));
  CHECK(contains(e, "expected an integer, got a string"));
  CHECK(contains(load_error("[server]\nhost = 1\n"), "expected a string"));
  CHECK(contains(load_error("[engine]\nponder = \"yes\"\n"), "expected true or false"));
  CHECK(contains(load_error("[engine]\nhash_mb = 1.5\n"), "got a float"));
  CHECK(contains(load_error("server = 3\n"), "expected a table"));
  CHECK(contains(load_error("[engine.usi]\nX = 1.5\n"), "engine.usi.X"));
  CHECK(contains(load_error("[session]\non_quit = \"later\"\n"),
                 "not one of \"finish\", \"resign\""));
  CHECK(contains(load_error("[server]\nlogin = \"x2\"\n"), "server.login"));
}

TEST_CASE("a value out of range is an error") {
  std::string e = load_error("[server]\nport = 70000\n");
  CHECK(contains(e, "test.toml:2"));
  CHECK(contains(e, "70000 is out of range 1..65535"));
  CHECK(contains(load_error("[server]\nkeep_alive_s = 10\n"), "0 or 30..3600"));
  CHECK(load_error("[server]\nkeep_alive_s = 0\n") == "");
  CHECK(contains(load_error("[session]\ngames = -1\n"), "session.games"));
  CHECK(contains(load_error("[session]\ntime_margin_ms = 100000\n"), "session.time_margin_ms"));
  CHECK(contains(load_error("[engine]\nthreads = 0\n"), "engine.threads"));
  CHECK(contains(load_error("[session]\nreconnect_initial_s = 60\nreconnect_max_s = 30\n"),
                 "reconnect_max_s"));
  CHECK(contains(load_error("[session]\nreconnect_initial_s = 600\n"), "reconnect_max_s"));
  CHECK(contains(load_error("[server]\nport = 99999999999999999999\n"), "test.toml"));
}

TEST_CASE("a syntax error is reported with the file and line by toml11") {
  const std::string e = load_error("[server]\nhost = \"unterminated\n");
  CHECK(contains(e, "test.toml"));
  CHECK(contains(e, "line 2") + contains(e, "2 |") + contains(e, ":2") > 0);
  CsaConfig c;
  base::Status st = client::load_csa_config("/nonexistent/x.toml", c);
  CHECK(contains(st.message(), "/nonexistent/x.toml"));
}

TEST_SUITE_END();

TEST_CASE("validate_for_login refuses a game name that is not one printable token") {
  CsaConfig c;
  c.name = "bot";
  c.password = "secret";
  c.game = "floodgate-60-2F\nLOGOUT";  // found by the session fuzzer: two lines in x1 mode
  CHECK(!client::validate_for_login(c));
  CHECK(contains(client::validate_for_login(c).message(), "server.game"));
  c.game = "floodgate-60-2F";
  CHECK(client::validate_for_login(c));
}

TEST_CASE("an external engine, the book in front and the record formats") {
  CsaConfig c;
  REQUIRE(load_error(R"(
[engine]
command = "/opt/yaneuraou/YaneuraOu-by-gcc"
args = ["--threads", "8"]
working_dir = "/opt/yaneuraou"
startup_timeout_s = 20
isready_timeout_s = 300
restart_engine_every_game = true
send_increment = false
budget_margin_ms = 250
ponder = true
[book]
mode = "simple"
move_choice = "play"
min_weight = 0.25
max_ply = 24
max_distance = 6
[log]
record_formats = ["kif"]
)",
                     &c) == "");
  CHECK(c.engine_command == "/opt/yaneuraou/YaneuraOu-by-gcc");
  CHECK(c.engine_args == std::vector<std::string>{"--threads", "8"});
  CHECK(c.engine_working_dir == "/opt/yaneuraou");
  CHECK(c.engine_startup_timeout_s == 20);
  CHECK(c.engine_isready_timeout_s == 300);
  CHECK(c.restart_engine_every_game);
  CHECK(!c.engine_send_increment);
  CHECK(c.engine_budget_margin_ms == 250);
  CHECK(c.ponder);
  CHECK(c.book_mode == "simple");
  CHECK(c.effective_book_move_choice() == "play");
  CHECK(c.book_min_weight == 0.25);
  CHECK(c.book_max_ply == 24);
  CHECK(c.book_max_distance == 6);
  CHECK(!c.record_csa);
  CHECK(c.record_kif);
  // Defaults: the built-in engine's book guides its search; both record formats.
  CsaConfig d;
  REQUIRE(load_error("", &d) == "");
  CHECK(d.engine_command.empty());
  CHECK(d.engine_budget_margin_ms == 100);
  CHECK(contains(load_error("[engine]\nbudget_margin_ms = 20000\n"), "engine.budget_margin_ms"));
  CHECK(d.effective_book_move_choice() == "guide");
  CHECK(d.record_csa);
  CHECK(d.record_kif);
  // An external engine defaults to play; guide is the built-in engine's only.
  CsaConfig e;
  REQUIRE(load_error("[engine]\ncommand = \"x\"\n", &e) == "");
  CHECK(e.effective_book_move_choice() == "play");
  CHECK(contains(load_error("[engine]\ncommand = \"x\"\n[book]\nmove_choice = \"guide\"\n"),
                 "built-in engine only"));
  CHECK(
      contains(load_error("[log]\nrecord_formats = [\"csa\", \"pdf\"]\n"), "'pdf' is not one of"));
  CHECK(contains(load_error("[log]\nrecord_formats = []\n"), "no record format"));
  CHECK(contains(load_error("[engine]\nargs = [1]\n"), "engine.args: expected a string"));
  CHECK(contains(load_error("[book]\nmin_weight = 2\n"), "book.min_weight"));
  CHECK(contains(load_error("[book]\nmode = \"near\"\n"), "'near' is not one of"));
}

}  // namespace csa_config_test
