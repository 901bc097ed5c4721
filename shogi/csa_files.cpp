// Finding CSA record files under a directory.
#include "shogi/csa_files.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace shogi {

namespace {

bool has_csa_extension(const std::filesystem::path& file) {
  std::string ext = file.extension().string();
  for (char& c : ext) c = char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return ext == ".csa";
}

}  // namespace

Status list_csa_files(const std::string& path, std::vector<std::string>& out) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) return Status::error(path + ": no such file or directory");
  if (!fs::is_directory(status)) {
    out.push_back(path);
    return Status::ok();
  }
  std::vector<std::string> found;
  fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec);
  if (ec) return Status::error(path + ": cannot list the directory: " + ec.message());
  for (const fs::recursive_directory_iterator end; it != end; it.increment(ec)) {
    if (ec) return Status::error(path + ": cannot list the directory: " + ec.message());
    std::error_code file_ec;
    if (it->is_regular_file(file_ec) && has_csa_extension(it->path()))
      found.push_back(it->path().string());
  }
  std::sort(found.begin(), found.end());
  out.insert(out.end(), found.begin(), found.end());
  return Status::ok();
}

}  // namespace shogi
