// GPS Shogi's evaluation as a teacher: gensfen records labelled with OpenShogiLib's values.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "base/status.h"
#include "shogi/position.h"

namespace tools::osl_teacher {

// OpenShogiLib's values of a position for its side to move, in OSL's own units: the
// learned evaluation GPS Shogi plays with (OpenMidEndingEval) as it stands (`static_value`)
// and after its quiescence search to `depth` (`quiescence`). `ok` is false when OSL does not
// take the position. Thread-safe once osl_reference::load_reference_evaluation has run.
struct TeacherValue {
  bool ok = false;
  int quiescence = 0;
  int static_value = 0;
};
TeacherValue teacher_value(const shogi::PositionSetup& setup, int depth);

// Values beyond this (OSL's units) are OSL's proven wins and losses, not evaluations; the
// fit leaves them out and the labels clamp them to +-32000.
int teacher_win_threshold();

// A value in OSL's units on this engine's scale, `factor` centipawns a unit (the ratio of the
// two evaluations' result scales): rounded, clamped to +-32000 (and +-32000 beyond
// teacher_win_threshold()).
int16_t to_engine_scale(int value, double factor);

struct LabelOptions {
  std::vector<std::string> inputs;  // gensfen files, or directories of them (*.bin, sorted)
  std::string out_dir;              // labelled files, each under its input's name
  std::string home = "/usr/share/gpsshogi-data";  // its data/ holds GPS Shogi's evaluation
  int depth = 4;                                  // OSL's quiescence depth
  int threads = 2;
  int shard = 0, shards = 1;  // this run labels the input files i with i % shards == shard
  // Centipawns of this engine per unit of OSL's: the ratio of the result scales of the search
  // values stored in the records and of OSL's values (sigmoid(v / s) fitted to the games'
  // results for each), so that a value means the same winning chance in both. 0: the factor
  // in out_dir/teacher-scale.txt, or fitted on the first fit_positions of the inputs (sorted,
  // all shards) and written there, so that every run and shard into one directory maps alike.
  double factor = 0;
  int fit_positions = 100000;
  bool progress = false;
};

// Labels every input file not yet in out_dir (a run cut short resumes: each file is written
// whole), printing the scale, the counts and the rate. Errors name the file: unreadable or
// damaged input, an unwritable output, an evaluation that does not load.
base::Status run_label(const LabelOptions& options, std::ostream& out);

}  // namespace tools::osl_teacher
