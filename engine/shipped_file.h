// Where the files that ship with sashite (weights, the SVM model, the book) are found at run time.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace engine {

// The path of `relative` (e.g. "data/weights/default.eval"): beside the binary's build
// directory (build/sashite -> ./data/...), then beside the binary, then under the working
// directory; the first that exists, else the first candidate (so that errors name it).
inline std::string shipped_file(std::string_view relative) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  std::vector<fs::path> candidates;
  if (!ec) {
    candidates.push_back(exe.parent_path().parent_path() / relative);
    candidates.push_back(exe.parent_path() / relative);
  }
  candidates.push_back(fs::path(relative));
  for (const fs::path& p : candidates)
    if (fs::exists(p, ec)) return p.string();
  return candidates.front().string();
}

// The shipped evaluation weights (EvalFile "default").
inline std::string default_eval_file() { return shipped_file("data/weights/default.eval"); }

// Where the built book is looked for when BookFile is "default": the build directory's
// book/default (make turns data/book into it), then the working directory's build/; the
// first that exists, else the first (so that errors name it).
inline std::string default_book_directory() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  std::vector<fs::path> candidates;
  if (!ec) candidates.push_back(exe.parent_path() / "book/default");
  candidates.push_back(fs::path("build/book/default"));
  for (const fs::path& p : candidates)
    if (fs::exists(p, ec)) return p.string();
  return candidates.front().string();
}

}  // namespace engine
