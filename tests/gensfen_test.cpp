// gensfen: the 64-byte records round-trip every position of random playouts (hands and
// promoted pieces included), files are checked on reading, and a small run writes complete,
// legal, deduplicated records in numbered batches that a second run continues.
#include "tools/learn/gensfen.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "shogi/movegen.h"
#include "shogi/notation.h"
#include "tests/temp_dir.h"
#include "tests/test_prng.h"
#include "tools/learn/gensfen_format.h"

namespace gensfen_test {

using namespace tools;
namespace fs = std::filesystem;

TEST_CASE("gensfen: records round-trip the positions of random playouts") {
  test::Prng rng(42);
  int positions = 0, with_hands = 0;
  for (int game = 0; game < 40; ++game) {
    shogi::Position pos;
    for (int ply = 0; ply < 160; ++ply) {
      const shogi::MoveList legal = shogi::legal_moves(pos);
      if (legal.size() == 0) break;
      GensfenRecord r;
      r.position = pos.setup();
      r.value = int16_t(rng.below(64001) - 32000);
      r.move16 = legal[size_t(rng.below(int(legal.size())))].key16();
      r.ply = uint16_t(pos.game_ply());
      r.result = int8_t(rng.below(3) - 1);
      r.depth = uint8_t(rng.below(256));
      const auto bytes = pack_gensfen_record(r);
      GensfenRecord back;
      REQUIRE(unpack_gensfen_record(bytes.data(), back).is_ok());
      CHECK(shogi::format_sfen(back.position) == pos.sfen());
      CHECK(back.value == r.value);
      CHECK(back.move16 == r.move16);
      CHECK(back.ply == r.ply);
      CHECK(back.result == r.result);
      CHECK(back.depth == r.depth);
      shogi::Position again;
      REQUIRE(again.set(back.position).is_ok());
      CHECK(again.key() == pos.key());
      CHECK(again.complete_move(shogi::Move(back.move16)) != shogi::kMoveNone);
      ++positions;
      with_hands += !r.position.hands[0].empty() || !r.position.hands[1].empty();
      pos.do_move(legal[size_t(rng.below(int(legal.size())))]);
    }
  }
  MESSAGE(positions << " positions, " << with_hands << " with pieces in hand");
  CHECK(with_hands > positions / 4);
}

TEST_CASE("gensfen: files are checked when read") {
  TempDir dir;
  GensfenRecord r;
  shogi::Position start;
  r.position = start.setup();
  r.value = -35;
  const std::string bytes = gensfen_file_bytes({r, r});
  CHECK(bytes.size() == 64 + 2 * 64);
  const fs::path good = dir.path / "good.bin";
  std::ofstream(good, std::ios::binary) << bytes;
  std::vector<GensfenRecord> records;
  REQUIRE(read_gensfen_file(good.string(), records).is_ok());
  REQUIRE(records.size() == 2);
  CHECK(records[1].value == -35);
  const std::pair<std::string, std::string> bad[] = {
      {bytes.substr(0, 100), "the header says 2 records, the file holds 0"},
      {"not a file at all, nothing like the header, long enough to be one: 0123456789abcdef",
       "not a gensfen file"},
      {std::string(bytes).replace(16, 1, "\x02"), "version 2"},
      {std::string(bytes).replace(64, 1, "\x1f"), "record 0: square 0: no piece has code 31"},
  };
  for (const auto& [content, message] : bad) {
    CAPTURE(message);
    const fs::path p = dir.path / "bad.bin";
    std::ofstream(p, std::ios::binary | std::ios::trunc) << content;
    const base::Status s = read_gensfen_file(p.string(), records);
    CHECK_FALSE(s.is_ok());
    CHECK(s.message().find(message) != std::string::npos);
  }
}

TEST_CASE("gensfen: a small run writes legal, deduplicated records in numbered batches") {
  TempDir dir;
  GensfenOptions o;
  o.out_dir = (dir.path / "data").string();
  o.depth = 2;
  o.threads = 2;
  o.positions = 120;
  o.batch = 50;
  o.min_ply = 1;
  o.random_min = 2;
  o.random_max = 6;
  o.seed = 7;
  o.hash_mb = 1;
  o.dedup_mb = 1;
  o.progress_seconds = 1;
  std::ostringstream out;
  base::Status s = run_gensfen(o, out);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  CHECK(out.str().find("gensfen: done:") != std::string::npos);
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(o.out_dir)) files.push_back(e.path());
  CHECK(files.size() >= 3);
  std::set<uint64_t> keys;
  size_t total = 0;
  for (const fs::path& f : files) {
    std::vector<GensfenRecord> records;
    REQUIRE_MESSAGE(read_gensfen_file(f.string(), records).is_ok(), f.string());
    for (const GensfenRecord& r : records) {
      shogi::Position pos;
      REQUIRE(pos.set(r.position).is_ok());
      CHECK_FALSE(pos.in_check());
      const shogi::Move m = pos.complete_move(shogi::Move(r.move16));
      REQUIRE(m != shogi::kMoveNone);
      CHECK(shogi::legal_moves(pos).contains(m));
      CHECK(r.depth >= 1);
      CHECK(std::abs(r.value) < 32001);
      keys.insert(pos.key());
      ++total;
    }
  }
  CHECK(total >= 120);
  CHECK(keys.size() == total);  // no position twice
  // A second run numbers its files after the first's.
  o.positions = 10;
  o.batch = 10;
  std::ostringstream again;
  REQUIRE(run_gensfen(o, again).is_ok());
  CHECK(again.str().find("files from number " + std::to_string(files.size())) != std::string::npos);
  // Bad options are errors, not runs.
  o.depth = 0;
  CHECK_FALSE(run_gensfen(o, again).is_ok());
  o.depth = 2;
  o.engine_options = {"NoSuchOption=1"};
  CHECK_FALSE(run_gensfen(o, again).is_ok());
}

}  // namespace gensfen_test
