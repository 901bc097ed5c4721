// StatusService: the live status page of `sashite csa` and `sashite server` over HTTP.
#pragma once

// Serves a StatusBoard's model, read-only, on its own thread (StatusHttpServer):
//   /             the page (status_page.h): board, clocks, evaluation graph, PV, games
//   /status.json  the model as JSON (status_render.h); ?game=<Game_ID> picks a server's game
//   /events       the same JSON as server-sent events, one per change
//   /metrics      Prometheus text
//   /records/<Game_ID>.csa and .kifu   the records of the games the model lists
// Nothing it serves can change a game; a status request never takes the playing loop's
// time beyond the board's short lock. The board must outlive the service.

#include <memory>
#include <string>

#include "base/status.h"
#include "client/status_board.h"

namespace client {

class StatusHttpServer;

struct StatusServiceOptions {
  std::string bind = "127.0.0.1";
  int port = 0;       // 0: any free port (port() tells which)
  std::string token;  // required on every request when not empty
};

class StatusService {
 public:
  StatusService(StatusServiceOptions options, StatusBoard& board);
  ~StatusService();
  StatusService(const StatusService&) = delete;
  StatusService& operator=(const StatusService&) = delete;

  // Listens; the error names the address and port. Then every board update reaches the
  // pages that watch.
  base::Status start();
  int port() const;  // REQUIRES: start() succeeded
  void stop();

 private:
  StatusServiceOptions options_;
  StatusBoard& board_;
  std::shared_ptr<StatusHttpServer> http_;  // the board's listener holds a weak pointer
};

// The environment variable that overrides a configured token.
constexpr const char* kStatusTokenEnv = "SASHITE_STATUS_TOKEN";

// The page's settings before it starts (port 0: no page, nothing to check): a bind other than
// loopback needs a token; a token is printable ASCII without spaces.
base::Status validate_status_page(int port, const std::string& bind, const std::string& token);

// The local file a /records/ path names, from the games the model lists ("" when none):
// "<Game_ID>.csa" or "<Game_ID>.kifu", the Game_ID percent-decoded already.
std::string status_record_file(const StatusModel& model, const std::string& name);

}  // namespace client
