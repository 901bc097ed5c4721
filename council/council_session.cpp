// The council's USI loop and its decision thread (see council_session.h).
#include "council/council_session.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <istream>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <thread>
#include <vector>

#include "base/line_writer.h"
#include "base/shown_text.h"
#include "base/version.h"
#include "base/words.h"
#include "council/council_member.h"
#include "council/council_vote.h"
#include "engine/usi.h"
#include "shogi/movegen.h"
#include "shogi/notation.h"
#include "shogi/position.h"

namespace council {

using base::Status;
using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

namespace {

// How long members may take to answer a stop before the council answers without them, and
// before a member that never answers it is started again.
constexpr milliseconds kStopGrace(1000);

int64_t ms_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration_cast<milliseconds>(to - from).count();
}

using base::LineWriter;

// The time a go gives, from its start (or from the ponderhit): what the members are told and
// when the council must answer. No deadline for nodes, depth, infinite and clockless gos.
struct GoTimes {
  std::string member_go;  // the go the members get
  std::optional<int64_t> deadline_ms;
};

// Less than `budget` by `margin`, but never below `floor_share` of it.
int64_t less_margin(int64_t budget, int64_t margin, double floor_share) {
  return std::max<int64_t>(budget - margin, int64_t(double(budget) * floor_share));
}

GoTimes go_times(const engine::UsiGoCommand& go, shogi::Color side, int margin_ms) {
  GoTimes t;
  const engine::SearchLimits& l = go.limits;
  std::string& s = t.member_go;
  if (go.mate) {
    if (go.mate_ms < 0) {
      s = "go mate infinite";
    } else {
      s = "go mate " + std::to_string(less_margin(go.mate_ms, margin_ms, 0.5));
      t.deadline_ms = less_margin(go.mate_ms, margin_ms / 3, 0.8);
    }
    return t;
  }
  s = "go";
  if (l.ponder) s += " ponder";
  std::optional<int64_t> budget;
  if (l.has_clock()) {
    int64_t time[2] = {std::max<int64_t>(0, l.time_left_ms[0]),
                       std::max<int64_t>(0, l.time_left_ms[1])};
    int64_t byoyomi = l.byoyomi_ms;
    const int64_t own = time[side];
    if (byoyomi > 0) {
      budget = own + byoyomi;
      byoyomi = own > margin_ms ? byoyomi : less_margin(byoyomi, margin_ms - own, 0.5);
      if (own > margin_ms) time[side] = own - margin_ms;
    } else {
      budget = own;
      time[side] = less_margin(own, margin_ms, 0.5);
    }
    s += " btime " + std::to_string(time[0]) + " wtime " + std::to_string(time[1]);
    if (l.byoyomi_ms > 0) s += " byoyomi " + std::to_string(byoyomi);
    if (l.increment_ms[0] > 0 || l.increment_ms[1] > 0)
      s += " binc " + std::to_string(l.increment_ms[0]) + " winc " +
           std::to_string(l.increment_ms[1]);
  }
  if (l.movetime_ms >= 0) {
    budget = budget ? std::min(*budget, l.movetime_ms) : l.movetime_ms;
    s += " movetime " + std::to_string(less_margin(l.movetime_ms, margin_ms, 0.5));
  }
  if (l.depth > 0) s += " depth " + std::to_string(l.depth);
  if (l.nodes > 0) s += " nodes " + std::to_string(l.nodes);
  if (l.infinite) s += " infinite";
  if (budget) t.deadline_ms = less_margin(*budget, margin_ms / 3, 0.8);
  return t;
}

bool is_mate_proof(const std::string& checkmate_words) {
  return !checkmate_words.empty() && checkmate_words != "nomate" && checkmate_words != "timeout" &&
         checkmate_words != "notimplemented";
}

// One go: its position and times, and what the decision thread needs.
struct Search {
  shogi::Position position;
  std::string position_line;
  engine::UsiGoCommand go;
  GoTimes times;
  Clock::time_point start;
};

class CouncilSession {
 public:
  CouncilSession(const CouncilConfig& config, std::ostream& out,
                 std::function<void(const std::string&)> log);
  ~CouncilSession();
  CouncilSession(const CouncilSession&) = delete;
  CouncilSession& operator=(const CouncilSession&) = delete;

  bool handle(std::string_view line);

 private:
  void usi();
  void isready();
  void setoption(std::string_view args);
  void position(std::string_view args);
  void go(std::string_view args);
  void gameover(std::string_view args);
  // Stops a running decision and waits for its answer. No-op when idle.
  void finish_decision();
  void error(const std::string& message) {
    writer_.line("info string error: " + base::shown_text(message, 600));
  }
  void log(const std::string& text) const {
    if (log_) log_("council: " + text);
  }

  // The decision thread's work: waits for the members, decides, answers.
  void run_decision(Search search, std::vector<bool> sent);
  // Waits until every member in `sent` has answered or crashed, or the search must end (stop,
  // the deadline, the stragglers' time, a proven mate in go mate).
  void wait_for_members(const Search& search, const std::vector<bool>& sent);
  bool all_answered(const std::vector<bool>& sent) const;
  void answer_move(const Search& search, const std::vector<bool>& sent);
  void answer_mate(const Search& search, const std::vector<bool>& sent);
  // A legal move when no member voted: a member's latest PV, else the first legal move.
  std::string fallback_move(const shogi::Position& pos, const std::vector<MemberAnswer>& answers,
                            const std::vector<MemberSearch>& searches, std::string& from) const;

  CouncilConfig config_;
  LineWriter writer_;
  std::function<void(const std::string&)> log_;
  std::vector<std::unique_ptr<CouncilMember>> members_;
  Clock::time_point launched_;

  shogi::Position position_;
  std::string position_line_ = "position startpos";
  bool position_ok_ = true;

  // Between the loop and the decision thread (and the members' notifications).
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool stop_requested_ = false;
  bool pondering_ = false;
  Clock::time_point ponderhit_time_{};
  std::thread decider_;

  // Over the game: decisions, and those where every voter chose the same move.
  int decisions_ = 0;
  int unanimous_ = 0;
};

CouncilSession::CouncilSession(const CouncilConfig& config, std::ostream& out,
                               std::function<void(const std::string&)> log)
    : config_(config), writer_(out), log_(std::move(log)) {
  for (const CouncilMemberConfig& m : config_.members) {
    members_.push_back(
        std::make_unique<CouncilMember>(m, milliseconds(config_.startup_timeout_ms), log_, [this] {
          std::lock_guard<std::mutex> lock(mutex_);
          changed_.notify_all();
        }));
  }
  launched_ = Clock::now();
  for (auto& m : members_) m->launch();
}

CouncilSession::~CouncilSession() {
  finish_decision();
  // Every member's thread quits its engine at once, so that their waits overlap.
  for (auto& m : members_) m->request_shutdown();
  for (auto& m : members_) m->shutdown();
}

bool CouncilSession::handle(std::string_view line) {
  line = base::trim_blanks(line);
  const std::vector<std::string_view> words = base::split_words(line);
  if (words.empty()) return true;
  const std::string_view command = words[0];
  const std::string_view args = base::trim_blanks(line.substr(command.size()));
  try {
    if (command == "usi") {
      usi();
    } else if (command == "isready") {
      isready();
    } else if (command == "setoption") {
      setoption(args);
    } else if (command == "usinewgame") {
      finish_decision();
      decisions_ = unanimous_ = 0;
      for (auto& m : members_) m->send("usinewgame");
    } else if (command == "position") {
      position(args);
    } else if (command == "go") {
      go(args);
    } else if (command == "stop") {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_requested_ = true;
      changed_.notify_all();
    } else if (command == "ponderhit") {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!pondering_) return true;
        pondering_ = false;
        ponderhit_time_ = Clock::now();
        changed_.notify_all();
      }
      for (auto& m : members_) m->ponderhit();
    } else if (command == "gameover") {
      gameover(args);
    } else if (command == "quit") {
      finish_decision();
      return false;
    } else if (command == "d" || command == "display") {
      writer_.line("sfen " + position_.sfen());
    } else {
      writer_.line("info string unknown command: " + base::shown_text(line));
    }
  } catch (const std::exception& e) {
    error(std::string(command) + ": " + e.what());
  }
  return true;
}

void CouncilSession::usi() {
  writer_.line(std::string("id name sashite council ") + base::build_version() + " (" +
               council_rule_name(config_.rule) + ", " + std::to_string(members_.size()) +
               (members_.size() == 1 ? " member)" : " members)"));
  writer_.line("id author the sashite authors");
  writer_.line(std::string("option name CouncilRule type combo default ") +
               council_rule_name(config_.rule) + " var majority var optimistic");
  writer_.line("option name CouncilMarginMs type spin default " +
               std::to_string(config_.margin_ms) + " min 0 max 60000");
  writer_.line("option name CouncilStragglerMs type spin default " +
               std::to_string(config_.straggler_ms) + " min 0 max 3600000");
  writer_.line("option name USI_Ponder type check default false");
  writer_.line("usiok");
}

void CouncilSession::isready() {
  // A GUI waits for readyok before the game: the members are given their startup time, and
  // those still starting are named (the council plays with the others).
  const bool searching = decider_.joinable();
  if (!searching) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait_until(lock, launched_ + milliseconds(config_.startup_timeout_ms), [this] {
      return std::all_of(members_.begin(), members_.end(),
                         [](const auto& m) { return m->ready(); });
    });
  }
  int ready = 0;
  for (auto& m : members_) {
    if (m->ready())
      ++ready;
    else if (!searching)
      writer_.line("info string council: " + m->config().name + " is not ready (" +
                   std::to_string(m->starts()) + " starts so far); voting without it");
  }
  if (ready == 0 && !searching)
    error("isready: no member is ready: every move will be the council's own fallback");
  writer_.line("readyok");
}

void CouncilSession::setoption(std::string_view args) {
  std::string name, value;
  if (Status st = engine::parse_usi_setoption(args, name, value); !st) return error(st.message());
  finish_decision();
  auto number = [&](int& out, int lo, int hi) {
    try {
      size_t used = 0;
      const long long x = std::stoll(value, &used);
      if (used == value.size() && x >= lo && x <= hi) {
        out = int(x);
        return;
      }
    } catch (const std::exception&) {
    }
    error("setoption: " + name + ": '" + value + "' is not an integer in " + std::to_string(lo) +
          ".." + std::to_string(hi));
  };
  if (name == "CouncilRule") {
    if (!parse_council_rule(value, config_.rule))
      error("setoption: CouncilRule: '" + value + "' is not majority or optimistic");
  } else if (name == "CouncilMarginMs") {
    number(config_.margin_ms, 0, 60000);
  } else if (name == "CouncilStragglerMs") {
    number(config_.straggler_ms, 0, 3600000);
  } else if (name == "USI_Ponder" || name == "USI_Hash") {
    // The members' own settings are in the council's configuration.
  } else {
    error("setoption: no option '" + name +
          "' in the council (the members' options are in its configuration)");
  }
}

void CouncilSession::position(std::string_view args) {
  std::string sfen;
  std::vector<std::string> moves;
  position_ok_ = false;
  Status st = engine::parse_usi_position(args, sfen, moves);
  if (!st) return error(st.message());
  finish_decision();
  shogi::Position pos;
  if (st = pos.set_sfen(sfen); !st) return error("position: " + st.message());
  for (size_t i = 0; i < moves.size(); ++i) {
    shogi::Move m;
    if (st = shogi::parse_usi_move(pos, moves[i], m); !st)
      return error("position: move " + std::to_string(i + 1) + ": " + st.message());
    pos.do_move(m);
  }
  position_ = pos;
  position_line_ = "position " + std::string(args);
  position_ok_ = true;
}

void CouncilSession::go(std::string_view args) {
  finish_decision();
  engine::UsiGoCommand command = engine::parse_usi_go(args);
  for (const std::string& e : command.errors) error(e);
  if (!position_ok_) {
    error(std::string("go: the last position command was rejected; no position to search") +
          (command.mate ? "" : ", resigning"));
    writer_.line(command.mate ? "checkmate timeout" : "bestmove resign");
    return;
  }
  Search search;
  search.position = position_;
  search.position_line = position_line_;
  search.go = command;
  search.times = go_times(command, position_.side_to_move(), config_.margin_ms);
  search.start = Clock::now();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_requested_ = false;
    pondering_ = command.limits.ponder;
  }
  std::vector<bool> sent(members_.size());
  for (size_t i = 0; i < members_.size(); ++i)
    sent[i] = members_[i]->start_search(search.position_line, search.times.member_go, kStopGrace);
  decider_ = std::thread([this, search = std::move(search), sent = std::move(sent)]() mutable {
    run_decision(std::move(search), std::move(sent));
  });
}

void CouncilSession::gameover(std::string_view args) {
  finish_decision();
  if (args != "win" && args != "lose" && args != "draw")
    error("gameover: expected win, lose or draw, got '" + base::shown_text(args) + "'");
  for (auto& m : members_) m->send("gameover " + std::string(args));
  if (decisions_ > 0)
    writer_.line("info string council: the members agreed on " + std::to_string(unanimous_) +
                 " of " + std::to_string(decisions_) + " moves");
}

void CouncilSession::finish_decision() {
  if (!decider_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_requested_ = true;
    changed_.notify_all();
  }
  decider_.join();
}

bool CouncilSession::all_answered(const std::vector<bool>& sent) const {
  for (size_t i = 0; i < members_.size(); ++i) {
    if (!sent[i]) continue;
    const MemberSearch s = members_[i]->search();
    if (!s.reply && !s.crashed) return false;
  }
  return true;
}

void CouncilSession::wait_for_members(const Search& search, const std::vector<bool>& sent) {
  std::unique_lock<std::mutex> lock(mutex_);
  std::optional<Clock::time_point> first_answer;
  while (true) {
    const auto now = Clock::now();
    if (stop_requested_) break;
    bool all = true, proof = false;
    for (size_t i = 0; i < members_.size(); ++i) {
      if (!sent[i]) continue;
      const MemberSearch s = members_[i]->search();
      if (s.reply && !first_answer && !pondering_) first_answer = now;
      if (s.reply && search.go.mate && is_mate_proof(s.reply->move)) proof = true;
      if (!s.reply && !s.crashed) all = false;
    }
    // A pondering council answers only after ponderhit or stop, whatever its members do.
    if (pondering_) {
      changed_.wait_for(lock, milliseconds(100));
      continue;
    }
    if (all || proof) break;
    const Clock::time_point start = ponderhit_time_ > search.start ? ponderhit_time_ : search.start;
    Clock::time_point until = now + milliseconds(100);
    if (search.times.deadline_ms) {
      const auto deadline = start + milliseconds(*search.times.deadline_ms);
      if (now >= deadline) break;
      until = std::min(until, deadline);
    }
    if (first_answer && config_.straggler_ms > 0 && !search.go.limits.infinite) {
      // Under a clock each member spends what its own time management says: the others get
      // as long again as the first took, straggler_ms at least.
      milliseconds wait(config_.straggler_ms);
      if (search.go.limits.has_clock() || search.go.limits.movetime_ms >= 0)
        wait = std::max(wait, std::chrono::duration_cast<milliseconds>(*first_answer - start));
      const auto straggler_end = *first_answer + wait;
      if (now >= straggler_end) break;
      until = std::min(until, straggler_end);
    }
    changed_.wait_until(lock, until);
  }
  const bool stopped = stop_requested_;
  lock.unlock();
  for (size_t i = 0; i < members_.size(); ++i)
    if (sent[i]) members_[i]->stop_search();
  if (!stopped) return;
  // After a stop (go infinite, a ponder miss, a GUI in a hurry) the members' answers come
  // within moments; the council waits for them a little.
  lock.lock();
  changed_.wait_until(lock, Clock::now() + kStopGrace, [&] { return all_answered(sent); });
}

void CouncilSession::run_decision(Search search, std::vector<bool> sent) {
  wait_for_members(search, sent);
  if (search.go.mate)
    answer_mate(search, sent);
  else
    answer_move(search, sent);
  std::lock_guard<std::mutex> lock(mutex_);
  pondering_ = false;
}

void CouncilSession::answer_mate(const Search& search, const std::vector<bool>& sent) {
  int nomate = 0, answered = 0;
  for (size_t i = 0; i < members_.size(); ++i) {
    if (!sent[i]) continue;
    const MemberSearch s = members_[i]->search();
    if (!s.reply) continue;
    ++answered;
    const std::string& words = s.reply->move;
    if (words == "nomate") ++nomate;
    if (!is_mate_proof(words)) continue;
    // The proof's moves must be legal from the position, the first of them at least.
    const std::vector<std::string_view> moves = base::split_words(words);
    shogi::Move first;
    if (!shogi::parse_usi_move(search.position, moves[0], first).is_ok()) {
      log(members_[i]->config().name + " answered go mate with an illegal move " +
          std::string(moves[0]));
      members_[i]->restart("an illegal mate " + std::string(moves[0]));
      continue;
    }
    writer_.line("info string council: mate from " + members_[i]->config().name);
    writer_.line("checkmate " + words);
    return;
  }
  const bool all_nomate =
      answered > 0 && nomate == answered && std::count(sent.begin(), sent.end(), true) == answered;
  writer_.line(all_nomate ? "checkmate nomate" : "checkmate timeout");
}

std::string CouncilSession::fallback_move(const shogi::Position& pos,
                                          const std::vector<MemberAnswer>& answers,
                                          const std::vector<MemberSearch>& searches,
                                          std::string& from) const {
  for (size_t i = 0; i < answers.size(); ++i) {
    const std::vector<std::string>& pv = searches[i].reply ? searches[i].reply->pv : searches[i].pv;
    shogi::Move m;
    if (!pv.empty() && shogi::parse_usi_move(pos, pv[0], m).is_ok()) {
      from = answers[i].name + "'s latest PV";
      return pv[0];
    }
  }
  shogi::MoveList legal;
  shogi::generate(pos, shogi::GenType::kLegal, legal);
  if (legal.size() > 0) {
    from = "the first legal move";
    return shogi::format_usi_move(legal[0]);
  }
  from = "no legal move";
  return "resign";
}

void CouncilSession::answer_move(const Search& search, const std::vector<bool>& sent) {
  const shogi::Position& pos = search.position;
  std::vector<MemberAnswer> answers(members_.size());
  std::vector<MemberSearch> searches(members_.size());
  int64_t nodes = 0;
  std::optional<Clock::time_point> last_reply;
  for (size_t i = 0; i < members_.size(); ++i) {
    const CouncilMemberConfig& c = members_[i]->config();
    MemberAnswer& a = answers[i];
    a.name = c.name;
    a.weight = c.weight;
    a.scale = c.scale;
    if (!sent[i]) continue;  // kNotRunning
    searches[i] = members_[i]->search();
    const MemberSearch& s = searches[i];
    if (!s.reply) {
      a.outcome = s.crashed ? MemberOutcome::kCrashed : MemberOutcome::kLate;
      continue;
    }
    const MemberReply& r = *s.reply;
    if (!last_reply || r.received > *last_reply) last_reply = r.received;
    a.move = r.move;
    a.ponder = r.ponder;
    a.score = r.report.score;
    a.depth = r.report.depth;
    a.nodes = r.report.nodes.value_or(0);
    a.pv = r.pv;
    a.elapsed_ms = r.elapsed_ms;
    nodes += a.nodes;
    shogi::Move m;
    const bool legal = a.move == "resign" || (a.move == "win" && pos.can_declare_win()) ||
                       (a.move != "win" && shogi::parse_usi_move(pos, a.move, m).is_ok());
    if (!legal) {
      a.outcome = MemberOutcome::kIllegal;
      log(c.name + " answered the illegal move '" + base::shown_text(a.move) + "' in " +
          pos.sfen());
      members_[i]->restart("it answered an illegal move");
      continue;
    }
    a.outcome = MemberOutcome::kAnswered;
  }
  const CouncilDecision d = decide(config_.rule, answers);
  const std::string vote = format_council_vote(config_.rule, d, answers);
  writer_.line("info string council: " + vote);
  // The council's own cost: from the last member's answer to its own.
  const auto now = Clock::now();
  log("decided " + std::to_string(ms_between(search.start, now)) + " ms after the go" +
      (last_reply
           ? ", " + std::to_string(ms_between(*last_reply, now)) + " ms after the last answer"
           : std::string()) +
      ": " + vote);
  if (d.chosen < 0) {
    std::string from;
    const std::string move = fallback_move(pos, answers, searches, from);
    writer_.line("info string council: no member voted; playing " + move + " (" + from + ")");
    log("no member voted; playing " + move + " (" + from + ")");
    writer_.line("bestmove " + move);
    return;
  }
  ++decisions_;
  if (d.agreeing == d.voters) ++unanimous_;
  const MemberAnswer& c = answers[size_t(d.chosen)];
  // The chosen member's report: its depth and PV, the value on the council's scale, the nodes
  // of every member.
  std::string info = "info";
  if (c.depth) info += " depth " + std::to_string(*c.depth);
  if (c.score && c.score->is_mate)
    info += " score mate " + std::string(c.score->mating ? "" : "-") +
            std::to_string(std::max(0, c.score->mate_plies));
  else if (c.score)
    info += " score cp " + std::to_string(std::lround(d.value));
  info += " nodes " + std::to_string(nodes);
  std::vector<std::string> pv = c.pv;
  if (pv.empty() || pv[0] != c.move) pv = {c.move};
  if (c.move != "resign" && c.move != "win") {
    info += " pv";
    for (const std::string& m : pv) info += " " + m;
    writer_.line(info);
  }
  std::string best = "bestmove " + c.move;
  if (!c.ponder.empty() && c.move != "resign" && c.move != "win") {
    // The ponder move must be a legal reply, or the GUI's go ponder would be refused.
    shogi::Position after = pos;
    shogi::Move m, reply;
    if (shogi::parse_usi_move(after, c.move, m).is_ok()) {
      after.do_move(m);
      if (shogi::parse_usi_move(after, c.ponder, reply).is_ok()) best += " ponder " + c.ponder;
    }
  }
  writer_.line(best);
}

}  // namespace

int run_council(const CouncilConfig& config, std::istream& in, std::ostream& out,
                std::function<void(const std::string&)> log) {
  std::ostream* tied = in.tie(nullptr);
  {
    CouncilSession session(config, out, std::move(log));
    std::string line;
    while (std::getline(in, line))
      if (!session.handle(line)) break;
  }
  in.tie(tied);
  return 0;
}

}  // namespace council
