// sashite nnue train --data PATH... --out FILE: the NNUE trainer (tools/learn/nnue_train.h);
// sashite nnue quantise --checkpoint FILE --data PATH... --out FILE: a checkpoint rounded anew
// (tools/learn/nnue_quantise_command.h);
// sashite nnue eval --file FILE [--sfen SFEN]...: a network's value of positions.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "app/command_error.h"
#include "app/commands.h"
#include "engine/nnue/evaluator.h"
#include "shogi/position.h"
#include "tools/common/progress_bar.h"
#include "tools/learn/nnue_quantise_command.h"
#include "tools/learn/nnue_train.h"

namespace {

int run_nnue_eval(const std::string& file, const std::vector<std::string>& sfens) {
  engine::nnue::Network net;
  if (base::Status s = net.load(file); !s) return command_failed("nnue eval", s.message());
  std::cout << "SIMD " << engine::nnue::simd_name() << '\n';
  const std::vector<std::string> positions =
      sfens.empty() ? std::vector<std::string>{shogi::Position::kStartSfen} : sfens;
  for (const std::string& sfen : positions) {
    shogi::Position pos;
    if (base::Status s = pos.set_sfen(sfen); !s)
      return command_failed("nnue eval", s.message(), kExitCommandLine);
    std::cout << engine::nnue::evaluate(pos, net) << '\t' << pos.sfen() << '\n';
  }
  return 0;
}

}  // namespace

CommandRun add_nnue_train_options(CLI::App& sub) {
  auto o = std::make_shared<tools::NnueTrainOptions>();
  sub.add_option("--data", o->data, "gensfen files or directories of them (*.bin)")->required();
  sub.add_option("--out", o->out, "the network file (e.g. data/nnue/default.nnue)")->required();
  sub.add_option("--checkpoint", o->checkpoint, "the checkpoint file (default: OUT.ckpt)");
  sub.add_flag("--resume", o->resume, "go on from the checkpoint (same data and settings)");
  sub.add_option("--epochs", o->epochs, "epochs in all")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  sub.add_option("--batch", o->batch, "positions per step")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  sub.add_option("--lr", o->learning_rate, "Adam's learning rate")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub.add_option("--lr-decay", o->learning_rate_decay, "the learning rate's factor per epoch")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  sub.add_option("--teacher", o->teacher,
                 "the teacher's (osl_label's) share of the target; > 0 leaves out positions "
                 "not labelled")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  sub.add_option("--lambda", o->lambda,
                 "of the rest of the target, the search value's share (the rest: the result)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  sub.add_option("--quiet-margin", o->quiet_margin,
                 "leave out labelled positions whose teacher's quiescence and static values "
                 "differ by more than this (centipawns; 0: keep all)")
      ->check(CLI::Range(0, 32767))
      ->capture_default_str();
  sub.add_option("--init", o->init,
                 "start from this network (a warm start) instead of seeded "
                 "weights");
  sub.add_flag_callback(
      "--no-bucket-rows", [o] { o->bucket_rows = false; },
      "train only the feature rows every king bucket shares (the capacity of a network "
      "without buckets, for smaller data)");
  sub.add_option("--threads", o->threads, "threads sharing each batch")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  sub.add_option("--scale", o->sigmoid_scale, "centipawns of sigmoid(value / scale)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub.add_option("--holdout", o->holdout, "the share held out (the last positions read)")
      ->check(CLI::Range(0.0, 0.9))
      ->capture_default_str();
  sub.add_option("--max-value", o->max_value, "leave out positions searched to more than this")
      ->check(CLI::Range(0, 32767))
      ->capture_default_str();
  sub.add_option("--calibration", o->calibration,
                 "training positions the rounding to the file's integers is fitted to (0: "
                 "plain rounding)")
      ->check(CLI::Range(0, 10000000))
      ->capture_default_str();
  sub.add_option("--seed", o->seed, "initial weights and shuffling")->capture_default_str();
  return [o] {
    o->progress = tools::ProgressBar::stderr_is_terminal();
    if (const base::Status s = tools::run_nnue_train(*o, std::cout); !s)
      return command_failed("nnue train", s.message());
    return 0;
  };
}

CommandRun add_nnue_quantise_options(CLI::App& sub) {
  auto o = std::make_shared<tools::NnueQuantiseOptions>();
  sub.add_option("--checkpoint", o->checkpoint, "a checkpoint of nnue train (OUT.ckpt)")
      ->required();
  sub.add_option("--data", o->data, "gensfen files or directories of them (*.bin): positions")
      ->required();
  sub.add_option("--out", o->out, "the network file written")->required();
  sub.add_option("--calibration", o->calibration,
                 "positions the rounding is fitted to (0: plain rounding); as many again "
                 "measure it")
      ->check(CLI::Range(0, 10000000))
      ->capture_default_str();
  return [o] {
    if (const base::Status s = tools::run_nnue_quantise(*o, std::cout); !s)
      return command_failed("nnue quantise", s.message());
    return 0;
  };
}

CommandRun add_nnue_eval_options(CLI::App& sub) {
  auto file = std::make_shared<std::string>();
  auto sfens = std::make_shared<std::vector<std::string>>();
  sub.add_option("--file", *file, "the network file")->required();
  sub.add_option("--sfen", *sfens, "positions (default: the start position)");
  return [file, sfens] { return run_nnue_eval(*file, *sfens); };
}
