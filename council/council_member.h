// CouncilMember: one engine of a council, a USI child process driven by a thread of its own
// that starts it (and starts it again after a crash or when the council asks), reads all it
// says and keeps each search's answer for the council.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "council/council_config.h"
#include "usi/usi_engine_process.h"
#include "usi/usi_info.h"

namespace council {

// What a member said in reply to one go: a bestmove (or, to go mate, a checkmate line).
struct MemberReply {
  std::string move;    // "7g7f", "resign", "win"; for go mate the words after "checkmate"
  std::string ponder;  // "" when it gave none
  usi::SearchReport report;
  std::vector<std::string> pv;  // of its last info line with a PV (the first PV)
  int64_t elapsed_ms = 0;       // from the go (or the ponderhit) to the reply
  std::chrono::steady_clock::time_point received{};  // when the reply was read
};

// The state of one member's current search, as the council reads it.
struct MemberSearch {
  bool sent = false;     // the go of this search reached the member
  bool crashed = false;  // it exited during the search
  std::optional<MemberReply> reply;
  std::vector<std::string> pv;  // the latest PV while it thinks (for a council out of time)
};

// Thread-safe: the council's thread calls every public function; the member's own thread
// reads the engine. `on_change` is called from the member's thread, holding no lock of the
// member's, whenever a reply comes, the engine exits or becomes ready.
class CouncilMember {
 public:
  using Clock = std::chrono::steady_clock;
  using Log = std::function<void(const std::string& line)>;

  CouncilMember(CouncilMemberConfig config, std::chrono::milliseconds startup_timeout, Log log,
                std::function<void()> on_change);
  ~CouncilMember();  // shutdown()
  CouncilMember(const CouncilMember&) = delete;
  CouncilMember& operator=(const CouncilMember&) = delete;

  const CouncilMemberConfig& config() const { return config_; }
  // Starts the member's thread, which starts the engine: usi, setoption, isready, usinewgame.
  void launch();
  // The engine has started and answered readyok, and has not exited since.
  bool ready() const;
  // When the engine first became ready, or nullopt while it never was.
  std::optional<Clock::time_point> ready_since() const;

  // A new search: sends `position` and `go` and forgets the previous search's answer. False
  // (nothing sent) when the member is not ready, or when an earlier search it was told to
  // stop has not answered within `stop_grace`: the member is restarted then.
  bool start_search(const std::string& position, const std::string& go,
                    std::chrono::milliseconds stop_grace);
  // Sends `stop` when the current search has not answered yet (remembering when).
  void stop_search();
  // Sends ponderhit to a pondering search; its reply's time counts from now.
  void ponderhit();
  // Sends a line as it is (usinewgame, gameover ...) when the engine runs.
  void send(const std::string& line);
  MemberSearch search() const;
  // Kills the engine and starts it again, from the member's thread; `why` is logged.
  void restart(const std::string& why);
  // quit, a wait of up to `wait` for the exit, then a kill; joins the thread. Idempotent.
  void request_shutdown();
  void shutdown(std::chrono::milliseconds wait = std::chrono::milliseconds(2000));

  // Times the engine was started, the first included.
  int starts() const;

 private:
  void run();
  // One engine process from its start to its exit (or a kill); false when it could not start.
  bool run_engine();
  void on_line(const std::string& line);
  void log(const std::string& text) const;
  void wait_backoff(std::chrono::milliseconds delay);

  const CouncilMemberConfig config_;
  const std::chrono::milliseconds startup_timeout_;
  const Log log_;
  const std::function<void()> on_change_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;                    // the backoff between failed starts
  std::unique_ptr<usi::UsiEngineProcess> process_;  // while it runs (the thread owns it)
  bool ready_ = false;
  std::optional<Clock::time_point> ready_since_;
  bool restart_ = false;
  std::string restart_why_;
  bool shutdown_ = false;
  std::chrono::milliseconds shutdown_wait_{2000};
  int starts_ = 0;
  // The search: the gos sent that have not answered (replies to the older ones are dropped).
  int pending_ = 0;
  bool stop_sent_ = false;        // a stop went to a search that has not answered
  bool current_stopped_ = false;  // the current search was sent stop
  Clock::time_point stop_time_{};
  Clock::time_point go_time_{};
  MemberSearch search_;
  usi::SearchInfoTracker tracker_;
  std::thread thread_;
};

}  // namespace council
