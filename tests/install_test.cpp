// make install: the installed binary finds its weights, SVM model and book wherever PREFIX is,
// the places a binary looks for its shipped files, and the engine file a GUI registers.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "base/shipped_file.h"
#include "base/version.h"
#include "run_command.h"

namespace install_test {

namespace fs = std::filesystem;
using test_commands::run_command;

namespace {

const fs::path kRepository = fs::path(SASHITE_TEST_DATA_DIR).parent_path().parent_path();

}  // namespace

TEST_CASE("shipped files: the build tree, beside the binary, ../share/sashite, the PREFIX") {
  const auto candidates = base::shipped_file_candidates("/opt/x/bin", "data/weights/default.eval",
                                                        "/usr/local/share/sashite");
  REQUIRE(candidates.size() == 5);
  CHECK(candidates[0] == "/opt/x/data/weights/default.eval");
  CHECK(candidates[1] == "/opt/x/bin/data/weights/default.eval");
  CHECK(candidates[2] == "/opt/x/share/sashite/data/weights/default.eval");
  CHECK(candidates[3] == "/usr/local/share/sashite/data/weights/default.eval");
  CHECK(candidates[4] == "data/weights/default.eval");
  const auto books = base::default_book_candidates("/opt/x/bin", "/usr/local/share/sashite");
  REQUIRE(books.size() == 4);
  CHECK(books[0] == "/opt/x/bin/book/default");
  CHECK(books[1] == "/opt/x/share/sashite/book/default");
  CHECK(books[2] == "/usr/local/share/sashite/book/default");
  // A binary copied anywhere falls back on the share directory of the PREFIX it was built for.
  CHECK(fs::path(base::install_share_directory()).filename() == "sashite");
  CHECK(base::first_existing({"/nonexistent/a", kRepository / "Makefile"}) ==
        (kRepository / "Makefile").string());
  CHECK(base::first_existing({"/nonexistent/a", "/nonexistent/b"}) == "/nonexistent/a");
  // EvalFile's names and which files load as networks.
  CHECK(base::resolve_eval_file("linear") == base::linear_eval_file());
  CHECK(base::resolve_eval_file("") == base::default_eval_file());
  CHECK(base::resolve_eval_file("x.eval") == "x.eval");
  CHECK(base::is_network_file(base::default_eval_file()));
  CHECK(base::is_network_file("g4.nnue"));
  CHECK_FALSE(base::is_network_file(base::linear_eval_file()));
  CHECK_FALSE(base::is_network_file(".nnue"));
  CHECK_FALSE(base::is_network_file("nnue"));
}

TEST_CASE("scripts/install.sh: the installed binary plays with its weights and its book") {
  std::string templ = (fs::temp_directory_path() / "sashite-install.XXXXXX").string();
  REQUIRE(::mkdtemp(templ.data()) != nullptr);
  const fs::path root = templ;
  int status = -1;
  std::string out = run_command("cd " + kRepository.string() + " && scripts/install.sh " +
                                    (root / "prefix").string() + " build",
                                status);
  INFO(out);
  REQUIRE(status == 0);
  const fs::path share = root / "prefix/share/sashite";
  CHECK(fs::exists(root / "prefix/bin/sashite"));
  CHECK(fs::exists(share / "data/weights/default.eval"));
  CHECK(fs::exists(share / "data/mate/svm.model"));
  CHECK(fs::exists(share / "data/nnue/candidate.nnue"));
  CHECK(fs::exists(share / "data/nnue/default.nnue"));
  CHECK(fs::exists(share / "book/default/CURRENT"));
  CHECK(!fs::exists(share / "book/default/LOCK"));
  CHECK(fs::exists(share / "config/floodgate.toml"));

  // Run from elsewhere: no load error, the book guides the first move.
  out = run_command("cd " + root.string() +
                        " && printf 'setoption name MateControl value limit\\nisready\\n"
                        "position startpos\\ngo depth 2\\n' | (cat; sleep 2; echo quit) | " +
                        (root / "prefix/bin/sashite").string() + " usi",
                    status);
  INFO(out);
  CHECK(status == 0);
  CHECK(out.find("info string error") == std::string::npos);
  CHECK(out.find("info string book guides the search: ") != std::string::npos);
  CHECK(out.find("bestmove ") != std::string::npos);

  // A second install replaces the first.
  out = run_command("cd " + kRepository.string() + " && scripts/install.sh " +
                        (root / "prefix").string() + " build",
                    status);
  CHECK(status == 0);
  CHECK(fs::exists(share / "book/default/CURRENT"));
  std::error_code ec;
  fs::remove_all(root, ec);
}

TEST_CASE("scripts/gui/sashite-usi: the file a GUI registers runs the engine from any folder") {
  std::string templ = (fs::temp_directory_path() / "sashite-gui.XXXXXX").string();
  REQUIRE(::mkdtemp(templ.data()) != nullptr);
  const fs::path root = templ;
  // GUIs often copy a link to the engine file into their own folder: the wrapper follows it.
  fs::create_symlink(kRepository / "scripts/gui/sashite-usi", root / "engine");
  int status = -1;
  const std::string commands = "printf 'usi\\nisready\\nposition startpos\\ngo depth 1\\n'";
  const std::string out = run_command(
      "cd " + root.string() + " && " + commands + " | (cat; sleep 1; echo quit) | ./engine",
      status);
  INFO(out);
  CHECK(status == 0);
  CHECK(out.find("usiok") != std::string::npos);
  CHECK(out.find("readyok") != std::string::npos);
  CHECK(out.find("bestmove ") != std::string::npos);
  CHECK(out.find("info string error") == std::string::npos);
  std::error_code ec;
  fs::remove_all(root, ec);
}

}  // namespace install_test
