// The real binary end to end: `sashite server` and two `sashite csa` clients run as child
// processes (fork/exec) and play short Fischer games over loopback: a complete game, a server
// killed mid-game and restarted on the same port, and a server that delays every line it sends;
// and short byoyomi games with real USI engines behind a client (our own `sashite usi` through
// its wrapper script, pondering; gpsusi).
// Every wait has a deadline; children are SIGKILLed when a test fails (and when this process
// dies, PR_SET_PDEATHSIG). Also an in-process test of the server's --delay-ms.
#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "shogi/csa_notation.h"
#include "shogi/csa_record.h"
#include "shogi/notation.h"
#include "tests/file_text.h"
#include "tests/temp_dir.h"
#include "tools/server/csa_server.h"

#ifndef SASHITE_TEST_DATA_DIR
#define SASHITE_TEST_DATA_DIR "tests/data"
#endif

namespace csa_end_to_end_test {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using Lines = std::vector<std::string>;

const std::string kBinary = SASHITE_TEST_DATA_DIR "/../../build/sashite";
const std::string kLocalConfig = SASHITE_TEST_DATA_DIR "/../../config/local.toml";
// 2 s + 1 s Fischer: the shortest main time the engine plays safely; games are cut short by the
// server's Max_Moves.
const std::string kGame = "e2e-2-1F";

int64_t ms_since(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

Lines split_lines(const std::string& text) {
  Lines lines;
  std::istringstream s(text);
  for (std::string line; std::getline(s, line);) lines.push_back(line);
  return lines;
}

// The binary run as a child, stdout and stderr appended to `output`, stdin from /dev/null.
// Killed (SIGKILL) and reaped when destroyed while still running. One thread drives it.
class Child {
 public:
  Child(const Lines& args, const fs::path& output) : output_(output) {
    std::vector<std::string> argv{kBinary};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> cargv;
    for (std::string& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    const std::string out = output.string();
    const pid_t parent = ::getpid();
    pid_ = ::fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {  // only async-signal-safe calls from here
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(126);
      const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      const int null = ::open("/dev/null", O_RDONLY);
      if (fd < 0 || null < 0) ::_exit(126);
      ::dup2(null, 0);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      ::execv(cargv[0], cargv.data());
      ::_exit(127);
    }
  }
  ~Child() { kill(); }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  // The exit status (128 + the signal when killed) once the child has exited, waiting up to
  // timeout_ms; nullopt when it is still running.
  std::optional<int> wait(int64_t timeout_ms) {
    const auto end = Clock::now() + std::chrono::milliseconds(timeout_ms);
    while (!status_) {
      int st = 0;
      const pid_t r = ::waitpid(pid_, &st, WNOHANG);
      if (r == pid_)
        status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
      else if (r < 0)
        status_ = -1;
      else if (Clock::now() >= end)
        break;
      else
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return status_;
  }
  void kill() {
    if (status_) return;
    ::kill(pid_, SIGKILL);
    int st = 0;
    ::waitpid(pid_, &st, 0);
    status_ = 128 + SIGKILL;
  }
  std::string output() const { return read_text(output_); }

 private:
  fs::path output_;
  pid_t pid_ = -1;
  std::optional<int> status_;
};

// `sashite server <args>`, logging every line; waits for "listening on 127.0.0.1:PORT".
struct Server {
  Server(const fs::path& dir, const std::string& name, Lines args)
      : records(dir / (name + "-records")) {
    args.insert(args.begin(), "server");
    for (const std::string& a : {std::string("--records"), records.string(), std::string("--log")})
      args.push_back(a);
    child = std::make_unique<Child>(args, dir / (name + ".out"));
    const std::string prefix = "listening on 127.0.0.1:";
    const auto start = Clock::now();
    while (port == 0) {
      const std::string out = child->output();
      if (out.starts_with(prefix) && out.find('\n') != std::string::npos) {
        port = std::atoi(out.c_str() + prefix.size());
        break;
      }
      if (child->wait(0)) FAIL("the server exited: " << out);
      if (ms_since(start) > 5000) FAIL("the server did not start: " << out);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  fs::path records;
  std::unique_ptr<Child> child;
  int port = 0;
};

// config/local.toml with `key = value` lines replaced (every key must be there); a key that
// is a section header ("[engine.usi]") gets the value's lines after it.
std::string derived_config(const std::vector<std::pair<std::string, std::string>>& values) {
  Lines lines = split_lines(read_text(kLocalConfig));
  REQUIRE_MESSAGE(!lines.empty(), "cannot read " << kLocalConfig);
  std::string text;
  for (const auto& [key, value] : values) {
    bool found = false;
    for (std::string& line : lines)
      if (line.starts_with(key + " ") || line.starts_with(key + "=")) {
        line = key.starts_with("[") ? key + "\n" + value : key + " = " + value;
        found = true;
      }
    REQUIRE_MESSAGE(found, key << " is not in " << kLocalConfig);
  }
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

// A `sashite csa` client with its own config, log and record directories under dir/name.
struct ClientSide {
  // `more`: further keys of config/local.toml to replace (derived_config).
  ClientSide(const fs::path& dir, std::string n, int games,
             const std::vector<std::pair<std::string, std::string>>& more = {})
      : name(std::move(n)) {
    home = dir / name;
    fs::create_directories(home);
    config = home / "config.toml";
    std::vector<std::pair<std::string, std::string>> values = {
        {"log_dir", "\"" + (home / "logs").string() + "\""},
        {"record_dir", "\"" + (home / "records").string() + "\""},
        {"console", "false"},
        {"games", std::to_string(games)},
        {"reconnect_initial_s", "1"},
        {"reconnect_max_s", "2"},
        {"max_connect_failures", "5"},
    };
    values.insert(values.end(), more.begin(), more.end());
    std::ofstream(config) << derived_config(values);
  }
  void start(int port, const Lines& extra = {}) {
    Lines args{"csa",    "--config", config.string(), "--port", std::to_string(port),
               "--name", name,       "--game",        game};
    args.insert(args.end(), extra.begin(), extra.end());
    child = std::make_unique<Child>(args, home / "stdout.txt");
  }
  std::string log() const { return read_text(home / "logs" / "csa.log"); }
  fs::path records() const { return home / "records"; }
  // results.txt, one game a line, split at tabs.
  std::vector<Lines> results() const {
    std::vector<Lines> rows;
    for (const std::string& line : split_lines(read_text(records() / "results.txt"))) {
      Lines cells;
      std::istringstream s(line);
      for (std::string cell; std::getline(s, cell, '\t');) cells.push_back(cell);
      rows.push_back(cells);
    }
    return rows;
  }

  std::string name;
  std::string game = kGame;
  fs::path home, config;
  std::unique_ptr<Child> child;
};

// "+7776FU" when `quoted` (a logged line, after the arrow) is a move line "'+7776FU,T1'".
std::optional<std::string> move_of(std::string_view quoted) {
  if (quoted.size() < 9 || quoted[0] != '\'' || (quoted[1] != '+' && quoted[1] != '-'))
    return std::nullopt;
  for (int i = 2; i < 6; ++i)
    if (!std::isdigit(static_cast<unsigned char>(quoted[i]))) return std::nullopt;
  if (quoted[8] != ',' && quoted[8] != '\'') return std::nullopt;
  return std::string(quoted.substr(1, 7));
}

// The moves received by a client, per game (a game starts at its START line), from its log:
// "2026-04-19 21:05:28.123 info  < '+7776FU,T1'".
std::vector<Lines> received_moves(const std::string& log) {
  std::vector<Lines> games;
  for (const std::string& line : split_lines(log)) {
    const size_t at = line.find(" < '");
    if (at == std::string::npos) continue;
    const std::string_view quoted = std::string_view(line).substr(at + 3);
    if (quoted.starts_with("'START:"))
      games.emplace_back();
    else if (auto m = move_of(quoted); m && !games.empty())
      games.back().push_back(*m);
  }
  return games;
}

// The moves the server queued for `player`, from its --log output: "  5.123 name  << '+7776FU,T1'".
Lines moves_sent_to(const std::string& server_output, const std::string& player) {
  Lines moves;
  for (const std::string& line : split_lines(server_output)) {
    std::istringstream s(line);
    std::string time, who, arrow;
    if (!(s >> time >> who >> arrow) || who != player || arrow != "<<") continue;
    const size_t at = line.find(" << ");
    if (auto m = move_of(std::string_view(line).substr(at + 4))) moves.push_back(*m);
  }
  return moves;
}

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::vector<fs::path> csa_files(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".csa") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

shogi::CsaRecord load_record(const fs::path& path) {
  shogi::CsaRecord rec;
  const base::Status st = shogi::load_csa_record_file(path.string(), rec);
  REQUIRE_MESSAGE(st.is_ok(), st.message());
  return rec;
}

Lines move_texts(const shogi::CsaRecord& rec) {
  Lines moves;
  for (const auto& m : rec.moves) moves.push_back(m.text);
  return moves;
}

// Waits for both clients and the server to exit; returns the clients' statuses.
std::pair<int, int> wait_all(ClientSide& a, ClientSide& b, Server& server, int64_t timeout_ms) {
  const auto start = Clock::now();
  const auto sa = a.child->wait(timeout_ms);
  const auto sb = b.child->wait(std::max<int64_t>(1000, timeout_ms - ms_since(start)));
  INFO("client a: " << a.log().substr(std::max<size_t>(a.log().size(), 3000) - 3000));
  INFO("client b: " << b.log().substr(std::max<size_t>(b.log().size(), 3000) - 3000));
  REQUIRE_MESSAGE(sa, "client " << a.name << " still running");
  REQUIRE_MESSAGE(sb, "client " << b.name << " still running");
  REQUIRE_MESSAGE(server.child->wait(5000), "the server did not exit");
  CHECK(*server.child->wait(0) == 0);
  return {*sa, *sb};
}

// Milliseconds between the client's LOGIN and the server's answer, from the log's times
// ("2026-04-19 21:05:28.123 info  > 'LOGIN ..."); -1 when not found.
int64_t login_reply_ms(const std::string& log) {
  auto ms_of = [](const std::string& line) {
    const int64_t s = (std::stoll(line.substr(11, 2)) * 60 + std::stoll(line.substr(14, 2))) * 60 +
                      std::stoll(line.substr(17, 2));
    return s * 1000 + std::stoll(line.substr(20, 3));
  };
  int64_t sent = -1;
  for (const std::string& line : split_lines(log)) {
    if (line.size() < 24) continue;
    if (line.find(" > 'LOGIN ") != std::string::npos) sent = ms_of(line);
    if (line.find(" < 'LOGIN:") != std::string::npos && sent >= 0) return ms_of(line) - sent;
  }
  return -1;
}

// One complete game on `server` (already listening): both clients exit 0, every record
// agrees with the server's, one results line each, nobody lost on time; each client waited
// at least `min_reply_ms` for its LOGIN's answer.
void play_one_game(const fs::path& dir, Server& server, int64_t min_reply_ms = 0) {
  ClientSide a(dir, "e2e-a", 1), b(dir, "e2e-b", 1);
  a.start(server.port);
  b.start(server.port);
  const auto [status_a, status_b] = wait_all(a, b, server, 90000);
  CHECK(status_a == 0);
  CHECK(status_b == 0);

  const std::string server_out = server.child->output();
  INFO("server: " << server_out.substr(std::max<size_t>(server_out.size(), 2000) - 2000));
  CHECK(count_of(server_out, "\ngame ") == 1);
  CHECK(server_out.find(" time up ") == std::string::npos);
  const auto server_files = csa_files(server.records);
  REQUIRE(server_files.size() == 1);
  const shogi::CsaRecord server_rec = load_record(server_files[0]);
  CHECK(server_rec.moves.size() >= 2);
  CHECK(server_rec.result != shogi::CsaSpecialMove::kTimeUp);
  CHECK(server_rec.result != shogi::CsaSpecialMove::kNone);
  for (ClientSide* c : {&a, &b}) {
    INFO("client " << c->name);
    const auto files = csa_files(c->records());
    REQUIRE(files.size() == 1);
    const shogi::CsaRecord rec = load_record(files[0]);
    CHECK(move_texts(rec) == move_texts(server_rec));
    CHECK(rec.result == server_rec.result);
    const auto results = c->results();
    REQUIRE(results.size() == 1);
    REQUIRE(results[0].size() == 12);
    CHECK(results[0][9].find('/') != std::string::npos);  // ponder hits/searches
    CHECK(results[0][5] != "CUT");
    CHECK(results[0][6] != "TIME_UP");
    CHECK(std::stoul(results[0][7]) == server_rec.moves.size());
    CHECK(fs::path(results[0][8]) == files[0]);
    const int64_t reply_ms = login_reply_ms(c->log());
    CHECK(reply_ms >= min_reply_ms);
    CHECK(reply_ms >= 0);
  }
}

// ---- --delay-ms, in process ----

struct InProcessServer {
  explicit InProcessServer(tools::ServerOptions o) : options(std::move(o)) {
    options.port = 0;
    server = std::make_unique<tools::CsaServer>(options, output);
    const base::Status st = server->listen();
    REQUIRE_MESSAGE(st.is_ok(), st.message());
    port = server->port();
    thread = std::thread([this] { server->run(); });
  }
  ~InProcessServer() {
    server->stop();
    thread.join();
  }
  tools::ServerOptions options;
  std::ostringstream output;
  std::unique_ptr<tools::CsaServer> server;
  int port = 0;
  std::thread thread;
};

// A raw loopback socket: lines out, lines in with a deadline.
class RawClient {
 public:
  explicit RawClient(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(uint16_t(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  }
  ~RawClient() { ::close(fd_); }
  void send(const std::string& line) {
    const std::string bytes = line + "\n";
    (void)::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
  }
  // The next line; nullopt when the server closed the connection or after timeout_ms.
  std::optional<std::string> read_line(int timeout_ms = 5000) {
    const auto end = Clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      if (const size_t nl = buf_.find('\n'); nl != std::string::npos) {
        std::string line = buf_.substr(0, nl);
        buf_.erase(0, nl + 1);
        return line;
      }
      const int64_t left = -ms_since(end);
      if (closed_ || left <= 0) return std::nullopt;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, int(left)) <= 0) continue;
      char chunk[4096];
      const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
      if (n <= 0)
        closed_ = true;
      else
        buf_.append(chunk, size_t(n));
    }
  }

 private:
  int fd_ = -1;
  std::string buf_;
  bool closed_ = false;
};

}  // namespace

TEST_CASE("server --delay-ms: every line leaves late, in order, and the close waits for it") {
  tools::ServerOptions o;
  o.delay_ms = 150;
  o.colors = "first";
  InProcessServer server(o);

  // A LOGIN:incorrect is delivered (late) before the connection closes.
  {
    RawClient bad(server.port);
    const auto t = Clock::now();
    bad.send("LOGIN nobody");
    CHECK(bad.read_line() == std::optional<std::string>("LOGIN:incorrect"));
    CHECK(ms_since(t) >= 150);
    CHECK(bad.read_line() == std::nullopt);
  }

  RawClient a(server.port), b(server.port);
  auto t = Clock::now();
  a.send("LOGIN alice delay-60-0");
  CHECK(a.read_line() == std::optional<std::string>("LOGIN:alice OK"));
  const int64_t login_ms = ms_since(t);
  CHECK(login_ms >= 150);
  CHECK(login_ms < 1500);
  t = Clock::now();
  b.send("LOGIN bob delay-60-0");
  CHECK(b.read_line() == std::optional<std::string>("LOGIN:bob OK"));
  CHECK(ms_since(t) >= 150);
  // The Game_Summary arrives whole and in order.
  CHECK(a.read_line() == std::optional<std::string>("BEGIN Game_Summary"));
  std::string line;
  int n = 0;
  while (auto l = a.read_line()) {
    ++n;
    if ((line = *l) == "END Game_Summary") break;
  }
  CHECK(line == "END Game_Summary");
  CHECK(n > 10);
  while (auto l = b.read_line())
    if (*l == "END Game_Summary") break;
  for (RawClient* c : {&a, &b}) c->send("AGREE");
  for (RawClient* c : {&a, &b}) CHECK(c->read_line().value_or("").starts_with("START:"));
  t = Clock::now();
  a.send("+7776FU");
  CHECK(a.read_line() == std::optional<std::string>("+7776FU,T0"));
  CHECK(ms_since(t) >= 150);
  CHECK(b.read_line() == std::optional<std::string>("+7776FU,T0"));
  b.send("%TORYO");
  // Everything queued before the game ended still arrives, then the connection closes.
  for (RawClient* c : {&a, &b}) {
    CHECK(c->read_line() == std::optional<std::string>("%TORYO"));
    CHECK(c->read_line() == std::optional<std::string>("#RESIGN"));
    CHECK(c->read_line() == std::optional<std::string>(c == &a ? "#WIN" : "#LOSE"));
    CHECK(c->read_line() == std::nullopt);
  }
}

TEST_SUITE_BEGIN("slow");

TEST_CASE("e2e: two sashite csa clients play a whole game on sashite server") {
  REQUIRE_MESSAGE(fs::exists(kBinary), kBinary << " is missing: make bin");
  TempDir dir("sashite-e2e", "SASHITE_KEEP_E2E");
  const auto t = Clock::now();
  Server server(dir.path, "server", {"--port", "0", "--games", "1", "--max-moves", "16"});
  play_one_game(dir.path, server);
  MESSAGE("a 16-move game at " << kGame << ": " << ms_since(t) << " ms");
}

TEST_CASE("e2e: the server killed mid-game; a new one on the same port; the clients play on") {
  REQUIRE_MESSAGE(fs::exists(kBinary), kBinary << " is missing: make bin");
  TempDir dir("sashite-e2e", "SASHITE_KEEP_E2E");
  auto first = std::make_unique<Server>(dir.path, "server1", Lines{"--port", "0", "--games", "1"});
  const int port = first->port;
  ClientSide a(dir.path, "e2e-a", 2), b(dir.path, "e2e-b", 2);
  a.start(port);
  b.start(port);

  // Mid-game: once a has received 8 moves.
  const auto t0 = Clock::now();
  for (;;) {
    const auto games = received_moves(a.log());
    if (!games.empty() && games[0].size() >= 8) break;
    if (ms_since(t0) > 40000) FAIL("no 8 moves: " << a.log());
    if (a.child->wait(0)) FAIL("client a exited: " << a.log());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  first->child->kill();
  const auto killed = Clock::now();
  const std::string first_out = first->child->output();
  first.reset();

  Server second(dir.path, "server2",
                {"--port", std::to_string(port), "--games", "1", "--max-moves", "12"});
  const auto restarted = Clock::now();
  // Back in play: the START of the next game is in the client's log.
  int64_t back_ms[2] = {-1, -1};
  while (back_ms[0] < 0 || back_ms[1] < 0) {
    for (int i = 0; i < 2; ++i)
      if (back_ms[i] < 0 && count_of((i == 0 ? a : b).log(), " < 'START:") >= 2)
        back_ms[i] = ms_since(restarted);
    if (ms_since(restarted) > 15000) FAIL("no new game: " << a.log() << b.log());
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  MESSAGE("server restarted "
          << std::chrono::duration_cast<std::chrono::milliseconds>(restarted - killed).count()
          << " ms after the kill; back in play after the restart: " << a.name << " " << back_ms[0]
          << " ms, " << b.name << " " << back_ms[1] << " ms");
  CHECK(back_ms[0] < 10000);
  CHECK(back_ms[1] < 10000);

  // A game was cut: exit status 3 (client/csa_client.h), after playing the second game.
  const auto [status_a, status_b] = wait_all(a, b, second, 90000);
  CHECK(status_a == 3);
  CHECK(status_b == 3);
  const auto server_files = csa_files(second.records);
  REQUIRE(server_files.size() == 1);
  const shogi::CsaRecord second_rec = load_record(server_files[0]);
  CHECK(second_rec.result != shogi::CsaSpecialMove::kTimeUp);

  for (ClientSide* c : {&a, &b}) {
    INFO("client " << c->name);
    const auto results = c->results();
    REQUIRE(results.size() == 2);
    REQUIRE(results[0].size() == 12);
    REQUIRE(results[1].size() == 12);
    CHECK(results[0][5] == "CUT");
    CHECK(results[1][5] != "CUT");
    CHECK(results[1][6] != "TIME_UP");
    // The cut game's record: readable, every move received before the cut.
    const shogi::CsaRecord cut = load_record(results[0][8]);
    const auto received = received_moves(c->log());
    REQUIRE(received.size() == 2);
    CHECK(received[0].size() >= 8);
    CHECK(move_texts(cut) == received[0]);
    CHECK(cut.result == shogi::CsaSpecialMove::kNone);
    // ... which is what the server had sent, but perhaps the last line it queued.
    const Lines sent = moves_sent_to(first_out, c->name);
    CHECK(received[0].size() <= sent.size());
    CHECK(received[0].size() + 1 >= sent.size());
    CHECK(std::equal(received[0].begin(), received[0].end(), sent.begin()));
    // The second game: its record as the server's.
    const shogi::CsaRecord next = load_record(results[1][8]);
    CHECK(move_texts(next) == move_texts(second_rec));
    CHECK(move_texts(next) == received[1]);
  }
}

TEST_CASE("e2e: a server delaying every line by 100 ms; a whole game without a time loss") {
  REQUIRE_MESSAGE(fs::exists(kBinary), kBinary << " is missing: make bin");
  TempDir dir("sashite-e2e", "SASHITE_KEEP_E2E");
  const auto t = Clock::now();
  Server server(dir.path, "server",
                {"--port", "0", "--games", "1", "--max-moves", "16", "--delay-ms", "100"});
  play_one_game(dir.path, server, 100);
  MESSAGE("a 16-move game at " << kGame << " with 100 ms delay: " << ms_since(t) << " ms");
}

// ---- The status page in a real browser ----

namespace {

const std::string kChromium = "/usr/bin/chromium";
const fs::path kArtifacts =
    fs::path(SASHITE_TEST_DATA_DIR) / ".." / ".." / "build" / "test-artifacts";

// A loopback port nobody listens on now.
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  socklen_t len = sizeof a;
  REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0);
  ::close(fd);
  return ntohs(a.sin_port);
}

// The body of GET `target` on 127.0.0.1:port ("" when it cannot be had within 2 s).
std::string http_get(int port, const std::string& target) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  timeval tv{2, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(uint16_t(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string reply;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
    const std::string request = "GET " + target + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
    (void)::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    char chunk[8192];
    for (ssize_t n; (n = ::recv(fd, chunk, sizeof chunk, 0)) > 0;) reply.append(chunk, size_t(n));
  }
  ::close(fd);
  const size_t body = reply.find("\r\n\r\n");
  return body == std::string::npos ? "" : reply.substr(body + 4);
}

// The integer after `"key":` in a JSON text; -1 when absent.
int64_t json_int(const std::string& json, const std::string& key) {
  const size_t at = json.find("\"" + key + "\":");
  if (at == std::string::npos) return -1;
  return std::atoll(json.c_str() + at + key.size() + 3);
}

// Runs headless Chromium on `url` with `what` ("--dump-dom", "--screenshot=FILE"); its
// standard output (the DOM), or "" on failure, within 60 s. The DOM is dumped once the page
// has loaded: what the page drew from the state it was served with (no virtual time: the
// page's open event stream would hold it back).
std::string chromium(const std::string& what, const std::string& url, const fs::path& out) {
  const std::string command = "timeout 60 " + kChromium +
                              " --headless --no-sandbox --disable-gpu --disable-dev-shm-usage "
                              "--hide-scrollbars --window-size=1280,900 " +
                              what + " '" + url + "' > '" + out.string() + "' 2>/dev/null";
  if (std::system(command.c_str()) != 0) return "";
  return read_text(out);
}

// The value of attribute `name` in the tag text `tag` ("" when absent).
std::string attribute(const std::string& tag, const std::string& name) {
  const std::string key = " " + name + "=\"";
  const size_t at = tag.find(key);
  if (at == std::string::npos) return "";
  const size_t start = at + key.size();
  return tag.substr(start, tag.find('"', start) - start);
}

// Every start tag of the DOM that carries `marker` (an attribute text such as
// `class="piece"`), whole.
Lines tags_with(const std::string& dom, const std::string& marker) {
  Lines tags;
  for (size_t at = dom.find(marker); at != std::string::npos; at = dom.find(marker, at + 1)) {
    const size_t open = dom.rfind('<', at), close = dom.find('>', at);
    if (open != std::string::npos && close != std::string::npos)
      tags.push_back(dom.substr(open, close - open + 1));
  }
  return tags;
}

// The tag with id="<id>" ("" when none).
std::string tag_by_id(const std::string& dom, const std::string& id) {
  const Lines tags = tags_with(dom, "id=\"" + id + "\"");
  return tags.empty() ? "" : tags[0];
}

// The board as the page shows it: "76" -> "+FU" (colour sign and CSA piece).
std::map<std::string, std::string> shown_board(const std::string& dom) {
  std::map<std::string, std::string> board;
  for (const std::string& tag : tags_with(dom, "class=\"piece\"")) {
    const std::string square = attribute(tag, "data-square");
    if (square.empty()) continue;
    board[square] =
        (attribute(tag, "data-color") == "black" ? "+" : "-") + attribute(tag, "data-piece");
  }
  return board;
}

// The board of a position the same way.
std::map<std::string, std::string> position_board(const shogi::Position& pos) {
  std::map<std::string, std::string> board;
  for (int file = 1; file <= 9; ++file)
    for (int rank = 1; rank <= 9; ++rank) {
      const shogi::Piece p = pos.piece_on(shogi::make_square(file - 1, rank - 1));
      if (p == shogi::kNoPiece) continue;
      board[std::to_string(file) + std::to_string(rank)] =
          std::string(shogi::color_of(p) == shogi::kBlack ? "+" : "-") +
          shogi::csa_piece_name(shogi::type_of(p));
    }
  return board;
}

// "HI1 FU3": a hand the way the page's data-hand writes it.
std::string hand_text(const shogi::Position& pos, shogi::Color c) {
  std::string text;
  for (shogi::PieceType t : {shogi::kRook, shogi::kBishop, shogi::kGold, shogi::kSilver,
                             shogi::kKnight, shogi::kLance, shogi::kPawn}) {
    const int n = pos.hand(c).count(t);
    if (n == 0) continue;
    if (!text.empty()) text += ' ';
    text += shogi::csa_piece_name(t) + std::to_string(n);
  }
  return text;
}

}  // namespace

TEST_CASE("e2e: the status page in headless Chromium shows the game's board and clocks") {
  REQUIRE_MESSAGE(fs::exists(kBinary), kBinary << " is missing: make bin");
  REQUIRE_MESSAGE(fs::exists(kChromium), kChromium << " is missing: make deps installs it");
  TempDir dir("sashite-status-e2e", "SASHITE_KEEP_E2E");
  const int server_status = free_port();
  Server server(dir.path, "server",
                {"--port", "0", "--games", "1", "--max-moves", "80", "--status-port",
                 std::to_string(server_status)});
  const int client_status = free_port();
  ClientSide a(dir.path, "status-a", 1), b(dir.path, "status-b", 1);
  a.start(server.port, {"--status-port", std::to_string(client_status)});
  b.start(server.port);

  // Mid-game: a few moves played.
  const auto start = Clock::now();
  std::string json;
  while (json_int(json = http_get(client_status, "/status.json"), "ply") < 6) {
    REQUIRE_MESSAGE(ms_since(start) < 60000, "no game on the status page: " << json);
    REQUIRE_MESSAGE(!a.child->wait(0), "the client exited: " << a.log());
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(json.find("\"kind\":\"client\"") != std::string::npos);
  // Abuse while the game goes on: 100 connections that send garbage or half a request and
  // read nothing, and one 1 MB request line. The page still answers; the game is unaffected
  // (checked at its end: no time loss, both clients exit 0).
  std::vector<int> abusers;
  for (int i = 0; i < 100; ++i) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(uint16_t(client_status));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(fd);
      continue;
    }
    ::fcntl(fd, F_SETFL, O_NONBLOCK);
    const std::string bytes = i == 0  ? "GET /" + std::string(1 << 20, 'a') + " HTTP/1.1\r\n\r\n"
                              : i % 2 ? std::string("\x16\x03\x01\x00\xff garbage\r\n\r\n")
                                      : std::string("GET /events HTTP/1.1\r\nHost: x\r\n");
    (void)::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    abusers.push_back(fd);
  }
  // Past the 64 connections the page takes at once it answers 503; the garbage is answered
  // and closed within a second, and the page serves again.
  const auto abused = Clock::now();
  while (json_int(http_get(client_status, "/status.json"), "ply") < 6 && ms_since(abused) < 5000)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(json_int(http_get(client_status, "/status.json"), "ply") >= 6);
  const std::string metrics = http_get(client_status, "/metrics");
  CHECK(metrics.find("sashite_in_game 1") != std::string::npos);
  const std::string dom =
      chromium("--dump-dom", "http://127.0.0.1:" + std::to_string(client_status) + "/",
               dir.path / "dom.html");
  fs::create_directories(kArtifacts);
  const fs::path shot = kArtifacts / "status-page.png";
  fs::remove(shot);
  chromium("--screenshot=" + shot.string(),
           "http://127.0.0.1:" + std::to_string(client_status) + "/", dir.path / "shot.txt");
  const std::string server_dom =
      chromium("--dump-dom", "http://127.0.0.1:" + std::to_string(server_status) + "/",
               dir.path / "server-dom.html");

  for (int fd : abusers) ::close(fd);
  const auto [status_a, status_b] = wait_all(a, b, server, 180000);
  CHECK(status_a == 0);
  CHECK(status_b == 0);
  CHECK(server.child->output().find(" time up ") == std::string::npos);

  REQUIRE_MESSAGE(dom.find("data-rendered=\"1\"") != std::string::npos,
                  "page not rendered: " << dom);
  const std::string board_tag = tag_by_id(dom, "board");
  const int ply = std::atoi(attribute(board_tag, "data-ply").c_str());
  CHECK(ply >= 6);
  const auto files = csa_files(a.records());
  REQUIRE(files.size() == 1);
  const shogi::CsaRecord rec = load_record(files[0]);
  REQUIRE(size_t(ply) <= rec.moves.size());
  shogi::Position pos;
  REQUIRE(pos.set_sfen(shogi::format_sfen(rec.initial)));
  // The clocks as the server charged the moves: 2 s + 1 s Fischer (kGame).
  int64_t remaining[2] = {2000, 2000};
  for (int i = 0; i < ply; ++i) {
    const shogi::Color mover = pos.side_to_move();
    remaining[mover] =
        std::max<int64_t>(0, remaining[mover] + 1000 - rec.moves[i].time_ms.value_or(0));
    pos.do_move(rec.moves[i].move);
  }
  INFO("ply " << ply << ", board tag " << board_tag);
  CHECK(attribute(board_tag, "data-sfen") == pos.sfen());
  CHECK(shown_board(dom) == position_board(pos));
  CHECK(attribute(tag_by_id(dom, "hand-black"), "data-hand") == hand_text(pos, shogi::kBlack));
  CHECK(attribute(tag_by_id(dom, "hand-white"), "data-hand") == hand_text(pos, shogi::kWhite));
  const shogi::Color to_move = pos.side_to_move();
  const int64_t shown[2] = {
      std::atoll(attribute(tag_by_id(dom, "clock-black"), "data-remaining-ms").c_str()),
      std::atoll(attribute(tag_by_id(dom, "clock-white"), "data-remaining-ms").c_str())};
  // The waiting side's clock stands; the side to move's counts down from its remaining time.
  CHECK(shown[~to_move & 1] == remaining[~to_move & 1]);
  CHECK(shown[to_move] <= remaining[to_move]);
  CHECK(shown[to_move] >= remaining[to_move] - 10000);

  // The server's page lists the game.
  CHECK(server_dom.find(files[0].stem().string()) != std::string::npos);
  CHECK(server_dom.find("data-rendered=\"1\"") != std::string::npos);
  REQUIRE(fs::exists(shot));
  CHECK(fs::file_size(shot) > 10000);
  MESSAGE("status page screenshot: " << fs::canonical(shot).string());
}

// ---- Real USI engines behind the client ----

namespace {

const std::string kSashiteUsiWrapper = SASHITE_TEST_DATA_DIR "/../../scripts/gui/sashite-usi";
const std::string kGpsusi = "/usr/games/gpsusi";

// Waits for the client to exit; its exit status, and the ms from when its log said its game
// ended to its exit (-1 when the log never said so).
std::pair<int, int64_t> exit_after_game(ClientSide& c, int64_t timeout_ms) {
  const auto start = Clock::now();
  std::optional<Clock::time_point> ended;
  for (;;) {
    if (!ended && c.log().find(" ended: ") != std::string::npos) ended = Clock::now();
    if (const auto status = c.child->wait(0)) {
      const int64_t after =
          ended
              ? std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - *ended).count()
              : -1;
      return {*status, after};
    }
    REQUIRE_MESSAGE(ms_since(start) < timeout_ms, "client " << c.name << " still running");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// The built-in engine at depth 3: an opponent that answers at once.
ClientSide quick_opponent(const fs::path& dir, const std::string& game) {
  ClientSide b(dir, "e2e-quick", 1, {{"[engine.usi]", "DepthLimit = 3"}});
  b.game = game;
  return b;
}

// One game of `engine` (a client with an external engine) against the quick opponent on a
// server capped at `max_moves`: both exit 0 and the external one within 2 s of its game's end,
// every record agrees with the server's, the game ended normally; `engine`'s log.
std::string play_external(const fs::path& dir, ClientSide& engine, int max_moves) {
  Server server(dir, "server",
                {"--port", "0", "--games", "1", "--max-moves", std::to_string(max_moves)});
  ClientSide b = quick_opponent(dir, engine.game);
  const auto t = Clock::now();
  engine.start(server.port);
  b.start(server.port);
  const auto [status, exit_ms] = exit_after_game(engine, 90000);
  MESSAGE(engine.name << ": game and start-up " << ms_since(t) - exit_ms << " ms; exited "
                      << exit_ms << " ms after its game ended");
  const std::string log = engine.log();
  INFO("client " << engine.name << ": " << log.substr(std::max<size_t>(log.size(), 4000) - 4000));
  const auto status_b = b.child->wait(10000);
  REQUIRE_MESSAGE(status_b, "the opponent did not exit");
  REQUIRE_MESSAGE(server.child->wait(5000), "the server did not exit");
  CHECK(status == 0);
  CHECK(*status_b == 0);
  CHECK(exit_ms >= 0);
  CHECK(exit_ms < 2000);  // was 15 s: 5 s waits for an idle engine thread, twice more at exit

  const auto server_files = csa_files(server.records);
  REQUIRE(server_files.size() == 1);
  const shogi::CsaRecord server_rec = load_record(server_files[0]);
  CHECK(server_rec.moves.size() >= 2);
  for (const auto bad : {shogi::CsaSpecialMove::kNone, shogi::CsaSpecialMove::kTimeUp,
                         shogi::CsaSpecialMove::kIllegalMove})
    CHECK(server_rec.result != bad);
  for (ClientSide* c : {&engine, &b}) {
    INFO("client " << c->name);
    const auto files = csa_files(c->records());
    REQUIRE(files.size() == 1);
    const shogi::CsaRecord rec = load_record(files[0]);
    CHECK(move_texts(rec) == move_texts(server_rec));
    CHECK(rec.result == server_rec.result);
    const auto results = c->results();
    REQUIRE(results.size() == 1);
    REQUIRE(results[0].size() == 12);
    CHECK(results[0][5] != "CUT");
    CHECK(results[0][6] != "TIME_UP");
    CHECK(results[0][6] != "ILLEGAL_MOVE");
  }
  // Its engine, not the built-in fallback, played every move, and the hard stop at the
  // deadline was not needed (every move before: the engine was told the deadline itself).
  CHECK(count_of(log, "the built-in engine moves instead") == 0);
  CHECK(count_of(log, "engine still thinking at the deadline") <= 1);
  CHECK(count_of(log, "ms after the deadline") <= 1);
  return log;
}

}  // namespace

TEST_CASE("e2e: sashite usi behind sashite csa, pondering, in byoyomi: no hard stop, prompt exit") {
  REQUIRE_MESSAGE(fs::exists(kBinary), kBinary << " is missing: make bin");
  TempDir dir("sashite-e2e", "SASHITE_KEEP_E2E");
  // 1 s byoyomi: the client's deadline is 695 ms after each turn's start (local.toml keeps 300
  // ms); MoveOverhead = 0 makes the engine think to the end of the time it is told, as
  // YaneuraOu at NetworkDelay2 = 0. Book off: the engine plays every move.
  ClientSide a(dir.path, "e2e-usi", 1,
               {{"command", "\"" + kSashiteUsiWrapper + "\""},
                {"ponder", "true"},
                {"mode", "\"off\""},
                {"[engine.usi]", "MoveOverhead = 0"}});
  a.game = "e2e-0-1";
  const std::string log = play_external(dir.path, a, 16);
  CHECK(log.find("engine: threads = 1 sent as Threads 1") != std::string::npos);
  CHECK(log.find("engine: ready: sashite") != std::string::npos);
  CHECK(count_of(log, "engine: bestmove ") >= 5);  // its answers' lateness was measured
  const auto results = a.results();
  REQUIRE(results.size() == 1);
  const std::string& ponder = results[0][9];  // hits/searches
  CHECK(std::atoi(ponder.substr(ponder.find('/') + 1).c_str()) >= 1);
}

TEST_CASE("e2e: gpsusi behind sashite csa: its Thread option set, a normal game, prompt exit") {
  REQUIRE_MESSAGE(fs::exists(kBinary), kBinary << " is missing: make bin");
  REQUIRE_MESSAGE(fs::exists(kGpsusi), kGpsusi << " is missing: make deps installs gpsshogi");
  TempDir dir("sashite-e2e", "SASHITE_KEEP_E2E");
  // gpsusi thinks about 1 s whatever it is told: 2 s byoyomi. It reads neither go ponder nor
  // binc (README); its own temporary OSL_HOME comes from the client (usi/usi_engine_process.h).
  ClientSide a(dir.path, "e2e-gps", 1,
               {{"command", "\"" + kGpsusi + "\""},
                {"ponder", "false"},
                {"send_increment", "false"},
                {"mode", "\"off\""}});
  a.game = "e2e-0-2";
  const std::string log = play_external(dir.path, a, 8);
  CHECK(log.find("engine: threads = 1 sent as Thread 1") != std::string::npos);
  CHECK(log.find("engine: ready: gpsshogi") != std::string::npos);
  CHECK(log.find("engine: quit: exited with status 0") != std::string::npos);
}

TEST_CASE("e2e: a council of two sashite behind sashite csa, pondering: its votes in the record") {
  REQUIRE_MESSAGE(fs::exists(kBinary), kBinary << " is missing: make bin");
  TempDir dir("sashite-e2e", "SASHITE_KEEP_E2E");
  // Two players from one program (EvalNoise seeds), the shipped example's shape; book off.
  const fs::path council = dir.path / "council.toml";
  std::string member = "command = \"" + kBinary + "\"\nargs = [\"usi\"]\n[member.options]\n" +
                       "USI_OwnBook = false\nUSI_Hash = 16\nEvalNoise = 20\n";
  std::ofstream(council) << "[council]\nlog_file = \"" << (dir.path / "council.log").string()
                         << "\"\n[[member]]\nname = \"one\"\n"
                         << member << "EvalNoiseSeed = 1\n[[member]]\nname = \"two\"\n"
                         << member << "EvalNoiseSeed = 2\n";
  ClientSide a(dir.path, "e2e-council", 1,
               {{"command", "\"" + kBinary + "\""},
                {"args", "[\"council\", \"--config\", \"" + council.string() + "\"]"},
                {"ponder", "true"},
                {"mode", "\"off\""}});
  a.game = "e2e-0-1";
  const std::string log = play_external(dir.path, a, 16);
  CHECK(log.find("engine: ready: sashite council") != std::string::npos);
  // Every move of ours carries the vote as a comment; results.txt the agreement.
  const auto files = csa_files(a.records());
  REQUIRE(files.size() == 1);
  const std::string record = read_text(files[0]);
  CHECK(count_of(record, "'council: majority ") >= 4);
  CHECK(record.find("; one ") != std::string::npos);
  CHECK(record.find(", two ") != std::string::npos);
  const auto results = a.results();
  REQUIRE(results.size() == 1);
  const std::string& agreed = results[0][11];  // agreed/votes
  REQUIRE(agreed.find('/') != std::string::npos);
  CHECK(std::atoi(agreed.substr(agreed.find('/') + 1).c_str()) >= 4);
  // The council's own log: a decision for each vote.
  CHECK(count_of(read_text(dir.path / "council.log"), "council: decided ") >= 4);
}

TEST_SUITE_END();

}  // namespace csa_end_to_end_test
