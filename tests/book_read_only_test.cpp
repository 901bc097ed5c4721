// A book in a directory its user may only read (installed by root, shared storage): the
// engine, `book stats` and `book query` still read it, from a private copy they delete.
#include <doctest/doctest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "book/book_db.h"
#include "run_command.h"
#include "shogi/notation.h"
#include "shogi/position.h"

#ifndef SASHITE_BINARY
#define SASHITE_BINARY SASHITE_TEST_DATA_DIR "/../../build/sashite"
#endif

namespace book_read_only_test {

namespace fs = std::filesystem;

namespace {

// A temporary root (mode 755, so another user can reach into it) holding a two-position book,
// a copy of the binary, and a temporary directory for the reader's private copies.
struct ReadOnlyBook {
  fs::path root;
  ReadOnlyBook() {
    std::string templ = (fs::temp_directory_path() / "sashite-readonly.XXXXXX").string();
    REQUIRE(::mkdtemp(templ.data()) != nullptr);
    root = templ;
    fs::permissions(root, fs::perms(0755));
    book::BookDb db;
    REQUIRE(db.open(book_dir(), true).is_ok());
    shogi::Position pos;
    book::BookEntry e;
    e.key = pos.key();
    e.position = book::PackedPosition::from(pos);
    for (const auto& [usi, count] : {std::pair<const char*, uint32_t>{"7g7f", 3}, {"2g2f", 1}}) {
      book::BookMove m;
      REQUIRE(shogi::parse_usi_move(pos, usi, m.move).is_ok());
      m.count = count;
      e.moves.push_back(m);
    }
    REQUIRE(db.put({e}, false).is_ok());
    db.close();
    fs::create_directory(tmp_dir());
    fs::permissions(tmp_dir(), fs::perms(0777));
    // Read-only from here on: the files 444, the directory 555.
    for (const auto& file : fs::directory_iterator(book_dir()))
      fs::permissions(file.path(), fs::perms(0444));
    fs::permissions(book_dir(), fs::perms(0555));
  }
  ~ReadOnlyBook() {
    std::error_code ec;
    fs::permissions(book_dir(), fs::perms(0755), ec);
    fs::remove_all(root, ec);
  }
  std::string book_dir() const { return (root / "book").string(); }
  std::string tmp_dir() const { return (root / "tmp").string(); }
  std::vector<std::string> book_files() const {
    std::vector<std::string> names;
    for (const auto& file : fs::directory_iterator(book_dir()))
      names.push_back(file.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  }
};

// Runs `command` as a user who may not write the book: as root, the user nobody (root may
// write anywhere); otherwise ourselves. Returns its output; `status` gets the exit code.
std::string run_as_reader(const ReadOnlyBook& book, const std::string& command, int& status) {
  std::string line = "TMPDIR=" + book.tmp_dir() + " ";
  if (::geteuid() == 0) line += "setpriv --reuid=65534 --regid=65534 --clear-groups ";
  return test_commands::run_command(line + command, status);
}

}  // namespace

TEST_CASE("a read-only book: book stats, book query and the engine read it as another user") {
  ReadOnlyBook book;
  // The binary copied where the reader can run it.
  const fs::path binary = book.root / "sashite";
  fs::copy_file(SASHITE_BINARY, binary);
  fs::permissions(binary, fs::perms(0755));
  const std::vector<std::string> files_before = book.book_files();

  int status = -1;
  std::string out =
      run_as_reader(book, binary.string() + " book stats --book " + book.book_dir(), status);
  INFO(out);
  CHECK(status == 0);
  CHECK(out.find("positions:            1") != std::string::npos);

  out = run_as_reader(
      book,
      binary.string() + " book query --book " + book.book_dir() + " --mode exact --sfen startpos",
      status);
  CHECK(status == 0);
  CHECK(out.find("7g7f") != std::string::npos);

  out = run_as_reader(book,
                      "sh -c 'printf \"setoption name BookFile value " + book.book_dir() +
                          "\\nisready\\nposition startpos\\ngo depth 2\\nquit\\n\" | " +
                          binary.string() + " usi'",
                      status);
  CHECK(status == 0);
  CHECK(out.find("book directory") == std::string::npos);  // no error about the book
  CHECK(out.find("info string book guides the search: 7g7f 75%") != std::string::npos);
  CHECK(out.find("bestmove ") != std::string::npos);

  // Nothing written into the book, and the private copies are gone.
  CHECK(book.book_files() == files_before);
  CHECK(fs::is_empty(book.tmp_dir()));
}

TEST_CASE("a book opened from its private copy refuses writes, and the copy goes at close") {
  if (::geteuid() == 0) return;  // root may write any directory: the binary case covers it
  ReadOnlyBook book;
  ::setenv("TMPDIR", book.tmp_dir().c_str(), 1);
  book::BookDb db;
  REQUIRE(db.open(book.book_dir(), false).is_ok());
  CHECK(db.read_only());
  CHECK(!fs::is_empty(book.tmp_dir()));
  bool found = false;
  book::BookEntry entry;
  REQUIRE(db.get(shogi::Position().key(), entry, found).is_ok());
  CHECK(found);
  const base::Status write = db.put_meta("note", "x");
  CHECK(!write.is_ok());
  CHECK(write.message().find("not writable") != std::string::npos);
  db.close();
  CHECK(fs::is_empty(book.tmp_dir()));
  ::unsetenv("TMPDIR");
}

}  // namespace book_read_only_test
