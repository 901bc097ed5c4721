// StatusService: the status page's routes over StatusHttpServer (status_service.h).
#include "client/status_service.h"

#include <cctype>
#include <chrono>
#include <fstream>
#include <sstream>

#include "client/client_status.h"
#include "client/status_http.h"
#include "client/status_page.h"
#include "client/status_render.h"

namespace client {

namespace {

constexpr std::uintmax_t kMaxRecordBytes = 64 << 20;

int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

HttpReply text_reply(int status, std::string body) {
  HttpReply r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

const std::string* find_param(const HttpRequest& request, const char* name) {
  auto it = request.query.find(name);
  return it == request.query.end() ? nullptr : &it->second;
}

std::string file_of(const std::string& id, bool kif, const StatusGame& g) {
  if (g.game_id != id) return "";
  return kif ? g.kif_file : g.csa_file;
}

HttpReply record_reply(const StatusModel& model, const std::string& name) {
  const std::string path = status_record_file(model, name);
  if (path.empty()) return text_reply(404, "no such record\n");
  std::ifstream in(path, std::ios::binary);
  if (!in) return text_reply(404, "the record cannot be read\n");
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0 || std::uintmax_t(size) > kMaxRecordBytes)
    return text_reply(500, "the record is too large\n");
  in.seekg(0);
  std::string body(size_t(size), '\0');
  in.read(body.data(), size);
  HttpReply r = text_reply(200, std::move(body));
  // The name is the Game_ID made of safe characters (status_record_file checked it).
  r.headers.push_back({"Content-Disposition", "inline; filename=\"" + name + "\""});
  return r;
}

}  // namespace

base::Status validate_status_page(int port, const std::string& bind, const std::string& token) {
  if (port == 0) return base::Status::ok();
  if (!is_loopback_name(bind) && token.empty())
    return base::Status::error("status.bind \"" + bind.substr(0, 64) +
                               "\" is not a loopback address: the status page then needs "
                               "status.token (or the environment variable " +
                               kStatusTokenEnv + ")");
  for (char ch : token)
    if (ch <= ' ' || ch > '~')
      return base::Status::error("status.token must be printable ASCII without spaces");
  return base::Status::ok();
}

std::string status_record_file(const StatusModel& model, const std::string& name) {
  bool kif;
  std::string id;
  if (name.ends_with(".csa"))
    kif = false, id = name.substr(0, name.size() - 4);
  else if (name.ends_with(".kifu"))
    kif = true, id = name.substr(0, name.size() - 5);
  else
    return "";
  if (id.empty()) return "";
  for (char c : id)  // shogi-server's Game_IDs: letters, digits, '+', '-', '_', '.'
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '_' ||
          c == '.'))
      return "";
  if (model.has_game)
    if (std::string f = file_of(id, kif, model.game); !f.empty()) return f;
  for (const StatusGame& g : model.server_games)
    if (std::string f = file_of(id, kif, g); !f.empty()) return f;
  for (const StatusRecentGame& g : model.recent)
    if (g.game_id == id) return kif ? g.kif_file : g.csa_file;
  return "";
}

StatusService::StatusService(StatusServiceOptions options, StatusBoard& board)
    : options_(std::move(options)), board_(board) {}

StatusService::~StatusService() { stop(); }

base::Status StatusService::start() {
  StatusHttpOptions http;
  http.bind = options_.bind;
  http.port = options_.port;
  http.token = options_.token;
  StatusBoard& board = board_;
  auto routes = [&board](const HttpRequest& request) -> HttpReply {
    if (request.path == "/" || request.path == "/index.html") {
      const std::string* game = find_param(request, "game");
      HttpReply r =
          text_reply(200, status_page_html_with(render_status_json(
                              board.snapshot(), steady_ms(), unix_time_ms(), game ? *game : "")));
      r.content_type = "text/html; charset=utf-8";
      return r;
    }
    if (request.path == "/status.json") {
      const std::string* game = find_param(request, "game");
      HttpReply r = text_reply(200, render_status_json(board.snapshot(), steady_ms(),
                                                       unix_time_ms(), game ? *game : ""));
      r.content_type = "application/json";
      return r;
    }
    if (request.path == "/metrics") {
      HttpReply r = text_reply(200, render_metrics(board.snapshot(), unix_time_ms()));
      r.content_type = "text/plain; version=0.0.4; charset=utf-8";
      return r;
    }
    if (request.path.starts_with("/records/"))
      return record_reply(board.snapshot(), request.path.substr(9));
    return text_reply(404, "not found\n");
  };
  auto events = [&board](const std::string& channel) {
    return render_status_json(board.snapshot(), steady_ms(), unix_time_ms(), channel);
  };
  http_ = std::make_shared<StatusHttpServer>(http, routes, events);
  if (base::Status st = http_->start(); !st) {
    http_.reset();
    return st;
  }
  // A weak pointer: an update that copied the listener just before stop() finds the server
  // gone (or stopped: notify_changed is then a no-op), never freed memory.
  board_.set_listener([server = std::weak_ptr<StatusHttpServer>(http_)] {
    if (std::shared_ptr<StatusHttpServer> s = server.lock()) s->notify_changed();
  });
  return base::Status::ok();
}

int StatusService::port() const { return http_->port(); }

void StatusService::stop() {
  if (!http_) return;
  board_.set_listener({});
  http_->stop();
  http_.reset();
}

}  // namespace client
