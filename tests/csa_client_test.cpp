// CSA client end to end over loopback: a scripted server thread (Boost.Asio acceptor) plays
// the server's side; the real CsaClient, AsioTransport and record writer play ours.
#include "client/csa_client.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <istream>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "client/asio.h"
#include "client/asio_transport.h"
#include "client/engine_player.h"
#include "client/log_limiter.h"
#include "shogi/csa_notation.h"
#include "shogi/movegen.h"
#include "shogi/notation.h"
#include "tests/file_text.h"

namespace csa_client_test {

using namespace client;
using boost::asio::ip::tcp;
namespace fs = std::filesystem;

namespace {

// One accepted connection, used from the server thread only. Reads time out.
class Conn {
 public:
  explicit Conn(tcp::socket s) : socket_(std::move(s)) {}
  // The next line without its LF; nullopt on timeout or when the client closed.
  std::optional<std::string> read_line(int timeout_ms = 5000) {
    auto& io = static_cast<boost::asio::io_context&>(socket_.get_executor().context());
    bool done = false;
    boost::system::error_code result;
    boost::asio::async_read_until(socket_, buf_, '\n',
                                  [&](const boost::system::error_code& ec, size_t) {
                                    result = ec;
                                    done = true;
                                  });
    io.restart();
    io.run_for(std::chrono::milliseconds(timeout_ms));
    if (!done) {
      boost::system::error_code ignored;
      socket_.cancel(ignored);
      io.restart();
      while (!done) io.run_one();
      return std::nullopt;
    }
    if (result) return std::nullopt;
    std::istream in(&buf_);
    std::string line;
    std::getline(in, line);
    received.push_back(line);
    return line;
  }
  // Skips blank keep-alive lines.
  std::optional<std::string> read_nonblank(int timeout_ms = 5000) {
    for (;;) {
      auto l = read_line(timeout_ms);
      if (!l || !l->empty()) return l;
    }
  }
  void send(const std::string& line) {
    boost::system::error_code ec;
    boost::asio::write(socket_, boost::asio::buffer(line + "\n"), ec);
  }
  void close() {
    boost::system::error_code ec;
    socket_.shutdown(tcp::socket::shutdown_both, ec);
    socket_.close(ec);
  }
  std::vector<std::string> received;

 private:
  tcp::socket socket_;
  boost::asio::streambuf buf_;
};

// A server on 127.0.0.1 (any free port) that runs `script` on each of up to `connections`
// accepted connections, one after the other, in its own thread.
class ScriptServer {
 public:
  using Script = std::function<void(int index, Conn& conn)>;
  ScriptServer(int connections, Script script)
      : acceptor_(io_, tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0)) {
    port_ = acceptor_.local_endpoint().port();
    thread_ = std::thread([this, connections, script] {
      for (int i = 0; i < connections; ++i) {
        tcp::socket s(io_);
        boost::system::error_code ec;
        acceptor_.accept(s, ec);
        if (ec) return;
        Conn conn(std::move(s));
        script(i, conn);
        conn.close();
        std::lock_guard<std::mutex> lock(mutex_);
        transcripts_.push_back(conn.received);
      }
    });
  }
  ~ScriptServer() { join(); }
  void join() {
    if (thread_.joinable()) thread_.join();
  }
  int port() const { return port_; }
  // What the client sent on each connection. REQUIRES: join() first.
  const std::vector<std::vector<std::string>>& transcripts() const { return transcripts_; }

 private:
  boost::asio::io_context io_;
  tcp::acceptor acceptor_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mutex_;
  std::vector<std::vector<std::string>> transcripts_;
};

// A fake engine: the first legal move, at once, with a score of 12 and a one-move PV.
class FirstMoveEngine : public EnginePlayer {
 public:
  base::Status prepare() override { return base::Status::ok(); }
  void new_game(const GameSummary&) override { ++games; }
  void ponderhit(uint64_t, const SearchRequest&) override {}
  void start(const SearchRequest& r, AnswerCallback answer) override {
    const shogi::Position pos = r.position();
    EngineMove em;
    const shogi::MoveList moves = shogi::legal_moves(pos);
    if (moves.size() == 0) {
      em.kind = EngineMove::Kind::kResign;
    } else {
      em.move = *moves.begin();
      em.score = 12;
      em.pv = {em.move};
    }
    ++searches;
    // Answer from another thread, as the real engine does.
    threads_.emplace_back([answer, id = r.id, em] { answer(id, em); });
  }
  void stop(uint64_t) override {}
  void wait() override {
    for (std::thread& t : threads_) t.join();
    threads_.clear();
  }
  ~FirstMoveEngine() override { wait(); }
  std::atomic<int> games{0}, searches{0};

 private:
  std::vector<std::thread> threads_;
};

const char* const kHirate[] = {"P1-KY-KE-GI-KI-OU-KI-GI-KE-KY", "P2 * -HI *  *  *  *  * -KA * ",
                               "P3-FU-FU-FU-FU-FU-FU-FU-FU-FU", "P4 *  *  *  *  *  *  *  *  * ",
                               "P5 *  *  *  *  *  *  *  *  * ", "P6 *  *  *  *  *  *  *  *  * ",
                               "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU", "P8 * +KA *  *  *  *  * +HI * ",
                               "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY"};

// Logs in the client and starts game `id` with the client as Black; returns false (and the
// test fails) when the client does not behave.
bool start_game(Conn& c, const std::string& id, const std::string& total_s = "60") {
  auto login = c.read_nonblank();
  CHECK(login.has_value());
  if (!login) return false;
  CHECK(*login == "LOGIN tester test-60-1,trip");
  c.send("LOGIN:tester OK");
  std::vector<std::string> s = {"BEGIN Game_Summary",
                                "Protocol_Version:1.2",
                                "Protocol_Mode:Server",
                                "Format:Shogi 1.0",
                                "Declaration:Jishogi 1.1",
                                "Game_ID:" + id,
                                "Name+:tester",
                                "Name-:server",
                                "Your_Turn:+",
                                "Rematch_On_Draw:NO",
                                "To_Move:+",
                                "Max_Moves:256",
                                "BEGIN Time",
                                "Time_Unit:1sec",
                                "Total_Time:" + total_s,
                                "Byoyomi:1",
                                "Increment:0",
                                "Least_Time_Per_Move:0",
                                "END Time",
                                "BEGIN Position"};
  for (const char* r : kHirate) s.push_back(r);
  for (const char* l : {"+", "END Position", "END Game_Summary"}) s.push_back(l);
  for (const std::string& l : s) c.send(l);
  auto agree = c.read_nonblank();
  CHECK(agree == std::optional<std::string>("AGREE " + id));
  if (agree != "AGREE " + id) return false;
  c.send("START:" + id);
  return true;
}

// Reads the client's move, echoes it with T1, answers with White's first legal move (T2).
// Returns the client's line, or "" when none came.
std::string play_round(Conn& c, shogi::Position& pos, bool reply = true) {
  auto line = c.read_nonblank();
  CHECK(line.has_value());
  if (!line) return "";
  const std::string move = line->substr(0, line->find(','));
  shogi::Move m;
  CHECK(shogi::parse_csa_move(pos, move, m));
  pos.do_move(m);
  c.send(move + ",T1");
  if (reply) {
    const shogi::Move w = *shogi::legal_moves(pos).begin();
    c.send(shogi::format_csa_move(w) + ",T2");
    pos.do_move(w);
  }
  return *line;
}

CsaConfig test_config(const std::string& dir, int port) {
  CsaConfig c;
  c.host = "127.0.0.1";
  c.port = port;
  c.name = "tester";
  c.game = "test-60-1";
  c.trip = "trip";
  c.connect_timeout_s = 2;
  c.reconnect_initial_s = 1;
  c.reconnect_max_s = 2;
  c.time_margin_ms = 200;
  c.log_dir = dir + "/logs";
  c.record_dir = dir + "/records";
  c.log_console = false;
  return c;
}

std::string fresh_dir(const std::string& name) {
  const fs::path p =
      fs::temp_directory_path() / ("sashite_csa_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(p);
  fs::create_directories(p);
  return p.string();
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST_SUITE_BEGIN("csa_client");

TEST_CASE("one game over loopback: lines, record, results and exit status") {
  const std::string dir = fresh_dir("one");
  ScriptServer server(1, [](int, Conn& c) {
    if (!start_game(c, "test+test-60-1+tester+server+20260101000000")) return;
    shogi::Position pos;
    for (int i = 0; i < 3; ++i)
      if (play_round(c, pos, i < 2).empty()) return;
    // The opponent resigns on its turn: shogi-server's lines, then it closes the socket.
    for (const char* l : {"%TORYO", "#RESIGN", "#WIN"}) c.send(l);
  });
  FirstMoveEngine engine;
  AsioTransport transport;
  CsaClient client(test_config(dir, server.port()), transport, engine,
                   [&transport] { transport.interrupt(); });
  const auto t0 = std::chrono::steady_clock::now();
  const int status = client.run();
  server.join();
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
  CHECK(status == kExitOk);
  CHECK(engine.games == 1);
  CHECK(engine.searches == 3);
  REQUIRE(client.results().size() == 1);
  CHECK(client.results()[0].outcome == GameOutcome::kWin);
  CHECK(client.results()[0].plies == 5);

  REQUIRE(server.transcripts().size() == 1);
  const auto& sent = server.transcripts()[0];
  REQUIRE(sent.size() >= 5);
  CHECK(sent[0] == "LOGIN tester test-60-1,trip");
  CHECK(sent[1] == "AGREE test+test-60-1+tester+server+20260101000000");
  CHECK(sent[2].starts_with("+"));
  CHECK(contains(sent[2], ",'* 12"));  // the floodgate comment

  REQUIRE(client.record_paths().size() == 1);
  const std::string path = client.record_paths()[0];
  CHECK(path == dir + "/records/test+test-60-1+tester+server+20260101000000.csa");
  CHECK(!fs::exists(path + ".tmp"));
  shogi::CsaRecord rec;
  REQUIRE(shogi::load_csa_record_file(path, rec));
  CHECK(rec.black_name == "tester");
  CHECK(rec.white_name == "server");
  CHECK(rec.moves.size() == 5);
  CHECK(rec.result == shogi::CsaSpecialMove::kToryo);
  CHECK(rec.find_info("START_TIME") != nullptr);

  const std::string results = read_text(dir + "/records/results.txt");
  CHECK(contains(
      results,
      "\ttest+test-60-1+tester+server+20260101000000\ttester\tserver\t+\tWIN\tRESIGN\t5\t"));
  const std::string log = read_text(dir + "/logs/csa.log");
  CHECK(contains(log, "> 'LOGIN tester *****'"));  // the password masked
  CHECK(!contains(log, "test-60-1,trip"));
  CHECK(contains(log, "< 'START:test+test-60-1+tester+server+20260101000000'"));
  if (getenv("KEEP") == nullptr) fs::remove_all(dir);
}

TEST_CASE("a connection dropped mid-game: the record is kept, the client logs in again") {
  const std::string dir = fresh_dir("drop");
  ScriptServer server(2, [](int index, Conn& c) {
    shogi::Position pos;
    if (index == 0) {
      if (!start_game(c, "test+test-60-1+tester+server+20260101000001")) return;
      play_round(c, pos);
      play_round(c, pos, false);  // the client's second move is echoed, then the line drops
      return;
    }
    if (!start_game(c, "test+test-60-1+tester+server+20260101000002")) return;
    play_round(c, pos, false);
    for (const char* l : {"%TORYO", "#RESIGN", "#WIN"}) c.send(l);
  });
  FirstMoveEngine engine;
  AsioTransport transport;
  CsaConfig config = test_config(dir, server.port());
  config.games = 2;
  CsaClient client(config, transport, engine, [&transport] { transport.interrupt(); });
  const auto t0 = std::chrono::steady_clock::now();
  const int status = client.run();
  server.join();
  const auto took = std::chrono::steady_clock::now() - t0;
  CHECK(took >= std::chrono::milliseconds(900));  // the back-off before logging in again
  CHECK(took < std::chrono::seconds(6));
  CHECK(status == kExitConnection);  // one game was cut
  CHECK(client.connections() == 2);
  REQUIRE(client.results().size() == 2);
  CHECK(!client.results()[0].outcome.has_value());
  CHECK(client.results()[1].outcome == GameOutcome::kWin);
  REQUIRE(server.transcripts().size() == 2);
  CHECK(server.transcripts()[1][0] == "LOGIN tester test-60-1,trip");

  REQUIRE(client.record_paths().size() == 2);
  shogi::CsaRecord cut;
  REQUIRE(shogi::load_csa_record_file(client.record_paths()[0], cut));
  CHECK(cut.moves.size() == 3);  // every echoed move, intact
  CHECK(cut.result == shogi::CsaSpecialMove::kNone);
  CHECK(contains(read_text(client.record_paths()[0]), "'connection lost before the result"));
  shogi::CsaRecord second;
  REQUIRE(shogi::load_csa_record_file(client.record_paths()[1], second));
  CHECK(second.moves.size() == 1);
  const std::string results = read_text(dir + "/records/results.txt");
  CHECK(contains(results, "\tCUT\t"));
  CHECK(contains(results, "\tWIN\tRESIGN\t"));
  if (getenv("KEEP") == nullptr) fs::remove_all(dir);
}

TEST_CASE("LOGIN:incorrect is a protocol failure") {
  const std::string dir = fresh_dir("incorrect");
  ScriptServer server(1, [](int, Conn& c) {
    c.read_nonblank();
    c.send("LOGIN:incorrect");
  });
  FirstMoveEngine engine;
  AsioTransport transport;
  CsaClient client(test_config(dir, server.port()), transport, engine);
  CHECK(client.run() == kExitProtocol);
  server.join();
  CHECK(client.results().empty());
  if (getenv("KEEP") == nullptr) fs::remove_all(dir);
}

TEST_CASE("no server: gives up after max_connect_failures with back-off") {
  const std::string dir = fresh_dir("refused");
  int port;
  {
    boost::asio::io_context io;
    tcp::acceptor a(io, tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0));
    port = a.local_endpoint().port();
  }  // closed: connections are refused
  FirstMoveEngine engine;
  AsioTransport transport;
  CsaConfig config = test_config(dir, port);
  config.max_connect_failures = 2;
  CsaClient client(config, transport, engine);
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(client.run() == kExitConnection);
  CHECK(std::chrono::steady_clock::now() - t0 >= std::chrono::milliseconds(900));
  CHECK(client.connections() == 0);
  if (getenv("KEEP") == nullptr) fs::remove_all(dir);
}

TEST_CASE("a quit request during a game resigns it when on_quit is resign") {
  const std::string dir = fresh_dir("quit");
  CsaClient* client_ptr = nullptr;
  std::atomic<bool> resigned{false};
  ScriptServer server(1, [&](int, Conn& c) {
    if (!start_game(c, "test+test-60-1+tester+server+20260101000003")) return;
    shogi::Position pos;
    play_round(c, pos);
    client_ptr->request_quit();
    auto l = c.read_nonblank();
    if (l && l->starts_with("+")) l = c.read_nonblank();  // a move already on its way
    resigned = l == std::optional<std::string>("%TORYO");
    for (const char* x : {"%TORYO", "#RESIGN", "#LOSE"}) c.send(x);
  });
  FirstMoveEngine engine;
  AsioTransport transport;
  CsaConfig config = test_config(dir, server.port());
  config.resign_on_quit = true;
  config.games = 0;  // forever, but the quit ends it
  CsaClient client(config, transport, engine, [&transport] { transport.interrupt(); });
  client_ptr = &client;
  CHECK(client.run() == kExitOk);
  server.join();
  CHECK(resigned);
  REQUIRE(client.results().size() == 1);
  CHECK(client.results()[0].outcome == GameOutcome::kLose);
  if (getenv("KEEP") == nullptr) fs::remove_all(dir);
}

TEST_CASE("the real engine plays two moves in byoyomi, within its time") {
  const std::string dir = fresh_dir("engine");
  std::vector<std::string> moves;
  ScriptServer server(1, [&](int, Conn& c) {
    if (!start_game(c, "test+test-0-1+tester+server+20260101000004", "0")) return;
    shogi::Position pos;
    moves.push_back(play_round(c, pos));
    moves.push_back(play_round(c, pos, false));
    for (const char* l : {"%TORYO", "#RESIGN", "#WIN"}) c.send(l);
  });
  EngineAdapter engine;
  CsaConfig config = test_config(dir, server.port());
  config.hash_mb = 16;
  REQUIRE(engine.configure(config));
  AsioTransport transport;
  CsaClient client(config, transport, engine, [&transport] { transport.interrupt(); });
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(client.run() == kExitOk);
  server.join();
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
  REQUIRE(moves.size() == 2);
  for (const std::string& m : moves) {
    CHECK(m.starts_with("+"));
    CHECK(contains(m, ",'* "));  // score and PV from the engine's info
  }
  REQUIRE(client.results().size() == 1);
  CHECK(client.results()[0].plies == 3);
  if (getenv("KEEP") == nullptr) fs::remove_all(dir);
}

TEST_CASE("AsioTransport survives any byte sequence and reports the close") {
  ScriptServer server(1, [](int, Conn& c) {
    std::string junk;
    for (int i = 0; i < 256; ++i) junk += char(i);
    c.send(junk + "\r");
    c.send(std::string(10000, 'x'));
    c.send("LAST");
  });
  AsioTransport t;
  REQUIRE(t.connect("127.0.0.1", server.port(), 2000));
  CHECK(t.is_open());
  std::vector<std::string> lines;
  for (int i = 0; i < 50 && t.is_open(); ++i) t.receive_lines(100, lines);
  server.join();
  CHECK(!t.is_open());
  REQUIRE(lines.size() == 4);  // the junk is cut at its own '\n' (byte 10)
  CHECK(lines[2].size() == kMaxLineLength + 1);
  CHECK(lines[3] == "LAST");
  CHECK(!t.send_line("x"));
  CHECK(!t.connect("127.0.0.1", 1, 1000));  // refused: an error, not a hang
}

TEST_SUITE_END();

}  // namespace csa_client_test

namespace csa_client_test {

namespace {

// An engine whose files cannot be loaded.
class BrokenEngine : public FirstMoveEngine {
 public:
  base::Status prepare() override {
    return base::Status::error("cannot read /nonexistent/weights.eval");
  }
};

}  // namespace

TEST_CASE("an engine that cannot load what is configured is a set-up error: no game played") {
  const std::string dir = fresh_dir("broken");
  BrokenEngine engine;
  AsioTransport transport;
  CsaClient client(test_config(dir, 1), transport, engine);
  CHECK(client.run() == kExitSetup);
  CHECK(client.connections() == 0);
  CHECK(contains(read_text(dir + "/logs/csa.log"), "/nonexistent/weights.eval"));
  if (getenv("KEEP") == nullptr) fs::remove_all(dir);
}

}  // namespace csa_client_test

namespace csa_client_test {

TEST_CASE("log limiter: a burst per window per kind, the rest reported as one line") {
  LogLimiter limiter(3, 1000);
  std::string report;
  const std::string kind = LogLimiter::kind_of("skipped unknown line 'P1-KY-KE' in state x");
  CHECK(kind == "skipped unknown line ");
  CHECK(LogLimiter::kind_of("skipped unknown line 'P2 * -HI'") == kind);
  int passed = 0;
  for (int i = 0; i < 100; ++i) passed += limiter.allow(kind, 10 + i, report);
  CHECK(passed == 3);
  CHECK(report.empty());
  CHECK(limiter.allow("another kind", 200, report));
  // The next window reports what the last one held back.
  CHECK(limiter.allow(kind, 1010, report));
  CHECK(report == "97 more like this in the last 1 s: skipped unknown line ");
  for (int i = 0; i < 5; ++i) limiter.allow(kind, 1011, report);
  const std::vector<std::string> rest = limiter.flush();
  REQUIRE(rest.size() == 1);
  CHECK(rest[0].starts_with("3 more like this"));
}

}  // namespace csa_client_test
