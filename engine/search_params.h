// SearchParams: the numbers of the search and the time manager that tuning moves, each
// declared once with its default, range and SPSA step; each is also a USI spin option.
#pragma once

#include <array>
#include <string>

#include "engine/names.h"

namespace engine {

// The parameters, in the order USI lists them. Their meaning is in search_params.cpp, next
// to their declarations; the search and the time manager read them through SearchParams.
enum SearchParam : int {
  kHistoryBonusSlope,
  kHistoryBonusOffset,
  kHistoryBonusMax,
  kReverseFutilityMaxDepth,
  kReverseFutilityMargin,
  kNullMoveBase,
  kNullMoveDepthDivisor,
  kNullMoveEvalDivisor,
  kProbCutMargin,
  kProbCutImproving,
  kLateMovePruningBase,
  kLateMovePruningScale,
  kHistoryPruningScale,
  kSeeQuietMargin,
  kSeeTacticalMargin,
  kSingularMinDepth,
  kDoubleExtensionMargin,
  kLmrDivisor,
  kLmrCaptureDivisor,
  kLmrQuietDivisor,
  kLmrDeeperMargin,
  kAspirationDelta,
  kTimeMovesToGo,
  kTimeIncrementPercent,
  kTimeMaximumRatio,
  kSearchParamCount
};

// One parameter: its USI option name, default and range, and the SPSA settings fishtest
// uses (c_end: the perturbation at the end of a tuning run, in the parameter's units;
// r_end: the learning rate at the end, so that a step is r_end * c_end * result).
struct SearchParamSpec {
  SearchParam id;
  const char* name;
  int default_value, min, max;
  double c_end, r_end;
  const char* what;  // one line for people
};

const SearchParamSpec& search_param_spec(SearchParam p);
// The parameter whose option name is `name` (case-insensitive), or kSearchParamCount.
SearchParam find_search_param(const std::string& name);

// The values one search uses. A plain value type; the defaults on construction.
struct SearchParams {
  std::array<int, kSearchParamCount> values;
  SearchParams();
  int operator[](SearchParam p) const { return values[size_t(p)]; }
};

}  // namespace engine
