// gensfen: the 72-byte records round-trip every position of random playouts (hands and
// promoted pieces included, the teacher's fields too), files are checked on reading (version
// 1 files read as unlabelled), a small run writes complete, legal, deduplicated records in
// numbered batches that a second run continues, and the values and results are the side to
// move's (games from a position where one side is a bishop up), the leaves' too.
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
      r.labelled = rng.below(2) == 1;
      r.teacher_value = int16_t(rng.below(64001) - 32000);
      r.teacher_static = int16_t(rng.below(64001) - 32000);
      const auto bytes = pack_gensfen_record(r);
      GensfenRecord back;
      REQUIRE(unpack_gensfen_record(bytes.data(), back).is_ok());
      CHECK(shogi::format_sfen(back.position) == pos.sfen());
      CHECK(back.value == r.value);
      CHECK(back.move16 == r.move16);
      CHECK(back.ply == r.ply);
      CHECK(back.result == r.result);
      CHECK(back.depth == r.depth);
      CHECK(back.labelled == r.labelled);
      CHECK(back.teacher_value == r.teacher_value);
      CHECK(back.teacher_static == r.teacher_static);
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
  r.labelled = true;
  r.teacher_value = 120;
  const std::string bytes = gensfen_file_bytes({r, r});
  CHECK(bytes.size() == 64 + 2 * 72);
  const fs::path good = dir.path / "good.bin";
  std::ofstream(good, std::ios::binary) << bytes;
  std::vector<GensfenRecord> records;
  REQUIRE(read_gensfen_file(good.string(), records).is_ok());
  REQUIRE(records.size() == 2);
  CHECK(records[1].value == -35);
  CHECK(records[1].labelled);
  CHECK(records[1].teacher_value == 120);
  uint64_t count = 0;
  REQUIRE(read_gensfen_count(good.string(), count).is_ok());
  CHECK(count == 2);
  // A version 1 file: the same header with version 1 and 64-byte records, no teacher.
  std::string v1 = bytes.substr(0, 64);
  v1[16] = 1;
  v1[20] = 64;
  v1 += bytes.substr(64, 64) + bytes.substr(64 + 72, 64);
  const fs::path old = dir.path / "v1.bin";
  std::ofstream(old, std::ios::binary) << v1;
  REQUIRE(read_gensfen_file(old.string(), records).is_ok());
  REQUIRE(records.size() == 2);
  CHECK(records[0].value == -35);
  CHECK_FALSE(records[0].labelled);
  CHECK(records[0].teacher_value == 0);
  std::vector<uint8_t> raw;
  REQUIRE(read_gensfen_raw(old.string(), raw).is_ok());
  CHECK(raw.size() == 2 * kGensfenRecordSize);
  const std::pair<std::string, std::string> bad[] = {
      {bytes.substr(0, 100), "the header says 2 records, the file holds 0"},
      {"not a file at all, nothing like the header, long enough to be one: 0123456789abcdef",
       "not a gensfen file"},
      {std::string(bytes).replace(16, 1, "\x03"), "version 3, this program reads 1 and 2"},
      {std::string(bytes).replace(20, 1, "\x40"), "record size 64, expected 72 in version 2"},
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
  o.engine_options.clear();
  o.leaves = 1;  // leaves want their own directory
  CHECK_FALSE(validate_gensfen_options(o).is_ok());
  o.leaves_dir = o.out_dir;
  CHECK_FALSE(validate_gensfen_options(o).is_ok());
  o.leaves_dir = (dir.path / "leaves").string();
  CHECK(validate_gensfen_options(o).is_ok());
}

TEST_CASE("gensfen: values and results are the side to move's, in games a bishop up") {
  // Each opening leaves one side a bishop up (the other's in its hand); the search, at
  // depth 3 with the linear evaluation (whose material values keep the lead in sight at that
  // depth), keeps that side ahead until its value passes the limit, and it wins.
  const struct {
    const char* sfen;
    shogi::Color ahead;
  } openings[] = {
      {"lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b B 1", shogi::kBlack},
      {"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL b b 1", shogi::kWhite},
  };
  for (const auto& opening : openings) {
    CAPTURE(opening.sfen);
    TempDir dir;
    const fs::path openings_file = dir.path / "openings.txt";
    std::ofstream(openings_file) << "sfen " << opening.sfen << "\n";
    GensfenOptions o;
    o.out_dir = (dir.path / "data").string();
    o.openings_path = openings_file.string();
    o.depth = 3;
    o.positions = 20;
    o.batch = 10;
    o.random_max = 2;  // games differ
    o.min_ply = 1;
    o.eval_limit = 1500;
    o.seed = 11;
    o.hash_mb = 1;
    o.dedup_mb = 1;
    o.progress_seconds = 1;
    o.engine_options = {"EvalFile=linear"};
    o.leaves = 2;
    o.leaves_dir = (dir.path / "leaves").string();
    std::ostringstream out;
    REQUIRE_MESSAGE(run_gensfen(o, out).is_ok(), out.str());
    auto read_all = [](const std::string& path) {
      std::vector<GensfenRecord> records;
      for (const auto& e : fs::directory_iterator(path)) {
        std::vector<GensfenRecord> file;
        REQUIRE(read_gensfen_file(e.path().string(), file).is_ok());
        records.insert(records.end(), file.begin(), file.end());
      }
      return records;
    };
    const std::vector<GensfenRecord> records = read_all(o.out_dir);
    REQUIRE(records.size() >= 20);
    // The leaves: a random move away from the game and quiet by the linear evaluation's
    // quiescence search, so still mostly the side ahead's; their results are the game's.
    const std::vector<GensfenRecord> leaves = read_all(o.leaves_dir);
    REQUIRE(leaves.size() >= 10);
    CHECK(leaves.size() <= 2 * records.size());
    std::set<uint64_t> game_keys;
    for (const GensfenRecord& r : records) {
      shogi::Position pos;
      REQUIRE(pos.set(r.position).is_ok());
      game_keys.insert(pos.key());
    }
    int leaves_ahead_positive = 0;
    for (const GensfenRecord& r : leaves) {
      CAPTURE(shogi::format_sfen(r.position));
      shogi::Position pos;
      REQUIRE(pos.set(r.position).is_ok());
      CHECK_FALSE(pos.in_check());
      CHECK(game_keys.count(pos.key()) == 0);
      CHECK(shogi::legal_moves(pos).contains(pos.complete_move(shogi::Move(r.move16))));
      const bool ahead = r.position.side_to_move == opening.ahead;
      CHECK(r.result == (ahead ? 1 : -1));
      leaves_ahead_positive += (r.value > 0) == ahead;
    }
    CHECK(leaves_ahead_positive * 4 >= int(leaves.size()) * 3);
    int ahead_to_move = 0, behind_to_move = 0;
    for (const GensfenRecord& r : records) {
      CAPTURE(shogi::format_sfen(r.position));
      CAPTURE(r.value);
      if (r.position.side_to_move == opening.ahead) {
        ++ahead_to_move;
        CHECK(r.value > 0);
        CHECK(r.result == 1);
      } else {
        ++behind_to_move;
        CHECK(r.value < 0);
        CHECK(r.result == -1);
      }
    }
    CHECK(ahead_to_move > 5);
    CHECK(behind_to_move > 5);
  }
}

}  // namespace gensfen_test
