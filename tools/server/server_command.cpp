// `sashite server`: the local CSA server with its status page.
#include "tools/server/server_command.h"

#include <cstdlib>
#include <memory>

#include "client/status_board.h"
#include "client/status_service.h"

namespace tools {

base::Status run_server(const ServerOptions& given, std::ostream& out) {
  ServerOptions options = given;
  if (const char* t = std::getenv(client::kStatusTokenEnv); t && *t) options.status_token = t;
  if (const base::Status st = client::validate_status_page(options.status_port, options.status_bind,
                                                           options.status_token);
      !st)
    return st;
  client::StatusBoard status_board;  // outlives the server, which updates it
  CsaServer server(options, out);
  if (const base::Status st = server.listen(/*handle_signals=*/true); !st) return st;
  std::unique_ptr<client::StatusService> status;
  if (options.status_port > 0) {
    server.set_status_board(&status_board);
    status = std::make_unique<client::StatusService>(
        client::StatusServiceOptions{options.status_bind, options.status_port,
                                     options.status_token},
        status_board);
    if (const base::Status st = status->start(); !st)
      return base::Status::error("status page: " + st.message());
  }
  out << "listening on " << options.host << ":" << server.port() << std::endl;
  if (status)
    out << "status page on http://" << options.status_bind << ":" << status->port() << "/"
        << std::endl;
  return server.run();
}

}  // namespace tools
