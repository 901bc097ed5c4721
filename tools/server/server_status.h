// ServerStatus: what the local CSA server shows on its status page (the StatusBoard's model).
#pragma once

// The server's io thread calls these as games start, move and end; each is one short
// StatusBoard::update. Times are the server's milliseconds plus `steady_origin_ms`. Games in
// progress are listed first, then finished ones, newest first, at most kMaxFinished of them.

#include <cstdint>
#include <string>

#include "client/status_board.h"
#include "tools/server/csa_server_game.h"

namespace tools {

class ServerStatus {
 public:
  static constexpr size_t kMaxFinished = 50;

  ServerStatus(client::StatusBoard& board, const std::string& address, int64_t steady_origin_ms);
  void game_started(const ServerGame& game);
  // After each line the game took (AGREE, a move): its moves, position and clocks.
  void game_changed(const ServerGame& game);
  // `record_path`: where its CSA record was written ("" when none).
  void game_ended(const ServerGame& game, const std::string& record_path);

 private:
  client::StatusBoard& board_;
  int64_t steady_origin_ms_;
};

}  // namespace tools
