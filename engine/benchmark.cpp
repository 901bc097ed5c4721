// The move-generation benchmark: times perft over positions with published counts (a fixed
// suite, or the lines of a perft reference file); and `sashite perft` on one position.
#include "engine/benchmark.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/names.h"
#include "shogi/notation.h"
#include "shogi/perft.h"
#include "shogi/position.h"

namespace engine {

const std::vector<PerftBenchCase>& perft_bench_suite() {
  static const std::vector<PerftBenchCase> suite = {
      {"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 6, 547581517ULL},
      {"l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1", 4, 516925165ULL},
      {"l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91", 4,
       129175973ULL},
      {"9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1", 3, 112911856ULL},
      {"k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1", 4, 13033326ULL},
  };
  return suite;
}

Status read_perft_cases(std::istream& in, const std::string& name,
                        std::vector<PerftBenchCase>& cases) {
  std::string line;
  for (int line_number = 1; std::getline(in, line); ++line_number) {
    const std::string where = name + ": line " + std::to_string(line_number) + ": ";
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    if (line.compare(first, 5, "sfen ") != 0)
      return Status::error(where + "expected 'sfen <SFEN> | <counts>'");
    const size_t bar = line.find('|');
    if (bar == std::string::npos) return Status::error(where + "no '|' before the counts");
    std::string sfen = line.substr(first + 5, bar - first - 5);
    while (!sfen.empty() && sfen.back() == ' ') sfen.pop_back();
    Position pos;
    if (const Status status = pos.set_sfen(sfen); !status)
      return Status::error(where + status.message());
    std::istringstream counts(line.substr(bar + 1));
    std::string word;
    int depth = 0;
    while (counts >> word) {
      uint64_t count = 0;
      size_t used = 0;
      try {
        count = std::stoull(word, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != word.size() || word[0] == '-')
        return Status::error(where + "count '" + word + "' is not a number");
      cases.push_back({sfen, ++depth, count});
    }
    if (depth == 0) return Status::error(where + "no counts after '|'");
  }
  return Status::ok();
}

bool run_perft_bench(std::ostream& out, const std::vector<PerftBenchCase>& cases) {
  using Clock = std::chrono::steady_clock;
  uint64_t total = 0;
  double total_seconds = 0;
  bool all_ok = true;
  for (const PerftBenchCase& c : cases) {
    Position pos;
    if (!pos.set_sfen(c.sfen)) return false;
    const auto start = Clock::now();
    const uint64_t leaves = perft(pos, c.depth);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    total += leaves;
    total_seconds += seconds;
    const bool ok = leaves == c.expected;
    all_ok &= ok;
    char line[160];
    std::snprintf(line, sizeof line, "perft %d %12llu leaves %8.3f s %8.1f M/s %s  ", c.depth,
                  (unsigned long long)leaves, seconds, seconds > 0 ? leaves / seconds / 1e6 : 0.0,
                  ok ? "ok" : "WRONG");
    out << line << c.sfen << "\n";
  }
  out << "Nodes searched: " << total << "\n";
  out << "Nodes/second: " << uint64_t(total_seconds > 0 ? total / total_seconds : 0) << "\n";
  return all_ok;
}

Status load_perft_cases(const std::string& path, std::vector<PerftBenchCase>& cases) {
  std::ifstream in(path);
  if (!in) return Status::error("cannot read " + path);
  // A directory opens, and would read as an empty file.
  if (std::error_code ec; std::filesystem::is_directory(path, ec))
    return Status::error("cannot read " + path + ": Is a directory");
  return read_perft_cases(in, path, cases);
}

Status run_perft(const PerftOptions& options, std::ostream& out, std::ostream& err) {
  Position pos;
  if (!options.sfen.empty()) {
    Status status = pos.set_sfen(options.sfen);
    if (!status) return status;
  }
  const auto start = std::chrono::steady_clock::now();
  uint64_t total = 0;
  if (options.divide) {
    for (const auto& [move, count] : perft_divide(pos, options.depth)) {
      out << format_usi_move(move) << ": " << count << "\n";
      total += count;
    }
    if (options.depth == 0) total = 1;
  } else {
    total = perft(pos, options.depth);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out << total << std::endl;
  char line[128];
  std::snprintf(line, sizeof line, "perft %d: %llu leaves in %.3f s (%.1f M leaves/s)\n",
                options.depth, (unsigned long long)total, seconds,
                seconds > 0 ? total / seconds / 1e6 : 0.0);
  err << line;
  return Status::ok();
}

}  // namespace engine
