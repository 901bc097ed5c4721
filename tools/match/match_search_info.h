// The floodgate-style comment that carries an engine's search report in a CSA record.
#pragma once

#include <string>

#include "shogi/types.h"
#include "usi/usi_info.h"

namespace tools {

// The comment a move gets in the CSA record, floodgate style (without the leading quote):
// "** <score> depth <d> nodes <n>", the score from Black's point of view (see
// format_search_score; "?" when the engine gave a depth but no score), " depth" and " nodes"
// only when reported. "" when the report has neither depth nor score. `mover` is the side
// that played the move (the report's point of view).
std::string search_comment(const usi::SearchReport& report, shogi::Color mover);

}  // namespace tools
