// ClientStatus: the CSA client's status page model, kept as the game goes (client_status.h).
#include "client/client_status.h"

#include <cctype>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "base/version.h"
#include "client/game_files.h"
#include "shogi/csa_notation.h"
#include "shogi/notation.h"

namespace client {

namespace {

std::string side_word(shogi::Color c) { return c == shogi::kBlack ? "black" : "white"; }

std::string seconds_text(int64_t ms) {
  const std::string whole = std::to_string(ms / 1000);
  return ms % 1000 == 0 ? whole + " s" : whole + "." + std::to_string(ms % 1000 / 100) + " s";
}

std::string side_rules_text(const ClockRules& r) {
  if (r.unlimited) return "no time limit";
  std::string s = seconds_text(r.total_ms);
  if (r.increment_ms > 0) s += " + " + seconds_text(r.increment_ms) + " per move";
  if (r.byoyomi_ms > 0) s += ", " + seconds_text(r.byoyomi_ms) + " byoyomi";
  return s;
}

const char* state_word(CsaSession::State s) {
  using S = CsaSession::State;
  switch (s) {
    case S::kIdle:
      return "starting";
    case S::kConnecting:
      return "connecting";
    case S::kLoggingIn:
      return "logging in";
    case S::kWaitingForGame:
    case S::kReadingSummary:
    case S::kAgreed:
    case S::kRejecting:
      return "waiting";
    case S::kPlaying:
      return "in game";
    case S::kGameOver:
      return "game over";
    case S::kLoggingOut:
      return "logging out";
    case S::kFinished:
      return "finished";
  }
  return "starting";
}

std::string result_word(const std::optional<GameOutcome>& o) {
  if (!o) return "cut";
  switch (*o) {
    case GameOutcome::kWin:
      return "win";
    case GameOutcome::kLose:
      return "lose";
    case GameOutcome::kDraw:
      return "draw";
    case GameOutcome::kCensored:
      return "censored";
    case GameOutcome::kChudan:
      return "chudan";
  }
  return "cut";
}

void count_result(StatusCounters& c, const std::string& result) {
  if (result == "win")
    ++c.wins;
  else if (result == "lose")
    ++c.losses;
  else if (result == "draw")
    ++c.draws;
  else
    ++c.other;
}

void add_recent(StatusModel& m, StatusRecentGame g) {
  m.recent.insert(m.recent.begin(), std::move(g));
  if (m.recent.size() > StatusModel::kMaxRecentGames) m.recent.resize(StatusModel::kMaxRecentGames);
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> cells;
  size_t start = 0;
  for (;;) {
    const size_t tab = line.find('\t', start);
    cells.push_back(line.substr(start, tab == std::string::npos ? tab : tab - start));
    if (tab == std::string::npos) return cells;
    start = tab + 1;
  }
}

}  // namespace

std::string time_rules_text(const GameClock& clock) {
  const std::string black = side_rules_text(clock.rules(shogi::kBlack));
  const std::string white = side_rules_text(clock.rules(shogi::kWhite));
  return black == white ? black : "Black " + black + "; White " + white;
}

StatusMove status_move_from(const shogi::CsaRecordMove& rm) {
  StatusMove mv;
  mv.csa = rm.text;
  mv.usi = rm.move.is_ok() ? shogi::format_usi_move(rm.move) : "";
  mv.time_ms = rm.time_ms ? *rm.time_ms : -1;
  for (const std::string& c : rm.comments)
    if (auto v = floodgate_comment_value(c)) {
      mv.eval_cp = *v;
      break;
    }
  return mv;
}

void status_clocks_from(const GameClock& clock, StatusClock (&clocks)[2]) {
  for (shogi::Color c : {shogi::kBlack, shogi::kWhite}) {
    const ClockRules& r = clock.rules(c);
    clocks[c] = {clock.remaining_ms(c), r.byoyomi_ms, r.increment_ms, r.unlimited};
  }
}

int64_t unix_time_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::optional<int> floodgate_comment_value(const std::string& comment) {
  // "* 30 ..." as a client sends it; "** 30 ..." as a server's record keeps it.
  const size_t stars = comment.starts_with("** ") ? 2 : comment.starts_with("* ") ? 1 : 0;
  if (stars == 0 || comment.size() < stars + 2) return std::nullopt;
  const char* begin = comment.data() + stars + 1;
  const char* end = comment.data() + comment.size();
  int value = 0;
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || (ptr != end && *ptr != ' ')) return std::nullopt;
  return value;
}

ClientStatus::ClientStatus(StatusBoard& board, const CsaConfig& config, int64_t steady_origin_ms)
    : board_(board),
      name_(config.name),
      record_csa_(config.record_csa),
      record_kif_(config.record_kif),
      steady_origin_ms_(steady_origin_ms) {
  board_.update([&](StatusModel& m) {
    m.kind = "client";
    m.version = base::build_version();
    m.name = config.name;
    m.server = config.host + ":" + std::to_string(config.port);
    m.started_unix_ms = unix_time_ms();
  });
}

void ClientStatus::load_history(const std::string& results_path) {
  std::ifstream in(results_path);
  if (!in) return;
  std::vector<StatusRecentGame> games;
  StatusCounters totals;
  std::string line;
  while (std::getline(in, line)) {
    // end time, Game_ID, black, white, our colour, outcome, reason, plies, record file, ...
    const std::vector<std::string> cells = split_tabs(line);
    if (cells.size() < 9 || (cells[4] != "+" && cells[4] != "-")) continue;
    if (cells[cells[4] == "+" ? 2 : 3] != name_) continue;  // another client's game
    StatusRecentGame g;
    g.end_time = cells[0];
    g.game_id = cells[1];
    g.black_name = cells[2];
    g.white_name = cells[3];
    g.our_color = cells[4] == "+" ? "black" : "white";
    for (char ch : cells[5]) g.result += char(std::tolower(static_cast<unsigned char>(ch)));
    g.reason = cells[6] == "-" ? "" : cells[6];
    std::from_chars(cells[7].data(), cells[7].data() + cells[7].size(), g.plies);
    std::string stem = cells[8];
    for (const char* ext : {".csa", ".kifu"})
      if (stem.ends_with(ext)) stem.resize(stem.size() - std::string(ext).size());
    std::error_code ec;
    if (std::filesystem::is_regular_file(stem + ".csa", ec)) g.csa_file = stem + ".csa";
    if (std::filesystem::is_regular_file(stem + ".kifu", ec)) g.kif_file = stem + ".kifu";
    g.has_csa = !g.csa_file.empty();
    g.has_kif = !g.kif_file.empty();
    count_result(totals, g.result);
    if (g.result == "lose" && g.reason == "TIME_UP") ++totals.time_losses;
    games.push_back(std::move(g));
  }
  board_.update([&](StatusModel& m) {
    m.counters.wins += totals.wins;
    m.counters.losses += totals.losses;
    m.counters.draws += totals.draws;
    m.counters.other += totals.other;
    m.counters.time_losses += totals.time_losses;
    for (StatusRecentGame& g : games) add_recent(m, std::move(g));
  });
}

void ClientStatus::connection(CsaSession::State state, std::optional<int64_t> connect_at_ms,
                              int64_t now_ms) {
  const char* word = state_word(state);
  int64_t at = 0;
  if (connect_at_ms && *connect_at_ms > now_ms && connections_ > 0) {
    word = "reconnecting";
    at = steady(*connect_at_ms);
  }
  // Called after every event the loop handles: the page hears only of a change.
  if (word == shown_connection_ && at == shown_reconnect_at_) return;
  shown_connection_ = word;
  shown_reconnect_at_ = at;
  board_.update([&](StatusModel& m) {
    m.connection = word;
    m.reconnect_at_steady_ms = at;
  });
}

void ClientStatus::connected() {
  if (++connections_ > 1) board_.update([](StatusModel& m) { ++m.counters.reconnects; });
}

void ClientStatus::game_started(const CsaSession& session) {
  const GameSummary& s = session.summary();
  moves_shown_ = 0;
  StatusGame g;
  g.game_id = s.game_id;
  g.black_name = s.names[shogi::kBlack];
  g.white_name = s.names[shogi::kWhite];
  g.our_color = side_word(session.us());
  g.time_rules = time_rules_text(session.clock());
  g.start_sfen = shogi::format_sfen(s.initial);
  g.start_unix_ms = unix_time_ms();
  board_.update([&](StatusModel& m) {
    m.game = std::move(g);
    m.has_game = true;
  });
  record_updated(session);
}

void ClientStatus::record_updated(const CsaSession& session) {
  const shogi::CsaRecord& record = session.record();
  std::vector<StatusMove> added;
  for (size_t i = moves_shown_; i < record.moves.size(); ++i) {
    const shogi::CsaRecordMove& rm = record.moves[i];
    StatusMove mv = status_move_from(rm);
    const bool black_moved = !rm.text.empty() && rm.text[0] == '+';
    mv.ours = (session.us() == shogi::kBlack) == black_moved;
    if (mv.ours) {
      if (!mv.eval_cp) mv.eval_cp = answer_eval_cp_;
      answer_eval_cp_.reset();
    }
    added.push_back(std::move(mv));
  }
  moves_shown_ = record.moves.size();
  StatusClock clocks[2];
  status_clocks_from(session.clock(), clocks);
  const bool playing = session.state() == CsaSession::State::kPlaying;
  const std::string sfen = session.position().sfen();
  const int64_t turn_start = playing ? steady(session.turn_start_ms()) : 0;
  std::optional<int64_t> last_think;
  if (!added.empty() && added.back().ours && added.back().time_ms >= 0)
    last_think = added.back().time_ms;
  board_.update([&](StatusModel& m) {
    StatusGame& g = m.game;
    for (StatusMove& mv : added) {
      // The PV stays the line from the position shown: the opponent's move it expected is
      // taken off its front; any other move leaves no line.
      if (!mv.ours && !g.pv.empty()) {
        if (g.pv.front() == mv.csa)
          g.pv.erase(g.pv.begin());
        else
          g.pv.clear();
      }
      g.moves.push_back(std::move(mv));
    }
    g.sfen = sfen;
    g.clocks[0] = clocks[0];
    g.clocks[1] = clocks[1];
    g.turn_start_steady_ms = turn_start;
    if (last_think) m.counters.last_think_ms = *last_think;
  });
}

void ClientStatus::engine_answer(const CsaSession& session, const EngineMove& move) {
  // The line after the move being played (the page shows it from the position that move
  // leads to), as the floodgate comment gives it.
  std::vector<std::string> pv;
  for (size_t i = !move.pv.empty() && move.pv[0] == move.move ? 1 : 0; i < move.pv.size(); ++i) {
    const shogi::Move& m = move.pv[i];
    if (!m.is_ok() || m.piece_after() == shogi::kNoPiece) break;
    pv.push_back(shogi::format_csa_move(m));
  }
  std::optional<int> eval;
  if (move.score) eval = session.us() == shogi::kBlack ? int(*move.score) : -int(*move.score);
  answer_eval_cp_ = eval;
  board_.update([&](StatusModel& m) {
    m.game.pv = std::move(pv);
    m.game.pv_eval_cp = eval;
    m.game.engine_note = move.note;
    if (move.nodes) m.counters.engine_nodes = int64_t(*move.nodes);
    if (move.nps) m.counters.engine_nps = int64_t(*move.nps);
  });
}

void ClientStatus::game_ended(const CsaSession& session, const GameResult& result) {
  record_updated(session);
  std::string reason = game_end_reason_name(result.reason);
  if (!reason.empty() && reason[0] == '#') reason.erase(0, 1);
  const std::string word = result_word(result.outcome);
  board_.update([&](StatusModel& m) {
    StatusGame& g = m.game;
    g.over = true;
    g.result = word;
    g.reason = reason;
    g.turn_start_steady_ms = 0;
    count_result(m.counters, word);
    if (word == "lose" && result.reason == GameEndReason::kTimeUp) ++m.counters.time_losses;
    StatusRecentGame r;
    r.game_id = g.game_id;
    r.end_time = local_time_text(true);
    r.black_name = g.black_name;
    r.white_name = g.white_name;
    r.our_color = g.our_color;
    r.result = word;
    r.reason = reason;
    r.plies = result.plies;
    r.csa_file = g.csa_file;
    r.kif_file = g.kif_file;
    r.has_csa = !r.csa_file.empty();
    r.has_kif = !r.kif_file.empty();
    add_recent(m, std::move(r));
  });
}

void ClientStatus::record_files(const std::string& game_id, const std::string& csa_path,
                                const std::string& kif_path) {
  board_.update([&](StatusModel& m) {
    // The game may have ended already (a slow disk): its row in the table gets them too.
    for (StatusRecentGame& r : m.recent)
      if (r.game_id == game_id && r.csa_file.empty() && r.kif_file.empty()) {
        if (record_csa_) r.csa_file = csa_path;
        if (record_kif_) r.kif_file = kif_path;
        r.has_csa = !r.csa_file.empty();
        r.has_kif = !r.kif_file.empty();
        break;
      }
    if (m.game.game_id != game_id) return;
    if (record_csa_) m.game.csa_file = csa_path;
    if (record_kif_) m.game.kif_file = kif_path;
  });
}

}  // namespace client
