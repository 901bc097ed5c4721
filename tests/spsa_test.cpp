// SPSA: the parameter file, the gains at both ends of a run, the perturbations, convergence
// on a synthetic objective, the state's round trip, and `sashite tune` end to end against a
// fake engine whose play depends on an option, resumed from its state.
#include "tools/match/spsa.h"

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/search_params.h"
#include "tests/file_text.h"
#include "tests/temp_dir.h"
#include "tools/match/tune_runner.h"

namespace spsa_test {

using namespace tools;
namespace fs = std::filesystem;

TEST_CASE("spsa: parameter files, and their errors by line and field") {
  std::vector<SpsaParam> p;
  REQUIRE(parse_spsa_params("# c\nA, 10, 0, 20, 2, 0.002\n\nB,1.5,-3,3,0.5,0.01 # x\n", "f", p)
              .is_ok());
  REQUIRE(p.size() == 2);
  CHECK(p[1].name == "B");
  CHECK(p[1].value == 1.5);
  CHECK(p[1].min == -3);
  CHECK(p[1].r_end == 0.01);
  CHECK(
      format_spsa_params(p, "") ==
      "# NAME, VALUE, MIN, MAX, C_END, R_END\nA, 10, 0, 20, 2, 0.002\nB, 1.5, -3, 3, 0.5, 0.01\n");
  std::vector<SpsaParam> again;
  REQUIRE(parse_spsa_params(format_spsa_params(p, "header"), "g", again).is_ok());
  CHECK(again.size() == 2);
  const std::pair<const char*, const char*> bad[] = {
      {"A, 10, 0, 20, 2", "f:1: expected"},
      {"A, x, 0, 20, 2, 0.1", "f:1: VALUE 'x'"},
      {"A, 30, 0, 20, 2, 0.1", "f:1: A: VALUE outside"},
      {"A, 1, 5, 2, 2, 0.1", "f:1: A: MIN must be below MAX"},
      {"A, 1, 0, 2, 0, 0.1", "f:1: A: C_END"},
      {"A, 1, 0, 2, 1, 0.1\nA, 1, 0, 2, 1, 0.1", "f:2: A is listed twice"},
      {"# nothing\n", "f: no parameters"},
  };
  for (const auto& [text, message] : bad) {
    CAPTURE(text);
    const base::Status s = parse_spsa_params(text, "f", p);
    CHECK_FALSE(s.is_ok());
    CHECK(s.message().find(message) != std::string::npos);
  }
}

TEST_CASE("spsa: the gains reach c_end and r_end at the end of the run") {
  const SpsaParam p{"A", 10, 0, 20, 2, 0.002};
  const SpsaSchedule s{1000};
  CHECK(s.c(p, 999) == doctest::Approx(2.0));
  CHECK(s.r(p, 999) == doctest::Approx(0.002));
  CHECK(s.c(p, 0) > s.c(p, 500));
  CHECK(s.c(p, 0) == doctest::Approx(2.0 * std::pow(1000.0, 0.101)));
}

TEST_CASE("spsa: perturbations are symmetric, in range, and the same for the same draw") {
  std::vector<SpsaParam> params = {{"A", 10, 0, 20, 2, 0.002}, {"B", 0.5, 0, 1, 3, 0.002}};
  const SpsaSchedule s{100};
  int plus_sum = 0, minus_sum = 0, signs = 0;
  for (int k = 0; k < 200; ++k) {
    const SpsaPerturbation a = spsa_perturbation(params, s, k % 100, 7);
    const SpsaPerturbation b = spsa_perturbation(params, s, k % 100, 7);
    CHECK(a.plus == b.plus);
    CHECK(a.sign == b.sign);
    for (size_t i = 0; i < params.size(); ++i) {
      CHECK(std::abs(a.sign[i]) == 1);
      CHECK(a.plus[i] >= params[i].min);
      CHECK(a.plus[i] <= params[i].max);
      CHECK(a.minus[i] >= params[i].min);
    }
    // A's plus side lies c_k (2 .. 3.2) away on the sign's side, rounded at random.
    CHECK(std::abs(a.plus[0] - 10) <= 4);
    CHECK((a.plus[0] - 10) * a.sign[0] >= 1);
    plus_sum += a.plus[0];
    minus_sum += a.minus[0];
    signs += a.sign[0];
  }
  CHECK(std::abs(plus_sum + minus_sum - 200 * 20) < 200);  // centred on theta
  CHECK(std::abs(signs) < 60);
  int differing = 0;  // another seed, other draws
  for (int k = 0; k < 20; ++k)
    differing += spsa_perturbation(params, s, k, 7).sign != spsa_perturbation(params, s, k, 8).sign;
  CHECK(differing > 5);
}

TEST_CASE("spsa: theta climbs toward the optimum of a synthetic objective") {
  // Two parameters whose best values are 70 and 20; a game pair's result is drawn with the
  // plus side's win chance logistic in the objective's difference. From 40 and 60.
  std::vector<SpsaParam> params = {{"A", 40, 0, 100, 5, 0.02}, {"B", 60, 0, 100, 5, 0.02}};
  auto objective = [](double a, double b) {
    return -((a - 70) * (a - 70) + (b - 20) * (b - 20)) / 400.0;
  };
  const int n = 3000;
  const SpsaSchedule s{n};
  for (int k = 0; k < n; ++k) {
    const SpsaPerturbation p = spsa_perturbation(params, s, k, 11);
    const double d = objective(p.plus[0], p.plus[1]) - objective(p.minus[0], p.minus[1]);
    const double win = 1 / (1 + std::exp(-d));
    int result = 0;
    for (int game = 0; game < 2; ++game) {
      const double u = double(spsa_random(11, k, 1000 + game) >> 11) * 0x1.0p-53;
      result += u < win ? 1 : -1;
    }
    spsa_update(params, s, k, p, result);
  }
  MESSAGE("theta after " << n << " pairs: A " << params[0].value << ", B " << params[1].value);
  CHECK(params[0].value > 55);
  CHECK(params[1].value < 40);
}

TEST_CASE("spsa: the state survives a round trip and names what is wrong") {
  SpsaState st;
  st.iterations_done = 12;
  st.total_iterations = 100;
  st.seed = 3;
  st.plus_wins = 5;
  st.plus_losses = 4;
  st.draws = 15;
  st.params = {{"A", 10.25, 0, 20, 2, 0.002}};
  SpsaState back;
  REQUIRE(parse_spsa_state(format_spsa_state(st), "s", back).is_ok());
  CHECK(back.iterations_done == 12);
  CHECK(back.total_iterations == 100);
  CHECK(back.seed == 3);
  CHECK(back.draws == 15);
  CHECK(back.params[0].value == 10.25);
  CHECK_FALSE(parse_spsa_state("iterations_done 1\n", "s", back).is_ok());
  const base::Status s = parse_spsa_state("iterations_done x\n", "s", back);
  CHECK(s.message().find("s:1: bad value for 'iterations_done'") != std::string::npos);
  CHECK_FALSE(parse_spsa_state("frobnicate 1\n", "s", back).is_ok());
}

TEST_CASE("spsa: our engine's parameters are declared once, in range, as options") {
  const std::vector<SpsaParam> params = engine_search_params();
  CHECK(params.size() >= 20);
  for (const SpsaParam& p : params) {
    CAPTURE(p.name);
    CHECK(p.min <= p.value);
    CHECK(p.value <= p.max);
    CHECK(engine::find_search_param(p.name) != engine::kSearchParamCount);
  }
  CHECK(engine::find_search_param("nullmovebase") == engine::kNullMoveBase);
  CHECK(engine::find_search_param("NoSuchThing") == engine::kSearchParamCount);
  const engine::SearchParams defaults;
  CHECK(defaults[engine::kLmrDivisor] == 160);
}

namespace {
// A fake engine with a spin option Skill: at Skill >= 50 it plays a legal cycle of king
// moves, below it an illegal move (and loses). So the side with the higher Skill across 50
// wins, and SPSA should push Skill up.
const char* kSkillEngine = R"(#!/bin/sh
set -f
skill=0
n=0
while IFS= read -r line; do
  set -- $line
  case "$1" in
    usi) echo "id name skill"; echo "option name Skill type spin default 0 min 0 max 100"; echo usiok ;;
    setoption) [ "$3" = Skill ] && skill=$5 ;;
    isready) echo readyok ;;
    position) n=$(($# - 3)); [ $n -lt 0 ] && n=0 ;;
    go) if [ "$skill" -ge 50 ]; then
          case $((n % 4)) in 0) m=5i5h;; 1) m=5a5b;; 2) m=5h5i;; *) m=5b5a;; esac
          echo "bestmove $m"
        else
          echo "bestmove 5e5d"
        fi ;;
    quit) exit 0 ;;
  esac
done
)";
}  // namespace

TEST_CASE("spsa: sashite tune moves a parameter the games reward, and resumes its state") {
  TempDir dir;
  const std::string engine = (dir.path / "skill.sh").string();
  std::ofstream(engine) << kSkillEngine;
  fs::permissions(engine, fs::perms::owner_all);
  const std::string params = (dir.path / "params.csv").string();
  std::ofstream(params) << "Skill, 50, 0, 100, 10, 0.05\n";
  const std::string openings = (dir.path / "openings.txt").string();
  std::ofstream(openings) << "startpos\n";
  TuneOptions o;
  o.engine = engine;
  o.params_path = params;
  o.openings_path = openings;
  o.nodes = 100;
  o.move_timeout_ms = 2000;
  o.ready_timeout_ms = 2000;
  o.iterations = 6;
  o.jobs = 2;
  o.report_every = 3;
  std::ostringstream out;
  base::Status s = run_tune(o, out);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  CHECK(out.str().find("pair 6/6") != std::string::npos);
  std::vector<SpsaParam> tuned;
  REQUIRE(load_spsa_params(params + ".tuned", tuned).is_ok());
  MESSAGE("Skill after 6 pairs: " << tuned[0].value);
  CHECK(tuned[0].value > 50);  // every decisive pair was won by the side above 50

  // A run cut short: its state says 3 of 6 pairs; the resumed run plays the other 3.
  std::string state = read_text(params + ".state");
  const size_t at = state.find("iterations_done 6");
  REQUIRE(at != std::string::npos);
  state.replace(at, 17, "iterations_done 3");
  std::ofstream(params + ".state") << state;
  std::ostringstream resumed;
  s = run_tune(o, resumed);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  CHECK(resumed.str().find("resuming " + params + ".state after 3 of 6 pairs") !=
        std::string::npos);
  CHECK(resumed.str().find("pair 4/6") != std::string::npos);
  CHECK(resumed.str().find("pair 6/6") != std::string::npos);
  CHECK(resumed.str().find("pair 3/6") == std::string::npos);

  // A state of another run is refused, not silently mixed.
  o.iterations = 10;
  std::ostringstream refused;
  s = run_tune(o, refused);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find("a run of 6 pairs, not 10") != std::string::npos);
  std::ofstream(params) << "Other, 5, 0, 10, 1, 0.01\n";
  o.iterations = 0;
  s = run_tune(o, refused);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find("parameter 1 is Skill") != std::string::npos);
}

}  // namespace spsa_test
