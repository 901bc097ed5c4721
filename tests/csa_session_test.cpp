// CSA client session: every recorded server transcript replayed through the session.
#include "client/csa_session.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "shogi/csa_notation.h"
#include "tests/csa_test_driver.h"

#ifndef SASHITE_TEST_DATA_DIR
#define SASHITE_TEST_DATA_DIR "tests/data"
#endif

namespace csa_session_test {

using namespace client;
using namespace csa_test;
using shogi::kBlack;
using shogi::kWhite;

namespace {

const std::string kTranscriptDir = std::string(SASHITE_TEST_DATA_DIR) + "/csa-transcripts";

// ---- Transcripts: "  1.360 bob    >> -3334FU" (>> client to server, << server to client) ----

struct Entry {
  enum Kind { kRecv, kSend, kClosed };
  int64_t ms;
  Kind kind;
  std::string text;
};
struct Transcript {
  std::map<std::string, std::vector<Entry>> players;
  int64_t done_ms = 0;
};

Transcript load_transcript(const std::string& file) {
  std::ifstream in(kTranscriptDir + "/" + file);
  REQUIRE_MESSAGE(in, "cannot read " << kTranscriptDir << "/" << file);
  Transcript t;
  int64_t last_ms = 0;
  std::string line;
  while (std::getline(in, line)) {
    const size_t t0 = line.find_first_not_of(' '), t1 = line.find(' ', t0);
    const int64_t ms = std::llround(std::stod(line.substr(t0, t1 - t0)) * 1000);
    const size_t n0 = line.find_first_not_of(' ', t1), n1 = line.find(' ', n0);
    const std::string who = line.substr(n0, n1 - n0);
    if (who == "#") {
      if (line.find("-- done") != std::string::npos) t.done_ms = ms;
      continue;
    }
    const size_t a = line.find_first_not_of(' ', n1);
    const std::string arrow = line.substr(a, 2);
    if (arrow != ">>" && arrow != "<<") continue;  // "-- spawn ..." notes
    std::string text = a + 3 <= line.size() ? line.substr(a + 3) : "";
    if (text == "[empty line]") text.clear();
    Entry::Kind kind = arrow == ">>" ? Entry::kSend : Entry::kRecv;
    if (text == "[connection closed by server]") kind = Entry::kClosed;
    t.players[who].push_back({ms, kind, text});
    last_ms = ms;
  }
  if (t.done_ms == 0) t.done_ms = last_ms;  // the gps transcripts have no "-- done" line
  return t;
}

bool is_engine_line(const std::string& s) {
  return s.starts_with("+") || s.starts_with("-") || s == "%TORYO" || s == "%KACHI";
}

struct Replay {
  std::unique_ptr<Driver> driver;
  std::vector<std::string> expected_sent;  // what the real client sent (see replay())
  std::vector<Entry> script;
  bool logged_out_after_game = false;  // a LOGOUT the transcript's client did not send
};

// Plays one client of a transcript through the session. The session must produce every line
// the real client sent before the server closed the connection, in order, except:
//   - the transcript's probe " " (a lone space; shogi-server ignores it): our keep-alive is "";
//   - x1 commands the operator typed (%%VERSION, %%WHO, %%LIST): injected as UserCommand,
//     whose place among the session's own lines is a matter of timing;
//   - lines sent after the connection closed (nobody receives them);
//   - a LOGOUT at the end where the server kept the session open after the game.
// LOGOUT and %CHUDAN are injected as operator quits (after the game / immediate), moves,
// %TORYO and %KACHI come from the fake engine at the time the client sent them, and a blank
// keep-alive line is obtained by letting the session's clock run until it sends one.
Replay replay(const std::string& file, const std::string& player) {
  const Transcript t = load_transcript(file);
  REQUIRE(t.players.count(player));
  const std::vector<Entry>& script = t.players.at(player);
  SessionConfig cfg;
  cfg.keep_alive_s = 0;
  bool closed = false;
  Replay out;
  std::vector<std::string> user_commands;
  for (const Entry& e : script) {
    if (e.kind == Entry::kClosed) closed = true;
    if (e.kind != Entry::kSend) continue;
    ClientLine cl;
    REQUIRE(parse_client_line(e.text, cl));
    if (cl.type == ClientLineType::kLogin) {
      cfg.name = cl.name;
      cfg.password = cl.password;
      cfg.x1 = cl.x1;
    }
    if (cl.type == ClientLineType::kAgree || cl.type == ClientLineType::kReject)
      cfg.send_game_id = !cl.game_id.empty();
    if (cl.type == ClientLineType::kReject)
      cfg.game_filter = [](const GameSummary&) { return std::string("scripted rejection"); };
    if (cl.type == ClientLineType::kSpecialMove && cl.special == shogi::CsaSpecialMove::kChudan)
      cfg.chudan_on_quit = true;
    if (e.text.empty()) cfg.keep_alive_s = 30;
    const bool user = cl.type == ClientLineType::kX1Command && cl.command != "GAME";
    if (cl.type == ClientLineType::kX1Command && cl.command == "GAME") {
      cfg.x1_game_name = cl.args.substr(0, cl.args.find(' '));
      cfg.x1_color = cl.args.back();
    }
    if (!closed && !user && e.text != " ") out.expected_sent.push_back(e.text);
  }
  out.driver = std::make_unique<Driver>(cfg);
  out.script = script;
  Driver& d = *out.driver;
  std::optional<std::string> answer;  // an engine line sent before its search began
  std::optional<SearchRequest> pending;
  d.on_search = [&](const SearchRequest& r, int64_t now) {
    pending = r;
    if (answer) {
      const EngineMove em = engine_answer(r, *std::exchange(answer, std::nullopt));
      pending.reset();
      d.handle(now, event::EngineMoveReady{r.id, em});
    }
  };
  int64_t offset = 0;
  int keep_alives = 0;
  d.handle(script.front().ms, event::Start{});
  for (const Entry& e : script) {
    int64_t now = e.ms + offset;
    d.advance_to(now);
    if (e.kind == Entry::kRecv) {
      d.server(now, e.text);
    } else if (e.kind == Entry::kClosed) {
      d.transport.server_closes();
      d.pump(now);
    } else if (e.text.empty()) {
      ++keep_alives;
      for (int guard = 0;
           std::count(d.transport.sent.begin(), d.transport.sent.end(), "") < keep_alives;
           ++guard) {
        REQUIRE(guard < 5);
        const int64_t w = d.session.next_wakeup_ms();
        REQUIRE(w != CsaSession::kNever);
        if (w > now) offset += w - now, now = w;
        d.advance_to(now);
      }
    } else if (e.text == "LOGOUT") {
      d.handle(now, event::QuitRequested{false});
    } else if (e.text == "%CHUDAN") {
      d.handle(now, event::QuitRequested{true});
    } else if (e.text.starts_with("%%") && !e.text.starts_with("%%GAME")) {
      d.handle(now, event::UserCommand{e.text});
      user_commands.push_back(e.text);
    } else if (is_engine_line(e.text)) {
      if (pending) {
        const SearchRequest r = *std::exchange(pending, std::nullopt);
        d.handle(now, event::EngineMoveReady{r.id, engine_answer(r, e.text)});
      } else {
        answer = e.text;
      }
    }
  }
  d.advance_to(t.done_ms + offset);
  d.on_search = nullptr;
  // Operator commands went out verbatim; the rest is the session's own output.
  std::vector<std::string> sent = d.transport.sent;
  for (const std::string& u : user_commands) {
    auto it = std::find(sent.begin(), sent.end(), u);
    REQUIRE_MESSAGE(it != sent.end(), u);
    sent.erase(it);
  }
  // One line more than the transcript's client sent: after its last game, the session logs out
  // when the server has not closed within logout_after_game_ms. shogi-server closes at once
  // only the side whose line ended the game (bob stays connected after alice's %CHUDAN in
  // [T:chudan]); the transcripts' clients sent nothing then.
  std::optional<int64_t> result_ms, closed_ms;
  bool sent_after_result = false;
  for (const Entry& e : script) {
    ServerLine l;
    if (e.kind == Entry::kRecv && parse_server_line(e.text, l) &&
        l.type == ServerLineType::kOutcome)
      result_ms = e.ms;
    else if (result_ms && e.kind == Entry::kClosed && !closed_ms)
      closed_ms = e.ms;
    else if (result_ms && e.kind == Entry::kSend)
      sent_after_result = true;
  }
  const int64_t wait = cfg.logout_after_game_ms;
  const bool logout = !cfg.x1 && result_ms && !sent_after_result &&
                      (!closed_ms || *closed_ms >= *result_ms + wait) &&
                      t.done_ms >= *result_ms + wait;
  if (logout) {
    REQUIRE(!sent.empty());
    CHECK(sent.back() == "LOGOUT");
    sent.pop_back();
  }
  out.logged_out_after_game = logout;
  CHECK(sent == out.expected_sent);
  return out;
}

// What the transcript says the game came to, for this client.
void check_result_and_record(const Replay& r) {
  const Driver& d = *r.driver;
  std::optional<GameOutcome> outcome;
  GameEndReason reason = GameEndReason::kNone;
  std::string rejected_by;
  std::vector<std::pair<std::string, int64_t>> echoes;
  bool started = false, closed_in_game = false;
  int64_t remaining[2] = {0, 0}, increment = 0;
  for (const Entry& e : r.script) {
    ServerLine l;
    if (e.kind == Entry::kClosed && started && !outcome) closed_in_game = true;
    if (e.kind != Entry::kRecv || !parse_server_line(e.text, l)) continue;
    if (e.text.starts_with("Total_Time:"))
      remaining[0] = remaining[1] = 1000 * std::stoll(e.text.substr(11));
    if (e.text.starts_with("Increment:")) increment = 1000 * std::stoll(e.text.substr(10));
    if (l.type == ServerLineType::kStart) started = true;
    if (l.type == ServerLineType::kOutcome) outcome = l.outcome;
    if (l.type == ServerLineType::kEndReason) reason = l.reason;
    if (l.type == ServerLineType::kReject) rejected_by = l.name;
    if (l.type == ServerLineType::kMove) {
      echoes.push_back({l.move.move, *l.move.t_milli});
      int64_t& rem = remaining[l.move.move[0] == '+' ? kBlack : kWhite];
      rem = std::max<int64_t>(0, rem + increment - *l.move.t_milli);
    }
  }
  CHECK(d.count_logs(LogLevel::kWarning, "skipped") == 0);  // every server line understood
  if (!rejected_by.empty()) {
    REQUIRE(d.rejections.size() == 1);
    CHECK(d.rejections[0].by == rejected_by);
    CHECK(d.results.empty());
    return;
  }
  REQUIRE(d.results.size() == 1);
  const GameResult& res = d.results[0];
  CHECK(res.outcome == outcome);
  CHECK(res.reason == reason);
  CHECK(closed_in_game == !res.outcome.has_value());
  CHECK(res.game_id == d.session.summary().game_id);
  // The record holds exactly the moves the server echoed, with their times.
  const shogi::CsaRecord& rec = d.session.record();
  REQUIRE(rec.moves.size() == echoes.size());
  for (size_t i = 0; i < echoes.size(); ++i) {
    CHECK(rec.moves[i].text == echoes[i].first);
    CHECK(rec.moves[i].time_ms == echoes[i].second);
  }
  CHECK(d.record_updates >= int(echoes.size()) + 2);  // start, every move, end
  for (shogi::Color c : {kBlack, kWhite}) CHECK(d.session.clock().remaining_ms(c) == remaining[c]);
  shogi::CsaRecord back;
  const std::string text = shogi::write_csa_record(rec, shogi::CsaVersion::kV30);
  Status st = shogi::read_csa_record(text, "record", back);
  REQUIRE_MESSAGE(st.is_ok(), st.message() << "\n" << text);
  CHECK(back.moves.size() == rec.moves.size());
  CHECK(back.result == rec.result);
  CHECK(d.transport.sent.size() + d.sent_while_closed.size() >= r.expected_sent.size());
}

const std::vector<std::pair<std::string, std::string>> kReplays = {
    {"csa.txt", "alice"},      {"csa.txt", "bob"},           {"x1.txt", "alice"},
    {"x1.txt", "bob"},         {"reject.txt", "alice"},      {"reject.txt", "bob"},
    {"early.txt", "alice"},    {"early.txt", "bob"},         {"fischer.txt", "alice"},
    {"fischer.txt", "bob"},    {"timeup.txt", "alice"},      {"timeup.txt", "bob"},
    {"silent.txt", "alice"},   {"silent.txt", "bob"},        {"illegal.txt", "alice"},
    {"illegal.txt", "bob"},    {"kachi.txt", "alice"},       {"kachi.txt", "bob"},
    {"chudan.txt", "alice"},   {"chudan.txt", "bob"},        {"disconnect.txt", "alice"},
    {"disconnect.txt", "bob"}, {"gps_vs_gps_A.txt", "gpsA"}, {"gps_vs_gps_B.txt", "gpsB"},
};

}  // namespace

TEST_CASE("transcripts: every client of every transcript replays line for line") {
  std::map<std::string, int> players_seen;
  std::vector<std::string> logged_out;
  for (const auto& [file, player] : kReplays) {
    CAPTURE(file);
    CAPTURE(player);
    const Replay r = replay(file, player);
    check_result_and_record(r);
    ++players_seen[file];
    if (r.logged_out_after_game) logged_out.push_back(file + " " + player);
    // Errors are logged only where the client did something wrong or lost its game.
    const int errors = r.driver->count_logs(LogLevel::kError);
    CHECK(errors == ((file == "illegal.txt" && player == "alice") ||
                     (file == "disconnect.txt" && player == "alice")));
  }
  // Where shogi-server kept the session open after the game: the side whose line did not end
  // it (bob after alice's %CHUDAN, illegal move or late move; alice after bob's %KACHI; ...).
  std::string seen;
  for (const std::string& l : logged_out) seen += l + "; ";
  INFO("logged out after the game: " << seen);
  for (const char* expected : {"chudan.txt bob", "illegal.txt bob", "timeup.txt bob",
                               "fischer.txt bob", "kachi.txt alice", "silent.txt alice"})
    CHECK(std::count(logged_out.begin(), logged_out.end(), expected) == 1);
  for (const char* not_expected : {"chudan.txt alice", "illegal.txt alice", "csa.txt alice"})
    CHECK(std::count(logged_out.begin(), logged_out.end(), not_expected) == 0);
  // Every transcript file, and every client in it, is covered.
  for (const auto& entry : std::filesystem::directory_iterator(kTranscriptDir)) {
    const std::string name = entry.path().filename().string();
    CAPTURE(name);
    CHECK(players_seen[name] == int(load_transcript(name).players.size()));
  }
}

TEST_CASE("transcripts: clocks the engine is told, and stops before the server's deadline") {
  // Every search of every replay: the engine's numbers add up to the local think limit.
  for (const auto& [file, player] : kReplays) {
    const Replay r = replay(file, player);
    for (const SearchRequest& s : r.driver->searches) {
      CAPTURE(file);
      CHECK(s.limits.time_left_ms[s.us] + s.limits.byoyomi_ms == s.deadline_ms - s.started_ms);
    }
    for (const auto& [id, at] : r.driver->stops)  // at the deadline, or when the game ended
      CHECK(at <= r.driver->searches.at(id - 1).deadline_ms);
  }
  // fi-2-3F: move 1 may use 2 + 3 s, move 2 only 1 + 3 s. The recorded client took 4.3 s and
  // then 4.2 s and lost; the session stopped its engine at 4.0 s and 7.3 s (START was at 0.026).
  Replay f = replay("fischer.txt", "alice");
  REQUIRE(f.driver->searches.size() == 2);
  const SearchRequest& m1 = f.driver->searches[0];
  CHECK(m1.limits.increment_ms[kBlack] == 3000);
  CHECK(m1.limits.byoyomi_ms == 0);
  CHECK(m1.limits.time_left_ms[kBlack] == 5000 - 1 - 4 - 1000);  // round trip: LOGIN, 4 ms
  CHECK(m1.deadline_ms < 26 + 5000 - 1000);
  const SearchRequest& m2 = f.driver->searches[1];
  CHECK(m2.limits.time_left_ms[kBlack] < 4000 - 1000);
  CHECK(m2.deadline_ms < 4335 + 4000 - 1000);
  REQUIRE(f.driver->stops.size() == 2);
  CHECK(f.driver->stops[1].second == m2.deadline_ms);
  CHECK(f.driver->results[0].reason == GameEndReason::kTimeUp);
  // tu-0-2: 2 s byoyomi; the engine is told 2 s less the margin, and stopped at 1 s.
  Replay t = replay("timeup.txt", "alice");
  CHECK(t.driver->searches[0].limits.byoyomi_ms <= 1000);
  CHECK(t.driver->searches[0].limits.time_left_ms[kBlack] == 0);
  REQUIRE(t.driver->stops.size() == 1);
  CHECK(t.driver->stops[0].second < 25 + 2000 - 900);
  const auto& comments = t.driver->session.record().result_comments;
  CHECK(std::find(comments.begin(), comments.end(),
                  "our move +7776FU came after the time was up") != comments.end());
  // si-0-2: the engine never answers; it is stopped in time, the server flags it at 60.1 s.
  Replay s = replay("silent.txt", "bob");
  REQUIRE(s.driver->stops.size() == 1);
  CHECK(s.driver->stops[0].second < 34 + 2000 - 900);
  CHECK(s.driver->results[0].outcome == GameOutcome::kLose);
}

TEST_CASE("transcripts: special endings, records, rejections, x1 logout") {
  Replay r = replay("illegal.txt", "alice");
  const shogi::CsaRecord& il = r.driver->session.record();
  REQUIRE(il.rejected_last_move);
  CHECK(il.rejected_last_move->text == "+7775FU");
  CHECK(il.result == shogi::CsaSpecialMove::kIllegalMove);
  r = replay("kachi.txt", "bob");
  CHECK(r.driver->session.record().result == shogi::CsaSpecialMove::kIllegalMove);
  CHECK(r.driver->session.record().result_time_ms == 0);
  CHECK(r.driver->session.record().result_comments[0] == "%KACHI refused by the server");
  r = replay("chudan.txt", "alice");
  CHECK(r.driver->session.record().result_comments[0] == "%CHUDAN refused by the server");
  CHECK(r.driver->finished);
  r = replay("csa.txt", "alice");
  const shogi::CsaRecord& rec = r.driver->session.record();
  CHECK(rec.black_name == "alice");
  CHECK(*rec.find_info("EVENT") == "research+demo-60-5+alice+bob+20261125211451");
  CHECK(*rec.find_info("TIME") == "60+5+0");
  CHECK(rec.result == shogi::CsaSpecialMove::kToryo);
  CHECK(rec.moves[0].comments == std::vector<std::string>{"* 30 -3334FU +2726FU"});
  CHECK(rec.moves[1].comments.empty());
  CHECK(r.driver->results[0].outcome == GameOutcome::kWin);
  CHECK(r.driver->finished->ok);
  r = replay("reject.txt", "bob");
  CHECK(r.driver->rejections[0].reason == "scripted rejection");
  CHECK(r.driver->connect_delays == std::vector<int64_t>{0, 1000});  // next game: log in again
  r = replay("x1.txt", "alice");
  CHECK(r.driver->session.games_played() == 1);
  CHECK(r.driver->finished->ok);
  CHECK(r.driver->session.state() == CsaSession::State::kFinished);
  r = replay("disconnect.txt", "alice");
  CHECK(!r.driver->results[0].outcome);
  CHECK(r.driver->session.record().result_comments[0] == "connection lost before the result");
}

}  // namespace csa_session_test
