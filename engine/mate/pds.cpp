// PDS (Nagai 1998): proof-number and disproof-number search with multiple iterative
// deepening: every node raises one of its child's two thresholds a step at a time
// (docs/techniques.md §1; the seed's figure 2.5), the root both of its own in turn.
#include <algorithm>

#include "engine/mate/mate_search.h"
#include "engine/names.h"

namespace engine::mate {

MateSearch::Value MateSearch::pds(int ply, uint32_t thpn, uint32_t thdn) {
  Value terminal;
  if (!expand(ply, &terminal)) return terminal;
  const uint64_t start = nodes_;
  const bool or_node = is_or_node(ply);
  std::vector<Child>& children = frames_[ply];
  uint32_t pn_increment = 1, dn_increment = 1;
  threshold_increments(ply, pn_increment, dn_increment);
  for (;;) {
    refresh(ply);
    uint32_t pn, dn;
    numbers(ply, pn, dn);
    if (aborted_ || pn == 0 || dn == 0 || (pn >= thpn && dn >= thdn)) break;
    // SelectChild: the smallest number of the side to move, ties to the smaller other one.
    Child* best = nullptr;
    for (Child& c : children) {
      if (!best) {
        best = &c;
        continue;
      }
      const uint32_t n = or_node ? c.pn : c.dn, bn = or_node ? best->pn : best->dn;
      const uint32_t o = or_node ? c.dn : c.pn, bo = or_node ? best->dn : best->pn;
      if (n < bn || (n == bn && o < bo)) best = &c;
    }
    // Which of the child's thresholds to raise: the one feeding our unmet threshold; when
    // both are unmet, the child's smaller number (per increment).
    const bool child_pn_smaller =
        uint64_t(best->pn) * dn_increment <= uint64_t(best->dn) * pn_increment;
    bool raise_pn;
    if (or_node) {
      // Our dn is the sum of the children's dn; our pn the least pn.
      const bool raise_dn = dn < thdn && (!child_pn_smaller || pn >= thpn);
      raise_pn = !raise_dn;
    } else {
      raise_pn = pn < thpn && (child_pn_smaller || dn >= thdn);
    }
    // A step of the increment, but never past what this node's own threshold needs (the
    // node deepens in steps of its increments up to its thresholds; with increments of 1
    // the cap never binds, since the unmet gap is at least 1).
    uint32_t child_thpn = best->pn, child_thdn = best->dn;
    if (raise_pn)
      child_thpn = add_numbers(best->pn, std::min(pn_increment, thpn - pn));
    else
      child_thdn = add_numbers(best->dn, std::min(dn_increment, thdn - dn));
    search_child(ply, *best, child_thpn, child_thdn, true);
  }
  return finish(ply, nodes_ - start);
}

}  // namespace engine::mate
