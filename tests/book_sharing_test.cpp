// One book, many engines: loading waits out another loader's lock, engines never keep it.
#include <doctest/doctest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "book/book_db.h"
#include "book/engine_book.h"
#include "book/import_gps_tsv.h"
#include "engine/engine.h"
#include "shogi/notation.h"

namespace book_sharing_test {

namespace fs = std::filesystem;

namespace {

struct SharedBookDir {
  fs::path path;
  SharedBookDir() {
    std::string templ = (fs::temp_directory_path() / "sashite-book-share.XXXXXX").string();
    REQUIRE(::mkdtemp(templ.data()) != nullptr);
    path = templ;
    // Two positions: the start (7g7f weight 3, 2g2f weight 1) and after 7g7f (3c3d).
    book::BookDb db;
    REQUIRE(db.open(book_dir(), true).is_ok());
    std::vector<book::BookEntry> entries;
    shogi::Position pos;
    auto add = [&](std::vector<std::pair<std::string, uint32_t>> moves) {
      book::BookEntry e;
      e.key = pos.key();
      e.position = book::PackedPosition::from(pos);
      for (const auto& [usi, count] : moves) {
        book::BookMove m;
        REQUIRE(shogi::parse_usi_move(pos, usi, m.move).is_ok());
        m.count = count;
        e.moves.push_back(m);
      }
      entries.push_back(e);
    };
    add({{"7g7f", 3}, {"2g2f", 1}});
    shogi::Move m;
    REQUIRE(shogi::parse_usi_move(pos, "7g7f", m).is_ok());
    pos.do_move(m);
    add({{"3c3d", 5}});
    REQUIRE(db.put(entries, false).is_ok());
  }
  ~SharedBookDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string book_dir() const { return (path / "book").string(); }
};

}  // namespace

TEST_CASE("book sharing: engines loading one book at the same moment all get it") {
  SharedBookDir dir;
  for (int round = 0; round < 5; ++round) {
    std::atomic<int> ok{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; ++i)
      threads.emplace_back([&] {
        std::shared_ptr<const engine::BookAdvisor> advisor;
        base::Status s = book::load_engine_book(dir.book_dir(), advisor);
        if (s.is_ok() && advisor) ++ok;
      });
    for (auto& t : threads) t.join();
    CHECK(ok == 4);
  }
}

TEST_CASE("book sharing: a book held open waits, then loads when released") {
  SharedBookDir dir;
  auto holder = std::make_unique<book::BookDb>();
  REQUIRE(holder->open(dir.book_dir(), false).is_ok());
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    holder.reset();
  });
  std::vector<book::BookEntry> entries;
  base::Status s = book::load_book(dir.book_dir(), entries, 5000);
  release.join();
  CHECK_MESSAGE(s.is_ok(), s.message());
  CHECK(entries.size() == 2);
  // Held for longer than the wait: a clear error naming the directory.
  book::BookDb keeper;
  REQUIRE(keeper.open(dir.book_dir(), false).is_ok());
  s = book::load_book(dir.book_dir(), entries, 100);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find(dir.book_dir()) != std::string::npos);
}

TEST_CASE("book sharing: two engines use one book at once and keep no lock") {
  SharedBookDir dir;
  engine::Engine a, b;
  for (engine::Engine* e : {&a, &b}) {
    e->set_option("USI_Hash", "16");
    book::install_book_loader(*e);
    REQUIRE(e->set_option("BookFile", dir.book_dir()).is_ok());
    REQUIRE(e->set_option("BookMode", "exact").is_ok());
    REQUIRE(e->set_option("BookMoveChoice", "best").is_ok());
  }
  CHECK(a.prepare().is_ok());
  CHECK(b.prepare().is_ok());
  // Both loaded and closed it: a writer can open the book now.
  book::BookDb writer;
  CHECK(writer.open(dir.book_dir(), false).is_ok());
  writer.close();
  engine::SearchLimits limits;
  limits.depth = 3;
  REQUIRE(a.set_position("startpos", {}).is_ok());
  CHECK(shogi::format_usi_move(a.search(limits).best) == "7g7f");
  REQUIRE(b.set_position("startpos", {"7g7f"}).is_ok());
  CHECK(shogi::format_usi_move(b.search(limits).best) == "3c3d");
}

}  // namespace book_sharing_test
