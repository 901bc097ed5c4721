// ClientStatus: what the CSA client's loop tells its status page (the StatusBoard's model).
#pragma once

// The client's loop calls these as things happen; each call is one StatusBoard::update of a
// few values (a move, the clocks, a result), so a page being watched costs the game nothing.
// Steady times are the loop's milliseconds (CsaClient::now_ms) plus `steady_origin_ms`.
// Not thread-safe by itself: the loop calls it, except record_files, which the record
// writer's thread calls (it only touches the board, which is).

#include <cstdint>
#include <optional>
#include <string>

#include "client/csa_config.h"
#include "client/csa_session.h"
#include "client/status_board.h"

namespace client {

class ClientStatus {
 public:
  ClientStatus(StatusBoard& board, const CsaConfig& config, int64_t steady_origin_ms);

  // The games results.txt lists (a restart keeps the table and the running count): those
  // our login name played (clients may share a record directory). A file that does not
  // exist yet is no error; lines it cannot read are skipped.
  void load_history(const std::string& results_path);
  // The session's state after an event; `connect_at_ms` the next connection attempt, if any.
  void connection(CsaSession::State state, std::optional<int64_t> connect_at_ms, int64_t now_ms);
  // A connection was made (after the first, it counts as a reconnect).
  void connected();
  void game_started(const CsaSession& session);
  // The record gained a move (or the game its end): moves, position, clocks.
  void record_updated(const CsaSession& session);
  // Our engine answered: its principal variation, value and speed.
  void engine_answer(const CsaSession& session, const EngineMove& move);
  void game_ended(const CsaSession& session, const GameResult& result);
  // The files the record writer chose for the game (on the writer's thread).
  void record_files(const std::string& game_id, const std::string& csa_path,
                    const std::string& kif_path);

 private:
  int64_t steady(int64_t now_ms) const { return steady_origin_ms_ + now_ms; }

  StatusBoard& board_;
  std::string name_;  // our login name
  bool record_csa_, record_kif_;
  int64_t steady_origin_ms_;
  int connections_ = 0;
  const char* shown_connection_ = nullptr;  // the state word last put on the board
  int64_t shown_reconnect_at_ = 0;
  size_t moves_shown_ = 0;
  // Our engine's value for the move it is playing, for the graph when the record has no
  // floodgate comment (floodgate_comments = false).
  std::optional<int> answer_eval_cp_;
};

// "300 s + 10 s per move", "600 s, 10 s byoyomi", "no time limit": a game's time rules for
// people (Black's; White's too when they differ).
std::string time_rules_text(const GameClock& clock);
// A record's move as the page shows it: its text, USI form, time and the value of its
// floodgate comment (not yet whose it is).
StatusMove status_move_from(const shogi::CsaRecordMove& move);
// Both sides' clocks as the page shows them.
void status_clocks_from(const GameClock& clock, StatusClock (&clocks)[2]);
// Now, in milliseconds since 1970.
int64_t unix_time_ms();
// The value of a floodgate comment ("* 30 -3334FU" -> 30; a server's record keeps it as
// "** 30 -3334FU"), Black's view; none when the comment is not one.
std::optional<int> floodgate_comment_value(const std::string& comment);

}  // namespace client
