// `sashite records check`: parses and replays every CSA record under the given paths.
#pragma once

#include <string>
#include <vector>

namespace tools {

// Checks CSA records under `paths`: files, or directories searched recursively for *.csa.
// Each record is read with read_csa_record, which replays every move, and its end checked
// against its moves (csa_record_ending_problem). Prints one line per
// failure ("PATH:LINE:COL: message"), then "records: N ok, M failed". A path that does not
// exist, or a directory without *.csa files, counts as one failure. Returns 0 when nothing failed,
// 1 when something did.
int run_records_check(const std::vector<std::string>& paths);

}  // namespace tools
