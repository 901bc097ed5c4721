// The mate-prediction applications: the solver hooks (initial numbers, PDS thresholds), the
// in-search node-limit control, the comparison tables and the mate calls inside the search.
#include <doctest/doctest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/mate/solver.h"
#include "engine/mate/svm_control.h"
#include "engine/mate/svm_model.h"
#include "shogi/notation.h"
#include "tools/mate/mate_compare.h"

namespace mate_control_test {

using namespace engine;
using namespace engine::mate;

namespace {

std::vector<tools::MateProblem> load_problems(const std::string& name) {
  std::ifstream in(std::string(SASHITE_TEST_DATA_DIR) + "/mate/" + name);
  REQUIRE_MESSAGE(in.good(), "missing fixture " << name);
  return tools::read_mate_problems(in);
}

std::shared_ptr<SvmModel> shipped_model() {
  auto model = std::make_shared<SvmModel>();
  const Status s = load_svm_model(default_svm_model_path(), *model);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  return model;
}

Position position_of(const std::string& sfen) {
  Position pos;
  const Status s = pos.set_sfen(sfen);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  return pos;
}

}  // namespace

TEST_CASE("mate control: names parse back, unknown names are refused") {
  for (MateControl c :
       {MateControl::kNone, MateControl::kLimit, MateControl::kInit, MateControl::kThreshold}) {
    MateControl back = MateControl::kNone;
    CHECK(parse_mate_control(to_string(c), back));
    CHECK(back == c);
  }
  MateControl c = MateControl::kInit;
  CHECK_FALSE(parse_mate_control("thresholds", c));
  CHECK(c == MateControl::kInit);
}

TEST_CASE("mate control: initial numbers and increments follow the prediction and the depth") {
  // A model with a single weight on the defender's escape squares around its king: fewer
  // escapes -> mate predicted. Bias +1.5, weight -1 per escape square.
  SvmModel model;
  model.bias = 1.5f;
  model.weights[kDefenderBlock + feature::kZoneAround + feature::kZoneEscape] = -1.0f;
  // Boxed-in king (no escape): predicted mate. Open king in the centre: predicted no mate.
  Position boxed = position_of("3nkn3/3p1p3/9/9/9/9/9/9/4K4 b G 1");
  Position open = position_of("9/9/9/9/4k4/9/9/9/4K4 b G 1");
  REQUIRE(SvmModel::predicts_mate(attacker_decision(model, boxed, true)));
  REQUIRE_FALSE(SvmModel::predicts_mate(attacker_decision(model, open, true)));

  SvmMateHooks init(model, MateControl::kInit, 5);
  CHECK(init.wants_initial_numbers());
  CHECK_FALSE(init.wants_threshold_increments());
  uint32_t pn = 0, dn = 0;
  init.initial_numbers(boxed, 1, true, pn, dn);
  CHECK(pn == 1);
  CHECK(dn == 1 + 5 - 1);
  init.initial_numbers(open, 2, true, pn, dn);
  CHECK(pn == 1 + 5 - 2);
  CHECK(dn == 1);
  init.initial_numbers(open, 5, true, pn, dn);  // at ply a and beyond: plain 1/1
  CHECK(pn == 1);
  CHECK(dn == 1);

  SvmMateHooks threshold(model, MateControl::kThreshold, 7);
  CHECK(threshold.wants_threshold_increments());
  CHECK_FALSE(threshold.wants_initial_numbers());
  uint32_t pi = 0, di = 0;
  threshold.threshold_increments(boxed, 0, true, pi, di);
  CHECK(pi > 1);
  CHECK(pi <= 8);
  CHECK(di == 1);
  threshold.threshold_increments(open, 3, true, pi, di);
  CHECK(pi == 1);
  CHECK(di > 1);
  CHECK(di <= 1 + 7 - 3);
  threshold.threshold_increments(open, 7, true, pi, di);
  CHECK(pi == 1);
  CHECK(di == 1);

  // An AND node (the defender to move) is read from the attacker's side through a null
  // move, and the position comes back unchanged.
  Position defender = position_of("3nkn3/3p1p3/4G4/9/9/9/9/9/4K4 w - 1");
  const uint64_t key = defender.key();
  const std::string sfen = defender.sfen();
  attacker_decision(model, defender, false);
  CHECK(defender.key() == key);
  CHECK(defender.sfen() == sfen);
}

// This data-set run and the comparison tables below are in the "slow" suite, the optimised
// build only: under the sanitizers they searched about ten times slower, a quarter of that
// suite's time, while the smaller mate tests run the same solver code there.
TEST_CASE("mate control: the controlled solvers still answer right and verify their lines" *
          doctest::test_suite("slow")) {
  const auto model = shipped_model();
  const std::vector<tools::MateProblem> mates = load_problems("mate3_mate5_head20.sfen");
  const std::vector<tools::MateProblem> nomates = load_problems("nomate_nogare17.sfen");
  for (MateControl control : {MateControl::kInit, MateControl::kThreshold}) {
    SvmMateHooks hooks(*model, control, control == MateControl::kInit ? 5 : 7);
    for (MateAlgo algo : {MateAlgo::kPds, MateAlgo::kDfpn}) {
      if (control == MateControl::kThreshold && algo == MateAlgo::kDfpn) continue;
      CAPTURE(to_string(control));
      CAPTURE(to_string(algo));
      MateOptions options;
      options.algo = algo;
      options.node_limit = 200000;
      options.table_megabytes = 16;
      options.hooks = &hooks;
      int mated = 0;
      for (const tools::MateProblem& p : mates) {
        MateResult r;
        REQUIRE(solve_mate(position_of(p.sfen), options, r).is_ok());
        CHECK_MESSAGE(r.status == MateStatus::kMate, "line " << p.line_number);
        CHECK((r.line.size() % 2) == 1);
        mated += r.status == MateStatus::kMate;
      }
      CHECK(mated == int(mates.size()));
      options.node_limit = 20000;  // the escape problems: never a false mate (unknown is fine)
      for (const tools::MateProblem& p : nomates) {
        MateResult r;
        REQUIRE(solve_mate(position_of(p.sfen), options, r).is_ok());
        CHECK_MESSAGE(r.status != MateStatus::kMate, "line " << p.line_number);
      }
    }
  }
}

TEST_CASE("mate control: the node-limit control keeps the nodes actually searched") {
  const auto model = shipped_model();
  std::vector<Position> positions;
  for (const char* name : {"mate3_mate5_head20.sfen", "nomate_nogare17.sfen", "mate_kongo50.sfen",
                           "checkgen_cases.sfen"})
    for (const tools::MateProblem& p : load_problems(name)) {
      Position pos;
      if (pos.set_sfen(p.sfen).is_ok()) positions.push_back(pos);
    }
  REQUIRE(positions.size() > 100);
  MateNodeLimitControl none(nullptr, 0.75);
  CHECK(none.node_limit(positions[0], 1000) == 750);
  // A synthetic solver: a position needs `need` nodes (mates predicted well need many,
  // the others few); a call searches min(need, limit). What base-limited calls would have
  // searched, times the multiplier, is what the controlled calls search in the end.
  for (double multiplier : {1.0, 0.75}) {
    MateNodeLimitControl control(model, multiplier);
    const uint64_t base = 1000;
    double controlled = 0, uncontrolled = 0;
    uint64_t smallest = ~0ull, largest = 0;
    for (int pass = 0; pass < 30; ++pass)
      for (size_t i = 0; i < positions.size(); ++i) {
        const Position& pos = positions[i];
        const double p = model->probability(model->decision_value(pos));
        const uint64_t need = uint64_t(50 + 4000 * p * p) + (i % 7) * 30;
        const uint64_t limit = control.node_limit(pos, base);
        const uint64_t used = std::min(need, limit);
        control.record(used, limit, base);
        if (pass >= 10) {  // after the scale has settled
          controlled += double(used);
          uncontrolled += double(std::min(need, base));
          smallest = std::min(smallest, limit);
          largest = std::max(largest, limit);
        }
      }
    CAPTURE(multiplier);
    CHECK(controlled / uncontrolled == doctest::Approx(multiplier).epsilon(0.1));
    CHECK(largest > 2 * smallest);  // the prediction does steer the limits
    CHECK(control.mean_probability() > 0.0);
    CHECK(control.mean_probability() < 1.0);
  }
}

TEST_CASE("mate control: the comparison tables count every position under every control" *
          doctest::test_suite("slow")) {
  const auto model = shipped_model();
  std::vector<tools::MateProblem> problems = load_problems("mate3_mate5_head20.sfen");
  for (const tools::MateProblem& p : load_problems("nomate_nogare17.sfen")) problems.push_back(p);
  problems.push_back({999, "not an sfen"});
  tools::MateCompareOptions o;
  o.solver.algo = MateAlgo::kPds;
  o.solver.node_limit = 50000;
  o.solver.table_megabytes = 16;
  o.controls = {MateControl::kNone, MateControl::kInit, MateControl::kThreshold,
                MateControl::kLimit};
  o.model = model;
  std::ostringstream details, out, err;
  o.details = &details;
  const std::vector<tools::MateCompareRow> rows = tools::run_mate_comparison(problems, o, out, err);
  REQUIRE(rows.size() == 4);
  CHECK(err.str().find("line 999") != std::string::npos);
  const int n = int(problems.size()) - 1;
  for (const tools::MateCompareRow& row : rows) {
    CHECK(row.all.mate + row.all.nomate + row.all.unknown == n);
    CHECK(row.all.mate >= 18);
    CHECK(row.both_solved.mate + row.both_solved.nomate + row.both_solved.unknown <= n);
    CHECK(row.both_solved.unknown == 0);
    CHECK(row.both_solved.nodes <= row.all.nodes);
  }
  // The same positions make up every row's "no run left unknown" part.
  for (const tools::MateCompareRow& row : rows)
    CHECK(row.both_solved.mate + row.both_solved.nomate ==
          rows[0].both_solved.mate + rows[0].both_solved.nomate);
  CHECK(out.str().find("Table C") != std::string::npos);
  int lines = 0;
  for (char c : details.str()) lines += c == '\n';
  CHECK(lines == n);
}

TEST_CASE("mate calls in the search: a mate beyond the search depth is found and played") {
  // Kongo problem 2 (a mate of about nine plies): a depth-3 search alone scores it about
  // -4800; the mate call two plies down (the attacker to move again), with enough nodes,
  // proves it.
  const std::vector<tools::MateProblem> mates = load_problems("mate_kongo50.sfen");
  const std::string sfen = mates[1].sfen;
  auto search = [&](bool mate_calls) {
    Engine engine;
    engine.set_option("USI_Hash", "16");
    engine.set_option("USI_OwnBook", "false");
    engine.set_option("MateSearch", mate_calls ? "true" : "false");
    engine.set_option("MateMinDepth", "1");
    engine.set_option("MateNodes", "5000");
    REQUIRE(engine.set_position(sfen, {}).is_ok());
    SearchLimits limits;
    limits.depth = 3;
    return engine.search(limits);
  };
  const SearchResult with = search(true);
  const SearchResult without = search(false);
  CHECK(with.score >= kValueMateInMaxPly);
  CHECK(without.score < kValueMateInMaxPly);
  // The result counts the calls (the USI front end prints them as an info string).
  CHECK(with.mate_calls > 0);
  CHECK(with.mate_found > 0);
  CHECK(with.mate_nodes > 0);
  CHECK(with.mate_nodes <= with.nodes);
  CHECK(without.mate_calls == 0);
  // The move played starts a mate: after it, the defender is mated by checks.
  Position pos = position_of(sfen);
  REQUIRE(with.kind == SearchResult::Kind::kMove);
  pos.do_move(with.best);
  CHECK(pos.in_check());
}

TEST_CASE("mate calls in the search: the observer sees every call's position, before it") {
  for (const bool mate_calls : {true, false}) {
    Engine engine;
    engine.set_option("USI_Hash", "16");
    engine.set_option("USI_OwnBook", "false");
    engine.set_option("Threads", "1");
    engine.set_option("MateSearch", mate_calls ? "true" : "false");
    engine.set_option("MateControl", "none");  // a call at every site
    engine.set_option("MateAfterCuts", "false");
    engine.set_option("MateMinDepth", "2");
    std::vector<std::string> seen;
    bool in_check = false;
    engine.set_mate_call_observer([&](const Position& p) {
      seen.push_back(p.sfen());
      in_check = in_check || p.in_check();
    });
    REQUIRE(engine.set_position("startpos", {"7g7f", "3c3d", "8h2b+", "3a2b"}).is_ok());
    SearchLimits limits;
    limits.depth = 5;
    const SearchResult r = engine.search(limits);
    CHECK(r.kind == SearchResult::Kind::kMove);
    CHECK(uint64_t(seen.size()) == r.mate_calls);  // no call here is skipped by a control
    CHECK(!in_check);  // the solver is called only where the side to move is not in check
    if (mate_calls) {
      REQUIRE(!seen.empty());
      CHECK(seen.front() != engine.position().sfen());  // never at the root
    }
  }
}

TEST_CASE("mate calls in the search: MateControl step calls only where a mate is predicted") {
  auto run = [](const std::string& control, const std::string& sfen,
                const std::vector<std::string>& moves, int depth, uint64_t& sites) {
    Engine engine;
    engine.set_option("USI_Hash", "16");
    engine.set_option("USI_OwnBook", "false");
    engine.set_option("Threads", "1");
    engine.set_option("MateSearch", "true");
    engine.set_option("MateControl", control);
    engine.set_option("MateMinDepth", "1");
    engine.set_option("MateNodes", "5000");
    REQUIRE(engine.prepare().is_ok());
    sites = 0;
    engine.set_mate_call_observer([&](const Position&) { ++sites; });
    REQUIRE(engine.set_position(sfen, moves).is_ok());
    SearchLimits limits;
    limits.depth = depth;
    return engine.search(limits);
  };
  uint64_t sites = 0;
  // An opening: the model predicts no mate almost everywhere, so few of the sites get a call.
  const SearchResult opening = run("step", "startpos", {"7g7f", "3c3d", "8h2b+", "3a2b"}, 4, sites);
  CHECK(opening.kind == SearchResult::Kind::kMove);
  CHECK(sites > 0);
  CHECK(opening.mate_calls < sites);
  uint64_t plain_sites = 0;
  const SearchResult plain =
      run("none", "startpos", {"7g7f", "3c3d", "8h2b+", "3a2b"}, 4, plain_sites);
  CHECK(plain.mate_calls == plain_sites);
  // Kongo problem 2, a mate the depth-3 search alone does not see: predicted, called, found.
  const std::string sfen = load_problems("mate_kongo50.sfen")[1].sfen;
  const SearchResult mate = run("step", sfen, {}, 3, sites);
  CHECK(mate.score >= kValueMateInMaxPly);
  CHECK(mate.mate_found > 0);
}

TEST_CASE("mate calls in the search: MateAfterCuts calls only at nodes the cuts left") {
  auto run = [](bool after_cuts, const std::string& sfen, const std::vector<std::string>& moves,
                int depth) {
    Engine engine;
    engine.set_option("USI_Hash", "16");
    engine.set_option("USI_OwnBook", "false");
    engine.set_option("Threads", "1");
    engine.set_option("MateSearch", "true");
    engine.set_option("MateMinDepth", "1");
    engine.set_option("MateNodes", "5000");
    engine.set_option("MateControl", "none");  // a call at every site the cuts leave
    engine.set_option("MateAfterCuts", after_cuts ? "true" : "false");
    REQUIRE(engine.set_position(sfen, moves).is_ok());
    SearchLimits limits;
    limits.depth = depth;
    return engine.search(limits);
  };
  // A middle game where null-move and futility pruning cut many nodes before their calls.
  const std::string middle =
      "lnsg2snl/4k1g2/2ppppb2/pr6p/9/P1P3R1P/3PPPP2/1BG1K2S1/LNS2G1NL w 3P2p 26";
  const SearchResult before = run(false, middle, {}, 6);
  const SearchResult after = run(true, middle, {}, 6);
  CHECK(before.kind == SearchResult::Kind::kMove);
  CHECK(after.kind == SearchResult::Kind::kMove);
  CHECK(after.mate_calls > 0);
  CHECK(after.mate_calls < before.mate_calls);
  // Kongo problem 2: the mate a depth-3 search alone does not see is still found.
  const std::string sfen = load_problems("mate_kongo50.sfen")[1].sfen;
  const SearchResult mate = run(true, sfen, {}, 3);
  CHECK(mate.score >= kValueMateInMaxPly);
  CHECK(mate.mate_found > 0);
}

TEST_CASE("Lazy SMP: the default mate calls in several threads, each with its own solver") {
  // The defaults are the document's system: calls where the prediction says a mate is likely,
  // at nodes the cuts left.
  Engine engine;
  CHECK(engine.options().get_bool("MateSearch"));
  CHECK(engine.options().get_string("MateControl") == "step");
  CHECK(engine.options().get_bool("MateAfterCuts"));
  engine.set_option("USI_Hash", "16");
  engine.set_option("USI_OwnBook", "false");
  REQUIRE(engine.set_option("Threads", "3").is_ok());
  engine.set_option("MateMinDepth", "1");
  engine.set_option("MateNodes", "5000");
  // Kongo problem 2: each thread calls its own solver (its own mate table); a proven mate goes
  // into the transposition table they share.
  const std::string sfen = load_problems("mate_kongo50.sfen")[1].sfen;
  REQUIRE(engine.set_position(sfen, {}).is_ok());
  SearchLimits limits;
  limits.depth = 5;
  const SearchResult r = engine.search(limits);
  REQUIRE(r.kind == SearchResult::Kind::kMove);
  CHECK(r.mate_calls > 0);
  CHECK(r.score >= kValueMateInMaxPly);
  Position pos = position_of(sfen);
  pos.do_move(r.best);
  CHECK(pos.in_check());
}

TEST_CASE("mate calls in the search: MateControl limit loads the model and searches") {
  Engine engine;
  engine.set_option("USI_Hash", "16");
  engine.set_option("USI_OwnBook", "false");
  engine.set_option("MateSearch", "true");
  engine.set_option("MateControl", "limit");
  engine.set_option("MateMinDepth", "2");
  REQUIRE(engine.prepare().is_ok());
  REQUIRE(engine.set_position("startpos", {"7g7f", "3c3d", "8h2b+", "3a2b"}).is_ok());
  SearchLimits limits;
  limits.depth = 5;
  const SearchResult r = engine.search(limits);
  CHECK(r.kind == SearchResult::Kind::kMove);
  engine.set_option("MateSvmFile", "/nonexistent/svm.model");
  const Status s = engine.prepare();
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find("/nonexistent/svm.model") != std::string::npos);
  // Without its model the control makes no calls (not calls everywhere), for every control
  // that needs one.
  const SearchResult without_model = engine.search(limits);
  CHECK(without_model.kind == SearchResult::Kind::kMove);
  CHECK(without_model.mate_calls == 0);
  engine.set_option("MateControl", "step");
  CHECK_FALSE(engine.prepare().is_ok());
  CHECK(engine.search(limits).mate_calls == 0);
  engine.set_option("MateControl", "none");
  CHECK(engine.prepare().is_ok());  // none needs no model
  CHECK(engine.search(limits).mate_calls > 0);
}

}  // namespace mate_control_test
