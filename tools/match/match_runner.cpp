// MatchRunner: planning, parallel play, running score, records, summary and Elo.
#include "tools/match/match_runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "base/file_write.h"
#include "tools/match/elo.h"

namespace tools {

using base::Status;
using shogi::Color;
namespace fs = std::filesystem;

void MatchScore::add(GameWinner winner, Color engine1_color) {
  if (winner == GameWinner::kDraw) {
    ++draws;
  } else if ((winner == GameWinner::kBlack) == (engine1_color == shogi::kBlack)) {
    ++wins;
  } else {
    ++losses;
  }
}

namespace {

std::string game_file_stem(int number) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "g%04d", number);
  return buf;
}

std::string match_event(const MatchOptions& o) {
  const std::string margin = " (margin " + std::to_string(o.time_margin_ms) + " ms)";
  std::string limit;
  if (!o.time_control.empty() && o.byoyomi_ms > 0)
    limit = "main time " + o.time_control + " s, byoyomi " + std::to_string(o.byoyomi_ms) + " ms" +
            margin;
  else if (!o.time_control.empty())
    limit = "tc " + o.time_control + " s (Fischer)" + margin;
  else if (o.byoyomi_ms > 0)
    limit = "byoyomi " + std::to_string(o.byoyomi_ms) + " ms" + margin;
  else
    limit = o.nodes > 0 ? "nodes " + std::to_string(o.nodes) : "depth " + std::to_string(o.depth);
  if (o.byoyomi2_ms > 0)  // time odds: "byoyomi 1000 ms, engine2 3000 ms (margin ...)"
    limit.insert(limit.size() - margin.size(),
                 ", engine2 " + std::to_string(o.byoyomi2_ms) + " ms");
  if (!o.sprt.empty()) {
    char buf[96];
    std::snprintf(buf, sizeof buf, ", SPRT [%s] alpha %g beta %g", o.sprt.c_str(), o.sprt_alpha,
                  o.sprt_beta);
    limit += buf;
  }
  return "sashite match, " + std::to_string(planned_games(o)) + " games, " + limit + ", max " +
         std::to_string(o.max_plies) + " plies" +
         (o.openings_path.empty() ? ""
                                  : ", openings " + fs::path(o.openings_path).filename().string());
}

// Creates the output directory: `requested`, or a new ./match-YYYYMMDD-HHMMSS[-N].
Status make_out_dir(const std::string& requested, fs::path& dir) {
  std::error_code ec;
  if (!requested.empty()) {
    dir = requested;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir))
      return Status::error(requested + ": cannot create the directory: " + ec.message());
    return Status::ok();
  }
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char base[64];
  std::strftime(base, sizeof base, "match-%Y%m%d-%H%M%S", &tm);
  for (int n = 1; n < 1000; ++n) {
    dir = n == 1 ? std::string(base) : std::string(base) + "-" + std::to_string(n);
    if (fs::create_directory(dir, ec)) return Status::ok();
    if (ec) return Status::error(dir.string() + ": cannot create the directory: " + ec.message());
  }
  return Status::error("cannot find a free directory name like " + std::string(base));
}

// "9.35", or "-" when empty.
std::string format_average(std::optional<double> value, int decimals) {
  if (!value) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, *value);
  return buf;
}

std::string score_text(const MatchScore& s) {
  char buf[96];
  const double pct = s.games() ? 100.0 * (s.wins + 0.5 * s.draws) / s.games() : 50.0;
  std::snprintf(buf, sizeof buf, "engine1 %d-%d-%d (%.1f%%)", s.wins, s.losses, s.draws, pct);
  return buf;
}

}  // namespace

std::vector<GameSetup> plan_games(const MatchOptions& o, const std::vector<Opening>& openings) {
  usi::EngineConfig e1{o.engine1, usi::split_usi_options(o.options1), o.isolate_home, "", {}, ""};
  usi::EngineConfig e2{o.engine2, usi::split_usi_options(o.options2), o.isolate_home, "", {}, ""};
  MatchLimits limits;
  if (!o.time_control.empty())
    (void)parse_time_control(o.time_control, limits.main_time_ms, limits.increment_ms);
  limits.byoyomi_ms = o.byoyomi_ms;
  limits.nodes = o.nodes;
  limits.depth = o.depth;
  limits.time_margin_ms = o.time_margin_ms;
  limits.move_timeout_ms = o.move_timeout_ms;
  limits.ready_timeout_ms = o.ready_timeout_ms;
  limits.max_plies = o.max_plies;
  const std::string event = match_event(o);
  std::vector<GameSetup> games;
  const int n_games = planned_games(o);
  for (int i = 0; i < n_games; ++i) {
    GameSetup g;
    g.number = i + 1;
    const bool engine1_black = i % 2 == 0;
    g.black = engine1_black ? e1 : e2;
    g.white = engine1_black ? e2 : e1;
    g.black_label = engine1_black ? "engine1" : "engine2";
    g.white_label = engine1_black ? "engine2" : "engine1";
    if (!openings.empty()) g.opening = openings[size_t(i / 2) % openings.size()];
    g.limits = limits;
    if (o.byoyomi2_ms > 0) {  // time odds: each engine its own byoyomi, whatever its colour
      g.limits.byoyomi_ms = engine1_black ? o.byoyomi_ms : o.byoyomi2_ms;
      g.limits.white_byoyomi_ms = engine1_black ? o.byoyomi2_ms : o.byoyomi_ms;
    }
    g.event = event;
    games.push_back(std::move(g));
  }
  return games;
}

std::string format_think_time(const SearchStats& engine1, const SearchStats& engine2) {
  auto per_move = [](const SearchStats& s) {
    return s.moves ? format_average(double(s.think_ms) / s.moves, 1) : std::string("-");
  };
  std::string text = "think time: engine1 " + std::to_string(engine1.think_ms) + " ms (" +
                     per_move(engine1) + " ms/move), engine2 " + std::to_string(engine2.think_ms) +
                     " ms (" + per_move(engine2) + " ms/move)";
  if (engine2.think_ms > 0 && engine1.moves > 0 && engine2.moves > 0) {
    const double ratio =
        (double(engine1.think_ms) / engine1.moves) / (double(engine2.think_ms) / engine2.moves);
    text += ", ratio per move " + format_average(ratio, 3);
  }
  return text;
}

std::string format_engine_stats(const std::string& label, const MatchEngineStats& stats,
                                bool with_restarts) {
  const SearchStats& s = stats.search;
  std::string text =
      label + " search: " + std::to_string(s.moves) + " moves, depth " +
      format_average(s.average_depth(), 2) + " avg (" + std::to_string(s.depth_moves) +
      " moves), nodes " + format_average(s.average_nodes(), 0) + " avg (" +
      std::to_string(s.nodes_moves) + " moves), time losses " + std::to_string(stats.time_losses);
  if (with_restarts) text += ", restarts " + std::to_string(stats.restarts);
  return text;
}

Status parse_summary_tsv(const std::string& text, const std::string& input_name,
                         std::vector<MatchGameRow>& rows) {
  std::istringstream in(text);
  std::string line;
  int line_number = 0;
  auto fail = [&](const std::string& why) {
    return Status::error(input_name + ":" + std::to_string(line_number) + ": " + why);
  };
  std::vector<MatchGameRow> out;
  while (std::getline(in, line)) {
    ++line_number;
    if (line_number == 1) {
      if (line.rfind("game\tblack\twhite\tresult\tplies\treason", 0) != 0)
        return fail("not a sashite match summary (header '" + line + "')");
      continue;
    }
    if (line.empty()) continue;
    std::vector<std::string> cols;
    std::istringstream cells(line);
    for (std::string c; std::getline(cells, c, '\t');) cols.push_back(c);
    if (cols.size() != 8 && cols.size() != 15) return fail("expected 8 or 15 columns");
    MatchGameRow r;
    char* end = nullptr;
    r.number = int(std::strtol(cols[0].c_str(), &end, 10));
    if (*end != '\0' || r.number < 1) return fail("bad game number '" + cols[0] + "'");
    r.black = cols[1];
    r.white = cols[2];
    r.result = cols[3];
    if (r.result != "1-0" && r.result != "0-1" && r.result != "1/2-1/2")
      return fail("bad result '" + r.result + "'");
    r.plies = int(std::strtol(cols[4].c_str(), &end, 10));
    r.reason = cols[5];
    for (int c = 0; c < 2; ++c)
      if (cols[size_t(6 + c)] != "-")
        (c == 0 ? r.black_depth : r.white_depth) =
            std::strtod(cols[size_t(6 + c)].c_str(), nullptr);
    if (cols.size() == 15) {
      MatchGameRow::Sprt t;
      t.pairs = std::strtoll(cols[8].c_str(), nullptr, 10);
      double* values[6] = {&t.state.llr, &t.state.lower, &t.state.upper,
                           &t.elo.elo,   &t.elo.lower,   &t.elo.upper};
      for (int k = 0; k < 6; ++k) *values[k] = std::strtod(cols[size_t(9 + k)].c_str(), nullptr);
      r.sprt = t;
    }
    out.push_back(std::move(r));
  }
  rows = std::move(out);
  return Status::ok();
}

bool PairTally::add(int index, int half_points) {
  const size_t pair = size_t(index) / 2;
  if (pair >= done_.size()) return false;
  half_points_[pair] += half_points;
  if (++done_[pair] != 2) return false;
  pentanomial_.add(half_points_[pair]);
  return true;
}

namespace {
std::string summary_number(double v, int decimals) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return format_average(v, decimals);
}
}  // namespace

std::string format_summary_tsv(std::vector<MatchGameRow> rows, bool with_sprt) {
  std::sort(rows.begin(), rows.end(),
            [](const MatchGameRow& a, const MatchGameRow& b) { return a.number < b.number; });
  auto clean = [](std::string s) {
    std::replace(s.begin(), s.end(), '\t', ' ');
    return s;
  };
  std::string s = "game\tblack\twhite\tresult\tplies\treason\tblack_depth\twhite_depth";
  if (with_sprt) s += "\tpairs\tllr\tllr_lower\tllr_upper\telo\telo_lower\telo_upper";
  s += "\n";
  for (const MatchGameRow& r : rows) {
    s += std::to_string(r.number) + "\t" + clean(r.black) + "\t" + clean(r.white) + "\t" +
         r.result + "\t" + std::to_string(r.plies) + "\t" + r.reason + "\t" +
         format_average(r.black_depth, 2) + "\t" + format_average(r.white_depth, 2);
    if (with_sprt) {
      const MatchGameRow::Sprt t = r.sprt.value_or(MatchGameRow::Sprt{});
      s += "\t" + std::to_string(t.pairs) + "\t" + summary_number(t.state.llr, 3) + "\t" +
           summary_number(t.state.lower, 3) + "\t" + summary_number(t.state.upper, 3) + "\t" +
           summary_number(t.elo.elo, 1) + "\t" + summary_number(t.elo.lower, 1) + "\t" +
           summary_number(t.elo.upper, 1);
    }
    s += "\n";
  }
  return s;
}

Status run_match(const MatchOptions& o, std::ostream& out) {
  if (Status s = validate_match_options(o); !s) return s;
  for (const std::string* command : {&o.engine1, &o.engine2}) {
    std::vector<std::string> argv;
    if (Status s = base::split_command_line(*command, argv); !s)
      return Status::error("'" + *command + "': " + s.message());
  }
  std::vector<Opening> openings;
  if (!o.openings_path.empty())
    if (Status s = load_openings(o.openings_path, openings); !s) return s;
  fs::path dir;
  if (Status s = make_out_dir(o.out_dir, dir); !s) return s;
  std::vector<GameSetup> games = plan_games(o, openings);
  for (GameSetup& g : games) {
    const fs::path stem = dir / game_file_stem(g.number);
    if (o.log) g.log_path = stem.string() + ".log";
    if (o.engine_stderr) g.black.stderr_path = g.white.stderr_path = stem.string() + ".stderr";
  }
  out << "match: engine1 = " << o.engine1 << ", engine2 = " << o.engine2 << "\n"
      << "match: " << games.front().event << ", " << o.jobs << " at a time, "
      << (o.reuse_engines ? "engine processes kept between games" : "new engine processes per game")
      << ", records in " << dir.string() << std::endl;
  for (const std::string* command : {&o.engine1, &o.engine2}) {
    if (!usi::is_gpsusi_command(*command)) continue;
    if (o.nodes > 0 || o.depth > 0)
      out << "match: warning: gpsusi exits on 'go nodes' and 'go depth': it will lose every game\n";
    const int byoyomi_ms =
        command == &o.engine2 && o.byoyomi2_ms > 0 ? o.byoyomi2_ms : o.byoyomi_ms;
    if (byoyomi_ms > 0 && byoyomi_ms + o.time_margin_ms < 1000)
      out << "match: warning: gpsusi thinks about 0.8 s whatever the byoyomi; "
             "byoyomi + margin below 1000 ms risks time losses\n";
  }

  const bool with_sprt = !o.sprt.empty();
  SprtConfig sprt;
  if (with_sprt) {
    (void)parse_sprt_bounds(o.sprt, sprt);  // checked by validate_match_options
    sprt.alpha = o.sprt_alpha;
    sprt.beta = o.sprt_beta;
  }

  std::mutex mu;  // guards everything below it, and `out`
  PairTally pairs(int(games.size()));
  bool sprt_decided = false;
  MatchScore score;
  std::vector<MatchGameRow> rows;
  std::string names[2];       // engine1's and engine2's "id name", once known
  MatchEngineStats stats[2];  // engine1's and engine2's
  // What an engine could not set up (its errors at isready), each shown once per engine: an
  // engine that plays without its weights or book must not go unnoticed in a long match.
  std::set<std::pair<std::string, std::string>> shown_ready_errors;
  Status failure;
  std::atomic<bool> stop{false};
  // With --resume: the games already played count, and are skipped.
  std::vector<bool> played(games.size(), false);
  if (o.resume) {
    const fs::path summary = dir / "summary.tsv";
    std::vector<MatchGameRow> old;
    std::error_code ec;
    if (fs::exists(summary, ec)) {
      std::string text;
      if (Status s = shogi::read_record_file_text(summary.string(), text); !s) return s;
      if (Status s = parse_summary_tsv(text, summary.string(), old); !s) return s;
    }
    for (const MatchGameRow& r : old) {
      const size_t i = size_t(r.number - 1);
      if (i >= games.size() || played[i])
        return Status::error(summary.string() + ": game " + std::to_string(r.number) +
                             (i >= games.size() ? " is beyond this match's " +
                                                      std::to_string(games.size()) + " games"
                                                : " is listed twice"));
      played[i] = true;
      const GameWinner winner = r.result == "1-0"   ? GameWinner::kBlack
                                : r.result == "0-1" ? GameWinner::kWhite
                                                    : GameWinner::kDraw;
      const bool engine1_black = games[i].black_label == "engine1";
      score.add(winner, engine1_black ? shogi::kBlack : shogi::kWhite);
      const int half_points = winner == GameWinner::kDraw                       ? 1
                              : (winner == GameWinner::kBlack) == engine1_black ? 2
                                                                                : 0;
      pairs.add(int(i), half_points);
      if (r.reason == "time_up")
        ++stats[(winner == GameWinner::kBlack) == engine1_black ? 1 : 0].time_losses;
      names[engine1_black ? 0 : 1] = r.black;
      names[engine1_black ? 1 : 0] = r.white;
      rows.push_back(r);
    }
    out << "match: resuming " << dir.string() << ": " << old.size() << " of " << games.size()
        << " games already played (" << score_text(score)
        << "; their search statistics are not in the totals)" << std::endl;
    if (with_sprt && pairs.pentanomial().pairs() > 0) {
      const SprtState now = sprt_state(pairs.pentanomial(), sprt);
      out << "sprt: " << format_sprt(now, sprt) << " after " << pairs.pentanomial().pairs()
          << " pairs (" << pairs.pentanomial().text() << ")" << std::endl;
      if (now.decision != SprtDecision::kContinue) {
        sprt_decided = true;
        stop = true;
      }
    }
  }
  std::atomic<size_t> next{0};
  auto worker = [&] {
    MatchEngine engines[2] = {MatchEngine(o.reuse_engines), MatchEngine(o.reuse_engines)};
    for (size_t i; !stop && (i = next++) < games.size();) {
      if (played[i]) continue;
      const GameSetup& g = games[i];
      const int black_index = g.black_label == "engine1" ? 0 : 1;  // into engines and stats
      GameOutcome r = play_game(g, engines[black_index], engines[1 - black_index]);
      std::lock_guard<std::mutex> lock(mu);
      if (!r.error.is_ok()) {
        if (failure.is_ok())
          failure = Status::error("game " + std::to_string(g.number) + ": " + r.error.message());
        stop = true;
        continue;
      }
      const Color engine1_color = g.black_label == "engine1" ? shogi::kBlack : shogi::kWhite;
      score.add(r.end.winner, engine1_color);
      const int half_points =
          r.end.winner == GameWinner::kDraw                                          ? 1
          : (r.end.winner == GameWinner::kBlack) == (engine1_color == shogi::kBlack) ? 2
                                                                                     : 0;
      const bool pair_done = with_sprt && pairs.add(int(i), half_points);
      names[black_index] = r.black_name;
      names[1 - black_index] = r.white_name;
      for (int c = 0; c < 2; ++c) {
        MatchEngineStats& st = stats[c == shogi::kBlack ? black_index : 1 - black_index];
        st.search.add(r.search[c]);
        if (r.restarted[c]) ++st.restarts;
      }
      if (r.end.reason == EndReason::kTimeUp)  // the winner's opponent lost on time
        ++stats[(r.end.winner == GameWinner::kBlack) == (black_index == 0) ? 1 : 0].time_losses;
      const std::string stem = game_file_stem(g.number);
      Status w = base::replace_file((dir / (stem + ".csa")).string(),
                                    shogi::write_csa_record(r.record, shogi::CsaVersion::kV30));
      rows.push_back({g.number, r.black_name, r.white_name, winner_result_text(r.end.winner),
                      end_reason_name(r.end.reason), r.plies,
                      r.search[shogi::kBlack].average_depth(),
                      r.search[shogi::kWhite].average_depth(), std::nullopt});
      MatchGameRow::Sprt sprt_now;
      if (with_sprt) {
        sprt_now.pairs = pairs.pentanomial().pairs();
        sprt_now.state = sprt_state(pairs.pentanomial(), sprt);
        sprt_now.elo = estimate_elo_pentanomial(pairs.pentanomial());
        rows.back().sprt = sprt_now;
      }
      if (w.is_ok())
        w = base::replace_file((dir / "summary.tsv").string(), format_summary_tsv(rows, with_sprt));
      if (!w.is_ok() && failure.is_ok()) {
        failure = w;
        stop = true;
      }
      out << "game " << g.number << "/" << games.size() << " " << stem << ": " << g.black_label
          << " (black) vs " << g.white_label << " (white): " << winner_result_text(r.end.winner)
          << " " << end_reason_name(r.end.reason) << " after " << r.plies << " plies; "
          << score_text(score) << std::endl;
      if (r.end.reason != EndReason::kResign && r.end.reason != EndReason::kMaxPlies &&
          r.end.reason != EndReason::kRepetition && r.end.reason != EndReason::kDeclaration)
        out << "  (" << r.end.detail << ")" << std::endl;
      for (int c = 0; c < 2; ++c) {
        const std::string& label = c == shogi::kBlack ? g.black_label : g.white_label;
        if (r.restarted[c])
          out << "  (" << label << " was restarted for this game after a fault)" << std::endl;
        for (const std::string& line : r.ready_errors[c])
          if (shown_ready_errors.emplace(label, line).second)
            out << "  (" << label << " at isready: " << line << ")" << std::endl;
      }
      if (pair_done) {
        out << "sprt: " << format_sprt(sprt_now.state, sprt) << " after " << sprt_now.pairs
            << " pairs (" << pairs.pentanomial().text() << "), Elo " << format_elo(sprt_now.elo)
            << std::endl;
        if (sprt_now.state.decision != SprtDecision::kContinue && !sprt_decided) {
          sprt_decided = true;
          stop = true;
          out << "sprt: "
              << (sprt_now.state.decision == SprtDecision::kAcceptH1
                      ? "H1 (elo = " + format_average(sprt.elo1, 1) + ")"
                      : "H0 (elo = " + format_average(sprt.elo0, 1) + ")")
              << " accepted after " << score.games()
              << " games; games under way are finished and counted" << std::endl;
        }
      }
    }
    // Kept processes: quit, then two seconds to exit.
    for (MatchEngine& e : engines) e.shut_down();
    const auto deadline = MatchEngine::Clock::now() + std::chrono::milliseconds(2000);
    for (MatchEngine& e : engines) e.release(deadline);
  };
  std::vector<std::thread> threads;
  const int n_threads = std::min<int>(o.jobs, int(games.size()));
  for (int t = 0; t < n_threads; ++t) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();

  const EloEstimate elo = estimate_elo(score.wins, score.losses, score.draws);
  out << "engine1: " << (names[0].empty() ? o.engine1 : names[0]) << "\n"
      << "engine2: " << (names[1].empty() ? o.engine2 : names[1]) << "\n"
      << format_engine_stats("engine1", stats[0], o.reuse_engines) << "\n"
      << format_engine_stats("engine2", stats[1], o.reuse_engines) << "\n"
      << format_think_time(stats[0].search, stats[1].search) << "\n"
      << "final: " << score_text(score) << " in " << score.games() << " games\n"
      << "Elo difference engine1 - engine2: " << format_elo(elo) << "\n";
  if (with_sprt) {
    const SprtState final_state = sprt_state(pairs.pentanomial(), sprt);
    out << "sprt: final " << format_sprt(final_state, sprt) << " after "
        << pairs.pentanomial().pairs() << " pairs (" << pairs.pentanomial().text() << ")"
        << (final_state.decision == SprtDecision::kContinue ? ", undecided" : "") << "\n"
        << "Elo from the pairs: " << format_elo(estimate_elo_pentanomial(pairs.pentanomial()))
        << "\n";
  }
  out << "records: " << dir.string() << "/g*.csa, summary: " << (dir / "summary.tsv").string()
      << std::endl;
  return failure;
}

}  // namespace tools
