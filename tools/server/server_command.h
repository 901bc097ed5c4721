// `sashite server`: the local CSA server (tools/server/csa_server.h) with its status page.
#pragma once

#include <ostream>

#include "base/status.h"
#include "tools/server/csa_server.h"

namespace tools {

// Prints "listening on HOST:PORT" (then, with a status page, its address) on `out` and serves
// until options.games games have ended or SIGINT/SIGTERM (see CsaServer::run). The environment
// variable SASHITE_STATUS_TOKEN, when set, is the status page's token. An error when the
// status page's settings are refused, or the server cannot listen, or the page cannot start.
base::Status run_server(const ServerOptions& options, std::ostream& out);

}  // namespace tools
