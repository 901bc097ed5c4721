// perft against published leaf counts: start position to depth 4 (fast), every line of
// tests/data/perft.txt in the slow suite.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/movegen.h"
#include "engine/perft.h"
#include "engine/position.h"

using namespace engine;

namespace {

struct PerftLine {
  std::string sfen;
  std::vector<uint64_t> counts;
};

std::vector<PerftLine> read_perft_file() {
  std::ifstream in(std::string(SASHITE_TEST_DATA_DIR) + "/perft.txt");
  REQUIRE(in.good());
  std::vector<PerftLine> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.starts_with("sfen ")) continue;
    size_t bar = line.find('|');
    REQUIRE(bar != std::string::npos);
    PerftLine p;
    p.sfen = line.substr(5, bar - 5);
    std::istringstream counts(line.substr(bar + 1));
    uint64_t n;
    while (counts >> n) p.counts.push_back(n);
    lines.push_back(p);
  }
  return lines;
}

}  // namespace

TEST_CASE("perft from the start position to depth 4") {
  Position pos;
  const uint64_t expected[] = {1, 30, 900, 25470, 719731};
  for (int depth = 0; depth <= 4; ++depth) CHECK(perft(pos, depth) == expected[depth]);
  CHECK(pos.sfen() == Position::kStartSfen);
  CHECK(pos.is_consistent());
}

TEST_CASE("perft of every reference position to depth 2") {
  for (const PerftLine& p : read_perft_file()) {
    CAPTURE(p.sfen);
    Position pos;
    REQUIRE(pos.set_sfen(p.sfen).is_ok());
    for (size_t d = 0; d < p.counts.size() && d < 2; ++d) CHECK(perft(pos, int(d + 1)) == p.counts[d]);
  }
}

TEST_CASE("perft divide sums to perft") {
  Position pos;
  REQUIRE(pos.set_sfen("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1"));
  uint64_t sum = 0;
  for (auto& [move, count] : perft_divide(pos, 2)) sum += count;
  CHECK(sum == 28684);
}

TEST_SUITE("slow") {
  TEST_CASE("perft: every line of perft.txt at every depth") {
    for (const PerftLine& p : read_perft_file()) {
      CAPTURE(p.sfen);
      Position pos;
      REQUIRE(pos.set_sfen(p.sfen).is_ok());
      for (size_t d = 0; d < p.counts.size(); ++d) {
        CAPTURE(d + 1);
        CHECK(perft(pos, int(d + 1)) == p.counts[d]);
      }
      CHECK(pos.is_consistent());
    }
  }
}
