// The tunable parameters: names, defaults (the values the search was measured with), ranges
// that keep every formula defined, and SPSA steps of about a twentieth of each range.
#include "engine/search_params.h"

#include <algorithm>
#include <cctype>

#include "engine/names.h"

namespace engine {

namespace {

constexpr double kRate = 0.002;  // fishtest's usual r_end

// The table, in SearchParam order (checked below).
constexpr SearchParamSpec kSpecs[kSearchParamCount] = {
    // The history reward of a cut-off: min(slope * depth - offset, max).
    {kHistoryBonusSlope, "HistoryBonusSlope", 300, 100, 800, 30, kRate,
     "history reward per ply of depth"},
    {kHistoryBonusOffset, "HistoryBonusOffset", 250, 0, 800, 40, kRate, "history reward's offset"},
    {kHistoryBonusMax, "HistoryBonusMax", 2400, 600, 6000, 200, kRate, "history reward's cap"},
    // Reverse futility pruning at depths 3 .. MaxDepth: eval - margin * (depth - improving).
    {kReverseFutilityMaxDepth, "ReverseFutilityMaxDepth", 6, 3, 12, 1, kRate,
     "reverse futility pruning's deepest depth"},
    {kReverseFutilityMargin, "ReverseFutilityMargin", 150, 50, 400, 12, kRate,
     "reverse futility margin per ply (cp)"},
    // Null move: R = base + depth / divisor + min((eval - beta) / eval_divisor, 3).
    {kNullMoveBase, "NullMoveBase", 3, 1, 6, 0.6, kRate, "null-move reduction's base (plies)"},
    {kNullMoveDepthDivisor, "NullMoveDepthDivisor", 3, 1, 8, 0.6, kRate,
     "null-move reduction: a ply per this many plies"},
    {kNullMoveEvalDivisor, "NullMoveEvalDivisor", 200, 50, 600, 20, kRate,
     "null-move reduction: a ply per this many cp over beta"},
    // ProbCut: beta + margin - (improving ? improving_margin : 0).
    {kProbCutMargin, "ProbCutMargin", 200, 50, 500, 15, kRate, "ProbCut's margin over beta (cp)"},
    {kProbCutImproving, "ProbCutImproving", 60, 0, 200, 8, kRate,
     "ProbCut's margin less this when improving (cp)"},
    // Late-move pruning at depth <= 3: quiet moves after (base + scale * depth^2) / (2 -
    // improving).
    {kLateMovePruningBase, "LateMovePruningBase", 4, 0, 16, 1, kRate,
     "late-move pruning's move count base"},
    {kLateMovePruningScale, "LateMovePruningScale", 3, 1, 8, 0.5, kRate,
     "late-move pruning's move count per depth^2"},
    // Quiet moves the histories rate below -scale * depth at depth <= 4 are skipped.
    {kHistoryPruningScale, "HistoryPruningScale", 4000, 500, 12000, 300, kRate,
     "history pruning threshold per ply"},
    // SEE pruning at depth <= 4: quiet moves below -margin * depth^2, tactical below -margin *
    // depth.
    {kSeeQuietMargin, "SeeQuietMargin", 40, 5, 150, 5, kRate,
     "SEE pruning of quiet moves per depth^2 (cp)"},
    {kSeeTacticalMargin, "SeeTacticalMargin", 120, 20, 400, 10, kRate,
     "SEE pruning of captures per ply (cp)"},
    // Singular extensions from this depth; a double extension below singular beta - margin.
    {kSingularMinDepth, "SingularMinDepth", 6, 4, 12, 1, kRate, "singular extension's least depth"},
    {kDoubleExtensionMargin, "DoubleExtensionMargin", 40, 0, 200, 8, kRate,
     "double extension's margin (cp)"},
    // Late-move reductions: 0.5 + ln(depth) ln(moves) * 100 / divisor, then adjustments.
    {kLmrDivisor, "LmrDivisor", 160, 80, 320, 10, kRate, "LMR table's divisor (x100)"},
    {kLmrCaptureDivisor, "LmrCaptureDivisor", 6000, 1000, 20000, 500, kRate,
     "LMR: a ply less per this much capture history"},
    {kLmrQuietDivisor, "LmrQuietDivisor", 12000, 3000, 40000, 1000, kRate,
     "LMR: a ply less per this much quiet history"},
    {kLmrDeeperMargin, "LmrDeeperMargin", 60, 0, 200, 8, kRate,
     "LMR re-search a ply deeper beyond this gain (cp)"},
    // Aspiration windows: the first half-width around the last iteration's value.
    {kAspirationDelta, "AspirationDelta", 30, 5, 120, 4, kRate,
     "aspiration window's first half-width (cp)"},
    // Time: main time / moves to go (more early), the increment's share, the maximum's ratio.
    {kTimeMovesToGo, "TimeMovesToGo", 50, 20, 100, 4, kRate,
     "time manager's moves to go at the start"},
    {kTimeIncrementPercent, "TimeIncrementPercent", 90, 30, 100, 5, kRate,
     "time manager's share of the increment (%)"},
    {kTimeMaximumRatio, "TimeMaximumRatio", 30, 12, 60, 3, kRate,
     "time manager's maximum over the optimum (x10)"},
};

// Each entry sits at its own enum's index.
constexpr bool in_order() {
  for (int i = 0; i < kSearchParamCount; ++i)
    if (kSpecs[i].id != i) return false;
  return true;
}
static_assert(in_order(), "kSpecs must list the parameters in SearchParam order");

bool same_name(const std::string& a, const char* b) {
  const std::string bs(b);
  return a.size() == bs.size() && std::equal(a.begin(), a.end(), bs.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

const SearchParamSpec& search_param_spec(SearchParam p) { return kSpecs[size_t(p)]; }

SearchParam find_search_param(const std::string& name) {
  for (int i = 0; i < kSearchParamCount; ++i)
    if (same_name(name, kSpecs[i].name)) return SearchParam(i);
  return kSearchParamCount;
}

SearchParams::SearchParams() {
  for (int i = 0; i < kSearchParamCount; ++i) values[size_t(i)] = kSpecs[i].default_value;
}

}  // namespace engine
