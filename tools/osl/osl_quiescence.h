// OpenShogiLib's quiescence search over GPS Shogi's evaluation, a fresh table per search:
// the value both the reference agreement and the teacher's labels take.
//
// Include it only after the settings OpenShogiLib was built with (NDEBUG, OSL_SMP; see
// reference_agreement.cpp), before anything includes <cassert>.
#pragma once

#include <osl/eval/openMidEndingEval.h>
#include <osl/numEffectState.h>
#include <osl/search/quiescenceSearch2.h>
#include <osl/search/searchState2.h>
#include <osl/search/simpleHashTable.h>

#include <osl/search/quiescenceSearch2.tcc>

namespace tools::osl_reference {

using OslEvaluation = osl::eval::ml::OpenMidEndingEval;

// Black's value of `state` (its side to move to play; `last_move` the move that led to it, a
// pass of the other side when there is none) after OSL's quiescence search to `depth`. A
// fresh table every call, so that no value depends on what was searched before; every node
// is recorded (the lowest record limit), and a search that fills the table of 100,000
// entries is run again with 2,000,000 (the sizes of the program that first took the
// reference measure).
inline int quiescence_black_value(const osl::NumEffectState& state, osl::Move last_move,
                                  int depth) {
  auto search = [&](int entries) {
    osl::search::SimpleHashTable table(entries, -osl::search::QSearchTraits::MaxDepth, 0);
    osl::checkmate::DualDfpn dfpn;
    OslEvaluation evaluation(state);
    osl::search::SearchState2Core core(state, dfpn);
    osl::search::QuiescenceSearch2<OslEvaluation> quiescence(core, table);
    return quiescence.search(state.turn(), evaluation, last_move, depth);
  };
  try {
    return search(100000);
  } catch (const osl::container::TableFull&) {
    return search(2000000);
  }
}

}  // namespace tools::osl_reference
