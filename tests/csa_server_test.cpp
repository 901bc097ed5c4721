// The local CSA server end to end over loopback: scripted raw-socket clients replay the
// shogi-server transcripts (tests/data/csa-transcripts) and must receive exactly the lines
// shogi-server sent; plus hostile input.
#include "tools/server/csa_server.h"

#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "shogi/csa_record.h"

#ifndef SASHITE_TEST_DATA_DIR
#define SASHITE_TEST_DATA_DIR "tests/data"
#endif

namespace csa_server_test {

namespace {

using Clock = std::chrono::steady_clock;
using Lines = std::vector<std::string>;
namespace fs = std::filesystem;

// ---- A server on a free port, run on its own thread ----

struct TestServer {
  explicit TestServer(tools::ServerOptions o) : options(std::move(o)) {
    options.host = "127.0.0.1";
    options.port = 0;
    if (options.event == "local") options.event = "research";
    server = std::make_unique<tools::CsaServer>(options, output);
    const base::Status st = server->listen();
    REQUIRE_MESSAGE(st.is_ok(), st.message());
    port = server->port();
    thread = std::thread([this] {
      result = server->run();
      finished = true;
    });
  }
  ~TestServer() {
    server->stop();
    thread.join();
  }
  bool wait_finished(int ms) {
    for (const auto end = Clock::now() + std::chrono::milliseconds(ms); Clock::now() < end;)
      if (finished)
        return true;
      else
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return finished;
  }

  tools::ServerOptions options;
  std::ostringstream output;  // written by the server thread; read after it finished
  std::unique_ptr<tools::CsaServer> server;
  int port = 0;
  base::Status result;  // run()'s; read after it finished
  std::atomic<bool> finished{false};
  std::thread thread;
};

// ---- A blocking raw-socket client ----

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
  ~RawClient() { close(); }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  void send_raw(const std::string& bytes) {
    if (fd_ >= 0) (void)::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
  }
  void send(const std::string& line) { send_raw(line + "\n"); }
  // The next line; nullopt when the server closed the connection or after timeout_ms.
  std::optional<std::string> read_line(int timeout_ms = 5000) {
    const auto end = Clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      if (const size_t nl = buf_.find('\n'); nl != std::string::npos) {
        std::string line = buf_.substr(0, nl);
        buf_.erase(0, nl + 1);
        return line;
      }
      if (closed_ || fd_ < 0) return std::nullopt;
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now());
      if (left.count() <= 0) return std::nullopt;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, int(left.count())) <= 0) continue;
      char chunk[4096];
      const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
      if (n <= 0)
        closed_ = true;
      else
        buf_.append(chunk, size_t(n));
    }
  }
  bool closed_by_server() const { return closed_; }

 private:
  int fd_ = -1;
  std::string buf_;
  bool closed_ = false;
};

// ---- Transcripts: "  1.360 bob    >> -3334FU" ----

struct Entry {
  int64_t ms;
  bool send;
  std::string text;
};
using Transcript = std::map<std::string, std::vector<Entry>>;

Transcript load(const std::string& name) {
  std::ifstream in(std::string(SASHITE_TEST_DATA_DIR) + "/csa-transcripts/" + name);
  REQUIRE(in);
  Transcript t;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    double secs;
    std::string who, arrow;
    ls >> secs >> who >> arrow;
    if (who == "#" || (arrow != ">>" && arrow != "<<")) continue;
    const size_t at = line.find(arrow) + 3;
    std::string text = at <= line.size() ? line.substr(at) : "";
    if (text == "[connection closed by server]") continue;
    if (text == "[empty line]") text.clear();
    t[who].push_back({std::llround(secs * 1000), arrow == ">>", text});
  }
  return t;
}

// Game_IDs carry the time: "+20261125211451" becomes "+<time>".
std::string normalize(std::string s) {
  for (size_t i = s.find('+'); i != std::string::npos; i = s.find('+', i + 1)) {
    size_t j = i + 1;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
    if (j - i - 1 == 14) s.replace(i + 1, 14, "<time>");
  }
  return s;
}

struct PlayerRun {
  Lines expected, received;
  bool closed = false;
};

// Replays every player of a transcript against a fresh server: each sends its lines after it
// has received what it had received before them, after the same think time (when 100 ms or
// more). The colours are forced with a -B / -W game name suffix. `closes`: a player that
// drops its connection once it has received all its lines.
std::map<std::string, PlayerRun> replay(const std::string& file, TestServer& server,
                                        const std::string& closes = "") {
  const Transcript t = load(file);
  std::string black;
  for (const auto& [who, entries] : t)
    for (const Entry& e : entries)
      if (!e.send && e.text.starts_with("Name+:")) black = e.text.substr(6);
  std::map<std::string, PlayerRun> runs;
  for (const auto& [who, entries] : t)
    for (const Entry& e : entries)
      if (!e.send) runs[who].expected.push_back(normalize(e.text));
  std::vector<std::thread> threads;
  for (const auto& [who_, entries_] : t) {
    threads.emplace_back([&, who = who_, entries = entries_] {
      PlayerRun& run = runs[who];
      RawClient c(server.port);
      int64_t last_ms = entries.empty() ? 0 : entries.front().ms;
      auto receive_until = [&](size_t count) {
        while (run.received.size() < count) {
          const auto l = c.read_line();
          if (!l) return;
          run.received.push_back(normalize(*l));
        }
      };
      size_t seen = 0;
      for (const Entry& e : entries) {
        if (!e.send) {
          ++seen;
        } else {
          receive_until(seen);
          if (e.ms - last_ms >= 100)
            std::this_thread::sleep_for(std::chrono::milliseconds(e.ms - last_ms));
          std::string text = e.text;
          if (text.starts_with("LOGIN ")) {
            const size_t comma = text.find(',');
            text.insert(comma == std::string::npos ? text.size() : comma,
                        who == black ? "-B" : "-W");
          }
          c.send(text);
        }
        last_ms = e.ms;
      }
      receive_until(run.expected.size());
      if (who == closes) return c.close();
      // Anything more, then the server must close.
      while (const auto l = c.read_line(3000)) run.received.push_back(normalize(*l));
      run.closed = c.closed_by_server();
    });
  }
  for (std::thread& th : threads) th.join();
  return runs;
}

void check_replay(const std::string& file, const std::string& closes = "",
                  tools::ServerOptions options = {}) {
  CAPTURE(file);
  TestServer server(options);
  const auto runs = replay(file, server, closes);
  for (const auto& [who, run] : runs) {
    CAPTURE(who);
    CHECK(run.received == run.expected);
    if (who != closes) CHECK(run.closed);
  }
}

fs::path temp_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() /
                     ("sashite-server-test-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  return d;
}

// Logs in `name` for game `game` and reads LOGIN:<name> OK.
void login(RawClient& c, const std::string& name, const std::string& game) {
  c.send("LOGIN " + name + " " + game);
  REQUIRE(c.read_line() == "LOGIN:" + name + " OK");
}

// Reads until `line` (inclusive); false when the connection ends first.
bool read_until(RawClient& c, const std::string& line, Lines* seen = nullptr) {
  while (const auto l = c.read_line()) {
    if (seen) seen->push_back(*l);
    if (*l == line) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("server e2e: a full game ending in %TORYO, as [T:csa]; the record; --games 1") {
  tools::ServerOptions o;
  const fs::path dir = temp_dir("csa");
  o.records_dir = dir.string();
  o.games = 1;
  TestServer server(o);
  const auto runs = replay("csa.txt", server);
  for (const auto& [who, run] : runs) {
    CAPTURE(who);
    CHECK(run.received == run.expected);
    CHECK(run.closed);
  }
  CHECK(server.wait_finished(3000));  // --games 1: the server exits after the game
  std::vector<fs::path> files;
  for (const auto& f : fs::directory_iterator(dir)) files.push_back(f.path());
  REQUIRE(files.size() == 1);
  CHECK(files[0].filename().string().starts_with("research+demo-60-5+alice+bob+"));
  shogi::CsaRecord rec;
  const base::Status st = shogi::load_csa_record_file(files[0].string(), rec);
  REQUIRE_MESSAGE(st.is_ok(), st.message());
  CHECK(rec.black_name == "alice");
  CHECK(rec.moves.size() == 5);
  CHECK(rec.moves[1].time_ms == 1000);
  CHECK(rec.result == shogi::CsaSpecialMove::kToryo);
  CHECK(rec.find_info("START_TIME"));
  CHECK(rec.find_info("END_TIME"));
  CHECK(server.output.str().find("toryo black") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("server e2e: a record that cannot be written is reported, and run() returns it") {
  tools::ServerOptions o;
  const fs::path dir = temp_dir("unwritable");
  o.records_dir = dir.string();
  o.games = 1;
  TestServer server(o);
  // The directory listen() created, replaced by a file: the record cannot be written there.
  fs::remove_all(dir);
  std::ofstream(dir) << "not a directory\n";
  for (const auto& [who, run] : replay("csa.txt", server)) {
    CAPTURE(who);
    CHECK(run.received == run.expected);  // the game itself is played out as before
  }
  REQUIRE(server.wait_finished(3000));
  CHECK(server.output.str().find("record not written: " + dir.string() + "/research+demo") !=
        std::string::npos);
  CHECK(server.result.message().rfind("1 game record(s) not written; the first: ", 0) == 0);
  fs::remove(dir);
}

TEST_CASE("server e2e: illegal move, %CHUDAN, invalid %KACHI, REJECT, early move") {
  check_replay("illegal.txt");
  check_replay("chudan.txt");
  check_replay("kachi.txt");
  check_replay("reject.txt");
  check_replay("early.txt");
}

TEST_CASE("server e2e: time-up on a late move and on silence; a dropped connection") {
  check_replay("timeup.txt");
  check_replay("silent.txt");  // shogi-server flags it after 60 s, we when time runs out
  check_replay("disconnect.txt", "alice");
}

TEST_CASE("server e2e: Fischer time-up [T:fischer]" * doctest::test_suite("slow")) {
  check_replay("fischer.txt");
}

TEST_CASE("server e2e: hostile input never stops the server") {
  TestServer server({});
  {  // binary garbage instead of LOGIN
    RawClient c(server.port);
    c.send_raw(std::string("\x00\xff\x01garbage\r\n", 13));
    CHECK(c.read_line() == "LOGIN:incorrect");
    CHECK(!c.read_line());
    CHECK(c.closed_by_server());
  }
  {  // an overlong line, a megabyte without LF
    RawClient c(server.port);
    c.send_raw(std::string(1 << 20, 'A') + "\n");
    CHECK(c.read_line() == "LOGIN:incorrect");
  }
  {  // x1 mode is not offered; a bad name
    RawClient a(server.port), b(server.port);
    a.send("LOGIN alice tripA x1");
    b.send("LOGIN al/ice demo-60-5");
    CHECK(a.read_line() == "LOGIN:incorrect");
    CHECK(b.read_line() == "LOGIN:incorrect");
  }
  // A game with garbage thrown in by both sides, then a disconnect in the middle.
  RawClient a(server.port), b(server.port);
  login(a, "alice", "hg-60-5-B");
  login(b, "bob", "hg-60-5-W");
  RawClient dup(server.port);
  dup.send("LOGIN alice hg-60-5");
  CHECK(dup.read_line() == "LOGIN:incorrect");  // the name is in use
  REQUIRE(read_until(a, "END Game_Summary"));
  REQUIRE(read_until(b, "END Game_Summary"));
  a.send("AGREE");
  b.send("AGREE");
  CHECK(a.read_line().value_or("").starts_with("START:research+hg-60-5+alice+bob+"));
  CHECK(b.read_line().value_or("").starts_with("START:research+hg-60-5+alice+bob+"));
  b.send_raw(std::string("\x01\x02\xfe\xff", 4) + "\n");
  b.send(std::string(5000, 'x'));
  CHECK(b.read_line().value_or("(none)") == "##[ERROR] unknown command: \\x01\\x02\\xFE\\xFF");
  CHECK(b.read_line() == "##[ERROR] line too long");
  a.send("+7776FU");
  REQUIRE(read_until(b, "+7776FU,T0"));
  b.close();  // white, to move, drops its connection
  Lines seen_a;
  REQUIRE(read_until(a, "#WIN", &seen_a));
  CHECK(seen_a.end()[-3] == "%TORYO");
  CHECK(!a.read_line());  // closed by the server
  // The server still serves.
  RawClient c(server.port);
  login(c, "carol", "demo-60-5");
}

}  // namespace csa_server_test
