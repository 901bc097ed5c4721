// Referee: legality, repetition, declaration, ply limit, and the CSA record of a game.
#include "tools/match/match_referee.h"

#include "shogi/csa_notation.h"
#include "shogi/movegen.h"
#include "shogi/notation.h"

namespace tools {

using base::Status;
using shogi::Color;
using shogi::CsaSpecialMove;

const char* end_reason_name(EndReason reason) {
  switch (reason) {
    case EndReason::kResign:
      return "resign";
    case EndReason::kDeclaration:
      return "declaration";
    case EndReason::kBadDeclaration:
      return "bad_declaration";
    case EndReason::kRepetition:
      return "repetition";
    case EndReason::kPerpetualCheck:
      return "perpetual_check";
    case EndReason::kIllegalMove:
      return "illegal_move";
    case EndReason::kMaxPlies:
      return "max_plies";
    case EndReason::kTimeUp:
      return "time_up";
    case EndReason::kCrash:
      return "crash";
    case EndReason::kNoResponse:
      return "no_response";
  }
  return "?";
}

const char* winner_result_text(GameWinner winner) {
  switch (winner) {
    case GameWinner::kBlack:
      return "1-0";
    case GameWinner::kWhite:
      return "0-1";
    case GameWinner::kDraw:
      return "1/2-1/2";
  }
  return "?";
}

Status Referee::start(const Opening& opening, int max_plies) {
  if (Status s = pos_.set_sfen(opening.sfen); !s) return s;
  base_command_ =
      opening.sfen == "startpos" ? "position startpos" : "position sfen " + opening.sfen;
  max_plies_ = max_plies;
  usi_moves_.clear();
  end_.reset();
  record_ = shogi::CsaRecord();
  record_.initial = pos_.setup();
  for (const std::string& text : opening.moves) {
    shogi::Move m;
    if (Status s = shogi::parse_usi_move(pos_, text, m); !s) return s;
    record_.moves.push_back({m, shogi::format_csa_move(m), std::nullopt, {}});
    usi_moves_.push_back(text);
    pos_.do_move(m);
  }
  return Status::ok();
}

std::string Referee::position_command() const {
  std::string s = base_command_;
  if (!usi_moves_.empty()) {
    s += " moves";
    for (const std::string& m : usi_moves_) s += " " + m;
  }
  return s;
}

GameWinner Referee::loser_is(Color side) const {
  return side == shogi::kBlack ? GameWinner::kWhite : GameWinner::kBlack;
}

void Referee::finish(GameWinner winner, EndReason reason, CsaSpecialMove special,
                     std::string detail, std::optional<int64_t> time_ms) {
  record_.result = special;
  record_.result_time_ms = time_ms;
  record_.result_comments.push_back("sashite: " + std::string(end_reason_name(reason)) + " " +
                                    winner_result_text(winner) + ": " + detail);
  end_ = GameEnd{winner, reason, std::move(detail)};
}

bool Referee::check_ply_limit() {
  if (over()) return true;
  if (plies() >= max_plies_ && !shogi::legal_moves(pos_).empty())
    finish(GameWinner::kDraw, EndReason::kMaxPlies, CsaSpecialMove::kMaxMoves,
           "draw by the " + std::to_string(max_plies_) + "-ply limit", std::nullopt);
  return over();
}

bool Referee::on_reply(std::string_view reply, int64_t elapsed_ms) {
  const Color us = side_to_move();
  const std::string who = shogi::color_name(us);
  if (reply == "resign") {
    finish(loser_is(us), EndReason::kResign, CsaSpecialMove::kToryo, who + " resigned", elapsed_ms);
    return true;
  }
  if (reply == "win") {
    if (pos_.can_declare_win())
      finish(us == shogi::kBlack ? GameWinner::kBlack : GameWinner::kWhite, EndReason::kDeclaration,
             CsaSpecialMove::kKachi, who + " declared a win (entering king) and the rules allow it",
             elapsed_ms);
    else
      finish(loser_is(us), EndReason::kBadDeclaration, CsaSpecialMove::kIllegalMove,
             who + " declared a win (entering king) the rules do not allow", elapsed_ms);
    return true;
  }
  shogi::Move m;
  if (Status s = shogi::parse_usi_move(pos_, reply, m); !s) {
    const std::string shown = reply.empty() ? "(nothing)" : std::string(reply);
    finish(loser_is(us), EndReason::kIllegalMove, CsaSpecialMove::kIllegalMove,
           "illegal move " + shown + " by " + who + ": " + s.message(), elapsed_ms);
    return true;
  }
  record_.moves.push_back({m, shogi::format_csa_move(m), elapsed_ms, {}});
  usi_moves_.emplace_back(reply);
  pos_.do_move(m);
  switch (pos_.repetition(4)) {
    case shogi::Repetition::kNone:
      break;
    case shogi::Repetition::kDraw:
      finish(GameWinner::kDraw, EndReason::kRepetition, CsaSpecialMove::kSennichite,
             "fourfold repetition (sennichite)", std::nullopt);
      break;
    case shogi::Repetition::kWin:  // the side to move now wins: the mover gave every check
      finish(loser_is(us), EndReason::kPerpetualCheck, CsaSpecialMove::kOuteSennichite,
             "fourfold repetition by perpetual check from " + who, std::nullopt);
      break;
    case shogi::Repetition::kLoss:  // the side to move now gave every check
      finish(loser_is(~us), EndReason::kPerpetualCheck, CsaSpecialMove::kOuteSennichite,
             "fourfold repetition by perpetual check from " + std::string(shogi::color_name(~us)),
             std::nullopt);
      break;
  }
  return over();
}

void Referee::on_time_up(int64_t elapsed_ms) {
  const Color us = side_to_move();
  finish(loser_is(us), EndReason::kTimeUp, CsaSpecialMove::kTimeUp,
         std::string(shogi::color_name(us)) + " ran out of time (no bestmove after " +
             std::to_string(elapsed_ms) + " ms)",
         elapsed_ms);
}

void Referee::on_engine_fault(Color side, EndReason reason, const std::string& detail) {
  finish(loser_is(side), reason, CsaSpecialMove::kChudan,
         std::string(shogi::color_name(side)) + "'s engine " + detail, std::nullopt);
}

}  // namespace tools
