// perft against published leaf counts: start position to depth 4 (fast), every line of
// tests/data/perft.txt in the slow suite (up to 150 million leaves), the file's reader.
#include "shogi/perft.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/benchmark.h"
#include "shogi/movegen.h"
#include "shogi/position.h"

namespace perft_test {

using namespace engine;

namespace {

std::vector<PerftBenchCase> read_perft_file() {
  std::ifstream in(std::string(SASHITE_TEST_DATA_DIR) + "/perft.txt");
  REQUIRE(in.good());
  std::vector<PerftBenchCase> cases;
  const Status status = read_perft_cases(in, "perft.txt", cases);
  REQUIRE_MESSAGE(status.is_ok(), status.message());
  return cases;
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
  for (const PerftBenchCase& c : read_perft_file()) {
    if (c.depth > 2) continue;
    CAPTURE(c.sfen);
    Position pos;
    REQUIRE(pos.set_sfen(c.sfen).is_ok());
    CHECK(perft(pos, c.depth) == c.expected);
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
  // Every count up to 150 million leaves (about 4 s); the three larger ones (547 and 517
  // million, 4.2 billion: a minute) are checked by `sashite bench --perft --perft-file
  // tests/data/perft.txt`, the first two by `sashite bench --perft` too.
  TEST_CASE("perft: every line of perft.txt at every depth up to 150 million leaves") {
    int checked = 0;
    for (const PerftBenchCase& c : read_perft_file()) {
      if (c.expected > 150'000'000) continue;
      CAPTURE(c.sfen);
      CAPTURE(c.depth);
      Position pos;
      REQUIRE(pos.set_sfen(c.sfen).is_ok());
      CHECK(perft(pos, c.depth) == c.expected);
      CHECK(pos.is_consistent());
      ++checked;
    }
    CHECK(checked == 26);
  }
}

TEST_CASE("perft reference files: every count a case; bad lines named by file and line") {
  std::istringstream good(
      "# comment\n\nsfen 4k4/9/9/9/9/9/9/9/9 b 16P 1 | 72 355\n"
      "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 | 30\n");
  std::vector<PerftBenchCase> cases;
  REQUIRE(read_perft_cases(good, "good.txt", cases).is_ok());
  REQUIRE(cases.size() == 3);
  CHECK(cases[1].sfen == "4k4/9/9/9/9/9/9/9/9 b 16P 1");
  CHECK(cases[1].depth == 2);
  CHECK(cases[1].expected == 355);
  std::ostringstream out;
  CHECK(run_perft_bench(out, cases));
  CHECK(out.str().find("Nodes searched: 457\n") != std::string::npos);
  cases[2].expected = 31;
  CHECK_FALSE(run_perft_bench(out, cases));
  CHECK(out.str().find("WRONG") != std::string::npos);
  for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
           {"sfen 9/9/9 b - 1 | 1\n", "bad.txt: line 1: "},
           {"\nperft 4k4/9/9/9/9/9/9/9/9 b - 1 | 1\n", "bad.txt: line 2: expected 'sfen"},
           {"sfen 4k4/9/9/9/9/9/9/9/9 b - 1 1 5\n", "bad.txt: line 1: no '|'"},
           {"sfen 4k4/9/9/9/9/9/9/9/9 b - 1 | 5 x\n", "bad.txt: line 1: count 'x'"},
           {"sfen 4k4/9/9/9/9/9/9/9/9 b - 1 | -5\n", "bad.txt: line 1: count '-5'"},
           {"sfen 4k4/9/9/9/9/9/9/9/9 b - 1 |\n", "bad.txt: line 1: no counts"}}) {
    std::istringstream in(text);
    std::vector<PerftBenchCase> bad;
    const Status status = read_perft_cases(in, "bad.txt", bad);
    CAPTURE(text);
    REQUIRE_FALSE(status.is_ok());
    CHECK(status.message().rfind(message, 0) == 0);
  }
}

}  // namespace perft_test
