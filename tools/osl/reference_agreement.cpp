// GPS Shogi's evaluation as a reference: OpenShogiLib's quiescence over every legal move.

// OpenShogiLib's headers must see the settings its library was built with, before anything
// includes <cassert>: NDEBUG (with their assertions on, in our debug builds, the inline move
// generation checks an invariant that the library's compiled code does not keep, and aborts)
// and OSL_SMP (its tables then hold mutexes). This file has no assertions of its own.
#ifndef NDEBUG
#define NDEBUG
#endif
#ifndef OSL_SMP
#define OSL_SMP 1
#endif

#include "tools/osl/reference_agreement.h"

#include <osl/oslConfig.h>
#include <osl/usi.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "shogi/notation.h"
#include "shogi/position.h"
#include "tools/common/parallel_for.h"
#include "tools/common/progress_bar.h"
#include "tools/osl/osl_quiescence.h"

namespace tools::osl_reference {

base::Status load_reference_evaluation(const std::string& home) {
  const std::filesystem::path data = std::filesystem::path(home) / "data";
  for (const char* file : {"eval.bin", "progress.txt"}) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(data / file, ec))
      return base::Status::error((data / file).string() +
                                 ": not found (GPS Shogi's evaluation: Debian's "
                                 "gpsshogi-data installs it under /usr/share/gpsshogi-data)");
  }
  // OSL reads its home from OSL_HOME, and fixes it at the first call.
  setenv("OSL_HOME", home.c_str(), 1);
  osl::OslConfig::home(home);
  osl::OslConfig::setUp();
  if (!OslEvaluation::setUp())
    return base::Status::error(data.string() + ": OpenShogiLib could not load its evaluation");
  return base::Status::ok();
}

ReferenceMeasure measure_reference(const TrainingPosition& p, const ReferenceOptions& o) {
  ReferenceMeasure m;
  shogi::Position pos;
  if (!pos.set(p.setup)) return m;
  m.kind = move_kind(pos, p.teacher);
  osl::NumEffectState state;
  osl::Move teacher;
  try {
    osl::usi::parse("sfen " + pos.sfen(), state);
    teacher = osl::usi::strToMove(shogi::format_usi_move(p.teacher), state);
  } catch (const std::exception&) {
    return m;  // not counted: OSL does not take the position or the move
  }
  osl::MoveVector legal;
  state.generateWithFullUnpromotions(legal);
  m.legal = int(legal.size());
  if (legal.size() < 2 || std::find(legal.begin(), legal.end(), teacher) == legal.end()) return m;
  std::vector<int> values(legal.size());
  for (size_t i = 0; i < legal.size(); ++i) {
    osl::NumEffectState child(state);
    child.makeMove(legal[i]);
    // The value of the position after the move, from the mover's point of view.
    const int black_value = quiescence_black_value(child, legal[i], o.quiescence_depth);
    values[i] = legal[i].player() == osl::BLACK ? black_value : -black_value;
  }
  m.best_value = *std::max_element(values.begin(), values.end());
  bool teacher_best = false;
  for (size_t i = 0; i < legal.size(); ++i) {
    if (legal[i] == teacher) m.teacher_value = values[i];
    if (values[i] != m.best_value) continue;
    ++m.ties;
    if (legal[i] == teacher) teacher_best = true;
    if (m.ties <= 8) m.best_moves += (m.ties > 1 ? "," : "") + osl::usi::show(legal[i]);
  }
  m.counted = true;
  m.agreement = teacher_best ? 1.0 / m.ties : 0.0;
  return m;
}

void measure_references(const std::vector<TrainingPosition>& positions, const ReferenceOptions& o,
                        std::vector<ReferenceMeasure>& out, bool progress) {
  out.assign(positions.size(), ReferenceMeasure());
  ProgressBar bar(std::cerr, int64_t(positions.size()),
                  progress || ProgressBar::stderr_is_terminal(), "positions");
  struct NoState {};
  parallel_for_with_progress<NoState>(
      positions.size(), o.threads, bar, "",
      [&](NoState&, size_t i) { out[i] = measure_reference(positions[i], o); });
  bar.finish();
}

IterationStats summarize_references(const std::vector<ReferenceMeasure>& measures) {
  IterationStats s;
  double sum = 0, by_kind[3] = {0, 0, 0};
  for (const ReferenceMeasure& m : measures) {
    if (!m.counted) continue;
    ++s.heldout_positions;
    sum += m.agreement;
    ++s.heldout_positions_by_kind[m.kind];
    by_kind[m.kind] += m.agreement;
  }
  s.heldout_agreement = s.heldout_positions ? sum / s.heldout_positions : 0;
  for (int k = 0; k < 3; ++k)
    s.heldout_agreement_by_kind[k] =
        s.heldout_positions_by_kind[k] ? by_kind[k] / s.heldout_positions_by_kind[k] : 0;
  return s;
}

}  // namespace tools::osl_reference
