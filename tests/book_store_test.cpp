// Book store: entry merging, the record format, the LevelDB BookDb and its errors.
#include <doctest/doctest.h>
#include <leveldb/db.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "book/book_builder.h"
#include "book/book_db.h"
#include "book/book_entry.h"
#include "book/book_format.h"
#include "book/import_gps_tsv.h"
#include "shogi/notation.h"
#include "shogi/position.h"
#include "tests/temp_dir.h"

#ifndef SASHITE_TEST_DATA_DIR
#define SASHITE_TEST_DATA_DIR "tests/data"
#endif

namespace book_store_test {

namespace fs = std::filesystem;
using namespace book;

namespace {

shogi::Position position(const std::string& sfen) {
  shogi::Position pos;
  base::Status s = pos.set_sfen(sfen);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  return pos;
}

BookMove book_move(const shogi::Position& pos, const std::string& usi, uint32_t count) {
  BookMove m;
  base::Status s = shogi::parse_usi_move(pos, usi, m.move);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  m.count = count;
  return m;
}

BookEntry sample_entry() {
  shogi::Position pos =
      position("lnsgkgsnl/1r5b1/pppppp1pp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w Pp 2");
  BookEntry e;
  e.key = pos.key();
  e.position = PackedPosition::from(pos);
  BookMove a = book_move(pos, "7c7d", 7);
  a.wins = 4;
  a.losses = 3;
  a.value = -120;
  a.depth = 18;
  a.sources = kSourceGpsTsv | kSourceThink;
  BookMove b = book_move(pos, "P*3e", 0);
  b.sources = kSourceRecords;
  BookMove c = book_move(pos, "8c8d", 4000000000u);
  c.value = 32767;
  c.depth = -2;
  e.moves = {a, b, c};
  return e;
}

}  // namespace

TEST_CASE("book entry: PackedPosition round trip through setup") {
  shogi::Position pos =
      position("ln1g1g1nl/1r1sk2s1/p1ppppbpp/1p4p2/9/2P4P1/PPBPPPP1P/2S3SR1/LN1GKG1NL b Pp 13");
  PackedPosition packed = PackedPosition::from(pos);
  shogi::Position back;
  REQUIRE(back.set(packed.setup()).is_ok());
  CHECK(back.key() == pos.key());
  CHECK(back.sfen(false) == pos.sfen(false));
  CHECK(PackedPosition::from(back) == packed);
}

TEST_CASE("book entry: merge_move adds counts, keeps the deeper value, or-s sources") {
  shogi::Position pos;
  BookEntry e;
  BookMove m = book_move(pos, "7g7f", 3);
  m.wins = 2;
  m.losses = 1;
  m.value = 50;
  m.depth = 10;
  m.sources = kSourceGpsTsv;
  e.merge_move(m);
  BookMove n = book_move(pos, "7g7f", 5);
  n.wins = 1;
  n.losses = 4;
  n.value = 80;
  n.depth = 8;  // shallower: value kept
  n.sources = kSourceRecords;
  e.merge_move(n);
  REQUIRE(e.moves.size() == 1);
  CHECK(e.moves[0].count == 8);
  CHECK(e.moves[0].wins == 3);
  CHECK(e.moves[0].losses == 5);
  CHECK(e.moves[0].value == 50);
  CHECK(e.moves[0].depth == 10);
  CHECK(e.moves[0].sources == (kSourceGpsTsv | kSourceRecords));

  BookMove deeper = book_move(pos, "7g7f", 0);
  deeper.value = -30;
  deeper.depth = 12;
  e.merge_move(deeper);
  CHECK(e.moves[0].value == -30);
  CHECK(e.moves[0].depth == 12);
  BookMove same_depth = book_move(pos, "7g7f", 0);  // equal depth: the incoming (newer) one
  same_depth.value = -20;
  same_depth.depth = 12;
  e.merge_move(same_depth);
  CHECK(e.moves[0].value == -20);
  deeper.value = -30;
  e.merge_move(deeper);
  BookMove no_value = book_move(pos, "7g7f", 1);  // no value: never replaces one
  e.merge_move(no_value);
  CHECK(e.moves[0].value == -30);
  CHECK(e.moves[0].count == 9);

  e.merge_move(book_move(pos, "2g2f", 20));
  REQUIRE(e.moves.size() == 2);
  BookMove scored = book_move(pos, "5g5f", 9);
  scored.value = 10;
  scored.depth = 1;
  e.merge_move(scored);
  e.merge_move(book_move(pos, "1g1f", 9));
  e.sort_moves();
  CHECK(shogi::format_usi_move(e.moves[0].move) == "2g2f");
  CHECK(shogi::format_usi_move(e.moves[1].move) == "5g5f");  // same count, has a value
  CHECK(shogi::format_usi_move(e.moves[2].move) == "7g7f");  // count 9 too, value -30
  CHECK(shogi::format_usi_move(e.moves[3].move) == "1g1f");
}

TEST_CASE("book format: keys and values round trip; damage is reported") {
  uint64_t key = 0;
  CHECK(parse_entry_key(entry_key(0x0123456789abcdefULL), key));
  CHECK(key == 0x0123456789abcdefULL);
  CHECK(entry_key(1) < entry_key(2));
  CHECK(entry_key(0xff) < entry_key(0x100));
  CHECK_FALSE(parse_entry_key(meta_key("x"), key));
  int version = 0;
  CHECK(parse_version_value(version_value(kFormatVersion), version));
  CHECK(version == kFormatVersion);
  CHECK_FALSE(parse_version_value("leveldb", version));
  CHECK_FALSE(parse_version_value("sashite-book x", version));

  const BookEntry e = sample_entry();
  const std::string value = encode_entry_value(e);
  BookEntry back;
  REQUIRE(decode_entry_value(value, back).is_ok());
  CHECK(back.position == e.position);
  REQUIRE(back.moves.size() == e.moves.size());
  for (size_t i = 0; i < e.moves.size(); ++i) {
    CHECK(back.moves[i].move.raw() == e.moves[i].move.raw());
    CHECK(back.moves[i].count == e.moves[i].count);
    CHECK(back.moves[i].wins == e.moves[i].wins);
    CHECK(back.moves[i].losses == e.moves[i].losses);
    CHECK(back.moves[i].value == e.moves[i].value);
    CHECK(back.moves[i].depth == e.moves[i].depth);
    CHECK(back.moves[i].sources == e.moves[i].sources);
  }
  CHECK(back.moves[1].value == kNoBookValue);

  // Truncation anywhere, trailing bytes and bad piece codes are errors.
  for (size_t n = 0; n < value.size(); ++n)
    CHECK_FALSE(decode_entry_value(std::string_view(value).substr(0, n), back).is_ok());
  CHECK_FALSE(decode_entry_value(value + "x", back).is_ok());
  std::string bad_piece = value;
  bad_piece[40] = char(15);
  base::Status s = decode_entry_value(bad_piece, back);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find("square 40") != std::string::npos);
}

TEST_CASE("book db: put, get, combine, for_each, metadata, reopen") {
  TempDir tmp;
  const std::string dir = tmp.sub("book");
  const BookEntry e = sample_entry();
  {
    BookDb db;
    REQUIRE(db.open(dir, /*create=*/true).is_ok());
    REQUIRE(db.put({e}, /*combine=*/false).is_ok());
    REQUIRE(db.put({e}, /*combine=*/true).is_ok());  // counts double
    REQUIRE(db.put_meta("source", "test").is_ok());
  }
  BookDb db;
  REQUIRE(db.open(dir, /*create=*/false).is_ok());
  BookEntry got;
  bool found = false;
  REQUIRE(db.get(e.key, got, found).is_ok());
  REQUIRE(found);
  CHECK(got.key == e.key);
  CHECK(got.position == e.position);
  REQUIRE(got.moves.size() == 3);
  CHECK(got.moves[0].count == 14);
  CHECK(got.moves[0].wins == 8);
  CHECK(got.moves[2].count == 0xffffffffu);  // saturated
  REQUIRE(db.get(e.key + 1, got, found).is_ok());
  CHECK_FALSE(found);
  std::string meta;
  REQUIRE(db.get_meta("source", meta, found).is_ok());
  CHECK(found);
  CHECK(meta == "test");

  // combine=false replaces.
  REQUIRE(db.put({e}, /*combine=*/false).is_ok());
  REQUIRE(db.get(e.key, got, found).is_ok());
  CHECK(got.moves[0].count == 7);

  shogi::Position start;
  BookEntry second;
  second.key = start.key();
  second.position = PackedPosition::from(start);
  second.moves = {book_move(start, "7g7f", 1)};
  BookEntry again = second;  // two entries of one key in one call combine
  REQUIRE(db.put({second, again}, /*combine=*/true).is_ok());
  std::vector<uint64_t> keys;
  REQUIRE(db.for_each([&](const BookEntry& x) {
              keys.push_back(x.key);
              if (x.key == start.key()) CHECK(x.moves.at(0).count == 2);
              return true;
            }).is_ok());
  CHECK(keys.size() == 2);
  CHECK(std::is_sorted(keys.begin(), keys.end()));
  db.close();

  std::vector<BookEntry> all;
  REQUIRE(load_book(dir, all).is_ok());
  CHECK(all.size() == 2);
}

TEST_CASE("book db: a second opener of one directory gets a lock error naming it") {
  TempDir tmp;
  const std::string dir = tmp.sub("book");
  BookDb first;
  REQUIRE(first.open(dir, true).is_ok());
  BookDb second;
  base::Status s = second.open(dir, false);
  REQUIRE_FALSE(s.is_ok());
  CHECK(s.message().find(dir) != std::string::npos);
  CHECK(s.message().find("locked by another process") != std::string::npos);
  std::vector<BookEntry> all;
  CHECK_FALSE(load_book(dir, all).is_ok());
  first.close();
  CHECK(load_book(dir, all).is_ok());  // closed: anyone may load it
}

TEST_CASE("book db: foreign, missing, newer and corrupt directories give clear errors") {
  TempDir tmp;
  BookDb db;
  std::vector<BookEntry> all;

  const std::string missing = tmp.sub("missing");
  base::Status s = db.open(missing, false);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find(missing) != std::string::npos);
  CHECK(s.message().find("does not exist") != std::string::npos);

  const std::string plain = tmp.sub("plain");  // a directory with other files
  fs::create_directories(plain);
  std::ofstream(plain + "/notes.txt") << "hello\n";
  s = db.open(plain, false);
  CHECK(s.message().find("not a book") != std::string::npos);
  CHECK(s.message().find(plain) != std::string::npos);
  s = db.open(plain, true);  // never creates a database among someone's files
  CHECK(s.message().find("not a book") != std::string::npos);
  CHECK_FALSE(fs::exists(plain + "/CURRENT"));

  const std::string foreign = tmp.sub("foreign");  // a LevelDB database of something else
  {
    leveldb::Options options;
    options.create_if_missing = true;
    leveldb::DB* raw = nullptr;
    REQUIRE(leveldb::DB::Open(options, foreign, &raw).ok());
    REQUIRE(raw->Put(leveldb::WriteOptions(), "user:1", "alice").ok());
    delete raw;
  }
  s = db.open(foreign, true);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find(foreign) != std::string::npos);
  CHECK(s.message().find("format-version record") != std::string::npos);

  const std::string newer = tmp.sub("newer");
  {
    REQUIRE(db.open(newer, true).is_ok());
    db.close();
    leveldb::DB* raw = nullptr;
    REQUIRE(leveldb::DB::Open(leveldb::Options(), newer, &raw).ok());
    REQUIRE(
        raw->Put(leveldb::WriteOptions(), version_key(), version_value(kFormatVersion + 1)).ok());
    delete raw;
  }
  s = db.open(newer, false);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find(newer) != std::string::npos);
  CHECK(s.message().find("newer") != std::string::npos);

  const std::string bad_value = tmp.sub("bad-value");  // a damaged entry value
  {
    REQUIRE(db.open(bad_value, true).is_ok());
    REQUIRE(db.put({sample_entry()}, false).is_ok());
    db.close();
    leveldb::DB* raw = nullptr;
    REQUIRE(leveldb::DB::Open(leveldb::Options(), bad_value, &raw).ok());
    REQUIRE(raw->Put(leveldb::WriteOptions(), entry_key(42), "garbage").ok());
    delete raw;
  }
  s = load_book(bad_value, all);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find(bad_value) != std::string::npos);
  CHECK(s.message().find("corrupt value") != std::string::npos);

  const std::string corrupt = tmp.sub("corrupt");  // damaged LevelDB files
  {
    REQUIRE(db.open(corrupt, true).is_ok());
    REQUIRE(db.put({sample_entry()}, false).is_ok());
    db.close();
    for (const auto& file : fs::directory_iterator(corrupt)) {
      const std::string name = file.path().filename().string();
      if (name.rfind("MANIFEST", 0) == 0 || name.ends_with(".log") || name.ends_with(".ldb")) {
        std::ofstream out(file.path(), std::ios::binary | std::ios::trunc);
        out << std::string(200, '\x5a');
      }
    }
  }
  s = db.open(corrupt, false);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find(corrupt) != std::string::npos);
  CHECK(s.message().find("corrupt database") != std::string::npos);
}

TEST_CASE("book import: the GPS TSV sample") {
  BookBuilder builder;
  ImportStats stats;
  const std::string path = std::string(SASHITE_TEST_DATA_DIR) + "/book/gps_sample.tsv";
  base::Status s = import_gps_tsv(path, builder, stats);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  CHECK(stats.rows == 200);
  CHECK(builder.move_count() == 200);
  shogi::Position start;
  const auto it = builder.entries().find(start.key());
  REQUIRE(it != builder.entries().end());
  BookEntry e = it->second;
  e.sort_moves();
  REQUIRE(e.moves.size() >= 2);
  CHECK(shogi::format_usi_move(e.moves[0].move) == "7g7f");
  CHECK(e.moves[0].count == 8194);
  CHECK(e.moves[0].sources == kSourceGpsTsv);
  // 7g7f leads to state 3, whose lines are in the sample: its win counts, Black's view.
  CHECK(e.moves[0].wins + e.moves[0].losses > 0);

  // Written and read back unchanged.
  TempDir tmp;
  BookDb db;
  REQUIRE(db.open(tmp.sub("gps"), true).is_ok());
  REQUIRE(builder.write(db, 7).is_ok());
  size_t n = 0;
  REQUIRE(db.for_each([&](const BookEntry& x) {
              ++n;
              BookEntry expected = builder.entries().at(x.key);
              expected.sort_moves();
              CHECK(x.position == expected.position);
              REQUIRE(x.moves.size() == expected.moves.size());
              for (size_t i = 0; i < x.moves.size(); ++i) {
                CHECK(x.moves[i].move.raw() == expected.moves[i].move.raw());
                CHECK(x.moves[i].count == expected.moves[i].count);
                CHECK(x.moves[i].wins == expected.moves[i].wins);
              }
              return true;
            }).is_ok());
  CHECK(n == builder.position_count());
}

TEST_CASE("book import: GPS TSV errors name the file and line") {
  BookBuilder builder;
  ImportStats stats;
  const std::string start = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
  base::Status s =
      import_gps_tsv_text("# header\n0\t" + start + "\t7g7f\t1\t2\t3\n", "t.tsv", builder, stats);
  CHECK(s.message().rfind("t.tsv:2: expected 7", 0) == 0);
  s = import_gps_tsv_text("0\t" + start + "\t7g7e\t1\t2\t3\t4\n", "t.tsv", builder, stats);
  CHECK(s.message().rfind("t.tsv:1: USI move '7g7e'", 0) == 0);
  s = import_gps_tsv_text("0\t" + start + "\t7g7f\tx\t2\t3\t4\n", "t.tsv", builder, stats);
  CHECK(s.message().find("column 4 (weight)") != std::string::npos);
  s = import_gps_tsv("/nonexistent/file.tsv", builder, stats);
  CHECK(s.message().rfind("/nonexistent/file.tsv: cannot open", 0) == 0);
}

}  // namespace book_store_test
