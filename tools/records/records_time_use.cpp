// `sashite records time-use`: seconds per move by ply, per game, and the least time left.
#include "tools/records/records_time_use.h"

#include <algorithm>
#include <cstdio>

#include "shogi/csa_files.h"
#include "tools/match/match_options.h"

namespace tools {

void add_time_use(const shogi::CsaRecord& record, const std::string& name, int bucket, bool black,
                  bool white, int64_t main_ms, int64_t inc_ms, int64_t byoyomi_ms, TimeUse& use) {
  ++use.games;
  if (record.result == shogi::CsaSpecialMove::kTimeUp) ++use.time_losses;
  int64_t left[2] = {main_ms, main_ms};
  int64_t used[2] = {0, 0};
  const int first_color = record.initial.side_to_move == shogi::kWhite ? 1 : 0;
  for (size_t i = 0; i < record.moves.size(); ++i) {
    const shogi::CsaRecordMove& m = record.moves[i];
    const int side = int((first_color + i) % 2);
    if (!m.time_ms) continue;  // an opening move
    const int64_t t = *m.time_ms;
    const int ply = int(i) + 1;
    if (use.clocked) {
      const int64_t spare = left[side] + inc_ms + byoyomi_ms - t;
      if ((side == 0 ? black : white) &&
          (use.least_spare_where.empty() || spare < use.least_spare_ms)) {
        use.least_spare_ms = spare;
        use.least_spare_where = name + " ply " + std::to_string(ply);
      }
      left[side] = std::max<int64_t>(0, left[side] + inc_ms - t);
    }
    if (!(side == 0 ? black : white)) continue;
    used[side] += t;
    const size_t b = size_t((ply - 1) / bucket);
    if (use.buckets.size() <= b) {
      const size_t old = use.buckets.size();
      use.buckets.resize(b + 1);
      for (size_t k = old; k <= b; ++k) use.buckets[k].first_ply = int(k) * bucket + 1;
    }
    TimeUse::Bucket& bk = use.buckets[b];
    ++bk.moves;
    bk.total_ms += t;
    bk.max_ms = std::max(bk.max_ms, t);
  }
  if (black) use.game_ms.push_back(used[0]);
  if (white) use.game_ms.push_back(used[1]);
}

std::string format_time_use(const TimeUse& use, int bucket) {
  std::string s = "plies      moves   mean_s    max_s\n";
  char line[160];
  for (const TimeUse::Bucket& b : use.buckets) {
    if (b.moves == 0) continue;
    std::snprintf(line, sizeof line, "%4d-%-4d %7lld %8.2f %8.2f\n", b.first_ply,
                  b.first_ply + bucket - 1, static_cast<long long>(b.moves),
                  double(b.total_ms) / double(b.moves) / 1000.0, double(b.max_ms) / 1000.0);
    s += line;
  }
  if (!use.game_ms.empty()) {
    int64_t sum = 0, most = 0, least = use.game_ms.front();
    for (int64_t g : use.game_ms) {
      sum += g;
      most = std::max(most, g);
      least = std::min(least, g);
    }
    std::snprintf(line, sizeof line,
                  "time per game and side: mean %.1f s, least %.1f s, most %.1f s (%zu)\n",
                  double(sum) / double(use.game_ms.size()) / 1000.0, double(least) / 1000.0,
                  double(most) / 1000.0, use.game_ms.size());
    s += line;
  }
  s += "games: " + std::to_string(use.games) + ", time losses: " + std::to_string(use.time_losses) +
       "\n";
  if (use.clocked && !use.least_spare_where.empty()) {
    std::snprintf(line, sizeof line, "closest call: %.1f s to spare (%s)\n",
                  double(use.least_spare_ms) / 1000.0, use.least_spare_where.c_str());
    s += line;
  }
  return s;
}

base::Status validate_time_use_options(const TimeUseOptions& o) {
  if (o.bucket < 1) return base::Status::error("--bucket must be at least 1");
  int64_t main_ms = 0, inc_ms = 0;
  if (!o.time_control.empty()) return parse_time_control(o.time_control, main_ms, inc_ms);
  return base::Status::ok();
}

int run_records_time_use(const TimeUseOptions& o, std::ostream& out) {
  int64_t main_ms = 0, inc_ms = 0;
  TimeUse use;
  if (!o.time_control.empty()) {
    (void)parse_time_control(o.time_control, main_ms, inc_ms);  // validated by the caller
    use.clocked = true;
  }
  int failed = 0;
  for (const std::string& path : o.paths) {
    std::vector<std::string> files;
    if (base::Status listed = shogi::list_csa_files(path, files); !listed) {
      out << listed.message() << "\n";
      ++failed;
    } else if (files.empty()) {  // a directory without records: most likely the wrong one
      out << path << ": no CSA records (.csa) in the directory\n";
      ++failed;
    }
    for (const std::string& file : files) {
      shogi::CsaRecord rec;
      if (base::Status s = shogi::load_csa_record_file(file, rec); !s) {
        out << s.message() << "\n";
        ++failed;
        continue;
      }
      const bool black = o.player.empty() || rec.black_name.find(o.player) != std::string::npos;
      const bool white = o.player.empty() || rec.white_name.find(o.player) != std::string::npos;
      add_time_use(rec, file, o.bucket, black, white, main_ms, inc_ms, o.byoyomi_ms, use);
    }
  }
  out << format_time_use(use, o.bucket);
  return failed == 0 ? 0 : 1;
}

}  // namespace tools
