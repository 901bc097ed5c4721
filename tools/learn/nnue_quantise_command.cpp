// `sashite nnue quantise`: positions spread evenly over the data, every other one to fit the
// rounding to and the others to measure it on.
#include "tools/learn/nnue_quantise_command.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/nnue/evaluator.h"
#include "shogi/position.h"
#include "tools/learn/gensfen_format.h"
#include "tools/learn/nnue_model.h"
#include "tools/learn/nnue_quantise.h"
#include "tools/learn/nnue_train.h"

namespace tools {

namespace {

using base::Status;

// Up to `wanted` positions evenly spread over the records of `files`.
Status spread_positions(const std::vector<std::string>& files, uint64_t wanted,
                        std::vector<shogi::Position>& out) {
  uint64_t total = 0;
  for (const std::string& file : files) {
    uint64_t count = 0;
    if (Status s = read_gensfen_count(file, count); !s) return s;
    total += count;
  }
  wanted = std::min(wanted, total);
  uint64_t first = 0, next = 0;  // the first record of the file; the next pick's index
  for (const std::string& file : files) {
    if (next >= wanted) break;
    std::vector<uint8_t> raw;
    if (Status s = read_gensfen_raw(file, raw); !s) return s;
    const uint64_t count = raw.size() / kGensfenRecordSize;
    for (; next < wanted; ++next) {
      const uint64_t index = next * total / wanted;
      if (index >= first + count) break;
      GensfenRecord record;
      shogi::Position pos;
      Status s = unpack_gensfen_record(raw.data() + (index - first) * kGensfenRecordSize, record);
      if (s) s = pos.set(record.position);
      if (!s)
        return Status::error(file + ": record " + std::to_string(index - first) + ": " +
                             s.message());
      out.push_back(pos);
    }
    first += count;
  }
  return Status::ok();
}

}  // namespace

Status quantise_nnue(const NnueQuantiseOptions& o, NnueQuantiseReport& report) {
  if (o.out.empty()) return Status::error("no output file (--out)");
  if (o.calibration < 0) return Status::error("the calibration count is negative");
  NnueModel model;
  if (Status s = read_nnue_checkpoint(o.checkpoint, model); !s) return s;
  std::vector<std::string> files;
  if (Status s = collect_gensfen_files(o.data, files); !s) return s;
  std::vector<shogi::Position> positions;
  if (Status s = spread_positions(files, 2 * uint64_t(std::max(o.calibration, 1000)), positions);
      !s)
    return s;
  if (positions.size() < 2) return Status::error("no positions in the data paths");
  std::vector<NnueSample> calibration;
  std::vector<const shogi::Position*> measured;
  for (size_t i = 0; i < positions.size(); ++i) {
    if (i % 2 == 0 && calibration.size() < size_t(o.calibration))
      calibration.push_back(nnue_sample_of(positions[i]));
    else if (i % 2 == 1)
      measured.push_back(&positions[i]);
  }
  const engine::nnue::Network plain = model.quantised();
  const engine::nnue::Network net = calibrated_network(model, calibration);
  NnueActivations a;
  double plain_sum = 0, calibrated_sum = 0;
  for (const shogi::Position* pos : measured) {
    const double float_cp =
        nnue_forward(model, nnue_sample_of(*pos), a) * engine::nnue::kValueScale;
    plain_sum += std::fabs(engine::nnue::evaluate(*pos, plain) - float_cp);
    calibrated_sum += std::fabs(engine::nnue::evaluate(*pos, net) - float_cp);
  }
  report.calibrated_on = int64_t(calibration.size());
  report.measured_on = int64_t(measured.size());
  report.plain_mean_cp = plain_sum / double(measured.size());
  report.calibrated_mean_cp = calibrated_sum / double(measured.size());
  return net.save(o.out);
}

Status run_nnue_quantise(const NnueQuantiseOptions& o, std::ostream& out) {
  NnueQuantiseReport report;
  if (Status s = quantise_nnue(o, report); !s) return s;
  char line[200];
  std::snprintf(line, sizeof line,
                "mean |file - float model| over %lld positions: plain rounding %.2f cp, "
                "fitted to %lld positions %.2f cp\n",
                static_cast<long long>(report.measured_on), report.plain_mean_cp,
                static_cast<long long>(report.calibrated_on), report.calibrated_mean_cp);
  out << line << "wrote " << o.out << '\n';
  return Status::ok();
}

}  // namespace tools
