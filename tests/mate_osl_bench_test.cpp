// Mate benchmark against OpenShogiLib's df-pn (Debian libosl-dev), in the test binary
// because only it links -losl. Skipped by default; run with
//   build/sashite_tests -tc='mate bench*' --no-skip   [SASHITE_MATE_BENCH_NODES=N]
// It solves every set of tests/data/mate with our PDS, our df-pn and OSL's df-pn at the same
// node limit in the same run, prints a table, and fails on any contradiction between
// solved answers (one says mate where another says no mate).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

// libosl is built with OSL_SMP (its df-pn table then holds mutexes): the headers must agree.
#ifndef OSL_SMP
#define OSL_SMP 1
#endif
#include <osl/checkmate/dfpn.h>
#include <osl/hashKey.h>
#include <osl/numEffectState.h>
#include <osl/pathEncoding.h>
#include <osl/usi.h>

#include "engine/mate/solver.h"
#include "shogi/position.h"
#include "tools/mate/mate_bench.h"

namespace mate_osl_bench_test {

using namespace engine;
using namespace engine::mate;

namespace {

struct Row {
  int mate = 0, nomate = 0, unknown = 0, skipped = 0;
  uint64_t nodes = 0;
  double ms = 0;
  void add(MateStatus s, uint64_t n, double t) {
    (s == MateStatus::kMate ? mate : s == MateStatus::kNoMate ? nomate : unknown)++;
    nodes += n;
    ms += t;
  }
};

// OSL's df-pn on one SFEN; false when OSL cannot take the position.
bool osl_solve(const std::string& sfen, uint64_t limit, MateStatus& status, uint64_t& nodes) {
  try {
    osl::NumEffectState state;
    osl::usi::parse("sfen " + sfen, state);
    osl::checkmate::DfpnTable table(state.turn());
    osl::checkmate::Dfpn dfpn;
    dfpn.setTable(&table);
    const osl::HashKey key(state);
    const osl::PathEncoding path(state.turn());
    osl::checkmate::ProofDisproof pd;
    if (state.inCheck(state.turn())) {
      // An escape problem: the defender is to move.
      pd = dfpn.hasEscapeMove(state, key, path, limit, osl::Move::PASS(alt(state.turn())));
      status = pd.isCheckmateSuccess() ? MateStatus::kMate
               : pd.isCheckmateFail()  ? MateStatus::kNoMate
                                       : MateStatus::kUnknown;
    } else {
      osl::Move best;
      pd = dfpn.hasCheckmateMove(state, key, path, limit, best);
      status = pd.isCheckmateSuccess() ? MateStatus::kMate
               : pd.isCheckmateFail()  ? MateStatus::kNoMate
                                       : MateStatus::kUnknown;
    }
    nodes = dfpn.nodeCount();
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

// OSL takes positions with both kings and at most one set of pieces. Mate problems lack the
// attacker's king: give it one on the empty square farthest from the defender's king that no
// defending piece attacks (a common convention of solvers; it rarely changes the answer).
// Returns the SFEN for OSL, or "" when it cannot take the position.
std::string osl_sfen_for(const Position& pos) {
  static constexpr int kSet[kPieceTypeNb] = {0, 18, 4, 4, 4, 2, 2, 4};
  int counts[kPieceTypeNb] = {};
  for (Square s = 0; s < kSquareNb; ++s)
    if (pos.piece_on(s) != kNoPiece && type_of(pos.piece_on(s)) != kKing)
      ++counts[unpromote(type_of(pos.piece_on(s)))];
  for (Color c : {kBlack, kWhite})
    for (int t = kPawn; t <= kGold; ++t) counts[t] += pos.hand(c).count(PieceType(t));
  for (int t = kPawn; t <= kGold; ++t)
    if (counts[t] > kSet[t]) return "";
  const Color defender = pos.in_check() ? pos.side_to_move() : ~pos.side_to_move();
  const Color attacker = ~defender;
  if (pos.king_square(defender) == kSquareNone) return "";
  if (pos.king_square(attacker) != kSquareNone || !getenv("SASHITE_MATE_BENCH_ADD_KING"))
    return pos.sfen(false);
  const Square dk = pos.king_square(defender);
  Square best = kSquareNone;
  int best_distance = -1;
  for (Square s = 0; s < kSquareNb; ++s) {
    if (pos.piece_on(s) != kNoPiece || pos.is_attacked(defender, s)) continue;
    const int d = std::max(std::abs(file_of(s) - file_of(dk)), std::abs(rank_of(s) - rank_of(dk)));
    if (d > best_distance) best_distance = d, best = s;
  }
  if (best == kSquareNone) return "";
  PositionSetup setup = pos.setup();
  setup.board[best] = make_piece(attacker, kKing);
  Position with_king;
  if (!with_king.set(setup).is_ok()) return "";
  return with_king.sfen(false);
}

}  // namespace

TEST_CASE("mate bench: our PDS and df-pn against OSL's df-pn" * doctest::skip()) {
  uint64_t limit = 200000;
  if (const char* env = std::getenv("SASHITE_MATE_BENCH_NODES"))
    limit = std::strtoull(env, nullptr, 10);
  std::printf("node limit %llu per position\n", (unsigned long long)limit);
  std::printf("%-26s %-5s %5s %6s %7s %7s %11s %9s %9s\n", "set", "algo", "mate", "nomate",
              "unknown", "skipped", "nodes", "ms", "nodes/s");
  for (const char* file : {"mate_kongo50.sfen", "nomate_nogare17.sfen", "mate3_mate5_head20.sfen",
                           "long_problems.sfen"}) {
    std::ifstream in(std::string(SASHITE_TEST_DATA_DIR) + "/mate/" + file);
    REQUIRE(in.good());
    const auto problems = tools::read_mate_problems(in);
    Row rows[3];
    MateTable table(64);
    for (const tools::MateProblem& p : problems) {
      Position pos;
      REQUIRE(pos.set_sfen(p.sfen).is_ok());
      MateStatus answers[3];
      for (int a = 0; a < 2; ++a) {
        MateOptions options;
        options.algo = a == 0 ? MateAlgo::kPds : MateAlgo::kDfpn;
        options.node_limit = limit;
        MateResult r;
        const auto t0 = std::chrono::steady_clock::now();
        table.clear();
        REQUIRE(solve_mate(pos, options, r, &table).is_ok());
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        rows[a].add(r.status, r.nodes, ms);
        answers[a] = r.status;
      }
      MateStatus osl_status = MateStatus::kUnknown;
      uint64_t osl_nodes = 0;
      const auto t0 = std::chrono::steady_clock::now();
      const std::string for_osl = osl_sfen_for(pos);
      const bool ok = !for_osl.empty() && osl_solve(for_osl, limit, osl_status, osl_nodes);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (ok)
        rows[2].add(osl_status, osl_nodes, ms);
      else
        rows[2].skipped++;
      answers[2] = ok ? osl_status : MateStatus::kUnknown;
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
          if (answers[a] == MateStatus::kMate && answers[b] == MateStatus::kNoMate)
            FAIL_CHECK(std::string(file)
                       << " line " << p.line_number << ": solver " << a << " says mate, " << b
                       << " says no mate (0 pds, 1 dfpn, 2 OSL)");
    }
    const char* names[3] = {"pds", "dfpn", "osl"};
    for (int a = 0; a < 3; ++a) {
      const Row& r = rows[a];
      std::printf("%-26s %-5s %5d %6d %7d %7d %11llu %9.0f %9.0f\n", file, names[a], r.mate,
                  r.nomate, r.unknown, r.skipped, (unsigned long long)r.nodes, r.ms,
                  r.ms > 0 ? r.nodes * 1000.0 / r.ms : 0.0);
    }
  }
}

}  // namespace mate_osl_bench_test
