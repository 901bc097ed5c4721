// GPS Shogi's evaluation (OpenShogiLib) as a reference: how often it picks the teacher move.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "tools/learn/learn_data.h"
#include "tools/learn/learn_train.h"

namespace tools::osl_reference {

// The measure `learn train` takes of our evaluation, taken of GPS Shogi's: every legal move
// of the position (unpromoted pawn, bishop and rook moves included, as ours are) is played
// and valued by OpenShogiLib's quiescence search (QuiescenceSearch2 over OpenMidEndingEval,
// the learned evaluation GPS Shogi plays with) to `quiescence_depth`, from the mover's point
// of view; the moves tied at the best value share the agreement: 1 / ties when the teacher's
// is among them, else 0. Positions with fewer than two legal moves are not counted.
struct ReferenceOptions {
  int quiescence_depth = 4;  // OSL's own default is 8 (its QSearchTraits::MaxDepth)
  int threads = 2;
};

struct ReferenceMeasure {
  bool counted = false;
  double agreement = 0;
  int ties = 0;   // moves tied at the best value
  int legal = 0;  // legal moves
  MoveKind kind = kQuietMove;
  int teacher_value = 0, best_value = 0;  // in OSL's own units, the mover's view
  std::string best_moves;                 // USI, comma-separated, the first few
};

// Loads OpenShogiLib's evaluation tables from `home`/data (eval.bin and the progress tables:
// /usr/share/gpsshogi-data with Debian's gpsshogi-data). Once per process, before measuring;
// an error names the directory.
base::Status load_reference_evaluation(const std::string& home);

// Measures one position (the teacher move must be legal there). Thread-safe once loaded.
ReferenceMeasure measure_reference(const TrainingPosition& p, const ReferenceOptions& o);

// Measures every position on o.threads threads; out[i] belongs to positions[i].
void measure_references(const std::vector<TrainingPosition>& positions, const ReferenceOptions& o,
                        std::vector<ReferenceMeasure>& out, bool progress);

// The summary learn train prints of a held-out set, of these measures: agreement overall and
// by the teacher move's kind (IterationStats' held-out fields; the rest left 0).
IterationStats summarize_references(const std::vector<ReferenceMeasure>& measures);

}  // namespace tools::osl_reference
