// sashite records time-use: the per-ply table, the per-game totals and the closest call, with
// the clock replayed as the match and floodgate keep it.
#include "tools/records/records_time_use.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "tests/temp_dir.h"

namespace records_time_use_test {

using namespace tools;

namespace {
// Four moves: Black 3 s and 9 s, White 1.5 s and 0.5 s, then a resignation.
const char* kRecord =
    "V3.0\nN+alpha\nN-beta\nPI\n+\n+7776FU\nT3\n-3334FU\nT1.5\n+2726FU\nT9\n-8384FU\nT0.5\n%"
    "TORYO\nT0\n";

shogi::CsaRecord record() {
  shogi::CsaRecord rec;
  const base::Status s = shogi::read_csa_record(kRecord, "game.csa", rec);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  return rec;
}
}  // namespace

TEST_CASE("records time-use: buckets, totals and the closest call under a Fischer clock") {
  TimeUse use;
  use.clocked = true;
  // 10 s + 1 s Fischer: Black has 11 s for move 1 (8 to spare), then 8 + 1 = 9 s for move 3,
  // which takes all 9 of them: 0 to spare.
  add_time_use(record(), "game.csa", 2, true, true, 10000, 1000, 0, use);
  CHECK(use.games == 1);
  REQUIRE(use.buckets.size() == 2);
  CHECK(use.buckets[0].first_ply == 1);
  CHECK(use.buckets[0].moves == 2);
  CHECK(use.buckets[0].total_ms == 4500);
  CHECK(use.buckets[0].max_ms == 3000);
  CHECK(use.buckets[1].total_ms == 9500);
  CHECK(use.game_ms == std::vector<int64_t>{12000, 2000});
  CHECK(use.least_spare_ms == 0);
  CHECK(use.least_spare_where == "game.csa ply 3");
  const std::string text = format_time_use(use, 2);
  CHECK(text.find("   1-2          2     2.25     3.00\n") != std::string::npos);
  CHECK(text.find("time per game and side: mean 7.0 s, least 2.0 s, most 12.0 s (2)") !=
        std::string::npos);
  CHECK(text.find("closest call: 0.0 s to spare (game.csa ply 3)") != std::string::npos);

  // Only White's moves, under 0 s + 10 s byoyomi: 8.5 s to spare at its first move.
  TimeUse white;
  white.clocked = true;
  add_time_use(record(), "game.csa", 10, false, true, 0, 0, 10000, white);
  REQUIRE(white.buckets.size() == 1);
  CHECK(white.buckets[0].moves == 2);
  CHECK(white.least_spare_ms == 8500);
  CHECK(white.least_spare_where == "game.csa ply 2");
}

TEST_CASE("records time-use: the command reads files, filters players, names bad records") {
  TempDir dir;
  {
    std::ofstream(dir.path / "a.csa") << kRecord;
    std::ofstream(dir.path / "bad.csa") << "V2.2\nPI\n+\n+7777FU\n";
  }
  TimeUseOptions o;
  o.paths = {(dir.path / "a.csa").string()};
  o.player = "beta";
  o.time_control = "10+1";
  std::ostringstream out;
  CHECK(run_records_time_use(o, out) == 0);
  CHECK(out.str().find("(1)\n") != std::string::npos);  // one side counted
  CHECK(out.str().find("closest call: 9.5 s to spare") != std::string::npos);
  o.paths = {dir.path.string()};
  std::ostringstream out2;
  CHECK(run_records_time_use(o, out2) == 1);
  CHECK(out2.str().find("bad.csa") != std::string::npos);
  CHECK(validate_time_use_options(o).is_ok());
  o.time_control = "x";
  CHECK(validate_time_use_options(o).message().find("--tc 'x'") == 0);
  o.time_control = "";
  o.bucket = 0;
  CHECK(validate_time_use_options(o).message() == "--bucket must be at least 1");
}

}  // namespace records_time_use_test
