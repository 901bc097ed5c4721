// `sashite records check PATH...`: parses and replays every CSA record under the given paths.
#include <cstdio>
#include <string>
#include <vector>

#include "shogi/csa_files.h"
#include "shogi/csa_record.h"
#include "shogi/position.h"

// Checks CSA records under `paths`: files, or directories searched recursively for *.csa.
// Each record is read with read_csa_record, which replays every move, and its end checked
// against its moves (csa_record_ending_problem). Prints one line per
// failure ("PATH:LINE:COL: message"), then "records: N ok, M failed". A path that does not
// exist counts as one failure. Returns 0 when nothing failed, 1 when something did, 2 when no
// path was given.
int run_records_check(const std::vector<std::string>& paths) {
  if (paths.empty()) {
    std::fprintf(stderr, "usage: sashite records check PATH...\n");
    return 2;
  }
  int ok = 0, failed = 0, rejected = 0;
  for (const std::string& path : paths) {
    std::vector<std::string> files;
    if (base::Status listed = shogi::list_csa_files(path, files); !listed) {
      std::printf("%s\n", listed.message().c_str());
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

// The same, main-style: argv[0] is the command's name (ignored), argv[1..argc-1] the paths.
int run_records_check(int argc, char** argv) {
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) paths.emplace_back(argv[i]);
  return run_records_check(paths);
}
