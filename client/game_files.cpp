// GameFiles: records written atomically, and the results summary (see game_files.h).
#include "client/game_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <optional>
#include <sstream>
#include <utility>

namespace client {

using engine::Status;
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

// Writes the whole text to `path` (replacing it, or appended to it) and syncs it to disk.
Status write_synced(const std::string& path, const std::string& text, bool append = false) {
  const int fd =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0644);
  if (fd < 0) return Status::error("cannot write " + path + ": " + std::strerror(errno));
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      return Status::error("cannot write " + path + ": " + why);
    }
    done += size_t(n);
  }
  ::fsync(fd);
  if (::close(fd) != 0) return Status::error("cannot write " + path + ": " + std::strerror(errno));
  return Status::ok();
}

// Syncs a directory's entries, so that a file created or renamed in it survives a power cut.
// Best effort: some file systems refuse to sync a directory, and the file itself is synced.
void sync_directory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

const char* outcome_word(const std::optional<GameOutcome>& o) {
  if (!o) return "CUT";
  switch (*o) {
    case GameOutcome::kWin: return "WIN";
    case GameOutcome::kLose: return "LOSE";
    case GameOutcome::kDraw: return "DRAW";
    case GameOutcome::kCensored: return "CENSORED";
    case GameOutcome::kChudan: return "CHUDAN";
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

void GameFiles::start_game(const GameSummary& summary) {
  const std::string base = dir_ + "/" + safe_file_name(summary.game_id);
  path_ = base + ".csa";
  std::error_code ec;
  for (int i = 2; fs::exists(path_, ec); ++i) path_ = base + "-" + std::to_string(i) + ".csa";
  start_time_ = local_time_text(false);
  named_ = false;
}

Status GameFiles::write_record(const engine::CsaRecord& record) {
  if (path_.empty()) return Status::error("no game started");
  engine::CsaRecord r = record;
  if (!r.find_info("START_TIME")) {
    auto at = r.info.begin();
    if (at != r.info.end()) ++at;  // after $EVENT
    r.info.insert(at, {"START_TIME", start_time_});
  }
  const std::string tmp = path_ + ".tmp";
  if (Status st = write_synced(tmp, engine::write_csa_record(r, engine::CsaVersion::kV22)); !st)
    return st;
  std::error_code ec;
  fs::rename(tmp, path_, ec);
  if (ec) return Status::error("cannot rename " + tmp + " to " + path_ + ": " + ec.message());
  // The first rename creates the record's name: synced once, not after every move (a later
  // rename lost in a power cut leaves the previous move's record, as a crash does).
  if (!named_) {
    sync_directory(dir_);
    named_ = true;
  }
  return Status::ok();
}

Status GameFiles::append_result(const GameResult& result, const GameSummary& summary,
                                engine::Color us) {
  const std::string path = results_path();
  std::string reason = game_end_reason_name(result.reason);
  if (!reason.empty() && reason[0] == '#') reason.erase(0, 1);
  std::ostringstream out;
  out << local_time_text(true) << '\t' << cell(result.game_id) << '\t'
      << cell(summary.names[engine::kBlack]) << '\t' << cell(summary.names[engine::kWhite])
      << '\t' << (us == engine::kBlack ? '+' : '-') << '\t' << outcome_word(result.outcome)
      << '\t' << cell(reason) << '\t' << result.plies << '\t' << cell(path_) << '\n';
  // One write of the whole line (O_APPEND), synced: a crash right after the game keeps it.
  std::error_code ec;
  const bool created = !fs::exists(path, ec);
  if (Status st = write_synced(path, out.str(), true); !st) return st;
  if (created) sync_directory(dir_);
  return Status::ok();
}

}  // namespace client
