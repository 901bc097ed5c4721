// sashite mate [--algo pds|dfpn] [--nodes N] [--shortest] [--table-mb N] [--svm FILE]
// [--control ...] [--compare ...] < FILE
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "app/commands.h"
#include "base/words.h"
#include "engine/mate/solver.h"
#include "engine/mate/svm_control.h"
#include "engine/mate/svm_model.h"
#include "tools/mate/mate_bench.h"
#include "tools/mate/mate_compare.h"

namespace {

struct MateCommandOptions {
  std::string algo = "pds";
  uint64_t nodes = 1'000'000;
  std::string svm;
  std::string control = "none";
  size_t table_mb = 1024;
  int64_t time_ms = -1;
  int max_ply = 4000;
  double epsilon = 0.25;
  bool shortest = false;
  int a = 0;                // 0: the control's default (init 5, threshold 7)
  double multiplier = 1.0;  // --control limit
  std::string compare;      // "none,init,threshold": the comparison tables instead
  std::string details;      // --compare: per-position TSV
};

using engine::mate::MateControl;

// Solves the problems of `in`; the exit code: 1 when a problem could not be read, the model or
// the details file could not be opened; 2 for bad options. Errors go to `err` as "mate: ...".
int run_mate_command(const MateCommandOptions& o, std::istream& in, std::ostream& out,
                     std::ostream& err) {
  std::vector<MateControl> controls;
  std::string list = o.compare.empty() ? o.control : o.compare;
  for (char& c : list)
    if (c == ',') c = ' ';
  for (std::string_view word : base::split_words(list)) {
    MateControl c;
    if (!engine::mate::parse_mate_control(word, c)) {
      err << "mate: unknown control '" << std::string(word) << "' (none, limit, init, threshold)\n";
      return 2;
    }
    controls.push_back(c);
  }
  if (controls.empty()) controls.push_back(MateControl::kNone);
  std::shared_ptr<engine::mate::SvmModel> model;
  bool needs_model = false;
  for (MateControl c : controls) needs_model |= c != MateControl::kNone;
  if (needs_model) {
    model = std::make_shared<engine::mate::SvmModel>();
    const std::string path = o.svm.empty() ? engine::mate::default_svm_model_path() : o.svm;
    if (base::Status s = engine::mate::load_svm_model(path, *model); !s) {
      err << "mate: " << s.message() << "\n";
      return 1;
    }
  }
  if (o.algo == "dfpn")
    for (MateControl c : controls)
      if (c == MateControl::kThreshold) {
        err << "mate: --control threshold steers PDS's thresholds: use --algo pds\n";
        return 2;
      }
  engine::mate::MateOptions options;
  options.algo = o.algo == "dfpn" ? engine::mate::MateAlgo::kDfpn : engine::mate::MateAlgo::kPds;
  options.node_limit = o.nodes;
  options.table_megabytes = o.table_mb;
  options.time_limit_ms = o.time_ms;
  options.max_ply = o.max_ply;
  options.dfpn_epsilon = o.epsilon;
  options.shortest = o.shortest;
  if (!o.compare.empty()) {
    tools::MateCompareOptions compare;
    compare.solver = options;
    compare.controls = controls;
    compare.model = model;
    if (o.a > 0) compare.init_a = compare.threshold_a = o.a;
    compare.limit_multiplier = o.multiplier;
    std::ofstream details;
    if (!o.details.empty()) {
      details.open(o.details, std::ios::trunc);
      if (!details) {
        err << "mate: " << o.details << ": cannot write\n";
        return 1;
      }
      compare.details = &details;
    }
    compare.progress = &err;
    std::ostringstream errors;
    tools::run_mate_comparison(tools::read_mate_problems(in), compare, out, errors);
    err << errors.str();
    return errors.str().empty() ? 0 : 1;
  }
  const MateControl control = controls[0];
  std::unique_ptr<engine::mate::SvmMateHooks> hooks;
  std::unique_ptr<engine::mate::MateNodeLimitControl> limit;
  if (control == MateControl::kInit || control == MateControl::kThreshold) {
    const int a = o.a > 0                         ? o.a
                  : control == MateControl::kInit ? engine::mate::SvmMateHooks::kDefaultInitA
                                                  : engine::mate::SvmMateHooks::kDefaultThresholdA;
    hooks = std::make_unique<engine::mate::SvmMateHooks>(*model, control, a);
    options.hooks = hooks.get();
  }
  if (control == MateControl::kLimit)
    limit = std::make_unique<engine::mate::MateNodeLimitControl>(model, o.multiplier);
  const tools::MateTotals totals = tools::run_mate_problems(in, options, out, err, limit.get());
  return totals.errors ? 1 : 0;
}

}  // namespace

CommandRun add_mate_options(CLI::App& sub) {
  auto o = std::make_shared<MateCommandOptions>();
  sub.add_option("--algo", o->algo, "pds or dfpn (default: pds)")
      ->check(CLI::IsMember({"pds", "dfpn"}));
  sub.add_option("--nodes", o->nodes,
                 "node limit per position (default: 1000000); a search "
                 "stopped by it answers unknown");
  sub.add_option("--svm", o->svm,
                 "mate-prediction model file for --control (default: the shipped "
                 "data/mate/svm.model)");
  sub.add_option("--control", o->control,
                 "SVM application: none; limit (the node limit scaled by the sigmoid of the "
                 "prediction, normalised by its running mean); init (initial proof and "
                 "disproof numbers, a = 5); threshold (PDS's threshold increments, a = 7; "
                 "PDS only) (default: none)")
      ->check(CLI::IsMember({"none", "limit", "init", "threshold"}));
  sub.add_option("--a", o->a, "the control's a (default: init 5, threshold 7)")
      ->check(CLI::Range(1, 1000));
  sub.add_option("--multiplier", o->multiplier,
                 "--control limit: total effort relative to --nodes (default: 1)")
      ->check(CLI::Range(0.01, 100.0));
  sub.add_option("--compare", o->compare,
                 "solve every position under each control of the comma-separated list "
                 "(e.g. none,init,threshold) and print the comparison tables (totals, "
                 "positions no run left unknown, answers); a fresh table per solve");
  sub.add_option("--details", o->details,
                 "with --compare: write line, then status nodes ms per control, as TSV");
  sub.add_option("--table-mb", o->table_mb,
                 "mate table size in MiB, one table reused by every position (default: 1024)")
      ->check(CLI::Range(1, 65536));
  sub.add_option("--time-ms", o->time_ms, "time limit per position in ms (default: none)");
  sub.add_option("--max-ply", o->max_ply, "longest path searched (default: 4000)")
      ->check(CLI::Range(1, 10000));
  sub.add_flag("--shortest", o->shortest,
               "after the first mate, search for shorter ones; each mate line is followed by "
               "'# N plies, proven shortest' (or why not proven)");
  sub.add_option("--epsilon", o->epsilon, "df-pn 1+epsilon trick (default: 0.25; 0 = plain df-pn)");
  return [o] { return run_mate_command(*o, std::cin, std::cout, std::cerr); };
}
