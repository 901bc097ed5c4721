// Status rendering: the status JSON (client and server kinds), the Prometheus text, the page.
#include "client/status_render.h"

#include <doctest/doctest.h>

#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "client/status_page.h"

namespace status_render_test {

using client::StatusGame;
using client::StatusModel;
using client::StatusMove;
using client::StatusRecentGame;

namespace {

bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// A strict RFC 8259 validity checker: one value, nothing after it but white space; strings
// without raw control characters, with valid escapes and valid UTF-8.
class JsonChecker {
 public:
  explicit JsonChecker(std::string_view text) : s_(text) {}

  bool valid() {
    if (client::to_valid_utf8(s_) != s_) return false;
    skip_space();
    if (!value(0)) return false;
    skip_space();
    return p_ == s_.size();
  }

 private:
  static constexpr int kMaxDepth = 64;

  bool value(int depth) {
    if (depth > kMaxDepth || p_ >= s_.size()) return false;
    const char c = s_[p_];
    if (c == '{') return object(depth);
    if (c == '[') return array(depth);
    if (c == '"') return string();
    if (c == '-' || (c >= '0' && c <= '9')) return number();
    return literal("true") || literal("false") || literal("null");
  }

  bool object(int depth) {
    ++p_;  // '{'
    skip_space();
    if (peek('}')) return ++p_, true;
    for (;;) {
      skip_space();
      if (!peek('"') || !string()) return false;
      skip_space();
      if (!peek(':')) return false;
      ++p_;
      skip_space();
      if (!value(depth + 1)) return false;
      skip_space();
      if (peek(',')) {
        ++p_;
        continue;
      }
      if (peek('}')) return ++p_, true;
      return false;
    }
  }

  bool array(int depth) {
    ++p_;  // '['
    skip_space();
    if (peek(']')) return ++p_, true;
    for (;;) {
      skip_space();
      if (!value(depth + 1)) return false;
      skip_space();
      if (peek(',')) {
        ++p_;
        continue;
      }
      if (peek(']')) return ++p_, true;
      return false;
    }
  }

  bool string() {
    ++p_;  // '"'
    while (p_ < s_.size()) {
      const unsigned char c = static_cast<unsigned char>(s_[p_++]);
      if (c == '"') return true;
      if (c < 0x20) return false;
      if (c != '\\') continue;
      if (p_ >= s_.size()) return false;
      const char e = s_[p_++];
      if (e == 'u') {
        for (int k = 0; k < 4; ++k, ++p_) {
          if (p_ >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[p_]))) return false;
        }
      } else if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
        return false;
      }
    }
    return false;
  }

  bool number() {
    const size_t start = p_;
    if (peek('-')) ++p_;
    if (peek('0')) {
      ++p_;
    } else if (!digits()) {
      return false;
    }
    if (peek('.')) {
      ++p_;
      if (!digits()) return false;
    }
    if (peek('e') || peek('E')) {
      ++p_;
      if (peek('+') || peek('-')) ++p_;
      if (!digits()) return false;
    }
    return p_ > start;
  }

  bool digits() {
    const size_t start = p_;
    while (p_ < s_.size() && s_[p_] >= '0' && s_[p_] <= '9') ++p_;
    return p_ > start;
  }

  bool literal(std::string_view word) {
    if (s_.substr(p_, word.size()) != word) return false;
    p_ += word.size();
    return true;
  }

  bool peek(char c) const { return p_ < s_.size() && s_[p_] == c; }
  void skip_space() {
    while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\t' || s_[p_] == '\n' || s_[p_] == '\r'))
      ++p_;
  }

  std::string_view s_;
  size_t p_ = 0;
};

bool valid_json(std::string_view text) { return JsonChecker(text).valid(); }

StatusMove move(std::string csa, std::string usi, int64_t time_ms, std::optional<int> eval,
                bool ours) {
  StatusMove m;
  m.csa = std::move(csa);
  m.usi = std::move(usi);
  m.time_ms = time_ms;
  m.eval_cp = eval;
  m.ours = ours;
  return m;
}

constexpr int64_t kNowSteady = 1'004'500;
constexpr int64_t kNowUnix = 1'796'000'000'000;
constexpr std::string_view kStartSfen =
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

// A client mid-game: we are Black, five moves played (the last a drop), White's clock running
// for 4.5 s; the opponent's name holds a quote, a newline and an invalid byte.
StatusModel client_model() {
  StatusModel m;
  m.kind = "client";
  m.version = "0.9.0";
  m.name = "sashite";
  m.server = "wdoor.c.u-tokyo.ac.jp:4081";
  m.connection = "in game";
  m.started_unix_ms = kNowUnix - 3'723'000;  // 1 h 2 min 3 s ago
  m.has_game = true;
  StatusGame& g = m.game;
  g.game_id = "wdoor+floodgate-300-10F+sashite+opp+20261204123000";
  g.black_name = "sashite";
  g.white_name = "op\"p\n\xFFx";
  g.our_color = "black";
  g.time_rules = "300 s + 10 s per move";
  g.start_sfen = std::string(kStartSfen);
  g.sfen = "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6";
  g.moves = {move("+7776FU", "7g7f", 1200, 35, true), move("-3334FU", "3c3d", 3000, -20, false),
             move("+8822UM", "8h2b+", 0, std::nullopt, true),
             move("-3122GI", "3a2b", -1, -900, false), move("+0045KA", "B*4e", 2100, 150, true)};
  g.clocks[0] = {250'000, 0, 10'000, false};
  g.clocks[1] = {100'000, 0, 10'000, false};
  g.turn_start_steady_ms = 1'000'000;
  g.pv = {"-2233GI", "+4534KA"};
  g.pv_eval_cp = 120;
  g.engine_note = "council: majority 2233GI 2/3 from \"a\"";
  g.start_unix_ms = kNowUnix - 60'000;
  StatusRecentGame r;
  r.game_id = "wdoor+floodgate-300-10F+sashite+x y/z+20261204110000";
  r.end_time = "2026-12-04T11:20:00";
  r.black_name = "x y/z";
  r.white_name = "sashite";
  r.our_color = "white";
  r.result = "win";
  r.reason = "RESIGN";
  r.plies = 111;
  r.has_csa = true;
  r.has_kif = true;
  m.recent.push_back(r);
  r.game_id = "g2";
  r.has_kif = false;
  r.result = "lose";
  r.reason = "TIME_UP";
  m.recent.push_back(r);
  m.counters.wins = 3;
  m.counters.losses = 1;
  m.counters.draws = 1;
  m.counters.time_losses = 1;
  m.counters.reconnects = 2;
  m.counters.last_think_ms = 1234;
  return m;
}

StatusGame server_game(std::string id, bool over) {
  StatusGame g;
  g.game_id = std::move(id);
  g.black_name = "alice";
  g.white_name = "bob";
  g.time_rules = "600 s, 10 s byoyomi";
  g.start_sfen = std::string(kStartSfen);
  g.sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
  g.moves = {move("+7776FU", "7g7f", 3000, std::nullopt, false)};
  g.clocks[0] = {597'000, 10'000, 0, false};
  g.clocks[1] = {600'000, 10'000, 0, false};
  g.turn_start_steady_ms = over ? 0 : 1'000'000;
  g.over = over;
  if (over) {
    g.result = "black";
    g.reason = "RESIGN";
  }
  return g;
}

StatusModel server_model() {
  StatusModel m;
  m.kind = "server";
  m.version = "0.9.0";
  m.server = "0.0.0.0:4081";
  m.connection = "listening";
  m.started_unix_ms = kNowUnix - 10'000;
  m.server_games = {server_game("room+test-600-10+alice+bob+20261204120000", false),
                    server_game("room+x y?&=#+alice+bob+20261204110000", true)};
  return m;
}

}  // namespace

TEST_CASE("status render: json_escape escapes quotes, backslashes and control characters") {
  CHECK(client::json_escape("plain") == "plain");
  CHECK(client::json_escape("a\"b\\c") == "a\\\"b\\\\c");
  CHECK(client::json_escape(std::string_view("\n\t\r\x01\x1F\x7F", 6)) ==
        "\\u000A\\u0009\\u000D\\u0001\\u001F\\u007F");
  CHECK(client::json_escape(std::string_view("a\0b", 3)) == "a\\u0000b");
  CHECK(client::json_escape("将棋 ☗ 🐉") == "将棋 ☗ 🐉");  // UTF-8 passes through
  CHECK(client::json_escape("\xE2\x80\xA8|\xE2\x80\xA9") == "\\u2028|\\u2029");
  CHECK(client::json_escape("/") == "/");
}

TEST_CASE("status render: invalid UTF-8 becomes U+FFFD, one per maximal invalid subpart") {
  const std::string r = "\xEF\xBF\xBD";
  CHECK(client::to_valid_utf8(std::string("a\xFF") + "b") == "a" + r + "b");
  CHECK(client::to_valid_utf8("\xE5\xB0") == r);  // a truncated 3-byte sequence
  CHECK(client::to_valid_utf8("\xE5\xB0x") == r + "x");
  CHECK(client::to_valid_utf8("\xC0\xAF") == r + r);                  // an overlong '/'
  CHECK(client::to_valid_utf8("\xED\xA0\x80") == r + r + r);          // a surrogate
  CHECK(client::to_valid_utf8("\xF4\x90\x80\x80") == r + r + r + r);  // above U+10FFFF
  CHECK(client::to_valid_utf8("\x80\x80") == r + r);                  // stray continuation bytes
  CHECK(client::to_valid_utf8("将\xF0\x9F\x90\x89") == "将\xF0\x9F\x90\x89");
  CHECK(client::json_escape("x\xFE\"") == "x" + r + "\\\"");
  CHECK(valid_json("\"" + client::json_escape("\xFF\xC3\x28\xE2\x82\x28\xF0\x28\x8C\xBC") + "\""));
}

TEST_CASE("status render: percent_encode keeps only unreserved characters and '+'") {
  CHECK(client::percent_encode("wdoor+floodgate-300-10F+a.b_c~d+20261204") ==
        "wdoor+floodgate-300-10F+a.b_c~d+20261204");
  CHECK(client::percent_encode("a b/c?d&e=f#g%h") == "a%20b%2Fc%3Fd%26e%3Df%23g%25h");
  CHECK(client::percent_encode("将") == "%E5%B0%86");
  CHECK(client::percent_encode("") == "");
}

TEST_CASE("status render: the JSON checker of these tests rejects what is not JSON") {
  CHECK(valid_json(R"({"a":[1,-2.5e3,true,false,null,"x\u00e9\n"],"b":{}})"));
  CHECK_FALSE(valid_json(R"({"a":1,})"));
  CHECK_FALSE(valid_json("{\"a\":\"x\ny\"}"));
  CHECK_FALSE(valid_json(R"({"a":"\x"})"));
  CHECK_FALSE(valid_json(R"({"a":01})"));
  CHECK_FALSE(valid_json("{\"a\":\"\xFF\"}"));
  CHECK_FALSE(valid_json(R"({"a":1} 2)"));
}

TEST_CASE("status render: the client's JSON mid-game") {
  const StatusModel m = client_model();
  const std::string j = client::render_status_json(m, kNowSteady, kNowUnix);
  INFO(j);
  REQUIRE(valid_json(j));
  CHECK(j.rfind(R"({"kind":"client","version":"0.9.0","name":"sashite",)", 0) == 0);
  CHECK(contains(j, R"("server":"wdoor.c.u-tokyo.ac.jp:4081",)"));
  CHECK(contains(j, R"("connection":{"state":"in game"},)"));  // no reconnect_in_ms
  CHECK(contains(j, R"("uptime_s":3723,"now_unix_ms":1796000000000,)"));
  // The game's header fields; the opponent's name escaped, its invalid byte replaced.
  CHECK(contains(j, R"("game":{"game_id":"wdoor+floodgate-300-10F+sashite+opp+20261204123000",)"));
  CHECK(contains(j, "\"white\":\"op\\\"p\\u000A\xEF\xBF\xBDx\","));
  CHECK(contains(j, R"("our_color":"black","time_rules":"300 s + 10 s per move",)"));
  CHECK(contains(j, R"("ply":5,"side_to_move":"white",)"));
  // The last move, a drop: no origin.
  CHECK(contains(j, R"("last_move":{"csa":"+0045KA","usi":"B*4e","from":null,"to":"45"},)"));
  // Moves: unknown time and eval as null, 0 ms as 0.
  CHECK(contains(
      j, R"({"ply":1,"csa":"+7776FU","usi":"7g7f","time_ms":1200,"eval_cp":35,"ours":true})"));
  CHECK(contains(
      j, R"({"ply":3,"csa":"+8822UM","usi":"8h2b+","time_ms":0,"eval_cp":null,"ours":true})"));
  CHECK(contains(
      j, R"({"ply":4,"csa":"-3122GI","usi":"3a2b","time_ms":null,"eval_cp":-900,"ours":false})"));
  CHECK(contains(
      j,
      R"("clocks":{"black":{"remaining_ms":250000,"byoyomi_ms":0,"increment_ms":10000,"unlimited":false},"white":{"remaining_ms":100000,)"));
  // White's clock runs: 4.5 s into its turn.
  CHECK(contains(j, R"("running":"white","turn_elapsed_ms":4500,)"));
  CHECK(contains(
      j,
      R"("pv":["-2233GI","+4534KA"],"pv_eval_cp":120,"engine_note":"council: majority 2233GI 2/3 from \"a\"","over":false,"result":"","reason":"",)"));
  CHECK(contains(j, R"("games":[],)"));
  // Recent games: record URLs percent-encoded, null when there is no record.
  CHECK(contains(
      j, R"("csa":"/records/wdoor+floodgate-300-10F+sashite+x%20y%2Fz+20261204110000.csa",)"));
  CHECK(contains(
      j, R"("kif":"/records/wdoor+floodgate-300-10F+sashite+x%20y%2Fz+20261204110000.kifu"})"));
  CHECK(contains(
      j,
      R"({"game_id":"g2","end_time":"2026-12-04T11:20:00","black":"x y/z","white":"sashite","our_color":"white","result":"lose","reason":"TIME_UP","plies":111,"csa":"/records/g2.csa","kif":null})"));
  CHECK(contains(j, R"("totals":{"wins":3,"losses":1,"draws":1,"other":0},)"));
  CHECK(std::string_view(j).ends_with(
      R"("counters":{"time_losses":1,"reconnects":2,"last_think_ms":1234,"engine_nps":null,"engine_nodes":null}})"));
}

TEST_CASE("status render: last move from and to, running side and elapsed time") {
  StatusModel m = client_model();
  m.game.moves.pop_back();  // now "-3122GI": from 31 to 22, Black to move
  m.game.sfen = "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5";
  std::string j = client::render_status_json(m, kNowSteady, kNowUnix);
  CHECK(valid_json(j));
  CHECK(contains(j, R"("last_move":{"csa":"-3122GI","usi":"3a2b","from":"31","to":"22"},)"));
  CHECK(contains(j, R"("ply":4,"side_to_move":"black",)"));
  CHECK(contains(j, R"("running":"black","turn_elapsed_ms":4500,)"));

  // A clock that started "in the future" (the status copy raced the loop): 0, never negative.
  j = client::render_status_json(m, 999'000, kNowUnix);
  CHECK(contains(j, R"("running":"black","turn_elapsed_ms":0,)"));

  // Unreadable CSA: the squares come from the USI move.
  m.game.moves.back().csa = "?";
  j = client::render_status_json(m, kNowSteady, kNowUnix);
  CHECK(contains(j, R"("last_move":{"csa":"?","usi":"3a2b","from":"31","to":"22"},)"));
  m.game.moves.back().usi = "";
  j = client::render_status_json(m, kNowSteady, kNowUnix);
  CHECK(contains(j, R"("last_move":{"csa":"?","usi":"","from":null,"to":null},)"));

  // Game over: no clock runs.
  m.game.over = true;
  m.game.result = "win";
  m.game.reason = "RESIGN";
  j = client::render_status_json(m, kNowSteady, kNowUnix);
  CHECK(contains(j, R"("running":null,"turn_elapsed_ms":0,)"));
  CHECK(contains(j, R"("over":true,"result":"win","reason":"RESIGN",)"));

  // No moves: last_move null, the side from the SFEN.
  m.game.moves.clear();
  m.game.over = false;
  m.game.sfen = std::string(kStartSfen);
  j = client::render_status_json(m, kNowSteady, kNowUnix);
  CHECK(contains(j, R"("ply":0,"side_to_move":"black","last_move":null,"moves":[],)"));
  // An empty SFEN: the side follows the start position.
  m.game.sfen.clear();
  m.game.start_sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
  j = client::render_status_json(m, kNowSteady, kNowUnix);
  CHECK(contains(j, R"("side_to_move":"white",)"));
  CHECK(contains(j, R"("running":"white",)"));
  CHECK(contains(j, R"("pv":["-2233GI","+4534KA"],)"));
}

TEST_CASE("status render: no game, reconnecting, the client ignores ?game") {
  StatusModel m = client_model();
  m.has_game = false;
  m.connection = "reconnecting";
  m.reconnect_at_steady_ms = kNowSteady + 7'250;
  m.started_unix_ms = 0;  // unknown start: uptime 0
  std::string j = client::render_status_json(m, kNowSteady, kNowUnix, "whatever");
  CHECK(valid_json(j));
  CHECK(
      contains(j, R"("connection":{"state":"reconnecting","reconnect_in_ms":7250},"uptime_s":0,)"));
  CHECK(contains(j, R"("game":null,"games":[],"recent":[{)"));
  m.reconnect_at_steady_ms = kNowSteady - 1;  // overdue
  j = client::render_status_json(m, kNowSteady, kNowUnix);
  CHECK(contains(j, R"("reconnect_in_ms":0})"));

  const StatusModel empty;  // a model as constructed
  j = client::render_status_json(empty, 0, 0);
  CHECK(valid_json(j));
  CHECK(
      j ==
      R"({"kind":"client","version":"","name":"","server":"","connection":{"state":"starting"},"uptime_s":0,"now_unix_ms":0,"game":null,"games":[],"recent":[],"totals":{"wins":0,"losses":0,"draws":0,"other":0},"counters":{"time_losses":0,"reconnects":0,"last_think_ms":null,"engine_nps":null,"engine_nodes":null}})");
}

TEST_CASE("status render: the server's JSON lists its games and shows the one asked for") {
  const StatusModel m = server_model();
  std::string j = client::render_status_json(m, kNowSteady, kNowUnix);
  INFO(j);
  REQUIRE(valid_json(j));
  CHECK(contains(j, R"({"kind":"server",)"));
  CHECK(contains(j, R"("connection":{"state":"listening"},"uptime_s":10,)"));
  // No ?game: the first listed, a game in progress.
  CHECK(contains(j, R"("game":{"game_id":"room+test-600-10+alice+bob+20261204120000",)"));
  CHECK(contains(
      j,
      R"("games":[{"game_id":"room+test-600-10+alice+bob+20261204120000","black":"alice","white":"bob","ply":1,"over":false,"result":"","reason":"","time_rules":"600 s, 10 s byoyomi","url":"/?game=room%2Btest-600-10%2Balice%2Bbob%2B20261204120000"},)"));
  CHECK(contains(
      j,
      R"({"game_id":"room+x y?&=#+alice+bob+20261204110000","black":"alice","white":"bob","ply":1,"over":true,"result":"black","reason":"RESIGN","time_rules":"600 s, 10 s byoyomi","url":"/?game=room%2Bx%20y%3F%26%3D%23%2Balice%2Bbob%2B20261204110000"}],)"));

  j = client::render_status_json(m, kNowSteady, kNowUnix, "room+x y?&=#+alice+bob+20261204110000");
  CHECK(valid_json(j));
  CHECK(contains(j, R"("game":{"game_id":"room+x y?&=#+alice+bob+20261204110000",)"));
  CHECK(contains(j, R"("our_color":"",)"));
  CHECK(contains(j, R"("running":null,"turn_elapsed_ms":0,)"));
  CHECK(contains(j, R"("over":true,"result":"black","reason":"RESIGN",)"));

  j = client::render_status_json(m, kNowSteady, kNowUnix,
                                 "room+test-600-10+alice+bob+20261204120000");
  CHECK(contains(j, R"("game":{"game_id":"room+test-600-10+alice+bob+20261204120000",)"));
  CHECK(contains(j, R"("side_to_move":"white",)"));
  CHECK(contains(j, R"("running":"white","turn_elapsed_ms":4500,)"));
  CHECK(contains(j, R"("clocks":{"black":{"remaining_ms":597000,"byoyomi_ms":10000,)"));

  j = client::render_status_json(m, kNowSteady, kNowUnix, "no+such+game");
  CHECK(valid_json(j));
  CHECK(contains(j, R"("game":null,"games":[{)"));
}

TEST_CASE("status render: the metrics text") {
  StatusModel m = client_model();
  m.version = "1.0 \"beta\"\\x\ny";
  std::string t = client::render_metrics(m, kNowUnix);
  INFO(t);
  CHECK(contains(t, "# HELP sashite_games_total "));
  CHECK(contains(t,
                 "# TYPE sashite_games_total counter\n"
                 "sashite_games_total{result=\"win\"} 3\n"
                 "sashite_games_total{result=\"lose\"} 1\n"
                 "sashite_games_total{result=\"draw\"} 1\n"
                 "sashite_games_total{result=\"other\"} 0\n"));
  CHECK(contains(t, "# TYPE sashite_time_losses_total counter\nsashite_time_losses_total 1\n"));
  CHECK(contains(t, "# TYPE sashite_reconnects_total counter\nsashite_reconnects_total 2\n"));
  CHECK(contains(t, "# TYPE sashite_last_think_seconds gauge\nsashite_last_think_seconds 1.234\n"));
  // Unknown nps: the family is described, no sample.
  CHECK(contains(t, "# TYPE sashite_engine_nodes_per_second gauge\n# HELP"));
  CHECK_FALSE(contains(t, "\nsashite_engine_nodes_per_second "));
  CHECK(contains(t, "\nsashite_in_game 1\n"));
  CHECK(contains(t, "\nsashite_connected 1\n"));
  CHECK(contains(t, "# TYPE sashite_up_seconds gauge\nsashite_up_seconds 3723.000\n"));
  CHECK(contains(t,
                 "\nsashite_info{version=\"1.0 "
                 "\\\"beta\\\"\\\\x\\ny\",name=\"sashite\",kind=\"client\"} 1\n"));
  CHECK_FALSE(contains(t, "sashite_server_games"));
  // Every line a comment or a sample, the text ending with a newline.
  REQUIRE(!t.empty());
  CHECK(t.back() == '\n');
  size_t helps = 0, types = 0;
  for (size_t p = 0; p < t.size();) {
    const size_t e = t.find('\n', p);
    const std::string line = t.substr(p, e - p);
    if (line.rfind("# HELP ", 0) == 0) ++helps;
    if (line.rfind("# TYPE ", 0) == 0) ++types;
    CHECK((line.rfind("# ", 0) == 0 || line.rfind("sashite_", 0) == 0));
    p = e + 1;
  }
  CHECK(helps == 9);
  CHECK(types == 9);

  m.counters.last_think_ms = -1;
  m.counters.engine_nps = 1'500'000;
  m.connection = "reconnecting";
  t = client::render_metrics(m, kNowUnix);
  CHECK_FALSE(contains(t, "\nsashite_last_think_seconds "));
  CHECK(contains(t, "\nsashite_engine_nodes_per_second 1500000\n"));
  CHECK(contains(t, "\nsashite_in_game 0\n"));
  CHECK(contains(t, "\nsashite_connected 0\n"));
  m.connection = "waiting";
  t = client::render_metrics(m, kNowUnix);
  CHECK(contains(t, "\nsashite_in_game 0\n"));
  CHECK(contains(t, "\nsashite_connected 1\n"));
}

TEST_CASE("status render: the server's metrics count its games") {
  const StatusModel m = server_model();
  const std::string t = client::render_metrics(m, kNowUnix);
  INFO(t);
  CHECK(contains(t, "\nsashite_info{version=\"0.9.0\",name=\"\",kind=\"server\"} 1\n"));
  CHECK(contains(t,
                 "# TYPE sashite_server_games gauge\n"
                 "sashite_server_games{state=\"playing\"} 1\n"
                 "sashite_server_games{state=\"finished\"} 1\n"));
  CHECK(contains(t, "\nsashite_up_seconds 10.000\n"));
  CHECK(contains(t, "\nsashite_connected 0\n"));
}

TEST_CASE("status render: the page is self-contained and has the test hooks") {
  const std::string& page = client::status_page_html();
  CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(contains(page, "</html>"));
  CHECK(client::to_valid_utf8(page) == page);
  // No external URL, not even the SVG namespace's.
  CHECK_FALSE(contains(page, "http://"));
  CHECK_FALSE(contains(page, "https://"));
  CHECK_FALSE(contains(page, "<link"));
  CHECK_FALSE(contains(page, "src="));
  // Data never goes in as markup; nothing posts.
  CHECK_FALSE(contains(page, "innerHTML"));
  CHECK_FALSE(contains(page, "<form"));
  CHECK_FALSE(contains(page, "method: 'POST'"));
  // Its sources, with the page's query string passed on.
  CHECK(contains(page, "'status.json' + location.search"));
  CHECK(contains(page, "new EventSource('events' + location.search)"));
  // The DOM hooks an automated browser test reads.
  for (const char* hook :
       {"id=\"board\"", "'data-sfen'", "'data-ply'", "'piece'", "'data-square'", "'data-piece'",
        "'data-color'", "'hand-'", "'data-hand'", "'clock-'", "'data-remaining-ms'",
        "id=\"connection-state\"", "id=\"recent-games\"", "'data-game-id'", "id=\"pv\"",
        "id=\"eval-graph\"", "'data-rendered', '1'", "'live'",
        "'reconnecting to the status server…'"}) {
    CAPTURE(hook);
    CHECK(contains(page, hook));
  }
  CHECK(&client::status_page_html() == &page);  // built once
}

}  // namespace status_render_test
