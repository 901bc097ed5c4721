// One match game: two engine processes, the USI dialog, the referee, the record.
#include "tools/match/match_game.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <mutex>
#include <thread>

#include "tools/match/match_search_info.h"

namespace tools {

using base::Status;
using shogi::Color;
using Milliseconds = std::chrono::milliseconds;

MatchClock::MatchClock(const MatchLimits& limits) : limits_(limits) {
  remaining_ms_[shogi::kBlack] = remaining_ms_[shogi::kWhite] = limits.main_time_ms;
}

int64_t MatchClock::available_ms(Color us) const {
  return remaining_ms_[us] + limits_.increment_ms + limits_.byoyomi(us);
}

std::string MatchClock::go_command(Color us) const {
  int64_t time[shogi::kColorNb] = {remaining_ms_[shogi::kBlack], remaining_ms_[shogi::kWhite]};
  time[us] += limits_.increment_ms;
  std::string s = "go btime " + std::to_string(time[shogi::kBlack]) + " wtime " +
                  std::to_string(time[shogi::kWhite]);
  if (limits_.increment_ms > 0)
    return s + " binc " + std::to_string(limits_.increment_ms) + " winc " +
           std::to_string(limits_.increment_ms);
  return s + " byoyomi " + std::to_string(limits_.byoyomi(us));
}

void MatchClock::charge(Color us, int64_t elapsed_ms) {
  remaining_ms_[us] = std::max<int64_t>(0, remaining_ms_[us] + limits_.increment_ms - elapsed_ms);
}

std::string go_command(const MatchLimits& limits) {
  if (limits.timed()) return MatchClock(limits).go_command(shogi::kBlack);
  if (limits.nodes > 0) return "go nodes " + std::to_string(limits.nodes);
  return "go depth " + std::to_string(limits.depth);
}

int64_t move_wait_ms(const MatchLimits& limits) {
  if (limits.timed()) return MatchClock(limits).available_ms(shogi::kBlack) + limits.time_margin_ms;
  return limits.move_timeout_ms;
}

namespace {

// "2024/05/03 11:00:54", local time, as CSA's $START_TIME writes it.
std::string csa_time_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y/%m/%d %H:%M:%S", &tm);
  return buf;
}

// The $TIME_LIMIT value "HH:MM+SS" (main time in whole minutes, byoyomi in whole seconds), or
// "" when the clock cannot be written so (an increment, time odds, or other fractions).
std::string csa_time_limit(const MatchLimits& limits) {
  if (!limits.timed() || limits.increment_ms > 0 || limits.odds() ||
      limits.byoyomi_ms % 1000 != 0 || limits.main_time_ms % 60000 != 0)
    return "";
  const int64_t minutes = limits.main_time_ms / 60000;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%02lld:%02lld+%02d", static_cast<long long>(minutes / 60),
                static_cast<long long>(minutes % 60), limits.byoyomi_ms / 1000);
  return buf;
}

// Milliseconds as CSA V3.0 seconds: "600", "0.1", "2.25".
std::string csa_seconds(int64_t ms) {
  std::string s = std::to_string(ms / 1000);
  if (ms % 1000 != 0) {
    std::string frac = std::to_string(1000 + ms % 1000).substr(1);
    while (frac.back() == '0') frac.pop_back();
    s += "." + frac;
  }
  return s;
}

const char* gameover_word(GameWinner winner, Color side) {
  if (winner == GameWinner::kDraw) return "draw";
  const bool black_won = winner == GameWinner::kBlack;
  return black_won == (side == shogi::kBlack) ? "win" : "lose";
}

// A name for the record: the engine's "id name", else its program's file name.
std::string display_name(const usi::UsiEngineProcess& engine, const usi::EngineConfig& config) {
  if (!engine.name().empty()) return engine.name();
  std::vector<std::string> argv;
  if (base::split_command_line(config.command, argv).is_ok())
    return std::filesystem::path(argv[0]).filename().string();
  return config.command;
}

// True when a game ending so is the fault of the loser's engine: its process is not kept.
bool engine_at_fault(EndReason reason) {
  switch (reason) {
    case EndReason::kCrash:
    case EndReason::kNoResponse:
    case EndReason::kTimeUp:
    case EndReason::kIllegalMove:
    case EndReason::kBadDeclaration:
      return true;
    default:
      return false;
  }
}

}  // namespace

void SearchStats::add(const usi::SearchReport& report, int64_t elapsed_ms) {
  ++moves;
  think_ms += elapsed_ms;
  if (report.depth) {
    ++depth_moves;
    depth_sum += *report.depth;
  }
  if (report.nodes) {
    ++nodes_moves;
    nodes_sum += *report.nodes;
  }
}

void SearchStats::add(const SearchStats& other) {
  moves += other.moves;
  depth_moves += other.depth_moves;
  depth_sum += other.depth_sum;
  nodes_moves += other.nodes_moves;
  nodes_sum += other.nodes_sum;
  think_ms += other.think_ms;
}

std::optional<double> SearchStats::average_depth() const {
  if (depth_moves == 0) return std::nullopt;
  return double(depth_sum) / depth_moves;
}

std::optional<double> SearchStats::average_nodes() const {
  if (nodes_moves == 0) return std::nullopt;
  return double(nodes_sum) / nodes_moves;
}

GameOutcome play_game(const GameSetup& setup) {
  MatchEngine black, white;
  return play_game(setup, black, white);
}

GameOutcome play_game(const GameSetup& setup, MatchEngine& black, MatchEngine& white) {
  GameOutcome out;
  Referee referee;
  if (Status s = referee.start(setup.opening, setup.limits.max_plies); !s) {
    out.error = Status::error(setup.opening.source + ": " + s.message());
    return out;
  }
  const std::string start_time = csa_time_now();
  std::ofstream log;
  if (!setup.log_path.empty()) log.open(setup.log_path);

  const auto t0 = std::chrono::steady_clock::now();  // log times are from here
  std::mutex log_mutex;                              // the handshakes run in parallel
  MatchEngine* engines[2] = {&black, &white};
  const usi::EngineConfig* configs[2] = {&setup.black, &setup.white};
  const std::string labels[2] = {setup.black_label, setup.white_label};
  for (int c = 0; c < 2; ++c) {
    const std::string tag = labels[c] + (c == shogi::kBlack ? " (black) " : " (white) ");
    engines[c]->set_log([&log, &log_mutex, tag, t0](std::string_view line) {
      if (!log.is_open()) return;
      std::lock_guard<std::mutex> lock(log_mutex);
      const auto ms =
          std::chrono::duration_cast<Milliseconds>(std::chrono::steady_clock::now() - t0);
      char stamp[32];
      std::snprintf(stamp, sizeof stamp, "%9.3f ", ms.count() / 1000.0);
      log << stamp << tag << line << '\n';
    });
  }
  // The log sinks refer to this frame: the engines must forget them on every way out.
  struct ForgetLogs {
    MatchEngine* const* engines;
    ~ForgetLogs() {
      for (int c = 0; c < 2; ++c) engines[c]->set_log(nullptr);
    }
  } forget_logs{engines};

  // The handshake, both engines at once: some engines (gpsusi) take seconds to load. White's
  // runs on a second thread; Black's fault counts first.
  const Milliseconds ready_timeout(setup.limits.ready_timeout_ms);
  usi::EngineReply replies[2];
  Status started[2];
  std::thread white_thread(
      [&] { started[1] = engines[1]->prepare(*configs[1], ready_timeout, replies[1]); });
  started[0] = engines[0]->prepare(*configs[0], ready_timeout, replies[0]);
  white_thread.join();
  for (int c = 0; c < 2; ++c) {
    if (started[c].is_ok()) continue;
    out.error = Status::error(labels[c] + ": " + started[c].message());
    for (int e = 0; e < 2; ++e) engines[e]->end_game("draw", true);
    for (int e = 0; e < 2; ++e) engines[e]->release(usi::UsiEngineProcess::Clock::now());
    return out;
  }
  auto who = [&](int c) {
    const std::string& name = engines[c]->process().name();
    return "(" + labels[c] + (name.empty() ? "" : ", " + name) + ")";
  };
  bool faulted[2] = {false, false};
  for (int c = 0; c < 2; ++c) {
    out.restarted[c] = engines[c]->restarted();
    out.ready_errors[c] = engines[c]->process().ready_errors();
    if (replies[c].ok()) continue;
    faulted[c] = true;
    if (!referee.over())
      referee.on_engine_fault(Color(c),
                              replies[c].fault == usi::EngineFault::kExited
                                  ? EndReason::kCrash
                                  : EndReason::kNoResponse,
                              who(c) + " " + replies[c].detail);
  }

  // The moves.
  const MatchLimits& limits = setup.limits;
  MatchClock clock(limits);
  while (!referee.over() && !referee.check_ply_limit()) {
    const Color us = referee.side_to_move();
    const std::string go = limits.timed() ? clock.go_command(us) : go_command(limits);
    const int64_t wait_ms =
        limits.timed() ? clock.available_ms(us) + limits.time_margin_ms : limits.move_timeout_ms;
    usi::BestMove bm =
        engines[us]->process().think(referee.position_command(), go, Milliseconds(wait_ms));
    if (bm.fault == usi::EngineFault::kExited) {
      referee.on_engine_fault(us, EndReason::kCrash, who(us) + " " + bm.detail);
    } else if (bm.fault == usi::EngineFault::kTimeout) {
      if (limits.timed())
        referee.on_time_up(bm.elapsed_ms);
      else
        referee.on_engine_fault(us, EndReason::kNoResponse, who(us) + " " + bm.detail);
    } else if (limits.timed() && bm.elapsed_ms > wait_ms) {
      referee.on_time_up(bm.elapsed_ms);
    } else {
      if (limits.timed()) clock.charge(us, bm.elapsed_ms);
      const int plies_before = referee.plies();
      referee.on_reply(bm.move, bm.elapsed_ms);
      if (referee.plies() > plies_before) {  // a move was played and recorded
        out.search[us].add(bm.search, bm.elapsed_ms);
        if (std::string comment = search_comment(bm.search, us); !comment.empty())
          referee.record().moves.back().comments.push_back(std::move(comment));
      }
    }
    if (referee.over() && engine_at_fault(referee.end().reason)) faulted[us] = true;
  }

  // The end: tell both engines; those not kept get two seconds to quit, then are killed.
  const GameEnd& end = referee.end();
  for (int c = 0; c < 2; ++c) engines[c]->end_game(gameover_word(end.winner, Color(c)), faulted[c]);
  const auto deadline = usi::UsiEngineProcess::Clock::now() + Milliseconds(2000);
  // The names first: release() forgets a process that is not kept.
  out.black_name = display_name(engines[0]->process(), setup.black);
  out.white_name = display_name(engines[1]->process(), setup.white);
  for (int c = 0; c < 2; ++c) engines[c]->release(deadline);

  // The record.
  if (out.black_name == out.white_name) {
    out.black_name += " (" + setup.black_label + ")";
    out.white_name += " (" + setup.white_label + ")";
  }
  out.end = end;
  out.plies = referee.plies();
  out.record = referee.record();
  shogi::CsaRecord& rec = out.record;
  rec.black_name = out.black_name;
  rec.white_name = out.white_name;
  if (!setup.event.empty()) rec.info.push_back({"EVENT", setup.event});
  rec.info.push_back({"START_TIME", start_time});
  rec.info.push_back({"END_TIME", csa_time_now()});
  if (std::string limit = csa_time_limit(limits); !limit.empty())
    rec.info.push_back({"TIME_LIMIT", limit});
  // CSA V3.0's $TIME, or with time odds each side's ($TIME+, $TIME-).
  const auto csa_time = [&limits](Color c) {
    return csa_seconds(limits.main_time_ms) + "+" + csa_seconds(limits.byoyomi(c)) + "+" +
           csa_seconds(limits.increment_ms);
  };
  if (limits.timed() && !limits.odds()) rec.info.push_back({"TIME", csa_time(shogi::kBlack)});
  if (limits.timed() && limits.odds()) {
    rec.info.push_back({"TIME+", csa_time(shogi::kBlack)});
    rec.info.push_back({"TIME-", csa_time(shogi::kWhite)});
  }
  rec.comments.push_back("game " + std::to_string(setup.number) + ": black " + setup.black_label +
                         " = " + setup.black.command + ", white " + setup.white_label + " = " +
                         setup.white.command);
  rec.comments.push_back("opening: " + setup.opening.source + " (" +
                         std::to_string(setup.opening.moves.size()) + " moves)");
  if (limits.timed() && limits.odds()) {  // each side's own byoyomi
    rec.comments.push_back("black: " + MatchClock(limits).go_command(shogi::kBlack));
    rec.comments.push_back("white: " + MatchClock(limits).go_command(shogi::kWhite));
  } else {
    rec.comments.push_back(go_command(limits));
  }
  return out;
}

}  // namespace tools
