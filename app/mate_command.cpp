// sashite mate [--algo pds|dfpn] [--nodes N] [--svm FILE] [--control ...] < FILE
#include "app/mate_command.h"

#include <iostream>
#include <memory>
#include <string>

#include "engine/mate/solver.h"
#include "tools/mate_bench.h"

namespace {

struct MateCommandOptions {
  std::string algo = "pds";
  uint64_t nodes = 1'000'000;
  std::string svm;
  std::string control = "none";
  size_t table_mb = 64;
  int64_t time_ms = -1;
  int max_ply = 4000;
  double epsilon = 0.25;
};

int run_mate_command(const MateCommandOptions& o) {
  if (o.control != "none") {
    std::cerr << "mate: --control " << o.control
              << " is not yet available (the SVM applications are not wired in yet); use "
                 "--control none\n";
    return 2;
  }
  engine::mate::MateOptions options;
  options.algo = o.algo == "dfpn" ? engine::mate::MateAlgo::kDfpn : engine::mate::MateAlgo::kPds;
  options.node_limit = o.nodes;
  options.table_megabytes = o.table_mb;
  options.time_limit_ms = o.time_ms;
  options.max_ply = o.max_ply;
  options.dfpn_epsilon = o.epsilon;
  const tools::MateTotals totals = tools::run_mate_problems(std::cin, options, std::cout, std::cerr);
  return totals.errors ? 1 : 0;
}

}  // namespace

void add_mate_command(CLI::App& app) {
  auto o = std::make_shared<MateCommandOptions>();
  CLI::App* mate = app.add_subcommand(
      "mate",
      "solve mate problems: one SFEN per line on standard input (the side to move attacks); "
      "prints mate <line>|nomate|unknown, nodes and ms per position, then a total line");
  mate->add_option("--algo", o->algo, "pds or dfpn (default: pds)")
      ->check(CLI::IsMember({"pds", "dfpn"}));
  mate->add_option("--nodes", o->nodes, "node limit per position (default: 1000000); a search "
                                        "stopped by it answers unknown");
  mate->add_option("--svm", o->svm, "mate-prediction model file (used by --control)");
  mate->add_option("--control", o->control,
                   "SVM application: none, limit, init or threshold (default: none)")
      ->check(CLI::IsMember({"none", "limit", "init", "threshold"}));
  mate->add_option("--table-mb", o->table_mb, "mate table size in MiB (default: 64)")
      ->check(CLI::Range(1, 65536));
  mate->add_option("--time-ms", o->time_ms, "time limit per position in ms (default: none)");
  mate->add_option("--max-ply", o->max_ply, "longest path searched (default: 4000)")
      ->check(CLI::Range(1, 10000));
  mate->add_option("--epsilon", o->epsilon, "df-pn 1+epsilon trick (default: 0.25; 0 = plain df-pn)");
  mate->final_callback([o]() { std::exit(run_mate_command(*o)); });
}
