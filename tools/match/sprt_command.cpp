// `sashite sprt`: the match's sequential test on a table of game pairs, or simulated.
#include "tools/match/sprt_command.h"

#include <cstdio>

#include "tools/match/sprt.h"

namespace tools {

base::Status run_sprt_command(const SprtCommandOptions& o, std::ostream& out) {
  SprtConfig c;
  if (base::Status s = parse_sprt_bounds(o.bounds, c); !s) return s;
  c.alpha = o.alpha;
  c.beta = o.beta;
  if (base::Status s = validate_sprt(c); !s) return s;
  if (o.simulate == !o.pentanomial.empty())
    return base::Status::error("give one of --pentanomial LL,LD,DD,WD,WW and --simulate ELO");
  if (!o.pentanomial.empty()) {
    Pentanomial p;
    if (base::Status s = parse_pentanomial(o.pentanomial, p); !s) return s;
    const SprtState state = sprt_state(p, c);
    out << "pairs: " << p.pairs() << " (" << p.text() << ")\n"
        << "sprt: " << format_sprt(state, c)
        << (state.decision == SprtDecision::kContinue ? ", undecided" : "") << "\n"
        << "Elo from the pairs: " << format_elo(estimate_elo_pentanomial(p)) << "\n";
    return base::Status::ok();
  }
  const double s = score_from_elo(o.simulate_elo);
  if (!(o.draw_ratio >= 0 && o.draw_ratio < 1) || s - o.draw_ratio / 2 < 0 ||
      1 - s - o.draw_ratio / 2 < 0)
    return base::Status::error("--draw-ratio " + std::to_string(o.draw_ratio) +
                               ": impossible at that Elo (wins and losses would be negative)");
  const SprtSimulation sim =
      simulate_sprt(c, o.simulate_elo, o.draw_ratio, o.runs, o.max_pairs, o.seed);
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

}  // namespace tools
