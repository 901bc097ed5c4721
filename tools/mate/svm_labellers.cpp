// The mate solvers `sashite svm data` can label with, by name (see svm_data.h).
//
// "dfpn": our own solver (engine/mate/solver.h, df-pn), built in whenever that header exists;
// the default.
// "osl": OpenShogiLib's df-pn (Debian libosl-dev), compiled only with -DSASHITE_WITH_OSL and
// linked with -losl; a stand-in for data generation until our own solver (engine/mate) is
// merged, and an independent cross-check afterwards.
#include <string>

#include "shogi/movegen.h"
#include "shogi/notation.h"
#include "tools/mate/svm_data.h"

#if __has_include("engine/mate/solver.h")
#include "engine/mate/solver.h"
#define SASHITE_HAVE_MATE_SOLVER 1
#endif

#ifdef SASHITE_WITH_OSL
#include <osl/checkmate/dfpn.h>
#include <osl/hashKey.h>
#include <osl/numEffectState.h>
#include <osl/pathEncoding.h>
#include <osl/usi.h>
#endif

namespace tools {

#ifdef SASHITE_HAVE_MATE_SOLVER
namespace {

// A fresh table per position (solve_mate's own): labels do not depend on the order.
// Positions taking over 30 s count as unknown (never seen at 1,000,000 nodes).
MateLabel label_with_dfpn(const shogi::Position& pos, uint64_t nodes) {
  engine::mate::MateOptions options;
  options.algo = engine::mate::MateAlgo::kDfpn;
  options.node_limit = nodes;
  // A safety net only (the node budget decides): a position that takes longer is unknown.
  options.time_limit_ms = 30000;
  engine::mate::MateResult result;
  if (!engine::mate::solve_mate(pos, options, result)) return MateLabel::kUnknown;
  switch (result.status) {
    case engine::mate::MateStatus::kMate:
      return MateLabel::kMate;
    case engine::mate::MateStatus::kNoMate:
      return MateLabel::kNoMate;
    default:
      return MateLabel::kUnknown;
  }
}

}  // namespace
#endif

#ifdef SASHITE_WITH_OSL
namespace {

MateLabel osl_result(const osl::checkmate::ProofDisproof& pd) {
  if (pd.isCheckmateSuccess()) return MateLabel::kMate;
  if (pd.isCheckmateFail()) return MateLabel::kNoMate;
  return MateLabel::kUnknown;
}

// The attacker (side to move) must give check with every move. When it is itself in check,
// its moves are the evasions: mate needs an evasion that checks and then wins the defence.
MateLabel label_with_osl(const shogi::Position& pos, uint64_t nodes) {
  using shogi::kBlack;
  using shogi::kWhite;
  if (pos.king_square(kBlack) == shogi::kSquareNone ||
      pos.king_square(kWhite) == shogi::kSquareNone)
    return MateLabel::kUnknown;  // OSL misbehaves without both kings (osl_oracle_test.cpp)
  if (!pos.in_check()) {
    osl::NumEffectState state;
    osl::usi::parse("sfen " + pos.sfen(), state);
    osl::checkmate::DfpnTable table(state.turn());
    osl::checkmate::Dfpn dfpn;
    dfpn.setTable(&table);
    osl::Move best;
    const osl::HashKey key(state);
    const osl::PathEncoding path(state.turn());
    return osl_result(dfpn.hasCheckmateMove(state, key, path, nodes, best));
  }
  bool unknown = false;
  shogi::Position child = pos;
  for (shogi::Move m : shogi::legal_moves(pos)) {
    if (!pos.gives_check(m)) continue;
    child.do_move(m);
    osl::NumEffectState state;
    osl::usi::parse("sfen " + child.sfen(), state);
    child.undo_move();
    osl::NumEffectState before;
    osl::usi::parse("sfen " + pos.sfen(), before);
    const osl::Move last = osl::usi::strToMove(shogi::format_usi_move(m), before);
    osl::checkmate::DfpnTable table(alt(state.turn()));
    osl::checkmate::Dfpn dfpn;
    dfpn.setTable(&table);
    const osl::HashKey key(state);
    const osl::PathEncoding path(state.turn());
    const MateLabel l = osl_result(dfpn.hasEscapeMove(state, key, path, nodes, last));
    if (l == MateLabel::kMate) return MateLabel::kMate;
    if (l == MateLabel::kUnknown) unknown = true;
  }
  return unknown ? MateLabel::kUnknown : MateLabel::kNoMate;
}

}  // namespace
#endif

MateLabeller find_mate_labeller(std::string_view name, base::Status& status) {
  status = base::Status::ok();
#ifdef SASHITE_HAVE_MATE_SOLVER
  if (name == "dfpn") return label_with_dfpn;
#endif
#ifdef SASHITE_WITH_OSL
  if (name == "osl") return label_with_osl;
#endif
  status = base::Status::error("no mate solver named '" + std::string(name) +
                               "' in this build (have: " + mate_labeller_names() + ")");
  return {};
}

std::string mate_labeller_names() {
  std::string names;
#ifdef SASHITE_HAVE_MATE_SOLVER
  names += "dfpn";
#endif
#ifdef SASHITE_WITH_OSL
  names += names.empty() ? "osl" : ",osl";
#endif
  return names.empty() ? "none" : names;
}

}  // namespace tools
