// sashite csa: plays on a CSA server (floodgate, a championship, the local server).
#include "client/csa_command.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <csignal>
#include <iostream>
#include <memory>

#include "client/asio_transport.h"
#include "client/book_front_player.h"
#include "client/book_player.h"
#include "client/csa_client.h"
#include "client/csa_config.h"
#include "client/engine_player.h"
#include "client/status_service.h"
#include "client/usi_engine_player.h"

namespace {

std::atomic<client::CsaClient*> g_client{nullptr};
std::atomic<int> g_signals{0};

extern "C" void on_quit_signal(int) {
  const int n = g_signals.fetch_add(1) + 1;
  if (n >= 3) _exit(130);  // the operator insists
  if (client::CsaClient* c = g_client.load()) c->request_quit(n >= 2);
}

}  // namespace

void add_csa_options(CLI::App& app, CsaCommandOptions& o) {
  // No CLI::ExistingFile check: a configuration file that cannot be read is a configuration
  // error, exit 1 (the systemd unit does not restart after it), not CLI11's 105.
  app.add_option("--config", o.config_path, "TOML configuration (see config/*.toml)")->required();
  app.add_option("--host", o.host, "server host (overrides server.host)");
  app.add_option("--port", o.port, "server port (overrides server.port)")
      ->check(CLI::Range(1, 65535));
  app.add_option("--name", o.name, "login name (overrides server.name)");
  app.add_option("--game", o.game, "game name, e.g. floodgate-300-10F (overrides server.game)");
  app.add_option("--trip", o.trip,
                 "floodgate trip (overrides server.trip; SASHITE_CSA_TRIP keeps it off the "
                 "command line)");
  app.add_option("--games", o.games, "games to play, 0 = forever (overrides session.games)")
      ->check(CLI::Range(0, 1000000));
  app.add_option("--status-port", o.status_port,
                 "port of the live status page on status.bind (127.0.0.1 by default); 0 = off "
                 "(overrides status.port)")
      ->check(CLI::Range(0, 65535));
}

int run_csa_command(const CsaCommandOptions& o) {
  client::CsaConfig config;
  if (base::Status st = client::load_csa_config(o.config_path, config); !st) {
    std::cerr << "sashite csa: " << st.message() << "\n";
    return client::kExitSetup;
  }
  client::apply_environment(config);
  if (!o.host.empty()) config.host = o.host;
  if (o.port > 0) config.port = o.port;
  if (!o.name.empty()) config.name = o.name;
  if (!o.game.empty()) config.game = o.game;
  if (!o.trip.empty()) config.trip = o.trip;
  if (o.games >= 0) config.games = o.games;
  if (o.status_port >= 0) config.status_port = o.status_port;
  for (auto check : {client::validate_for_login, client::validate_status_settings}) {
    if (base::Status st = check(config); !st) {
      std::cerr << "sashite csa: " << o.config_path << ": " << st.message() << "\n";
      return client::kExitSetup;
    }
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
  if (base::Status st = builtin.configure(builtin_config); !st) {
    std::cerr << "sashite csa: " << st.message() << "\n";
    return client::kExitSetup;
  }
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
    if (base::Status st = book.open(options); !st) {
      std::cerr << "sashite csa: " << o.config_path << ": book: " << st.message() << "\n";
      return client::kExitSetup;
    }
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
    if (base::Status st = status_page->start(); !st) {
      std::cerr << "sashite csa: status page: " << st.message() << "\n";
      return client::kExitSetup;
    }
    std::cerr << "sashite csa: status page on http://"
              << (config.status_bind.find(':') != std::string::npos ? "[" + config.status_bind + "]"
                                                                    : config.status_bind)
              << ":" << status_page->port() << "/" << std::endl;
    csa.set_status_board(&status_board);
  }

  g_client.store(&csa);
  struct sigaction sa {};
  sa.sa_handler = on_quit_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  std::signal(SIGPIPE, SIG_IGN);  // a dead peer is seen as a write error instead

  const int status = csa.run();

  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  g_client.store(nullptr);
  return status;
}
