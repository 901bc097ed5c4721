// sashite sprt --sprt ELO0,ELO1 (--pentanomial LL,LD,DD,WD,WW | --simulate ELO): the LLR of a
// table of pairs (a match stopped early, another runner's counts), or the test's error rates
// and lengths on synthetic pairs (tools/match/sprt.h).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "app/command_error.h"
#include "app/commands.h"
#include "tools/match/sprt.h"

namespace {

struct SprtCommandOptions {
  std::string bounds = "0,5";
  double alpha = 0.05, beta = 0.05;
  std::string pentanomial;
  double simulate_elo = 0;
  bool simulate = false;
  int runs = 1000;
  double draw_ratio = 0.3;
  int64_t max_pairs = 1000000;
  uint64_t seed = 1;
};

base::Status run_sprt(const SprtCommandOptions& o, std::ostream& out) {
  tools::SprtConfig c;
  if (base::Status s = tools::parse_sprt_bounds(o.bounds, c); !s) return s;
  c.alpha = o.alpha;
  c.beta = o.beta;
  if (base::Status s = tools::validate_sprt(c); !s) return s;
  if (o.simulate == !o.pentanomial.empty())
    return base::Status::error("give one of --pentanomial LL,LD,DD,WD,WW and --simulate ELO");
  if (!o.pentanomial.empty()) {
    tools::Pentanomial p;
    if (base::Status s = tools::parse_pentanomial(o.pentanomial, p); !s) return s;
    const tools::SprtState state = tools::sprt_state(p, c);
    out << "pairs: " << p.pairs() << " (" << p.text() << ")\n"
        << "sprt: " << tools::format_sprt(state, c)
        << (state.decision == tools::SprtDecision::kContinue ? ", undecided" : "") << "\n"
        << "Elo from the pairs: " << tools::format_elo(tools::estimate_elo_pentanomial(p)) << "\n";
    return base::Status::ok();
  }
  const double s = tools::score_from_elo(o.simulate_elo);
  if (!(o.draw_ratio >= 0 && o.draw_ratio < 1) || s - o.draw_ratio / 2 < 0 ||
      1 - s - o.draw_ratio / 2 < 0)
    return base::Status::error("--draw-ratio " + std::to_string(o.draw_ratio) +
                               ": impossible at that Elo (wins and losses would be negative)");
  const tools::SprtSimulation sim =
      tools::simulate_sprt(c, o.simulate_elo, o.draw_ratio, o.runs, o.max_pairs, o.seed);
  char line[256];
  std::snprintf(line, sizeof line,
                "simulated %d runs at elo %+.1f (draw ratio %.2f): H1 accepted %d (%.4f), H0 "
                "accepted %d (%.4f), undecided %d; %.1f pairs a run\n",
                sim.runs, o.simulate_elo, o.draw_ratio, sim.accepted_h1,
                double(sim.accepted_h1) / sim.runs, sim.accepted_h0,
                double(sim.accepted_h0) / sim.runs, sim.undecided, sim.average_pairs);
  out << "sprt: [" << o.bounds << "] alpha " << c.alpha << " beta " << c.beta << "\n" << line;
  return base::Status::ok();
}

}  // namespace

CommandRun add_sprt_options(CLI::App& sub) {
  auto o = std::make_shared<SprtCommandOptions>();
  sub.add_option("--sprt", o->bounds, "ELO0,ELO1")->capture_default_str();
  sub.add_option("--alpha", o->alpha, "false-positive rate")->capture_default_str();
  sub.add_option("--beta", o->beta, "false-negative rate")->capture_default_str();
  sub.add_option("--pentanomial", o->pentanomial,
                 "counts of game pairs LL,LD,DD,WD,WW (engine1 scored 0, 1/2, 1, 3/2, 2)");
  sub.add_option("--simulate", o->simulate_elo, "run the test on synthetic pairs at this true Elo")
      ->each([o](const std::string&) { o->simulate = true; });
  sub.add_option("--runs", o->runs, "with --simulate: tests to run")
      ->check(CLI::Range(1, 10000000))
      ->capture_default_str();
  sub.add_option("--draw-ratio", o->draw_ratio, "with --simulate: the chance of a draw per game")
      ->capture_default_str();
  sub.add_option("--max-pairs", o->max_pairs, "with --simulate: a run stops undecided here")
      ->check(CLI::Range(int64_t(1), int64_t(1) << 40))
      ->capture_default_str();
  sub.add_option("--seed", o->seed, "with --simulate: the random stream")->capture_default_str();
  return [o] {
    if (const base::Status s = run_sprt(*o, std::cout); !s)
      return command_failed("sprt", s.message(), 2);
    return 0;
  };
}
