// `sashite records check PATH...`: parses and replays every CSA record under the given paths.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "engine/csa_record.h"
#include "engine/position.h"

namespace {

namespace fs = std::filesystem;

bool has_csa_extension(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); });
  return ext == ".csa";
}

// Appends the .csa files under `root` (recursively, sorted) or `root` itself if it is a file.
// Returns an error message, or "" when fine.
std::string collect(const fs::path& root, std::vector<fs::path>& files) {
  std::error_code ec;
  const fs::file_status status = fs::status(root, ec);
  if (ec || !fs::exists(status)) return root.string() + ": no such file or directory";
  if (!fs::is_directory(status)) {
    files.push_back(root);  // named explicitly: read whatever its extension
    return "";
  }
  std::vector<fs::path> found;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
  if (ec) return root.string() + ": cannot list the directory: " + ec.message();
  for (const fs::recursive_directory_iterator end; it != end; it.increment(ec)) {
    if (ec) return root.string() + ": cannot list the directory: " + ec.message();
    std::error_code file_ec;
    if (it->is_regular_file(file_ec) && has_csa_extension(it->path())) found.push_back(it->path());
  }
  std::sort(found.begin(), found.end());
  files.insert(files.end(), found.begin(), found.end());
  return "";
}

}  // namespace

// Checks CSA records under `paths`: files, or directories searched recursively for *.csa.
// Each record is read with read_csa_record, which replays every move. Prints one line per
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
    std::vector<fs::path> files;
    if (std::string problem = collect(path, files); !problem.empty()) {
      std::printf("%s\n", problem.c_str());
      ++failed;
    }
    for (const fs::path& file : files) {
      engine::CsaRecord rec;
      engine::Status status = engine::load_csa_record_file(file.string(), rec);
      if (status) {
        engine::Position final_position;
        status = engine::replay_csa_record(rec, final_position);
      }
      if (!status) {
        std::printf("%s\n", status.message().c_str());
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
