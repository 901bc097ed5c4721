// osl_agreement: the agreement of GPS Shogi's evaluation with teacher moves, as learn train's.
//
// A developer's benchmark, a binary of its own so that the engine does not link OpenShogiLib.
// It measures, on the positions `learn train` would hold out of the same records (or on all),
// the rate at which GPS Shogi's evaluation (OSL's quiescence after every legal move) picks
// the record move: the reference for learn train's held-out agreement.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "shogi/notation.h"
#include "shogi/position.h"
#include "tools/learn/learn_data.h"
#include "tools/osl/reference_agreement.h"

int main(int argc, char** argv) {
  CLI::App app{
      "osl_agreement: how often GPS Shogi's evaluation (OpenShogiLib, 1 ply + quiescence) "
      "plays the record move, on the positions learn train holds out"};
  std::string records, home = "/usr/share/gpsshogi-data", rows_path;
  int holdout_every = 10, skip_plies = 0;
  bool progress = false;
  tools::osl_reference::ReferenceOptions o;
  app.add_option("--records", records, "directory of .csa records (recursive)")->required();
  app.add_option("--holdout-every", holdout_every,
                 "N > 0: the positions of the records learn train --holdout-every N holds out "
                 "(the N-th, 2N-th, ... by sorted path); 0: every position")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  app.add_option("--skip-plies", skip_plies, "leave out the first N moves of each record")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  app.add_option("--quiescence-depth", o.quiescence_depth,
                 "OSL's quiescence depth after each move (8 is OSL's own default)")
      ->check(CLI::Range(0, 8))
      ->capture_default_str();
  app.add_option("--threads", o.threads)->check(CLI::Range(1, 256))->capture_default_str();
  app.add_option("--osl-home", home, "directory whose data/ holds GPS Shogi's evaluation")
      ->capture_default_str();
  app.add_option("--rows", rows_path,
                 "also write one line per measured position: group, SFEN, record move, kind, "
                 "legal moves, moves tied at the best, agreement, OSL's values of the record "
                 "move and of the best (mover's view), the best moves");
  app.add_flag("--progress", progress, "a progress bar on stderr");
  CLI11_PARSE(app, argc, argv);

  std::vector<tools::TrainingPosition> all, positions;
  int record_count = 0;
  base::Status st = tools::collect_record_positions(records, skip_plies, 0, all, &record_count);
  if (!st) {
    std::cerr << "osl_agreement: " << st.message() << "\n";
    return 1;
  }
  for (const tools::TrainingPosition& p : all)
    if (holdout_every == 0 || tools::is_held_out_group(p.group, holdout_every))
      positions.push_back(p);
  st = tools::osl_reference::load_reference_evaluation(home);
  if (!st) {
    std::cerr << "osl_agreement: " << st.message() << "\n";
    return 1;
  }
  std::cout << record_count << " records, " << positions.size() << " positions ("
            << (holdout_every ? "those learn train --holdout-every " +
                                    std::to_string(holdout_every) + " holds out"
                              : std::string("all"))
            << "), quiescence depth " << o.quiescence_depth << ", " << o.threads << " threads\n";
  std::vector<tools::osl_reference::ReferenceMeasure> measures;
  tools::osl_reference::measure_references(positions, o, measures, progress);
  if (!rows_path.empty()) {
    std::ofstream rows(rows_path);
    for (size_t i = 0; i < positions.size(); ++i) {
      const auto& m = measures[i];
      if (!m.counted) continue;
      rows << positions[i].group << '\t' << shogi::format_sfen(positions[i].setup) << '\t'
           << shogi::format_usi_move(positions[i].teacher) << '\t' << tools::kMoveKindNames[m.kind]
           << '\t' << m.legal << '\t' << m.ties << '\t' << m.agreement << '\t' << m.teacher_value
           << '\t' << m.best_value << '\t' << m.best_moves << '\n';
    }
    if (!rows.flush()) {
      std::cerr << "osl_agreement: " << rows_path << ": cannot write\n";
      return 1;
    }
  }
  const tools::IterationStats s = tools::osl_reference::summarize_references(measures);
  char line[128];
  std::snprintf(line, sizeof line, "agreement %.2f%% over %d positions (%zu not counted)\n",
                100 * s.heldout_agreement, s.heldout_positions,
                positions.size() - size_t(s.heldout_positions));
  const std::string by_kind = tools::format_kind_agreement(s);  // "held-out agreement by ...:"
  std::cout << line << "by the record move's kind" << by_kind.substr(by_kind.find(':')) << "\n";
  return 0;
}
