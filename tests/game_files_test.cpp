// GameFiles: records replaced atomically, results appended and kept, errors naming the file.
#include "client/game_files.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "shogi/csa_notation.h"
#include "tests/file_text.h"
#include "tests/temp_dir.h"

namespace game_files_test {

using namespace client;

TEST_CASE("game files: the record is replaced whole; results lines are appended") {
  TempDir tmp;
  const std::string dir = tmp.sub("records");
  GameFiles files(dir);
  REQUIRE(files.init().is_ok());
  GameSummary s;
  s.game_id = "wdoor+floodgate-300-10F+alice+bob+20261130230000";
  s.names[shogi::kBlack] = "alice";
  s.names[shogi::kWhite] = "bob";
  files.start_game(s);
  shogi::CsaRecord r;
  r.black_name = "alice";
  r.white_name = "bob";
  r.initial = shogi::csa_start_setup();
  REQUIRE(files.write_record(r).is_ok());
  REQUIRE(files.write_record(r).is_ok());
  CHECK(files.record_path() == dir + "/" + s.game_id + ".csa");
  CHECK(read_text(files.record_path()).find("N+alice") != std::string::npos);
  CHECK(!std::filesystem::exists(files.record_path() + ".tmp"));

  GameResult result{s.game_id, GameOutcome::kWin, GameEndReason::kResign, 0};
  REQUIRE(files.append_result(result, s, shogi::kBlack).is_ok());
  result.outcome = GameOutcome::kLose;
  REQUIRE(files.append_result(result, s, shogi::kBlack).is_ok());
  const std::string lines = read_text(files.results_path());
  CHECK(std::count(lines.begin(), lines.end(), '\n') == 2);
  CHECK(lines.find("\tWIN\tRESIGN\t0\t") != std::string::npos);
  CHECK(lines.find("\tLOSE\tRESIGN\t0\t") != std::string::npos);
  CHECK(lines.find("\tWIN\t") < lines.find("\tLOSE\t"));

  // A results file that cannot be opened: the error names it; the record stays.
  std::filesystem::remove(files.results_path());
  std::filesystem::create_directory(files.results_path());
  const base::Status bad = files.append_result(result, s, shogi::kBlack);
  CHECK(!bad.is_ok());
  CHECK(bad.message().find(files.results_path()) != std::string::npos);
  CHECK(std::filesystem::exists(files.record_path()));
}

}  // namespace game_files_test
