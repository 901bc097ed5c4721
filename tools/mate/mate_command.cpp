// `sashite mate`: mate problems solved one by one, or compared under several SVM controls.
#include "tools/mate/mate_command.h"

#include <fstream>
#include <memory>
#include <sstream>
#include <string_view>
#include <vector>

#include "base/words.h"
#include "engine/mate/solver.h"
#include "engine/mate/svm_control.h"
#include "engine/mate/svm_model.h"
#include "tools/mate/mate_bench.h"
#include "tools/mate/mate_compare.h"

namespace tools {

using engine::mate::MateControl;

namespace {

// The controls of --compare, or --control's; an error for a name that is none.
base::Status parse_controls(const MateCommandOptions& o, std::vector<MateControl>& controls) {
  std::string list = o.compare.empty() ? o.control : o.compare;
  for (char& c : list)
    if (c == ',') c = ' ';
  for (std::string_view word : base::split_words(list)) {
    MateControl c;
    if (!engine::mate::parse_mate_control(word, c))
      return base::Status::error("unknown control '" + std::string(word) +
                                 "' (none, limit, init, threshold)");
    controls.push_back(c);
  }
  if (controls.empty()) controls.push_back(MateControl::kNone);
  return base::Status::ok();
}

}  // namespace

base::Status validate_mate_options(const MateCommandOptions& o) {
  std::vector<MateControl> controls;
  if (base::Status s = parse_controls(o, controls); !s) return s;
  if (o.algo == "dfpn")
    for (MateControl c : controls)
      if (c == MateControl::kThreshold)
        return base::Status::error("--control threshold steers PDS's thresholds: use --algo pds");
  return base::Status::ok();
}

base::Status run_mate_command(const MateCommandOptions& o, std::istream& in, std::ostream& out,
                              std::ostream& err, bool& every_problem_read) {
  every_problem_read = true;
  if (base::Status s = validate_mate_options(o); !s) return s;
  std::vector<MateControl> controls;
  (void)parse_controls(o, controls);  // checked
  std::shared_ptr<engine::mate::SvmModel> model;
  bool needs_model = false;
  for (MateControl c : controls) needs_model |= c != MateControl::kNone;
  if (needs_model) {
    model = std::make_shared<engine::mate::SvmModel>();
    const std::string path = o.svm.empty() ? engine::mate::default_svm_model_path() : o.svm;
    if (base::Status s = engine::mate::load_svm_model(path, *model); !s) return s;
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
    MateCompareOptions compare;
    compare.solver = options;
    compare.controls = controls;
    compare.model = model;
    if (o.a > 0) compare.init_a = compare.threshold_a = o.a;
    compare.limit_multiplier = o.multiplier;
    std::ofstream details;
    if (!o.details.empty()) {
      details.open(o.details, std::ios::trunc);
      if (!details) return base::Status::error(o.details + ": cannot write");
      compare.details = &details;
    }
    compare.progress = &err;
    std::ostringstream errors;
    run_mate_comparison(read_mate_problems(in), compare, out, errors);
    err << errors.str();
    every_problem_read = errors.str().empty();
    return base::Status::ok();
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
  const MateTotals totals = run_mate_problems(in, options, out, err, limit.get());
  every_problem_read = totals.errors == 0;
  return base::Status::ok();
}

}  // namespace tools
