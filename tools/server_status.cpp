// ServerStatus: the local server's games on its status page (server_status.h).
#include "tools/server_status.h"

#include <algorithm>
#include <chrono>

#include "client/client_status.h"
#include "engine/notation.h"
#include "engine/version.h"

namespace tools {

namespace {

int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string seconds_text(int64_t ms) {
  const std::string whole = std::to_string(ms / 1000);
  return ms % 1000 == 0 ? whole + " s" : whole + "." + std::to_string(ms % 1000 / 100) + " s";
}

std::string rules_text(const client::ClockRules& r) {
  if (r.unlimited) return "no time limit";
  std::string s = seconds_text(r.total_ms);
  if (r.increment_ms > 0) s += " + " + seconds_text(r.increment_ms) + " per move";
  if (r.byoyomi_ms > 0) s += ", " + seconds_text(r.byoyomi_ms) + " byoyomi";
  return s;
}

client::StatusGame* find_game(client::StatusModel& m, const std::string& id) {
  for (client::StatusGame& g : m.server_games)
    if (g.game_id == id) return &g;
  return nullptr;
}

}  // namespace

ServerStatus::ServerStatus(client::StatusBoard& board, const std::string& address,
                           int64_t steady_origin_ms)
    : board_(board), steady_origin_ms_(steady_origin_ms) {
  board_.update([&](client::StatusModel& m) {
    m.kind = "server";
    m.version = engine::build_version();
    m.server = address;
    m.connection = "listening";
    m.started_unix_ms = unix_ms();
  });
}

void ServerStatus::game_started(const ServerGame& game) {
  client::StatusGame g;
  g.game_id = game.game_id();
  g.black_name = game.config().names[engine::kBlack];
  g.white_name = game.config().names[engine::kWhite];
  const client::GameClock& clock = game.clock();
  const std::string black = rules_text(clock.rules(engine::kBlack));
  const std::string white = rules_text(clock.rules(engine::kWhite));
  g.time_rules = black == white ? black : "Black " + black + "; White " + white;
  g.start_sfen = game.position().sfen();
  g.sfen = g.start_sfen;
  g.start_unix_ms = unix_ms();
  for (engine::Color c : {engine::kBlack, engine::kWhite}) {
    const client::ClockRules& r = clock.rules(c);
    g.clocks[c] = {clock.remaining_ms(c), r.byoyomi_ms, r.increment_ms, r.unlimited};
  }
  board_.update([&](client::StatusModel& m) {
    // In progress first: the new game goes after the others in progress.
    auto first_over = std::find_if(m.server_games.begin(), m.server_games.end(),
                                   [](const client::StatusGame& x) { return x.over; });
    m.server_games.insert(first_over, std::move(g));
  });
}

void ServerStatus::game_changed(const ServerGame& game) {
  const engine::CsaRecord& record = game.record();
  const client::GameClock& clock = game.clock();
  const bool playing = game.phase() == ServerGame::Phase::kPlaying;
  const std::string sfen = game.position().sfen();
  const int64_t turn_start = playing ? steady_origin_ms_ + game.turn_start_ms() : 0;
  board_.update([&](client::StatusModel& m) {
    client::StatusGame* g = find_game(m, game.game_id());
    if (!g) return;
    for (size_t i = g->moves.size(); i < record.moves.size(); ++i) {
      const engine::CsaRecordMove& rm = record.moves[i];
      client::StatusMove mv;
      mv.csa = rm.text;
      mv.usi = rm.move.is_ok() ? engine::format_usi_move(rm.move) : "";
      mv.time_ms = rm.time_ms ? *rm.time_ms : -1;
      for (const std::string& c : rm.comments)
        if (auto v = client::floodgate_comment_value(c)) {
          mv.eval_cp = *v;
          break;
        }
      g->moves.push_back(std::move(mv));
    }
    g->sfen = sfen;
    for (engine::Color c : {engine::kBlack, engine::kWhite}) {
      const client::ClockRules& r = clock.rules(c);
      g->clocks[c] = {clock.remaining_ms(c), r.byoyomi_ms, r.increment_ms, r.unlimited};
    }
    g->turn_start_steady_ms = turn_start;
  });
}

void ServerStatus::game_ended(const ServerGame& game, const std::string& record_path) {
  game_changed(game);
  const ServerGameResult& r = game.result();
  board_.update([&](client::StatusModel& m) {
    auto it =
        std::find_if(m.server_games.begin(), m.server_games.end(),
                     [&](const client::StatusGame& x) { return x.game_id == game.game_id(); });
    if (it == m.server_games.end()) return;
    client::StatusGame g = std::move(*it);
    m.server_games.erase(it);
    g.over = true;
    g.turn_start_steady_ms = 0;
    g.result = r.kind == "aborted" || r.kind == "rejected" ? r.kind
               : !r.winner                                 ? "draw"
               : *r.winner == engine::kBlack               ? "black"
                                                           : "white";
    g.reason = r.kind;
    g.csa_file = record_path;
    auto first_over = std::find_if(m.server_games.begin(), m.server_games.end(),
                                   [](const client::StatusGame& x) { return x.over; });
    m.server_games.insert(first_over, std::move(g));
    size_t finished = 0;
    std::erase_if(m.server_games,
                  [&](const client::StatusGame& x) { return x.over && ++finished > kMaxFinished; });
  });
}

}  // namespace tools
