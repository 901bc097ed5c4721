// GameFiles: each game's CSA record, rewritten after every move, and the results summary.
#pragma once

// A record is written to "<dir>/<Game_ID>.csa.tmp", synced, then renamed over
// "<dir>/<Game_ID>.csa" (and the same for the KIF record, "<Game_ID>.kifu"): a crash leaves
// the previous complete version, so at most the last move is lost. The names are claimed at
// the game's start (created exclusively), so clients sharing a directory never share a file. The
// directory is synced once the record's name exists. The summary
// "<dir>/results.txt" gets one tab-separated line per game:
//   end time (local, ISO 8601)  Game_ID  black  white  our colour (+/-)  outcome  reason
//   plies  record file  ponder hits/ponder searches  ms pondered before the hits
//   council agreement (a council behind the client: moves all its voters chose/moves it
//   voted on; "-" for a single engine)
// with outcome WIN, LOSE, DRAW, CENSORED, CHUDAN or CUT (the connection was lost), and
// reason the server's '#' line without the '#' ("RESIGN", "TIME_UP", ...; "-" if none).
// Not thread-safe.

#include <string>

#include "base/status.h"
#include "client/csa_protocol.h"
#include "client/csa_session.h"
#include "shogi/csa_record.h"

namespace client {

class GameFiles {
 public:
  static constexpr const char* kResultsFile = "results.txt";

  explicit GameFiles(std::string record_dir) : dir_(std::move(record_dir)) {}
  // Which records are written: CSA ("<Game_ID>.csa") and KIF ("<Game_ID>.kifu", UTF-8, as
  // ShogiHome, Kifu for Windows and ShogiGUI read it). Default: both. REQUIRES: one at least.
  void set_formats(bool csa, bool kif) { write_csa_ = csa, write_kif_ = kif; }

  // Creates the directory if needed; the error names it.
  base::Status init();
  // A new game: picks its file name (Game_ID made safe for a file name, with "-2", "-3", ...
  // when a file of that name exists already) and notes the start time for $START_TIME.
  void start_game(const GameSummary& summary);
  // Writes the current game's record (temp file, fsync, rename).
  base::Status write_record(const shogi::CsaRecord& record);
  // Appends the game's line to results.txt and syncs it.
  base::Status append_result(const GameResult& result, const GameSummary& summary, shogi::Color us);

  // The CSA record's path, or the KIF record's when only KIF is written.
  const std::string& record_path() const { return write_csa_ ? path_ : kif_path_; }
  const std::string& kif_path() const { return kif_path_; }
  const std::string& csa_path() const { return path_; }
  std::string results_path() const { return dir_ + "/" + kResultsFile; }

 private:
  std::string dir_;
  std::string path_, kif_path_;
  bool write_csa_ = true, write_kif_ = true;
  std::string start_time_;  // "2026/04/19 21:05:28", the record's $START_TIME
  bool named_ = false;      // this game's record file exists: its directory entry is synced
};

// "2026/04/19 21:05:28" (local time), as CSA records write times; "T" between date and time
// and "-" in the date when `iso` is set.
std::string local_time_text(bool iso);

}  // namespace client
