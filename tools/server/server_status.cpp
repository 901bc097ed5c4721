// ServerStatus: the local server's games on its status page (server_status.h).
#include "tools/server/server_status.h"

#include <algorithm>
#include <chrono>

#include "base/version.h"
#include "client/client_status.h"
#include "shogi/notation.h"

namespace tools {

namespace {

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
    m.version = base::build_version();
    m.server = address;
    m.connection = "listening";
    m.started_unix_ms = client::unix_time_ms();
  });
}

void ServerStatus::game_started(const ServerGame& game) {
  client::StatusGame g;
  g.game_id = game.game_id();
  g.black_name = game.config().names[shogi::kBlack];
  g.white_name = game.config().names[shogi::kWhite];
  g.time_rules = client::time_rules_text(game.clock());
  g.start_sfen = game.position().sfen();
  g.sfen = g.start_sfen;
  g.start_unix_ms = client::unix_time_ms();
  client::status_clocks_from(game.clock(), g.clocks);
  board_.update([&](client::StatusModel& m) {
    // In progress first: the new game goes after the others in progress.
    auto first_over = std::find_if(m.server_games.begin(), m.server_games.end(),
                                   [](const client::StatusGame& x) { return x.over; });
    m.server_games.insert(first_over, std::move(g));
  });
}

void ServerStatus::game_changed(const ServerGame& game) {
  const shogi::CsaRecord& record = game.record();
  const client::GameClock& clock = game.clock();
  const bool playing = game.phase() == ServerGame::Phase::kPlaying;
  const std::string sfen = game.position().sfen();
  const int64_t turn_start = playing ? steady_origin_ms_ + game.turn_start_ms() : 0;
  board_.update([&](client::StatusModel& m) {
    client::StatusGame* g = find_game(m, game.game_id());
    if (!g) return;
    for (size_t i = g->moves.size(); i < record.moves.size(); ++i)
      g->moves.push_back(client::status_move_from(record.moves[i]));
    g->sfen = sfen;
    client::status_clocks_from(clock, g->clocks);
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
               : *r.winner == shogi::kBlack                ? "black"
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
