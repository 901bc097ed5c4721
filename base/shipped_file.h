// Where the files that ship with sashite (weights, the SVM model, the book) are found at run time.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "base/version.h"

namespace base {

// Where a shipped file `relative` (e.g. "data/weights/default.eval") may lie, in the order
// looked at, for a binary in `exe_directory`: beside the binary's build directory
// (build/sashite -> ./data/...), beside the binary, in an installed tree's ../share/sashite,
// in the share directory the build was made for (`make install PREFIX=...`), under the
// working directory.
inline std::vector<std::filesystem::path> shipped_file_candidates(
    const std::filesystem::path& exe_directory, std::string_view relative,
    const std::filesystem::path& share_directory) {
  std::vector<std::filesystem::path> candidates;
  if (!exe_directory.empty()) {
    candidates.push_back(exe_directory.parent_path() / relative);
    candidates.push_back(exe_directory / relative);
    candidates.push_back(exe_directory.parent_path() / "share/sashite" / relative);
  }
  candidates.push_back(share_directory / relative);
  candidates.push_back(std::filesystem::path(relative));
  return candidates;
}

// The same for the built book ("book/default"): the build directory's book/default (make
// turns data/book into it), an installed tree's ../share/sashite/book/default, the share
// directory's, then the working directory's build/book/default.
inline std::vector<std::filesystem::path> default_book_candidates(
    const std::filesystem::path& exe_directory, const std::filesystem::path& share_directory) {
  std::vector<std::filesystem::path> candidates;
  if (!exe_directory.empty()) {
    candidates.push_back(exe_directory / "book/default");
    candidates.push_back(exe_directory.parent_path() / "share/sashite/book/default");
  }
  candidates.push_back(share_directory / "book/default");
  candidates.push_back(std::filesystem::path("build/book/default"));
  return candidates;
}

// The first of `candidates` that exists, else the first (so that errors name it).
inline std::string first_existing(const std::vector<std::filesystem::path>& candidates) {
  std::error_code ec;
  for (const std::filesystem::path& p : candidates)
    if (std::filesystem::exists(p, ec)) return p.string();
  return candidates.front().string();
}

// The directory of the running binary, or empty when /proc does not say.
inline std::filesystem::path running_binary_directory() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : exe.parent_path();
}

inline std::string shipped_file(std::string_view relative) {
  return first_existing(
      shipped_file_candidates(running_binary_directory(), relative, install_share_directory()));
}

// The shipped NNUE network, the engine's evaluation (EvalFile "default").
inline std::string default_eval_file() { return shipped_file("data/nnue/default.nnue"); }

// The shipped linear evaluation's weights (EvalFile "linear"; what `learn fit` starts from).
inline std::string linear_eval_file() { return shipped_file("data/weights/default.eval"); }

// The file an EvalFile value names: "default" (or empty) the shipped network, "linear" the
// shipped linear weights, anything else itself.
inline std::string resolve_eval_file(const std::string& choice) {
  if (choice == "default" || choice.empty()) return default_eval_file();
  if (choice == "linear") return linear_eval_file();
  return choice;
}

// Whether an evaluation file (resolved) is an NNUE network rather than linear weights: by
// its .nnue suffix, as the engine and `learn curve` choose how to load it.
inline bool is_network_file(std::string_view path) {
  return path.size() > 5 && path.substr(path.size() - 5) == ".nnue";
}

// Where the built book is looked for when BookFile is "default".
inline std::string default_book_directory() {
  return first_existing(
      default_book_candidates(running_binary_directory(), install_share_directory()));
}

}  // namespace base
