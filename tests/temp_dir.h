// TempDir: a fresh directory under the system temporary directory for one test.
#pragma once

#include <doctest/doctest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <string>

// Created empty; removed with everything in it at the end of the scope, unless the
// environment variable keep_env names is set (to look at it after a failure).
struct TempDir {
  std::filesystem::path path;

  explicit TempDir(const char* prefix = "sashite-test", const char* keep_env = nullptr)
      : keep_env_(keep_env) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / (std::string(prefix) + ".XXXXXX")).string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() {
    if (keep_env_ && std::getenv(keep_env_)) {
      MESSAGE("kept " << path.string());
      return;
    }
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string sub(const std::string& name) const { return (path / name).string(); }

 private:
  const char* keep_env_;
};
