// GameFiles: records written atomically, and the results summary (see game_files.h).
#include "client/game_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <filesystem>
#include <optional>
#include <sstream>
#include <utility>

#include "base/file_write.h"
#include "shogi/kif_record.h"

namespace client {

using base::Status;
namespace fs = std::filesystem;

namespace {

std::string safe_file_name(const std::string& game_id) {
  std::string s;
  for (char c : game_id) {
    const bool ok = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                    c == '+' || c == '-' || c == '_' || c == '.' || c == '@';
    s += ok ? c : '_';
  }
  if (s.empty() || s[0] == '.') s = "game" + s;
  return s.substr(0, 200);
}

const char* outcome_word(const std::optional<GameOutcome>& o) {
  if (!o) return "CUT";
  switch (*o) {
    case GameOutcome::kWin:
      return "WIN";
    case GameOutcome::kLose:
      return "LOSE";
    case GameOutcome::kDraw:
      return "DRAW";
    case GameOutcome::kCensored:
      return "CENSORED";
    case GameOutcome::kChudan:
      return "CHUDAN";
  }
  return "?";
}

// Tabs and line ends would break the summary's columns.
std::string cell(const std::string& s) {
  std::string out = s.empty() ? "-" : s;
  for (char& c : out)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return out;
}

}  // namespace

std::string local_time_text(bool iso) {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, iso ? "%Y-%m-%dT%H:%M:%S" : "%Y/%m/%d %H:%M:%S", &tm);
  return buf;
}

Status GameFiles::init() {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec || !fs::is_directory(dir_))
    return Status::error("cannot create the record directory " + dir_ + ": " + ec.message());
  return Status::ok();
}

namespace {

// Creates `path` empty unless it exists: the name is ours alone (O_EXCL), even when another
// client writes to the same directory at the same moment.
bool claim_name(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return errno != EEXIST;  // another error: the write will report it
  ::close(fd);
  return true;
}

}  // namespace

void GameFiles::start_game(const GameSummary& summary) {
  // Two clients in one directory (a self-play test with one configuration) get the same
  // Game_ID: each claims its own file, the second one "-2".
  const std::string base = dir_ + "/" + safe_file_name(summary.game_id);
  for (int i = 1;; ++i) {
    const std::string stem = i == 1 ? base : base + "-" + std::to_string(i);
    const bool csa_free = !write_csa_ || claim_name(stem + ".csa");
    if (!csa_free) continue;
    if (write_kif_ && !claim_name(stem + ".kifu")) {
      if (write_csa_) ::unlink((stem + ".csa").c_str());
      continue;
    }
    path_ = stem + ".csa";
    kif_path_ = stem + ".kifu";
    break;
  }
  start_time_ = local_time_text(false);
  named_ = false;
}

Status GameFiles::write_record(const shogi::CsaRecord& record) {
  if (path_.empty()) return Status::error("no game started");
  shogi::CsaRecord r = record;
  if (!r.find_info("START_TIME")) {
    auto at = r.info.begin();
    if (at != r.info.end()) ++at;  // after $EVENT
    r.info.insert(at, {"START_TIME", start_time_});
  }
  // The first write creates the record's name: its directory is synced once, not after every
  // move (a later rename lost in a power cut leaves the previous move's record, as a crash
  // does).
  const base::DirectorySync sync = named_ ? base::DirectorySync::kNo : base::DirectorySync::kYes;
  if (write_csa_)
    if (Status st =
            base::replace_file(path_, shogi::write_csa_record(r, shogi::CsaVersion::kV22), sync);
        !st)
      return st;
  if (write_kif_)
    if (Status st = base::replace_file(kif_path_, shogi::write_kif_record(r), sync); !st) return st;
  named_ = true;
  return Status::ok();
}

Status GameFiles::append_result(const GameResult& result, const GameSummary& summary,
                                shogi::Color us) {
  const std::string path = results_path();
  std::string reason = game_end_reason_name(result.reason);
  if (!reason.empty() && reason[0] == '#') reason.erase(0, 1);
  std::ostringstream out;
  out << local_time_text(true) << '\t' << cell(result.game_id) << '\t'
      << cell(summary.names[shogi::kBlack]) << '\t' << cell(summary.names[shogi::kWhite]) << '\t'
      << (us == shogi::kBlack ? '+' : '-') << '\t' << outcome_word(result.outcome) << '\t'
      << cell(reason) << '\t' << result.plies << '\t' << cell(record_path()) << '\t'
      << result.ponder_hits << '/' << result.ponder_searches << '\t' << result.ponder_hit_ms
      << '\t';
  if (result.council_votes > 0)
    out << result.council_agreed << '/' << result.council_votes;
  else
    out << '-';
  out << '\n';
  // One write of the whole line (O_APPEND), synced: a crash right after the game keeps it.
  return base::append_file(path, out.str());
}

}  // namespace client
