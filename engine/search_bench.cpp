// The search benchmark: positions and the timed run.
#include "engine/search_bench.h"

#include <chrono>
#include <cstdio>

#include "engine/engine.h"
#include "engine/names.h"
#include "shogi/notation.h"

namespace engine {

const std::vector<std::string>& search_bench_positions() {
  static const std::vector<std::string> positions = {
      // Openings.
      "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
      "lnsgkgsnl/1r5b1/ppp1ppppp/3p5/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 4",
      "ln1g1gsnl/1r1s1k1b1/p1pp1pppp/4p4/1p7/2P1P4/PPBP1PPPP/2S1R4/LN1GKGSNL b - 11",
      "lnsgk2nl/1r4gs1/p1pppp1pp/6p2/1p7/2P4P1/PPSPPPP1P/6SR1/LN1GKG1NL b Bb 13",
      // Middle games.
      "lns1k2nl/2gr3s1/1pp1ppg1p/p2b5/3p1P3/2P3G2/PPSPP1S1P/2K4R1/LN1G3NL w B2P2p 36",
      "lnsg2snl/4k1g2/2ppppb2/pr6p/9/P1P3R1P/3PPPP2/1BG1K2S1/LNS2G1NL w 3P2p 26",
      "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
      "l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91",
      // Endgames.
      "ln6l/1kg2P3/1p5gp/p2pp2p1/1s4p2/P4+R3/1PGPP1PRP/9/LS2K1SNL b 2BN4Pgsn 85",
      "1+R2g3l/3s1kgs1/5p2p/2p1p4/1Kbp1N3/S5P2/N4P2P/1G2G2S1/+rP6L w BNL2Pnl7p 108",
      // Mate problems (the defender's king only).
      "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1",
      "6Snl/8k/9/8s/8s/9/9/9/9 b RGSr2b3g3n3l18p 1",
  };
  return positions;
}

Status set_bench_options(Engine& engine, const std::vector<std::string>& options) {
  for (const std::string& o : options) {
    const size_t eq = o.find('=');
    Status s = eq == std::string::npos ? Status::error("option '" + o + "' is not name=value")
                                       : engine.set_option(o.substr(0, eq), o.substr(eq + 1));
    if (!s) return s;
  }
  return Status::ok();
}

SearchBenchResult run_search_bench(std::ostream& out, int depth,
                                   const std::vector<std::string>& options) {
  Engine engine;
  engine.set_option("Threads", "1");
  engine.set_option("USI_Hash", "64");
  if (Status s = set_bench_options(engine, options); !s) {
    SearchBenchResult failed;
    failed.error = s.message();
    return failed;
  }
  // Measuring with other weights than those asked for would give another signature.
  if (Status ready = engine.prepare(); !ready) {
    SearchBenchResult failed;
    failed.load_error = ready.message();
    return failed;
  }
  SearchBenchResult total;
  int index = 0;
  for (const std::string& sfen : search_bench_positions()) {
    ++index;
    engine.new_game();
    Status s = engine.set_position(sfen, {});
    if (!s) {
      out << "bench: " << s.message() << "\n";
      continue;
    }
    SearchLimits limits;
    limits.depth = depth;
    const auto start = std::chrono::steady_clock::now();
    const SearchResult r = engine.search(limits);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    total.nodes += r.nodes;
    total.seconds += seconds;
    char line[200];
    std::snprintf(line, sizeof line, "position %2d: %-6s score %6d nodes %10llu %7.3f s  ", index,
                  r.kind == SearchResult::Kind::kMove  ? format_usi_move(r.best).c_str()
                  : r.kind == SearchResult::Kind::kWin ? "win"
                                                       : "resign",
                  r.score, (unsigned long long)r.nodes, seconds);
    out << line << sfen << "\n";
  }
  out << "Nodes searched: " << total.nodes << "\n";
  out << "Nodes/second: " << uint64_t(total.seconds > 0 ? total.nodes / total.seconds : 0) << "\n";
  return total;
}

}  // namespace engine
