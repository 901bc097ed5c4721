// osl_label (tools/osl/teacher_label): the teacher's values are OpenShogiLib's own, called
// directly here, from the side to move's view; the scale maps and clamps; a run labels every
// file of a gensfen directory, keeps the records, resumes, and names bad input. Needs Debian's
// gpsshogi-data, as the reference tests do. Compiled alone: it includes OSL's headers, which
// must see the settings the library was built with (NDEBUG, OSL_SMP) before <cassert>.
#ifndef NDEBUG
#define NDEBUG
#endif
#ifndef OSL_SMP
#define OSL_SMP 1
#endif

#include <doctest/doctest.h>
#include <osl/eval/openMidEndingEval.h>
#include <osl/numEffectState.h>
#include <osl/usi.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/file_write.h"
#include "shogi/notation.h"
#include "shogi/position.h"
#include "tests/temp_dir.h"
#include "tools/learn/gensfen.h"
#include "tools/learn/gensfen_format.h"
#include "tools/osl/reference_agreement.h"
#include "tools/osl/teacher_label.h"

namespace osl_label_test {

using namespace tools;
using namespace tools::osl_teacher;
namespace fs = std::filesystem;

namespace {

const std::string kOslHome = "/usr/share/gpsshogi-data";

void require_loaded() {
  static const base::Status loaded = osl_reference::load_reference_evaluation(kOslHome);
  REQUIRE_MESSAGE(loaded.is_ok(), loaded.message()
                                      << " (Debian gpsshogi-data: make deps installs it)");
}

shogi::PositionSetup setup_of(const std::string& sfen) {
  shogi::PositionSetup setup;
  REQUIRE(shogi::parse_sfen(sfen, setup).is_ok());
  return setup;
}

// OpenShogiLib's static evaluation of the SFEN, Black's view, called directly.
int osl_black_value(const std::string& sfen) {
  osl::NumEffectState state;
  osl::usi::parse("sfen " + sfen, state);
  return osl::eval::ml::OpenMidEndingEval(state).value();
}

}  // namespace

TEST_CASE("osl label: the teacher's values are OSL's own, from the side to move's view") {
  require_loaded();
  // Black a rook up (White's is in Black's hand), each side to move; then the same with the
  // colours swapped.
  const std::string black_up = "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1";
  const std::string black_up_white_to_move =
      "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w R 1";
  const std::string white_up = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B7/LNSGKGSNL b r 1";
  for (const std::string& sfen : {black_up, black_up_white_to_move, white_up}) {
    CAPTURE(sfen);
    const TeacherValue v = teacher_value(setup_of(sfen), 4);
    REQUIRE(v.ok);
    const bool black_to_move = sfen.find(" b ") != std::string::npos;
    const int direct = osl_black_value(sfen);
    CHECK(v.static_value == (black_to_move ? direct : -direct));
    if (sfen == black_up) CHECK(v.static_value > 0);
    if (sfen == black_up_white_to_move) CHECK(v.static_value < 0);
    if (sfen == white_up) CHECK(v.static_value < 0);
    CHECK((v.quiescence > 0) == (v.static_value > 0));
  }
  // A rook hanging to the side to move (White's on 8f, Black's pawn takes it): the quiescence
  // search takes it, the static value does not see it. (All 40 pieces: OpenShogiLib puts the
  // pieces a position leaves out in White's hand.)
  const std::string sfen = "lnsgkgsnl/7b1/ppppppppp/9/9/1r7/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
  const TeacherValue hanging = teacher_value(setup_of(sfen), 4);
  REQUIRE(hanging.ok);
  CHECK(hanging.static_value == osl_black_value(sfen));
  CHECK(hanging.quiescence > hanging.static_value + 200000);
  // Depth 0: no capture searched.
  const TeacherValue flat = teacher_value(setup_of(sfen), 0);
  REQUIRE(flat.ok);
  CHECK(flat.quiescence == flat.static_value);
}

TEST_CASE("osl label: OSL's units on the engine's scale, rounded and clamped") {
  require_loaded();
  CHECK(to_engine_scale(0, 0.002) == 0);
  CHECK(to_engine_scale(100000, 0.002) == 200);
  CHECK(to_engine_scale(-100250, 0.002) == -201);  // -200.5 rounds away from 0
  CHECK(to_engine_scale(40000000, 0.002) == 32000);
  CHECK(to_engine_scale(teacher_win_threshold(), 1e-9) == 32000);
  CHECK(to_engine_scale(-teacher_win_threshold(), 1e-9) == -32000);
}

TEST_CASE("osl label: a run labels every file, keeps the records, resumes, names bad input") {
  require_loaded();
  TempDir dir;
  GensfenOptions g;
  g.out_dir = (dir.path / "gen").string();
  g.depth = 1;
  g.positions = 120;
  g.batch = 50;
  g.min_ply = 1;
  g.random_min = 2;
  g.random_max = 6;
  g.seed = 5;
  g.hash_mb = 1;
  g.dedup_mb = 1;
  g.progress_seconds = 1;
  std::ostringstream gen_out;
  REQUIRE(run_gensfen(g, gen_out).is_ok());

  LabelOptions o;
  o.inputs = {g.out_dir};
  o.out_dir = (dir.path / "labelled").string();
  o.home = kOslHome;
  o.depth = 2;
  o.threads = 2;
  o.fit_positions = 100;
  std::ostringstream out;
  base::Status s = run_label(o, out);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  CHECK(out.str().find("factor ") != std::string::npos);
  CHECK(out.str().find("osl_label: done:") != std::string::npos);
  CHECK(fs::exists(fs::path(o.out_dir) / "teacher-scale.txt"));
  double factor = 0;
  {
    std::ifstream in(fs::path(o.out_dir) / "teacher-scale.txt");
    std::string word;
    in >> word >> factor;
    CHECK(word == "factor");
    CHECK(factor > 0);
  }
  int files = 0, positions = 0, same_sign = 0, signed_pairs = 0;
  for (const auto& e : fs::directory_iterator(g.out_dir)) {
    ++files;
    std::vector<GensfenRecord> before, after;
    REQUIRE(read_gensfen_file(e.path().string(), before).is_ok());
    const fs::path labelled = fs::path(o.out_dir) / e.path().filename();
    REQUIRE(read_gensfen_file(labelled.string(), after).is_ok());
    REQUIRE(after.size() == before.size());
    for (size_t i = 0; i < after.size(); ++i) {
      const GensfenRecord &a = after[i], &b = before[i];
      CHECK(shogi::format_sfen(a.position) == shogi::format_sfen(b.position));
      CHECK(a.value == b.value);
      CHECK(a.move16 == b.move16);
      CHECK(a.result == b.result);
      CHECK_FALSE(b.labelled);
      REQUIRE(a.labelled);
      const TeacherValue direct = teacher_value(a.position, o.depth);
      CHECK(a.teacher_value == to_engine_scale(direct.quiescence, factor));
      CHECK(a.teacher_static == to_engine_scale(direct.static_value, factor));
      ++positions;
      if (std::abs(a.value) >= 300 && std::abs(a.teacher_value) >= 300) {
        ++signed_pairs;
        same_sign += (a.value > 0) == (a.teacher_value > 0);
      }
    }
  }
  CHECK(files >= 3);
  CHECK(positions >= 120);
  // Where both call the game clearly, they mostly agree who is ahead.
  if (signed_pairs >= 10) CHECK(same_sign * 10 >= signed_pairs * 7);

  // Again: nothing to do, the factor read back.
  std::ostringstream again;
  REQUIRE(run_label(o, again).is_ok());
  CHECK(again.str().find("0 files to label (" + std::to_string(files) + " already in") !=
        std::string::npos);
  CHECK(again.str().find("from " + (fs::path(o.out_dir) / "teacher-scale.txt").string()) !=
        std::string::npos);

  // Bad input is an error naming it.
  LabelOptions bad = o;
  bad.inputs = {(dir.path / "missing").string()};
  s = run_label(bad, again);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find("missing: no such file or directory") != std::string::npos);
  bad = o;
  bad.out_dir = (dir.path / "labelled2").string();
  const fs::path damaged = dir.path / "damaged.bin";
  std::ofstream(damaged, std::ios::binary) << "SASHITE-GENSFEN" << std::string(100, '\0');
  bad.inputs = {damaged.string()};
  bad.factor = 0.002;
  s = run_label(bad, again);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find(damaged.string()) != std::string::npos);
  bad = o;
  bad.out_dir = (dir.path / "labelled3").string();
  fs::create_directories(bad.out_dir);
  std::ofstream(fs::path(bad.out_dir) / "teacher-scale.txt") << "nonsense\n";
  s = run_label(bad, again);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find("teacher-scale.txt: expected 'factor F") != std::string::npos);
  bad = o;
  bad.home = "/nonexistent-osl-home";
  bad.out_dir = (dir.path / "labelled4").string();
  s = run_label(bad, again);
  CHECK_FALSE(s.is_ok());
}

}  // namespace osl_label_test
