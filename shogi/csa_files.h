// Finding CSA record files: the ".csa" files under a directory, or one named file.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace shogi {
using base::Status;

// Appends to `out` the ".csa" files under `path` (a directory, searched recursively, the
// extension in any case, sorted by path; directories it may not read are skipped), or `path`
// itself when it names a file, whatever its extension. Errors name the path: it does not
// exist, or the directory cannot be listed.
Status list_csa_files(const std::string& path, std::vector<std::string>& out);

}  // namespace shogi
