// sashite csa: plays on a CSA server (floodgate, a championship, the local server).
#include "client/csa_command.h"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <iostream>
#include <memory>
#include <string>

#include "base/interrupt.h"
#include "client/asio_transport.h"
#include "client/book_front_player.h"
#include "client/book_player.h"
#include "client/csa_client.h"
#include "client/csa_config.h"
#include "client/engine_player.h"
#include "client/status_board.h"
#include "client/status_service.h"
#include "client/usi_engine_player.h"

namespace {

std::atomic<client::CsaClient*> g_client{nullptr};

// The n-th SIGINT or SIGTERM (base::ScopedInterrupts): see run_csa_command's contract.
void on_quit_signal(int n) {
  if (n >= 3) _exit(130);  // the operator insists
  if (client::CsaClient* c = g_client.load()) c->request_quit(n >= 2);
}

}  // namespace

namespace client {

base::Status run_csa_command(const CsaCommandOptions& o, int& exit_code) {
  client::CsaConfig config;
  if (base::Status st = client::load_csa_config(o.config_path, config); !st) return st;
  client::apply_environment(config);
  if (!o.host.empty()) config.host = o.host;
  if (o.port > 0) config.port = o.port;
  if (!o.name.empty()) config.name = o.name;
  if (!o.game.empty()) config.game = o.game;
  if (!o.trip.empty()) config.trip = o.trip;
  if (o.games >= 0) config.games = o.games;
  if (o.status_port >= 0) config.status_port = o.status_port;
  for (auto check : {client::validate_for_login, client::validate_status_settings}) {
    if (base::Status st = check(config); !st)
      return base::Status::error(o.config_path + ": " + st.message());
  }

  // The built-in engine plays, or (engine.command) answers for an external engine that cannot:
  // then it searches briefly, on one thread with a small table, with none of the external
  // engine's options.
  const bool external = !config.engine_command.empty();
  client::CsaConfig builtin_config = config;
  if (external) {
    builtin_config.threads = 1;
    builtin_config.hash_mb = 64;
    builtin_config.ponder = false;
    builtin_config.usi_options.clear();
  }
  client::EngineAdapter builtin;
  if (base::Status st = builtin.configure(builtin_config); !st) return st;
  std::unique_ptr<client::UsiEnginePlayer> usi_engine;
  client::EnginePlayer* engine = &builtin;
  if (external) {
    usi_engine =
        std::make_unique<client::UsiEnginePlayer>(client::usi_engine_settings(config), builtin);
    engine = usi_engine.get();
  }
  client::BookPlayer book;
  std::unique_ptr<client::BookFrontPlayer> book_front;
  if (config.effective_book_move_choice() == "play" && config.book != "off" &&
      config.book_mode != "off") {
    client::BookPlayOptions options;
    options.path = config.book;
    options.mode = config.book_mode == "exact"    ? engine::BookMode::kExact
                   : config.book_mode == "simple" ? engine::BookMode::kSimple
                                                  : engine::BookMode::kRelation;
    options.min_weight = config.book_min_weight;
    options.max_ply = config.book_max_ply;
    options.max_distance = config.book_max_distance;
    if (base::Status st = book.open(options); !st)
      return base::Status::error(o.config_path + ": book: " + st.message());
    book_front =
        std::make_unique<client::BookFrontPlayer>(book, *engine, config.book_play_max_distance);
    engine = book_front.get();
  }
  client::StatusBoard status_board;  // outlives the client, which updates it
  client::AsioTransport transport;
  client::CsaClient csa(config, transport, *engine, [&transport] { transport.interrupt(); });
  std::unique_ptr<client::StatusService> status_page;
  if (config.status_port > 0) {
    status_page = std::make_unique<client::StatusService>(
        client::StatusServiceOptions{config.status_bind, config.status_port, config.status_token},
        status_board);
    if (base::Status st = status_page->start(); !st)
      return base::Status::error("status page: " + st.message());
    std::cerr << "sashite csa: status page on http://"
              << (config.status_bind.find(':') != std::string::npos ? "[" + config.status_bind + "]"
                                                                    : config.status_bind)
              << ":" << status_page->port() << "/" << std::endl;
    csa.set_status_board(&status_board);
  }

  g_client.store(&csa);
  {
    base::ScopedInterrupts interrupts(on_quit_signal);
    std::signal(SIGPIPE, SIG_IGN);  // a dead peer is seen as a write error instead
    exit_code = csa.run();
  }
  g_client.store(nullptr);
  return base::Status::ok();
}

}  // namespace client
