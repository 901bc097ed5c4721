// df-pn (Nagai 2002): depth-first proof-number search with thresholds, optionally with the
// 1+epsilon trick for the second-best child's threshold.
#include <algorithm>
#include <cmath>

#include "engine/mate/mate_search.h"
#include "engine/names.h"

namespace engine::mate {

MateSearch::Value MateSearch::dfpn(int ply, uint32_t thpn, uint32_t thdn) {
  Value terminal;
  if (!expand(ply, &terminal)) return terminal;
  const uint64_t start = nodes_;
  const bool or_node = is_or_node(ply);
  std::vector<Child>& children = frames_[ply];
  for (;;) {
    refresh(ply);
    uint32_t pn, dn;
    numbers(ply, pn, dn);
    if (aborted_ || pn == 0 || dn == 0 || pn >= thpn || dn >= thdn) break;
    // The child with the smallest number of the side to move, and the second smallest.
    Child* best = nullptr;
    uint32_t second = kInfinitePn;
    for (Child& c : children) {
      const uint32_t n = or_node ? c.pn : c.dn;
      if (!best || n < (or_node ? best->pn : best->dn)) {
        if (best) second = std::min(second, or_node ? best->pn : best->dn);
        best = &c;
      } else {
        second = std::min(second, n);
      }
    }
    uint32_t limit = second == kInfinitePn ? kInfinitePn : add_numbers(second, 1);
    if (options_.dfpn_epsilon > 0 && second < kInfinitePn) {
      const double widened = std::ceil(double(second) * (1.0 + options_.dfpn_epsilon));
      limit = std::max(limit, uint32_t(std::min<double>(widened, kInfinitePn - 1)));
    }
    uint32_t child_thpn, child_thdn;
    if (or_node) {
      child_thpn = std::min(thpn, limit);
      child_thdn = thdn >= kInfinitePn ? kInfinitePn : add_numbers(thdn - dn, best->dn);
    } else {
      child_thdn = std::min(thdn, limit);
      child_thpn = thpn >= kInfinitePn ? kInfinitePn : add_numbers(thpn - pn, best->pn);
    }
    search_child(ply, *best, child_thpn, child_thdn, false);
  }
  return finish(ply, nodes_ - start);
}

}  // namespace engine::mate
