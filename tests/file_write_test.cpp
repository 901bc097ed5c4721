// replace_file and append_file: whole files replaced, lines appended, errors naming the file,
// and nothing already saved lost when a write fails.
#include "base/file_write.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "tests/file_text.h"
#include "tests/temp_dir.h"

namespace file_write_test {

namespace fs = std::filesystem;
using base::append_file;
using base::DirectorySync;
using base::replace_file;

TEST_CASE("replace_file: creates, then replaces the whole file; no temporary left") {
  TempDir tmp;
  const std::string path = tmp.sub("out") + "/record.csa";
  fs::create_directories(tmp.sub("out"));
  REQUIRE(replace_file(path, "first version, longer than the second\n").is_ok());
  CHECK(read_text(path) == "first version, longer than the second\n");
  REQUIRE(replace_file(path, "second\n", DirectorySync::kNo).is_ok());
  CHECK(read_text(path) == "second\n");
  CHECK(!fs::exists(path + ".tmp"));
  REQUIRE(replace_file(path, "").is_ok());
  CHECK(read_text(path).empty());
}

TEST_CASE("replace_file: a failed write names the file and keeps the old one") {
  TempDir tmp;
  const std::string dir = tmp.sub("out");
  fs::create_directories(dir);
  const std::string path = dir + "/weights.eval";
  REQUIRE(replace_file(path, "saved\n").is_ok());

  // The temporary's name is taken by a directory: it cannot be written.
  fs::create_directory(path + ".tmp");
  const base::Status blocked = replace_file(path, "new\n");
  CHECK(!blocked.is_ok());
  CHECK(blocked.message().find(path + ".tmp: cannot write") != std::string::npos);
  CHECK(read_text(path) == "saved\n");
  fs::remove(path + ".tmp");

  // The target is a directory: the rename fails; the temporary is removed.
  const std::string taken = dir + "/taken";
  fs::create_directory(taken);
  fs::create_directory(taken + "/inside");
  const base::Status refused = replace_file(taken, "text\n");
  CHECK(!refused.is_ok());
  CHECK(refused.message().find(taken + ": cannot replace it") != std::string::npos);
  CHECK(fs::is_directory(taken + "/inside"));
  CHECK(!fs::exists(taken + ".tmp"));

  // A missing directory.
  const base::Status missing = replace_file(dir + "/no-such-dir/file.txt", "x");
  CHECK(!missing.is_ok());
  CHECK(missing.message().find("no-such-dir/file.txt.tmp: cannot write") != std::string::npos);
}

TEST_CASE("append_file: creates the file, then appends; an unwritable path is named") {
  TempDir tmp;
  const std::string path = tmp.sub("results.txt");
  REQUIRE(append_file(path, "one\n").is_ok());
  REQUIRE(append_file(path, "two\n").is_ok());
  CHECK(read_text(path) == "one\ntwo\n");
  const std::string dir = tmp.sub("a-directory");
  fs::create_directory(dir);
  const base::Status bad = append_file(dir, "three\n");
  CHECK(!bad.is_ok());
  CHECK(bad.message().find(dir + ": cannot write") != std::string::npos);
}

}  // namespace file_write_test
