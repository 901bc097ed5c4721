// GPS Shogi's evaluation as a reference (tools/osl/): loading it, what it picks, and that the
// threads and the move lists agree with ours. Needs Debian's gpsshogi-data (a dependency of
// the gpsshogi package that `make deps` installs).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "shogi/movegen.h"
#include "shogi/notation.h"
#include "shogi/position.h"
#include "tools/learn/learn_data.h"
#include "tools/osl/reference_agreement.h"

namespace osl_reference_test {

using namespace base;
using namespace shogi;
using namespace tools;
using namespace tools::osl_reference;

namespace {

const std::string kLearnDir = std::string(SASHITE_TEST_DATA_DIR) + "/learn";
const std::string kOslHome = "/usr/share/gpsshogi-data";

void require_loaded() {
  static const Status loaded = load_reference_evaluation(kOslHome);
  REQUIRE_MESSAGE(loaded.is_ok(), loaded.message()
                                      << " (Debian gpsshogi-data: make deps installs it)");
}

TrainingPosition position_with_move(const std::string& sfen, const std::string& usi) {
  TrainingPosition p;
  REQUIRE(parse_sfen(sfen, p.setup).is_ok());
  Position pos;
  REQUIRE(pos.set(p.setup).is_ok());
  REQUIRE(parse_usi_move(pos, usi, p.teacher).is_ok());
  return p;
}

}  // namespace

TEST_CASE("osl reference: a directory without the evaluation is an error naming the file") {
  const Status s = load_reference_evaluation("/nonexistent-osl-home");
  REQUIRE_FALSE(s.is_ok());
  CHECK(s.message().find("/nonexistent-osl-home/data/eval.bin") != std::string::npos);
}

TEST_CASE("osl reference: GPS Shogi's evaluation takes a hanging rook, alone at the best") {
  require_loaded();
  // White's rook on 5f stands in front of Black's gold on 5g, defended by nothing.
  const std::string sfen = "4k4/9/9/9/9/4r4/4G4/9/4K4 b - 1";
  const ReferenceOptions o;
  const ReferenceMeasure take = measure_reference(position_with_move(sfen, "5g5f"), o);
  REQUIRE(take.counted);
  CHECK(take.kind == kCaptureMove);
  CHECK(take.ties == 1);
  CHECK(take.agreement == 1.0);
  CHECK(take.best_moves == "5g5f");
  CHECK(take.teacher_value == take.best_value);
  const ReferenceMeasure other = measure_reference(position_with_move(sfen, "5i4h"), o);
  REQUIRE(other.counted);
  CHECK(other.kind == kQuietMove);
  CHECK(other.agreement == 0.0);
  CHECK(other.teacher_value < other.best_value);
  CHECK(other.legal == take.legal);
}

TEST_CASE("osl reference: two threads measure as one does; OSL's move count is ours") {
  require_loaded();
  std::vector<TrainingPosition> all, some;
  int records = 0;
  REQUIRE(collect_record_positions(kLearnDir, 0, 0, all, &records).is_ok());
  for (size_t i = 0; i < all.size(); i += 30) some.push_back(all[i]);  // every stage of a game
  REQUIRE(some.size() >= 8);
  ReferenceOptions o;
  o.quiescence_depth = 2;  // cheaper; the tables are fresh for every move at any depth
  std::vector<ReferenceMeasure> one, two;
  o.threads = 1;
  measure_references(some, o, one, false);
  o.threads = 2;
  measure_references(some, o, two, false);
  REQUIRE(one.size() == some.size());
  REQUIRE(two.size() == some.size());
  int counted = 0;
  for (size_t i = 0; i < some.size(); ++i) {
    Position pos;
    REQUIRE(pos.set(some[i].setup).is_ok());
    const int ours = int(legal_moves(pos).size());
    CAPTURE(pos.sfen());
    CHECK(one[i].legal == ours);
    CHECK(one[i].counted == (ours >= 2));
    CHECK(two[i].counted == one[i].counted);
    CHECK(two[i].agreement == one[i].agreement);
    CHECK(two[i].ties == one[i].ties);
    CHECK(two[i].best_value == one[i].best_value);
    CHECK(two[i].teacher_value == one[i].teacher_value);
    counted += one[i].counted;
  }
  const IterationStats s = summarize_references(one);
  CHECK(s.heldout_positions == counted);
  CHECK(s.heldout_positions_by_kind[0] + s.heldout_positions_by_kind[1] +
            s.heldout_positions_by_kind[2] ==
        counted);
  CHECK(s.heldout_agreement >= 0.0);
  CHECK(s.heldout_agreement <= 1.0);
}

}  // namespace osl_reference_test
