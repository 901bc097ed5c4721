// The council of engines: its rules on fixed answers, its configuration, and the council as a
// USI engine over scripted members (tests/data/council/fake_member.sh) that agree, disagree,
// are late, crash, answer illegal moves, stay silent, prove mates and ponder.
#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <istream>
#include <mutex>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>
#include <thread>
#include <vector>

#include "council/council_config.h"
#include "council/council_session.h"
#include "council/council_vote.h"
#include "shogi/notation.h"
#include "shogi/position.h"

namespace council_test {

using namespace council;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

const std::string kFakeMember = std::string(SASHITE_TEST_DATA_DIR) + "/council/fake_member.sh";

// The end of a 1 s byoyomi as the tests see it: under ThreadSanitizer the council's own code
// runs several times slower, and its wake-up at the deadline may come later.
#if defined(__SANITIZE_THREAD__)
constexpr int64_t kByoyomiEnd = 1300;
#else
constexpr int64_t kByoyomiEnd = 1000;
#endif

usi::SearchScore cp(int v) {
  usi::SearchScore s;
  s.cp = v;
  return s;
}

usi::SearchScore mate(int plies) {
  usi::SearchScore s;
  s.is_mate = true;
  s.mate_plies = plies < 0 ? -plies : plies;
  s.mating = plies > 0;
  return s;
}

MemberAnswer answered(const std::string& name, const std::string& move,
                      std::optional<usi::SearchScore> score, double weight = 1, double scale = 1) {
  MemberAnswer a;
  a.name = name;
  a.move = move;
  a.score = score;
  a.weight = weight;
  a.scale = scale;
  a.outcome = MemberOutcome::kAnswered;
  return a;
}

MemberAnswer failed(const std::string& name, MemberOutcome outcome, const std::string& move = "") {
  MemberAnswer a;
  a.name = name;
  a.outcome = outcome;
  a.move = move;
  return a;
}

// A scripted member: fake_member.sh MODE MOVE SCORE DELAY_S LOG PONDER.
CouncilMemberConfig fake(const std::string& name, const std::string& mode, const std::string& move,
                         const std::string& score, const std::string& delay_s = "0",
                         const std::string& log = "-", const std::string& ponder = "") {
  CouncilMemberConfig m;
  m.name = name;
  m.command = kFakeMember;
  m.args = {mode, move, score, delay_s, log, ponder};
  return m;
}

CouncilConfig council_of(std::vector<CouncilMemberConfig> members,
                         CouncilRule rule = CouncilRule::kMajority) {
  CouncilConfig c;
  c.rule = rule;
  c.members = std::move(members);
  c.startup_timeout_ms = 10000;
  return c;
}

// Input fed line by line while the council runs: reads block until a line is pushed.
class LineFeed : public std::streambuf {
 public:
  void push(const std::string& line) {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_ += line + "\n";
    ready_.notify_all();
  }
  void close() {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    ready_.notify_all();
  }

 protected:
  int_type underflow() override {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [this] { return !pending_.empty() || closed_; });
    if (pending_.empty()) return traits_type::eof();
    current_.swap(pending_);
    pending_.clear();
    setg(current_.data(), current_.data(), current_.data() + current_.size());
    return traits_type::to_int_type(current_[0]);
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::string pending_, current_;
  bool closed_ = false;
};

// The council's output, line by line, with waits for a line to come.
class LineCapture : public std::streambuf {
 public:
  // The next line not yet taken that starts with `prefix`, waiting up to `timeout`; "" when
  // none came. Lines before it are passed over.
  std::string next(const std::string& prefix, milliseconds timeout = milliseconds(15000)) {
    std::unique_lock<std::mutex> lock(mutex_);
    const auto deadline = Clock::now() + timeout;
    while (true) {
      for (; taken_ < lines_.size(); ++taken_)
        if (lines_[taken_].rfind(prefix, 0) == 0) return lines_[taken_++];
      if (ready_.wait_until(lock, deadline) == std::cv_status::timeout && taken_ == lines_.size())
        return "";
    }
  }
  std::vector<std::string> lines() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return lines_;
  }

 protected:
  int overflow(int c) override {
    if (c == EOF) return c;
    std::lock_guard<std::mutex> lock(mutex_);
    if (c == '\n') {
      lines_.push_back(partial_);
      partial_.clear();
      ready_.notify_all();
    } else {
      partial_ += char(c);
    }
    return c;
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::vector<std::string> lines_;
  std::string partial_;
  size_t taken_ = 0;
};

// A council running on its own thread, as a GUI would drive it.
class CouncilRun {
 public:
  explicit CouncilRun(const CouncilConfig& config) {
    thread_ = std::thread([this, config] {
      run_council(config, in_, out_, [this](const std::string& line) {
        std::lock_guard<std::mutex> lock(log_mutex_);
        log_.push_back(line);
      });
    });
  }
  ~CouncilRun() { finish(); }
  void send(const std::string& line) { feed_.push(line); }
  std::string next(const std::string& prefix, milliseconds timeout = milliseconds(15000)) {
    return capture_.next(prefix, timeout);
  }
  // Handshake and a new game; every member ready.
  void start() {
    send("usi");
    REQUIRE(next("usiok") == "usiok");
    send("isready");
    REQUIRE(next("readyok") == "readyok");
    send("usinewgame");
  }
  void finish() {
    if (!thread_.joinable()) return;
    send("quit");
    feed_.close();
    thread_.join();
  }
  std::string log() {
    std::lock_guard<std::mutex> lock(log_mutex_);
    std::string s;
    for (const std::string& l : log_) s += l + "\n";
    return s;
  }
  std::vector<std::string> output() const { return capture_.lines(); }
  // Waits up to 5 s for the log to say `text` (the members' threads log on their own time).
  bool wait_log(const std::string& text) {
    for (int i = 0; i < 500; ++i) {
      if (log().find(text) != std::string::npos) return true;
      std::this_thread::sleep_for(milliseconds(10));
    }
    return false;
  }

 private:
  LineFeed feed_;
  LineCapture capture_;
  std::istream in_{&feed_};
  std::ostream out_{&capture_};
  std::mutex log_mutex_;
  std::vector<std::string> log_;
  std::thread thread_;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string temp_log(const std::string& name) {
  const std::string path = "/tmp/sashite-council-test-" + std::to_string(::getpid()) + "-" + name;
  std::remove(path.c_str());
  std::remove((path + ".crashed").c_str());
  return path;
}

bool legal_at_start(const std::string& bestmove_line) {
  std::istringstream in(bestmove_line);
  std::string word, move;
  in >> word >> move;
  shogi::Position pos;
  shogi::Move m;
  return word == "bestmove" && shogi::parse_usi_move(pos, move, m).is_ok();
}

}  // namespace

TEST_CASE("council vote: the majority, weights, and a tie broken by the summed values") {
  std::vector<MemberAnswer> a = {answered("a", "7g7f", cp(30)), answered("b", "2g2f", cp(90)),
                                 answered("c", "7g7f", cp(20))};
  CouncilDecision d = decide(CouncilRule::kMajority, a);
  CHECK(d.move == "7g7f");
  CHECK(d.chosen == 0);  // of the two that chose it, the higher value speaks for it
  CHECK(d.agreeing == 2);
  CHECK(d.voters == 3);
  CHECK(d.how == "majority");
  CHECK(format_council_vote(CouncilRule::kMajority, d, a) ==
        "majority 7g7f 2/3 (weight 2/3) from a; a 7g7f 30, b 2g2f 90, c 7g7f 20");

  // Weight outvotes numbers: b alone weighs more than a and c.
  a[1].weight = 2.5;
  d = decide(CouncilRule::kMajority, a);
  CHECK(d.move == "2g2f");
  CHECK(d.weight_for == doctest::Approx(2.5));
  CHECK(d.weight_all == doctest::Approx(4.5));

  // All disagree, equal weights: the larger value (on the council's scale) takes the tie.
  std::vector<MemberAnswer> split = {answered("a", "7g7f", cp(30)),
                                     answered("b", "2g2f", cp(10), 1, 5.0),
                                     answered("c", "5g5f", cp(40))};
  d = decide(CouncilRule::kMajority, split);
  CHECK(d.move == "2g2f");  // 10 x 5 = 50 beats 40 and 30
  CHECK(d.how == "tie broken by values");
  // Two moves of two voters each: the summed values decide.
  std::vector<MemberAnswer> pairs = {answered("a", "7g7f", cp(50)), answered("b", "2g2f", cp(40)),
                                     answered("c", "7g7f", cp(-60)), answered("d", "2g2f", cp(0))};
  CHECK(decide(CouncilRule::kMajority, pairs).move == "2g2f");  // 40 + 0 > 50 - 60
}

TEST_CASE("council vote: optimistic takes the highest value across the members' scales") {
  std::vector<MemberAnswer> a = {answered("a", "7g7f", cp(100)),
                                 answered("b", "2g2f", cp(80), 1, 2.0),
                                 answered("c", "5g5f", cp(150), 1, 0.5)};
  CouncilDecision d = decide(CouncilRule::kOptimistic, a);
  CHECK(d.move == "2g2f");  // 160 beats 100 and 75
  CHECK(d.value == doctest::Approx(160));
  CHECK(d.how == "optimistic");
  // The majority would have tied three ways and taken the same larger value.
  CHECK(decide(CouncilRule::kMajority, a).move == "2g2f");
  // A member without a score ranks below every scored one.
  a[1].score.reset();
  CHECK(decide(CouncilRule::kOptimistic, a).move == "7g7f");
}

TEST_CASE("council vote: a proven win comes first, the declaration, then the shortest mate") {
  std::vector<MemberAnswer> a = {answered("a", "7g7f", cp(3000)), answered("b", "7g7f", cp(2000)),
                                 answered("c", "2b3c", mate(9)), answered("d", "8h2b+", mate(5))};
  CouncilDecision d = decide(CouncilRule::kMajority, a);
  CHECK(d.move == "8h2b+");
  CHECK(d.how == "mate");
  CHECK(decide(CouncilRule::kOptimistic, a).move == "8h2b+");
  // A member that is mated does not win anything.
  a[3].score = mate(-5);
  CHECK(decide(CouncilRule::kMajority, a).move == "2b3c");
  a.push_back(answered("e", "win", std::nullopt));
  d = decide(CouncilRule::kMajority, a);
  CHECK(d.move == "win");
  CHECK(d.how == "declaration");
  CHECK(format_council_vote(CouncilRule::kMajority, d, a).find("b 7g7f 2000, c 2b3c +M9") !=
        std::string::npos);
}

TEST_CASE("council vote: members late, crashed, illegal or not running do not vote") {
  std::vector<MemberAnswer> a = {
      failed("a", MemberOutcome::kLate), failed("b", MemberOutcome::kIllegal, "5e5d"),
      answered("c", "2g2f", cp(-40)), failed("d", MemberOutcome::kCrashed),
      failed("e", MemberOutcome::kNotRunning)};
  CouncilDecision d = decide(CouncilRule::kMajority, a);
  CHECK(d.move == "2g2f");
  CHECK(d.voters == 1);
  CHECK(format_council_vote(CouncilRule::kMajority, d, a) ==
        "majority 2g2f 1/1 (weight 1/1) from c; a late, b illegal 5e5d, c 2g2f -40, d crashed, "
        "e not running");
  a[2] = failed("c", MemberOutcome::kLate);
  d = decide(CouncilRule::kOptimistic, a);
  CHECK(d.chosen == -1);
  CHECK(d.move.empty());
  // Resigning is a vote like another, the least valued.
  std::vector<MemberAnswer> r = {answered("a", "resign", std::nullopt),
                                 answered("b", "7g7f", cp(-3000))};
  CHECK(decide(CouncilRule::kOptimistic, r).move == "7g7f");
}

TEST_CASE("council config: the shipped example, and errors that name the file, key and line") {
  CouncilConfig c;
  REQUIRE(
      load_council_config(std::string(SASHITE_TEST_DATA_DIR) + "/../../config/council.toml", c));
  REQUIRE(c.members.size() == 2);
  CHECK(c.rule == CouncilRule::kMajority);
  for (const CouncilMemberConfig& m : c.members) {
    CHECK(m.command == "build/sashite");
    CHECK(m.args == std::vector<std::string>{"usi"});
  }
  // Two different players: the same engine with different seeds.
  auto seed = [](const CouncilMemberConfig& m) {
    for (const auto& [k, v] : m.options)
      if (k == "EvalNoiseSeed") return v;
    return std::string();
  };
  CHECK(!seed(c.members[0]).empty());
  CHECK(seed(c.members[0]) != seed(c.members[1]));

  const std::string ok =
      "[council]\nrule = \"optimistic\"\nmargin_ms = 100\n"
      "[[member]]\ncommand = \"x\"\nscale = 0.5\n[member.options]\nThreads = 2\nUSI_Ponder = "
      "true\n[[member]]\nname = \"y\"\ncommand = \"y --fast\"\nweight = 2\n";
  REQUIRE(parse_council_config(ok, "c.toml", c));
  CHECK(c.rule == CouncilRule::kOptimistic);
  CHECK(c.margin_ms == 100);
  REQUIRE(c.members.size() == 2);
  CHECK(c.members[0].name == "member 1");
  CHECK(c.members[0].scale == doctest::Approx(0.5));
  CHECK(c.members[0].options ==
        std::vector<std::pair<std::string, std::string>>{{"Threads", "2"}, {"USI_Ponder", "true"}});
  CHECK(c.members[1].weight == doctest::Approx(2));

  auto error_of = [](const std::string& text) {
    CouncilConfig c;
    const base::Status st = parse_council_config(text, "c.toml", c);
    CHECK_FALSE(st);
    return st.message();
  };
  CHECK(
      error_of("[[member]]\nname = \"a\"\n").find("member[1]: a member needs its own 'command'") !=
      std::string::npos);
  CHECK(error_of("[council]\nrule = \"vote\"\n")
            .find("c.toml:2: council.rule: 'vote' is not one of") != std::string::npos);
  CHECK(error_of("[council]\nrule = \"majority\"\n") ==
        "c.toml: no [[member]]: a council needs members");
  CHECK(error_of("[[member]]\ncommand = \"a\"\nwieght = 2\n")
            .find("unknown key 'member[1].wieght'") != std::string::npos);
  CHECK(error_of("[[member]]\ncommand = \"a\"\n[[member]]\ncommand = \"b\"\nname = \"member 1\"\n")
            .find("a second member named 'member 1'") != std::string::npos);
  CHECK(error_of("[[member]]\ncommand = \"a\"\nscale = -1\n").find("member[1].scale") !=
        std::string::npos);
  CHECK(error_of("[council\n").find("cannot read configuration c.toml") == 0);
  CouncilConfig missing;
  CHECK(load_council_config("/nonexistent/council.toml", missing).message() ==
        "cannot open configuration file /nonexistent/council.toml");
}

TEST_CASE("council: handshake, a majority of three members, the vote shown, bad input named") {
  const std::string log = temp_log("majority");
  CouncilRun run(
      council_of({fake("a", "answer", "7g7f", "cp 30", "0", log, "3c3d"),
                  fake("b", "answer", "2g2f", "cp 90"), fake("c", "answer", "7g7f", "cp 20")}));
  run.send("usi");
  CHECK(run.next("id name").find("sashite council") != std::string::npos);
  CHECK(run.next("option name CouncilRule") ==
        "option name CouncilRule type combo default majority var majority var optimistic");
  REQUIRE(run.next("usiok") == "usiok");
  run.send("isready");
  REQUIRE(run.next("readyok") == "readyok");
  run.send("usinewgame");
  run.send("position startpos");
  run.send("go btime 0 wtime 0 byoyomi 1000");
  CHECK(run.next("info string council:") ==
        "info string council: majority 7g7f 2/3 (weight 2/3) from a; a 7g7f 30, b 2g2f 90, c "
        "7g7f 20");
  // The chosen member's PV and value, every member's nodes.
  CHECK(run.next("info depth") == "info depth 7 score cp 30 nodes 3702 pv 7g7f 3c3d");
  CHECK(run.next("bestmove") == "bestmove 7g7f ponder 3c3d");
  // The members got the position and the byoyomi less the council's margin.
  const std::string seen = read_file(log);
  CHECK(seen.find("position startpos\ngo btime 0 wtime 0 byoyomi 700\n") != std::string::npos);
  CHECK(seen.find("usinewgame") != std::string::npos);

  // Bad input: named, and every go still answered.
  run.send("position sfen garbage");
  CHECK(run.next("info string error").find("position") != std::string::npos);
  run.send("go byoyomi 1000");
  CHECK(run.next("info string error").find("rejected") != std::string::npos);
  CHECK(run.next("bestmove") == "bestmove resign");
  run.send("position startpos moves 7g7f 7g7f");
  CHECK(run.next("info string error").find("move 2") != std::string::npos);
  run.send("setoption name Hash value 10");
  CHECK(run.next("info string error").find("no option 'Hash'") != std::string::npos);
  run.send("setoption name CouncilMarginMs value x");
  CHECK(run.next("info string error").find("CouncilMarginMs") != std::string::npos);
  run.send("frobnicate");
  CHECK(run.next("info string unknown command") == "info string unknown command: frobnicate");
  run.send("gameover win");
  CHECK(run.next("info string council: the members agreed") ==
        "info string council: the members agreed on 0 of 1 moves");
}

TEST_CASE("council: optimistic across scales, and a member's mate wins outright") {
  {
    CouncilConfig c =
        council_of({fake("a", "answer", "7g7f", "cp 100"), fake("b", "answer", "2g2f", "cp 80")},
                   CouncilRule::kOptimistic);
    c.members[1].scale = 2;
    CouncilRun run(c);
    run.start();
    run.send("position startpos");
    run.send("go nodes 1000");
    CHECK(run.next("info string council:") ==
          "info string council: optimistic 2g2f 1/2 from b; a 7g7f 100, b 2g2f 160");
    CHECK(run.next("info depth") == "info depth 7 score cp 160 nodes 2468 pv 2g2f");
    CHECK(run.next("bestmove") == "bestmove 2g2f");
  }
  CouncilRun run(
      council_of({fake("a", "answer", "7g7f", "cp 30"), fake("b", "answer", "7g7f", "cp 20"),
                  fake("c", "answer", "5g5f", "mate 5")}));
  run.start();
  run.send("position startpos");
  run.send("go btime 10000 wtime 10000 byoyomi 1000");
  CHECK(run.next("info string council:").find("mate 5g5f 1/3") != std::string::npos);
  CHECK(run.next("info depth").find("score mate 5 ") != std::string::npos);
  CHECK(run.next("bestmove") == "bestmove 5g5f");
  // go mate: the first proof, legal, is the answer; none: nomate only when all say so.
  run.send("go mate 1000");
  CHECK(run.next("checkmate") == "checkmate 5g5f");
}

TEST_CASE("council: a late member is left out at the deadline; a silent one is restarted") {
  CouncilRun run(council_of({fake("quick", "answer", "7g7f", "cp 30"),
                             fake("slow", "deaf", "2g2f", "cp 50", "4"),
                             fake("mute", "silent", "5g5f", "cp 0")}));
  run.start();
  run.send("position startpos");
  const auto start = Clock::now();
  run.send("go btime 0 wtime 0 byoyomi 1000");
  CHECK(run.next("info string council:") ==
        "info string council: majority 7g7f 1/1 (weight 1/1) from quick; quick 7g7f 30, slow "
        "late, mute late");
  CHECK(run.next("bestmove") == "bestmove 7g7f");
  const auto elapsed = std::chrono::duration_cast<milliseconds>(Clock::now() - start).count();
  CHECK(elapsed >= 850);         // the deadline: 1000 ms less a third of the 300 ms margin
  CHECK(elapsed < kByoyomiEnd);  // and never past the byoyomi
  // The next search, more than a second after the stop: the mute member never answered it and
  // is started again; the slow one (deaf to stop, 4 s) likewise.
  std::this_thread::sleep_for(milliseconds(1100));
  run.send("position startpos moves 2g2f 8c8d");
  run.send("go btime 0 wtime 0 byoyomi 500");
  CHECK(run.next("info string council:").find("mute not running") != std::string::npos);
  CHECK(run.next("bestmove") == "bestmove 7g7f");  // quick's answer is legal here too
  CHECK(run.wait_log("mute: starting it again: no bestmove"));
  CHECK(run.wait_log("slow: starting it again: no bestmove"));
}

TEST_CASE("council: stragglers wait straggler_ms without a clock, as long as the first with one") {
  CouncilConfig c = council_of({fake("first", "answer", "7g7f", "cp 30", "1.0"),
                                fake("second", "deaf", "2g2f", "cp 90", "1.4")},
                               CouncilRule::kOptimistic);
  c.straggler_ms = 100;
  CouncilRun run(c);
  run.start();
  run.send("position startpos");
  // No clock: 100 ms after the first answer (1 s) the second (1.4 s, deaf to stop) is late.
  run.send("go nodes 1000");
  CHECK(run.next("info string council:") ==
        "info string council: optimistic 7g7f 1/1 from first; first 7g7f 30, second late");
  CHECK(run.next("bestmove") == "bestmove 7g7f");
  // Its late answer (1.4 s after the stop, which it ignores) comes and is dropped.
  std::this_thread::sleep_for(milliseconds(2000));
  // A Fischer clock: each member spends what its own time management says; the second gets
  // as long again as the first took (1 s), and answers in it.
  run.send("go btime 60000 wtime 60000 binc 1000 winc 1000");
  CHECK(run.next("info string council:") ==
        "info string council: optimistic 2g2f 1/2 from second; first 7g7f 30, second 2g2f 90");
  CHECK(run.next("bestmove") == "bestmove 2g2f");
}

TEST_CASE("council: a member crashing mid-search or answering an illegal move is restarted") {
  const std::string log = temp_log("crash");
  CouncilRun run(council_of({fake("steady", "answer", "7g7f", "cp 30"),
                             fake("fragile", "crashonce", "7g7f", "cp 10", "0", log),
                             fake("wrong", "answer", "5e5d", "cp 99")}));
  run.start();
  run.send("position startpos");
  run.send("go btime 0 wtime 0 byoyomi 2000");
  CHECK(run.next("info string council:") ==
        "info string council: majority 7g7f 1/1 (weight 1/1) from steady; steady 7g7f 30, "
        "fragile crashed, wrong illegal 5e5d");
  CHECK(run.next("bestmove") == "bestmove 7g7f");
  // The crashed member is back for the next search (its own thread started it again).
  const auto deadline = Clock::now() + milliseconds(10000);
  std::string vote;
  while (Clock::now() < deadline) {
    run.send("go btime 0 wtime 0 byoyomi 2000");
    vote = run.next("info string council:");
    REQUIRE(legal_at_start(run.next("bestmove")));
    if (vote.find("fragile 7g7f 10") != std::string::npos) break;
    std::this_thread::sleep_for(milliseconds(200));
  }
  CHECK(vote.find("majority 7g7f 2/2") != std::string::npos);
  CHECK(run.wait_log("fragile: exited (exited with status 3): starting it again"));
  CHECK(run.wait_log("wrong answered the illegal move '5e5d'"));
  CHECK(run.wait_log("wrong: starting it again: it answered an illegal move"));
}

TEST_CASE("council: no member at all still answers a legal move; all disagreeing still decide") {
  {
    CouncilConfig c = council_of({fake("gone", "answer", "7g7f", "cp 0")});
    c.members[0].command = "/nonexistent/engine";
    c.startup_timeout_ms = 300;
    CouncilRun run(c);
    run.send("usi");
    REQUIRE(run.next("usiok") == "usiok");
    run.send("isready");
    CHECK(run.next("info string council: gone is not ready").size() > 0);
    CHECK(run.next("info string error: isready: no member is ready").size() > 0);
    REQUIRE(run.next("readyok") == "readyok");
    run.send("position startpos");
    run.send("go btime 0 wtime 0 byoyomi 500");
    CHECK(run.next("info string council: no member voted; playing").size() > 0);
    CHECK(legal_at_start(run.next("bestmove")));
  }
  CouncilRun run(
      council_of({fake("a", "answer", "7g7f", "cp 30"), fake("b", "answer", "2g2f", "cp 10"),
                  fake("c", "answer", "5g5f", "cp 45")}));
  run.start();
  run.send("position startpos");
  run.send("go nodes 500");
  CHECK(run.next("info string council:") ==
        "info string council: majority 5g5f 1/3 (weight 1/3, tie broken by values) from c; a "
        "7g7f 30, b 2g2f 10, c 5g5f 45");
  CHECK(run.next("bestmove") == "bestmove 5g5f");
}

TEST_CASE("council: ponder hit and ponder miss") {
  const std::string log = temp_log("ponder");
  CouncilRun run(council_of({fake("a", "answer", "2g2f", "cp 30", "0.2", log, "8c8d"),
                             fake("b", "answer", "2g2f", "cp 20", "0.2")}));
  run.start();
  // The GUI ponders on the reply the chosen member expects.
  run.send("position startpos moves 7g7f 3c3d");
  run.send("go ponder btime 0 wtime 0 byoyomi 1000");
  CHECK(run.next("bestmove", milliseconds(600)).empty());  // nothing before the ponderhit
  run.send("ponderhit");
  CHECK(run.next("info string council:").find("majority 2g2f 2/2") != std::string::npos);
  CHECK(run.next("bestmove") == "bestmove 2g2f ponder 8c8d");
  const std::string seen = read_file(log);
  CHECK(seen.find("go ponder btime 0 wtime 0 byoyomi 700\nponderhit\n") != std::string::npos);
  // A miss: stop, and a legal bestmove at once (the GUI drops it), then the real search.
  run.send("position startpos moves 7g7f 3c3d");
  run.send("go ponder btime 0 wtime 0 byoyomi 1000");
  std::this_thread::sleep_for(milliseconds(100));
  const auto stop = Clock::now();
  run.send("stop");
  CHECK(run.next("bestmove") == "bestmove 2g2f ponder 8c8d");
  CHECK(std::chrono::duration_cast<milliseconds>(Clock::now() - stop).count() < 500);
  run.send("position startpos moves 7g7f 4c4d");
  run.send("go btime 0 wtime 0 byoyomi 1000");
  CHECK(run.next("bestmove").rfind("bestmove 2g2f", 0) == 0);
}

}  // namespace council_test
