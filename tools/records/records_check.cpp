// `sashite records check PATH...`: parses and replays every CSA record under the given paths.
#include "tools/records/records_check.h"

#include <cstdio>
#include <string>
#include <vector>

#include "shogi/csa_files.h"
#include "shogi/csa_record.h"
#include "shogi/position.h"

namespace tools {

int run_records_check(const std::vector<std::string>& paths) {
  int ok = 0, failed = 0, rejected = 0;
  for (const std::string& path : paths) {
    std::vector<std::string> files;
    if (base::Status listed = shogi::list_csa_files(path, files); !listed) {
      std::printf("%s\n", listed.message().c_str());
      ++failed;
    } else if (files.empty()) {  // a directory without records: most likely the wrong one
      std::printf("%s: no CSA records (.csa) in the directory\n", path.c_str());
      ++failed;
    }
    for (const std::string& file : files) {
      shogi::CsaRecord rec;
      base::Status status = shogi::load_csa_record_file(file, rec);
      if (status) {
        shogi::Position final_position;
        status = shogi::replay_csa_record(rec, final_position);
      }
      if (!status) {
        std::printf("%s\n", status.message().c_str());
        ++failed;
        continue;
      }
      if (const std::string problem = shogi::csa_record_ending_problem(rec); !problem.empty()) {
        std::printf("%s: %s\n", file.c_str(), problem.c_str());
        ++failed;
        continue;
      }
      ++ok;
      if (rec.has_rejected_last_move()) ++rejected;
    }
  }
  if (rejected > 0)
    std::printf("(%d of them end with an illegal move kept aside as the game's last)\n", rejected);
  std::printf("records: %d ok, %d failed\n", ok, failed);
  std::fflush(stdout);
  return failed == 0 ? 0 : 1;
}

}  // namespace tools
