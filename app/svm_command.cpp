// sashite svm predict | data | train | test | bench: the command lines of
// tools/mate/svm_command.h.
#include "tools/mate/svm_command.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "app/command_error.h"
#include "app/commands.h"
#include "tools/mate/svm_data.h"

CommandRun add_svm_predict_options(CLI::App& sub) {
  auto predict_options = std::make_shared<tools::SvmPredictOptions>();
  sub.add_option("--model", predict_options->model,
                 "model file (default: the shipped data/mate/svm.model)");
  return [predict_options] {
    if (const base::Status s = tools::run_svm_predict(*predict_options, std::cin); !s)
      return command_failed("svm predict", s.message());
    return 0;
  };
}

CommandRun add_svm_data_options(CLI::App& sub) {
  auto data_options = std::make_shared<tools::SvmDataCommandOptions>();
  sub.add_option("--records", data_options->records, "directory of .csa files (recursive)")
      ->required();
  sub.add_option("--out", data_options->out, "dataset file to write")->required();
  sub.add_option("--nodes", data_options->data.nodes, "mate solver node budget per position");
  sub.add_option("--positions-per-game", data_options->data.positions_per_game,
                 "last N positions of each record")
      ->check(CLI::Range(1, 1000));
  sub.add_option("--search-plies", data_options->data.max_search_plies,
                 "random line length 1..N below each record position")
      ->check(CLI::Range(1, 20));
  sub.add_option("--seed", data_options->data.seed, "random seed");
  sub.add_flag("--sfen-only", data_options->data.sfen_only,
               "write the positions only, one SFEN per line, unlabelled (input for "
               "`sashite mate --compare`)");
  sub.add_option("--max-games", data_options->data.max_games, "use at most N records (0: all)");
  sub.add_option("--skip-games", data_options->data.skip_games,
                 "skip the first N records (sorted by path), to resume a run");
  sub.add_option("--insearch-nodes", data_options->data.insearch_nodes,
                 "also search each record position this many nodes (MateSearch on) and take "
                 "positions where the search called the mate solver (0: none)");
  sub.add_option("--insearch-samples", data_options->data.insearch_samples,
                 "with --insearch-nodes: mate-call positions drawn from each search")
      ->check(CLI::Range(1, 1000));
  sub.add_option("--insearch-every", data_options->data.insearch_every,
                 "with --insearch-nodes: search also from every Nth position of each whole "
                 "record (0: only from its last positions)")
      ->check(CLI::Range(0, 1000));
  sub.add_option("--labeller", data_options->labeller,
                 "mate solver for the labels (" + tools::mate_labeller_names() + ")");
  return [data_options] {
    if (const base::Status s = tools::run_svm_data(*data_options); !s)
      return command_failed("svm data", s.message());
    return 0;
  };
}

CommandRun add_svm_train_options(CLI::App& sub) {
  auto train_options = std::make_shared<tools::SvmTrainCommandOptions>();
  sub.add_option("--data", train_options->data, "dataset from `svm data`")->required();
  sub.add_option("--out", train_options->out, "model file to write")->required();
  sub.add_option("--folds", train_options->folds, "cross-validation folds")
      ->check(CLI::Range(2, 100));
  sub.add_option("--solver", train_options->solver, "svm (L2R_L2LOSS_SVC_DUAL) or lr (L2R_LR)")
      ->check(CLI::IsMember({"svm", "lr"}));
  sub.add_option("--seed", train_options->seed, "fold shuffle seed");
  sub.add_flag("--by-game", train_options->by_game,
               "folds as contiguous blocks of the file (keeps each game in one fold)");
  sub.add_option("--c", train_options->c_grid, "C values to try (default 2^-8..2^4)");
  return [train_options] {
    if (const base::Status s = tools::run_svm_train(*train_options); !s)
      return command_failed("svm train", s.message());
    return 0;
  };
}

CommandRun add_svm_test_options(CLI::App& sub) {
  auto test_options = std::make_shared<tools::SvmTestOptions>();
  sub.add_option("--data", test_options->data, "dataset from `svm data`")->required();
  sub.add_option("--model", test_options->model,
                 "model file (default: the shipped data/mate/svm.model)");
  return [test_options] {
    if (const base::Status s = tools::run_svm_test(*test_options); !s)
      return command_failed("svm test", s.message());
    return 0;
  };
}

CommandRun add_svm_bench_options(CLI::App& sub) {
  auto bench_options = std::make_shared<tools::SvmBenchOptions>();
  sub.add_option("--sfens", bench_options->sfens, "file of SFEN lines")->required();
  sub.add_option("--model", bench_options->model, "model file (default: the shipped one)");
  sub.add_option("--repeat", bench_options->repeat, "passes over the file")
      ->check(CLI::Range(1, 1000000));
  return [bench_options] {
    if (const base::Status s = tools::run_svm_bench(*bench_options); !s)
      return command_failed("svm bench", s.message());
    return 0;
  };
}
