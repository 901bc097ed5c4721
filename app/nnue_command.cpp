// sashite nnue train --data PATH... --out FILE: the NNUE trainer (tools/learn/nnue_train.h);
// sashite nnue eval --file FILE [--sfen SFEN]...: a network's value of positions.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <memory>

#include "app/command_error.h"
#include "app/commands.h"
#include "engine/nnue/evaluator.h"
#include "shogi/position.h"
#include "tools/common/progress_bar.h"
#include "tools/learn/nnue_train.h"

namespace {

// Trains, printing the SIMD, the data and a line per epoch on `out`.
base::Status run_nnue_train(const tools::NnueTrainOptions& o, std::ostream& out) {
  tools::NnueTrainSummary summary;
  out << "nnue train: SIMD " << engine::nnue::simd_name() << '\n' << std::flush;
  const base::Status s = tools::train_nnue(o, summary, [&](const tools::NnueEpochReport& r) {
    if (r.epoch == summary.first_epoch) {
      out << "positions " << summary.positions << " (train " << summary.train_positions
          << ", held out " << summary.holdout_positions << ", left out " << summary.left_out
          << "); the results fit sigmoid(value / " << int(summary.fitted_result_scale + 0.5)
          << ")\n";
      out << "epoch\tlr\ttrain_loss\tholdout_loss\tholdout_loss_"
             "quantised\tseconds\tpositions/s\twritten\n";
    }
    char line[200];
    std::snprintf(line, sizeof line, "%d\t%.3g\t%.6f\t%.6f\t%.6f\t%.1f\t%.0f\t%s", r.epoch,
                  r.learning_rate, r.train_loss, r.holdout_loss, r.holdout_loss_quantised,
                  r.seconds, r.positions_per_second, r.written ? "yes" : "-");
    out << line << '\n' << std::flush;
  });
  if (!s) return s;
  if (summary.epochs.empty())
    out << "nnue train: the checkpoint has every epoch already (--epochs " << o.epochs << ")\n";
  out << "wrote " << o.out << '\n';
  return base::Status::ok();
}

int run_nnue_eval(const std::string& file, const std::vector<std::string>& sfens) {
  engine::nnue::Network net;
  if (base::Status s = net.load(file); !s) return command_failed("nnue eval", s.message());
  std::cout << "SIMD " << engine::nnue::simd_name() << '\n';
  const std::vector<std::string> positions =
      sfens.empty() ? std::vector<std::string>{shogi::Position::kStartSfen} : sfens;
  for (const std::string& sfen : positions) {
    shogi::Position pos;
    if (base::Status s = pos.set_sfen(sfen); !s) return command_failed("nnue eval", s.message(), 2);
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
  sub.add_option("--lambda", o->lambda,
                 "the search value's share of the target (the rest: the result)")
      ->check(CLI::Range(0.0, 1.0))
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
  sub.add_option("--seed", o->seed, "initial weights and shuffling")->capture_default_str();
  return [o] {
    o->progress = tools::ProgressBar::stderr_is_terminal();
    if (const base::Status s = run_nnue_train(*o, std::cout); !s)
      return command_failed("nnue train", s.message());
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
