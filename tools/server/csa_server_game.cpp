// ServerGame: shogi-server's referee for one game (see csa_server_game.h).
#include "tools/server/csa_server_game.h"

#include <algorithm>
#include <utility>

#include "shogi/csa_notation.h"

namespace tools {

using shogi::Color;
using shogi::CsaSpecialMove;
using shogi::kBlack;
using shogi::kWhite;

std::vector<std::string> summary_position_lines(const shogi::PositionSetup& setup) {
  std::vector<std::string> out;
  for (int r = 0; r < 9; ++r) {
    std::string s = "P";
    s += char('1' + r);
    for (int f = 8; f >= 0; --f) {
      const shogi::Piece p = setup.board[shogi::make_square(f, r)];
      if (p == shogi::kNoPiece) {
        s += " * ";
      } else {
        s += shogi::color_of(p) == kBlack ? '+' : '-';
        s += shogi::csa_piece_name(shogi::type_of(p));
      }
    }
    out.push_back(s);
  }
  for (Color c : {kBlack, kWhite}) {
    // shogi-server keeps a hand sorted by piece name (board.rb Piece#initialize).
    std::vector<std::string> names;
    for (int t = shogi::kPawn; t <= shogi::kGold; ++t)
      for (int n = setup.hands[c].count(shogi::PieceType(t)); n > 0; --n)
        names.push_back(shogi::csa_piece_name(shogi::PieceType(t)));
    if (names.empty()) continue;
    std::sort(names.begin(), names.end());
    std::string s = c == kBlack ? "P+" : "P-";
    for (const std::string& n : names) s += "00" + n;
    out.push_back(s);
  }
  out.push_back(setup.side_to_move == kBlack ? "+" : "-");
  return out;
}

ServerGame::ServerGame(const ServerGameConfig& config) : config_(config) {
  const auto t = client::parse_game_name_time(config_.game_name).value_or(client::GameNameTime{});
  client::GameSummary& s = summary_;
  s.protocol_version = "1.2";
  s.protocol_mode = "Server";
  s.format = "Shogi 1.0";
  s.declaration = "Jishogi 1.1";
  s.game_id = config_.event + "+" + config_.game_name + "+" + config_.names[kBlack] + "+" +
              config_.names[kWhite] + "+" + config_.id_time;
  s.names[kBlack] = config_.names[kBlack];
  s.names[kWhite] = config_.names[kWhite];
  s.max_moves = config_.max_moves;
  client::TimeRules rules;
  if (t.stop_watch) {  // shogi-server's StopWatchClock: Time_Unit:1min, values in seconds
    rules.time_unit = "1min";
    rules.unit_ms = 60000;
  }
  rules.total_time = t.total_s;
  rules.byoyomi = t.byoyomi_s;
  rules.increment = t.increment_s;
  rules.least_time_per_move = config_.least_time_per_move_s;
  rules.time_roundup = config_.time_roundup;
  s.time[kBlack] = s.time[kWhite] = rules;
  s.initial = config_.initial ? *config_.initial : shogi::csa_start_setup();
  s.to_move = s.initial.side_to_move;
  clock_ = client::GameClock::from_summary(s);
  if (base::Status st = pos_.set(s.initial); !st) {
    // A bad test position: fall back to the start position rather than play on garbage.
    s.initial = shogi::csa_start_setup();
    s.to_move = kBlack;
    pos_.set(s.initial);
  }

  record_.black_name = config_.names[kBlack];
  record_.white_name = config_.names[kWhite];
  record_.info.push_back({"EVENT", s.game_id});
  record_.comments.push_back("Max_Moves:" + std::to_string(config_.max_moves));
  record_.comments.push_back("Least_Time_Per_Move:" +
                             std::to_string(config_.least_time_per_move_s));
  if (t.increment_s > 0) record_.comments.push_back("Increment:" + std::to_string(t.increment_s));
  record_.initial = s.initial;
}

std::vector<std::string> ServerGame::summary(Color c) const {
  client::GameSummary s = summary_;
  s.your_turn = c;
  std::vector<std::string> lines = client::format_game_summary(s);
  const auto begin = std::find(lines.begin(), lines.end(), "BEGIN Position");
  const auto end = std::find(lines.begin(), lines.end(), "END Position");
  if (begin == lines.end() || end == lines.end() || end < begin) return lines;
  std::vector<std::string> out(lines.begin(), begin + 1);
  for (std::string& l : summary_position_lines(s.initial)) out.push_back(std::move(l));
  out.insert(out.end(), end, lines.end());
  return out;
}

void ServerGame::send_both(Lines& out, const std::string& line) {
  out[kBlack].push_back(line);
  out[kWhite].push_back(line);
}

ServerGame::Lines ServerGame::agree(Color c, int64_t now_ms) {
  Lines out;
  if (phase_ != Phase::kAgreeWaiting) return out;
  agreed_[c] = true;
  if (agreed_[kBlack] && agreed_[kWhite]) {
    phase_ = Phase::kPlaying;
    turn_start_ms_ = now_ms;
    send_both(out, client::format_start(game_id()));
  }
  return out;
}

ServerGame::Lines ServerGame::reject(Color c, bool by_server) {
  Lines out;
  if (phase_ != Phase::kAgreeWaiting) return out;
  const std::string by = by_server ? "the Server (timed out)" : config_.names[c];
  send_both(out, client::format_reject_by(game_id(), by));
  phase_ = Phase::kOver;
  result_ = {"rejected", std::nullopt, "rejected by " + by};
  record_.result_comments.push_back("summary:rejected by " + by);
  return out;
}

void ServerGame::finish(Lines& out, const std::vector<std::string>& reason_lines,
                        std::optional<Color> winner, const char* draw_line, std::string kind,
                        CsaSpecialMove special, std::string detail) {
  for (const std::string& l : reason_lines) send_both(out, l);
  if (winner) {
    out[*winner].push_back("#WIN");
    out[~*winner].push_back("#LOSE");
  } else {
    send_both(out, draw_line);
  }
  phase_ = Phase::kOver;
  record_.result = special;
  auto outcome = [&](Color c) {
    return std::string(!winner ? "draw" : *winner == c ? "win" : "lose");
  };
  record_.result_comments.push_back("summary:" + kind + ":" + config_.names[kBlack] + " " +
                                    outcome(kBlack) + ":" + config_.names[kWhite] + " " +
                                    outcome(kWhite));
  record_.result_comments.push_back("sashite: " + detail);
  result_ = {std::move(kind), winner, std::move(detail)};
}

ServerGame::Lines ServerGame::play(Color c, std::string_view line, int64_t now_ms) {
  Lines out;
  if (phase_ != Phase::kPlaying) return out;
  if (c != side_to_move()) {
    // A repeat of one's own last move is ignored (command.rb); anything else waits its turn.
    const std::string_view move = line.substr(0, std::min(line.find(','), line.size()));
    if (!last_move_[c].empty() && move == last_move_[c]) return out;
    if (deferred_[c].size() < kMaxDeferred) deferred_[c].emplace_back(line);
    return out;
  }
  play_now(line, now_ms, out);
  // The new side to move may have sent its reply early: play it now, charged from now.
  while (phase_ == Phase::kPlaying && !deferred_[side_to_move()].empty()) {
    const std::string next = std::move(deferred_[side_to_move()].front());
    deferred_[side_to_move()].pop_front();
    play_now(next, now_ms, out);
  }
  return out;
}

void ServerGame::play_now(std::string_view line, int64_t now_ms, Lines& out) {
  const Color us = side_to_move();
  const std::string who = std::string(shogi::color_name(us)) + " (" + config_.names[us] + ")";
  const int64_t elapsed_ms = std::max<int64_t>(0, now_ms - turn_start_ms_);
  if (clock_.is_time_up(us, elapsed_ms)) {
    finish(out, {"#TIME_UP"}, ~us, "", "time up", CsaSpecialMove::kTimeUp,
           who + " ran out of time (" + std::to_string(elapsed_ms) + " ms)");
    return;
  }
  const int64_t charged_ms = clock_.charged_ms(us, elapsed_ms);
  const std::string t_text = std::to_string(charged_ms / 1000);
  client::ClientLine parsed;
  const base::Status st = client::parse_client_line(line, parsed);
  auto illegal = [&](const std::string& why) {
    // The rejected text goes in a comment, never as a move: it may not even be CSA.
    record_.result_comments.push_back("ILLEGAL_MOVE(" + client::quote_line(line, 60) + ")");
    finish(out, {"#ILLEGAL_MOVE"}, ~us, "", "illegal move", CsaSpecialMove::kIllegalMove,
           "illegal move " + client::quote_line(line, 60) + " by " + who + ": " + why);
  };
  if (!st) return illegal(st.message());

  if (parsed.type == client::ClientLineType::kSpecialMove) {
    if (parsed.special == CsaSpecialMove::kToryo) {
      record_.result_time_ms = charged_ms;
      finish(out, {"%TORYO", "#RESIGN"}, ~us, "", "toryo", CsaSpecialMove::kToryo,
             who + " resigned");
      return;
    }
    if (parsed.special == CsaSpecialMove::kKachi) {
      send_both(out, "%KACHI,T" + t_text);
      record_.result_time_ms = charged_ms;
      if (pos_.can_declare_win()) {
        finish(out, {"%KACHI", "#JISHOGI"}, us, "", "kachi", CsaSpecialMove::kKachi,
               who + " declared a win (entering king) and the rules allow it");
      } else {
        record_.result_comments.push_back("ILLEGAL_MOVE(%KACHI)");
        finish(out, {"%KACHI", "#ILLEGAL_MOVE"}, ~us, "", "illegal kachi",
               CsaSpecialMove::kIllegalMove,
               who + " declared a win (entering king) the rules do not allow");
      }
      return;
    }
    return illegal("shogi-server treats this special move as illegal");
  }
  if (parsed.type != client::ClientLineType::kMove) return illegal("not a move");

  shogi::Move m;
  if (const base::Status ms = shogi::parse_csa_move(pos_, parsed.move.move, m); !ms)
    return illegal(ms.message());
  pos_.do_move(m);
  clock_.charge_ms(us, charged_ms);
  last_move_[us] = parsed.move.move;
  send_both(out, client::format_move_echo(parsed.move.move, charged_ms / 1000));
  shogi::CsaRecordMove rec{m, parsed.move.move, charged_ms / 1000 * 1000, {}};
  // shogi-server stores a floodgate comment with one more '*': "'** 30 -3334FU".
  if (!parsed.move.comment.empty()) rec.comments.push_back("*" + parsed.move.comment);
  record_.moves.push_back(std::move(rec));
  turn_start_ms_ = now_ms;

  switch (pos_.repetition(4)) {
    case shogi::Repetition::kNone:
      break;
    case shogi::Repetition::kDraw:
      finish(out, {"#SENNICHITE"}, std::nullopt, "#DRAW", "sennichite", CsaSpecialMove::kSennichite,
             "fourfold repetition (sennichite)");
      return;
    case shogi::Repetition::kWin:  // the side to move now wins: the mover gave every check
      finish(out, {"#OUTE_SENNICHITE"}, ~us, "", "oute_sennichite", CsaSpecialMove::kOuteSennichite,
             "perpetual check by " + who);
      return;
    case shogi::Repetition::kLoss:  // the side to move now gave every check
      finish(out, {"#OUTE_SENNICHITE"}, us, "", "oute_sennichite", CsaSpecialMove::kOuteSennichite,
             "perpetual check by " + std::string(shogi::color_name(~us)) + " (" +
                 config_.names[~us] + ")");
      return;
  }
  if (config_.max_moves > 0 && int(record_.moves.size()) >= config_.max_moves)
    finish(out, {"#MAX_MOVES"}, std::nullopt, "#CENSORED", "max_moves", CsaSpecialMove::kMaxMoves,
           "the " + std::to_string(config_.max_moves) + "-move limit");
}

ServerGame::Lines ServerGame::check_time(int64_t now_ms) {
  Lines out;
  if (phase_ != Phase::kPlaying) return out;
  const Color us = side_to_move();
  const int64_t elapsed_ms = std::max<int64_t>(0, now_ms - turn_start_ms_);
  if (clock_.is_time_up(us, elapsed_ms))
    finish(out, {"#TIME_UP"}, ~us, "", "time up", CsaSpecialMove::kTimeUp,
           std::string(shogi::color_name(us)) + " (" + config_.names[us] + ") ran out of time (" +
               std::to_string(elapsed_ms) + " ms, silent)");
  return out;
}

std::optional<int64_t> ServerGame::time_up_at_ms() const {
  if (phase_ != Phase::kPlaying) return std::nullopt;
  const Color us = side_to_move();
  if (clock_.rules(us).unlimited) return std::nullopt;
  // charged_ms is monotone in the elapsed time: the least flagged elapsed time by bisection.
  int64_t lo = 0, hi = clock_.available_ms(us) + 2 * std::max<int64_t>(1, clock_.rules(us).unit_ms);
  if (clock_.is_time_up(us, lo)) return turn_start_ms_;
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    (clock_.is_time_up(us, mid) ? hi : lo) = mid;
  }
  return turn_start_ms_ + hi;
}

ServerGame::Lines ServerGame::disconnect(Color c, int64_t now_ms) {
  Lines out;
  if (phase_ == Phase::kAgreeWaiting) return reject(c);
  if (phase_ != Phase::kPlaying) return out;
  (void)now_ms;
  const std::string who = std::string(shogi::color_name(c)) + " (" + config_.names[c] + ")";
  // The record: %TORYO when the side to move left (as shogi-server logs it); when the other
  // side left, %TORYO would name the wrong side, so an illegal action of that side.
  const CsaSpecialMove special = c == side_to_move() ? CsaSpecialMove::kToryo
                                 : c == kBlack       ? CsaSpecialMove::kBlackIllegalAction
                                                     : CsaSpecialMove::kWhiteIllegalAction;
  finish(out, {"%TORYO", "#RESIGN"}, ~c, "", "abnormal", special, who + " dropped the connection");
  out[c].clear();  // nobody to tell
  return out;
}

void ServerGame::abort(const std::string& why) {
  if (phase_ == Phase::kOver) return;
  const bool started = phase_ == Phase::kPlaying;
  phase_ = Phase::kOver;
  result_ = {"aborted", std::nullopt, why};
  if (started) record_.result = CsaSpecialMove::kChudan;
  record_.result_comments.push_back("summary:aborted: " + why);
}

}  // namespace tools
