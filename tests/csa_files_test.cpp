// list_csa_files: the .csa files under a directory, recursively and sorted, or one named file.
#include "shogi/csa_files.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/temp_dir.h"

namespace csa_files_test {

namespace {

void touch(const std::string& path) { std::ofstream(path) << "V2.2\n"; }

}  // namespace

TEST_CASE("list_csa_files finds .csa files in any case under nested directories, sorted") {
  TempDir dir("sashite-csa-files");
  std::filesystem::create_directories(dir.sub("b/deeper"));
  std::filesystem::create_directories(dir.sub("a"));
  touch(dir.sub("b/deeper/g2.csa"));
  touch(dir.sub("b/g1.CSA"));
  touch(dir.sub("a/g3.csa"));
  touch(dir.sub("a/notes.txt"));
  touch(dir.sub("a/g4.csa.bak"));
  std::filesystem::create_directories(dir.sub("a/dir.csa"));  // a directory, not a record

  std::vector<std::string> files = {"kept"};
  REQUIRE(shogi::list_csa_files(dir.path.string(), files).is_ok());
  const std::vector<std::string> expected = {"kept", dir.sub("a/g3.csa"),
                                             dir.sub("b/deeper/g2.csa"), dir.sub("b/g1.CSA")};
  CHECK(files == expected);
}

TEST_CASE("list_csa_files takes a named file whatever its extension, and names a missing path") {
  TempDir dir("sashite-csa-files");
  touch(dir.sub("game.txt"));
  std::vector<std::string> files;
  REQUIRE(shogi::list_csa_files(dir.sub("game.txt"), files).is_ok());
  CHECK(files == std::vector<std::string>{dir.sub("game.txt")});

  const base::Status missing = shogi::list_csa_files(dir.sub("absent"), files);
  CHECK_FALSE(missing.is_ok());
  CHECK(missing.message() == dir.sub("absent") + ": no such file or directory");
  CHECK(files.size() == 1);

  std::vector<std::string> none;
  REQUIRE(shogi::list_csa_files(dir.path.string(), none).is_ok());
  CHECK(none.empty());  // game.txt is found only when named
}

}  // namespace csa_files_test
