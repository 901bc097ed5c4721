// osl_label: gensfen records labelled by GPS Shogi's evaluation and quiescence search.
//
// A developer's tool, a binary of its own so that the engine does not link OpenShogiLib:
// the NNUE loop's teacher (README, "The NNUE loop").
#include <CLI/CLI.hpp>
#include <iostream>

#include "tools/osl/teacher_label.h"

int main(int argc, char** argv) {
  CLI::App app{
      "osl_label: labels gensfen files with GPS Shogi's evaluation after its quiescence search "
      "(OpenShogiLib), mapped to the search values' scale by fits of both to the games' "
      "results; writes "
      "version 2 files of the same names into --out, skipping those already there"};
  tools::osl_teacher::LabelOptions o;
  app.add_option("--in", o.inputs, "gensfen files, or directories of them (*.bin)")->required();
  app.add_option("--out", o.out_dir, "directory of the labelled files")->required();
  app.add_option("--quiescence-depth", o.depth, "OSL's quiescence depth (8 is OSL's default)")
      ->check(CLI::Range(0, 8))
      ->capture_default_str();
  app.add_option("--threads", o.threads)->check(CLI::Range(1, 256))->capture_default_str();
  app.add_option("--shard", o.shard, "label the input files i with i % --shards == K")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  app.add_option("--shards", o.shards)->check(CLI::Range(1, 1000000))->capture_default_str();
  app.add_option("--factor", o.factor,
                 "centipawns per unit of OSL's values; default: --out's teacher-scale.txt, or "
                 "the ratio of the search values' and OSL's result scales fitted on the first "
                 "--fit-positions and written there")
      ->check(CLI::PositiveNumber);
  app.add_option("--fit-positions", o.fit_positions)
      ->check(CLI::Range(1, 100000000))
      ->capture_default_str();
  app.add_option("--osl-home", o.home, "directory whose data/ holds GPS Shogi's evaluation")
      ->capture_default_str();
  app.add_flag("--progress", o.progress, "a progress bar on stderr");
  CLI11_PARSE(app, argc, argv);
  const base::Status s = tools::osl_teacher::run_label(o, std::cout);
  if (!s) {
    std::cerr << "osl_label: " << s.message() << "\n";
    return 1;
  }
  return 0;
}
