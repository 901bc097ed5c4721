// `sashite tune`: workers play SPSA game pairs; results move theta; state saved after each.
#include "tools/match/tune_runner.h"

#include <cstdio>
#include <filesystem>
#include <mutex>
#include <thread>

#include "base/file_write.h"
#include "engine/search_params.h"
#include "tools/match/match_game.h"
#include "tools/match/match_openings.h"
#include "tools/match/match_options.h"

namespace tools {

using base::Status;

std::vector<SpsaParam> engine_search_params() {
  std::vector<SpsaParam> params;
  for (int i = 0; i < engine::kSearchParamCount; ++i) {
    const engine::SearchParamSpec& s = engine::search_param_spec(engine::SearchParam(i));
    params.push_back(
        {s.name, double(s.default_value), double(s.min), double(s.max), s.c_end, s.r_end});
  }
  return params;
}

Status validate_tune_options(const TuneOptions& o) {
  if (o.engine.empty()) return Status::error("--engine is required");
  if (o.params_path.empty()) return Status::error("--params is required");
  if (o.openings_path.empty()) return Status::error("--openings is required");
  const bool clock = !o.time_control.empty() || o.byoyomi_ms > 0;
  if (clock + (o.nodes > 0) != 1)
    return Status::error("give exactly one of a clock (--tc, --byoyomi) and --nodes N");
  if (o.jobs < 1) return Status::error("--jobs must be at least 1");
  if (o.report_every < 1) return Status::error("--report-every must be at least 1");
  for (const std::string& kv : o.options)
    if (kv.find('=') == std::string::npos || kv.front() == '=')
      return Status::error("USI option '" + kv + "': expected NAME=VALUE");
  std::vector<std::string> argv;
  if (Status s = base::split_command_line(o.engine, argv); !s)
    return Status::error("'" + o.engine + "': " + s.message());
  int64_t main_time_ms = 0, increment_ms = 0;
  if (!o.time_control.empty())
    if (Status s = parse_time_control(o.time_control, main_time_ms, increment_ms); !s) return s;
  if (increment_ms > 0 && o.byoyomi_ms > 0)
    return Status::error("--tc with an increment and --byoyomi do not mix");
  return Status::ok();
}

namespace {

std::string theta_text(const std::vector<SpsaParam>& params) {
  std::string s;
  char buf[64];
  for (const SpsaParam& p : params) {
    std::snprintf(buf, sizeof buf, "%s%s=%.2f", s.empty() ? "" : " ", p.name.c_str(), p.value);
    s += buf;
  }
  return s;
}

// engine1's (the plus side's) points in half points: 2 win, 1 draw, 0 loss.
int plus_half_points(const GameOutcome& r, bool plus_black) {
  if (r.end.winner == GameWinner::kDraw) return 1;
  return (r.end.winner == GameWinner::kBlack) == plus_black ? 2 : 0;
}

}  // namespace

Status run_tune(const TuneOptions& o, std::ostream& out) {
  if (Status s = validate_tune_options(o); !s) return s;
  MatchLimits limits;
  if (!o.time_control.empty())
    (void)parse_time_control(o.time_control, limits.main_time_ms, limits.increment_ms);  // checked
  limits.byoyomi_ms = o.byoyomi_ms;
  limits.nodes = o.nodes;
  limits.time_margin_ms = o.time_margin_ms;
  limits.move_timeout_ms = o.move_timeout_ms;
  limits.ready_timeout_ms = o.ready_timeout_ms;
  limits.max_plies = o.max_plies;

  SpsaState state;
  if (Status s = load_spsa_params(o.params_path, state.params); !s) return s;
  std::vector<Opening> openings;
  if (Status s = load_openings(o.openings_path, openings); !s) return s;
  const std::string state_path = o.state_path.empty() ? o.params_path + ".state" : o.state_path;
  const std::string out_path = o.out_path.empty() ? o.params_path + ".tuned" : o.out_path;
  state.seed = o.seed;
  state.total_iterations = o.iterations;
  std::error_code ec;
  if (std::filesystem::exists(state_path, ec)) {
    std::string text;
    if (Status s = shogi::read_record_file_text(state_path, text); !s) return s;
    SpsaState saved;
    if (Status s = parse_spsa_state(text, state_path, saved); !s) return s;
    if (saved.params.size() != state.params.size())
      return Status::error(state_path + ": holds " + std::to_string(saved.params.size()) +
                           " parameters, " + o.params_path + " " +
                           std::to_string(state.params.size()) +
                           " (delete the state to start afresh)");
    for (size_t i = 0; i < saved.params.size(); ++i)
      if (saved.params[i].name != state.params[i].name)
        return Status::error(state_path + ": parameter " + std::to_string(i + 1) + " is " +
                             saved.params[i].name + ", " + o.params_path + " has " +
                             state.params[i].name + " (delete the state to start afresh)");
    if (o.iterations > 0 && o.iterations != saved.total_iterations)
      return Status::error(state_path + ": a run of " + std::to_string(saved.total_iterations) +
                           " pairs, not " + std::to_string(o.iterations) +
                           " (the gains depend on it; delete the state to start afresh)");
    if (o.seed != 1 && o.seed != saved.seed)
      return Status::error(state_path + ": a run with seed " + std::to_string(saved.seed));
    state = saved;
    out << "tune: resuming " << state_path << " after " << state.iterations_done << " of "
        << state.total_iterations << " pairs" << std::endl;
  } else if (o.iterations <= 0) {
    return Status::error("--iterations is required (no state to resume at " + state_path + ")");
  }
  const SpsaSchedule schedule{state.total_iterations};
  out << "tune: " << state.params.size() << " parameters, " << state.total_iterations
      << " pairs, engine " << o.engine << ", " << go_command(limits) << ", openings "
      << o.openings_path << " (" << openings.size() << "), " << o.jobs << " at a time; state "
      << state_path << ", tuned values " << out_path << std::endl;
  out << "theta: " << theta_text(state.params) << std::endl;

  std::mutex mu;  // guards state, next, failure, out
  int next = state.iterations_done;
  Status failure;
  bool stop = false;
  const std::vector<std::pair<std::string, std::string>> fixed = usi::split_usi_options(o.options);
  auto worker = [&] {
    for (;;) {
      int k;
      std::vector<SpsaParam> theta;
      {
        std::lock_guard<std::mutex> lock(mu);
        if (stop || next >= state.total_iterations) return;
        k = next++;
        theta = state.params;
      }
      const SpsaPerturbation pert = spsa_perturbation(theta, schedule, k, state.seed);
      auto config = [&](const std::vector<int>& values) {
        usi::EngineConfig c{o.engine, fixed, false, "", {}, ""};
        for (size_t i = 0; i < theta.size(); ++i)
          c.options.emplace_back(theta[i].name, std::to_string(values[i]));
        return c;
      };
      const usi::EngineConfig plus = config(pert.plus), minus = config(pert.minus);
      const Opening& opening = openings[spsa_random(state.seed, k, ~0ull) % openings.size()];
      int half_points = 0, wins = 0, losses = 0;
      Status error;
      for (int game = 0; game < 2 && error.is_ok(); ++game) {
        const bool plus_black = game == 0;
        GameSetup g;
        g.number = 2 * k + game + 1;
        g.black = plus_black ? plus : minus;
        g.white = plus_black ? minus : plus;
        g.black_label = plus_black ? "plus" : "minus";
        g.white_label = plus_black ? "minus" : "plus";
        g.opening = opening;
        g.limits = limits;
        g.event = "sashite tune";
        const GameOutcome r = play_game(g);
        if (!r.error.is_ok()) {
          error = r.error;
          break;
        }
        const int hp = plus_half_points(r, plus_black);
        half_points += hp;
        wins += hp == 2;
        losses += hp == 0;
      }
      std::lock_guard<std::mutex> lock(mu);
      if (!error.is_ok()) {
        if (failure.is_ok())
          failure = Status::error("pair " + std::to_string(k + 1) + ": " + error.message());
        stop = true;
        return;
      }
      const int result = wins - losses;
      spsa_update(state.params, schedule, k, pert, result);
      ++state.iterations_done;
      state.plus_wins += wins;
      state.plus_losses += losses;
      state.draws += 2 - wins - losses;
      Status w = base::replace_file(state_path, format_spsa_state(state));
      if (w.is_ok())
        w = base::replace_file(
            out_path,
            format_spsa_params(
                state.params, "sashite tune: theta after " + std::to_string(state.iterations_done) +
                                  " of " + std::to_string(state.total_iterations) + " pairs"));
      if (!w.is_ok()) {
        if (failure.is_ok()) failure = w;
        stop = true;
        return;
      }
      out << "pair " << state.iterations_done << "/" << state.total_iterations << " (k " << k
          << "): plus " << (result > 0 ? "+" : "") << result << " (" << half_points
          << "/4 half points); plus side so far " << state.plus_wins << "-" << state.plus_losses
          << "-" << state.draws << std::endl;
      if (state.iterations_done % o.report_every == 0 ||
          state.iterations_done == state.total_iterations)
        out << "theta: " << theta_text(state.params) << std::endl;
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < o.jobs; ++t) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  if (failure.is_ok())
    out << "tune: " << state.iterations_done << " of " << state.total_iterations
        << " pairs done; tuned values in " << out_path << std::endl;
  return failure;
}

Status write_spsa_defaults(const std::string& path, std::ostream& out) {
  const std::string text = format_spsa_params(
      engine_search_params(),
      "sashite's search and time parameters, their defaults (engine/search_params.cpp)");
  if (Status s = base::replace_file(path, text); !s) return s;
  out << "tune: wrote " << engine_search_params().size() << " parameters to " << path << "\n";
  return Status::ok();
}

}  // namespace tools
