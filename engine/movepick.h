// MovePicker: yields a node's moves in stages, best-first, generating lazily.
#pragma once

#include <cstdint>
#include <cstring>

#include "engine/movegen.h"
#include "engine/position.h"

namespace engine {

// History of quiet moves that caused cut-offs, by colour, origin (square or 81 + dropped
// kind) and destination. Per search thread.
struct ButterflyHistory {
  static constexpr int kLimit = 16384;
  int16_t table[kColorNb][kSquareNb + kHandTypeNb][kSquareNb];

  void clear() { std::memset(table, 0, sizeof table); }
  static int origin(Move m) { return m.is_drop() ? kSquareNb + m.dropped_type() : m.from(); }
  int get(Color c, Move m) const { return table[c][origin(m)][m.to()]; }
  void update(Color c, Move m, int bonus) {
    int16_t& h = table[c][origin(m)][m.to()];
    bonus = bonus > kLimit ? kLimit : bonus < -kLimit ? -kLimit : bonus;
    h = int16_t(h + bonus - h * (bonus < 0 ? -bonus : bonus) / kLimit);
  }
};

// True for the non-promotions search leaves out: a pawn, bishop or rook that could promote
// and does not (never better, barring rare pawn-drop-mate tricks).
bool is_useless_non_promotion(const Position& pos, Move m);

// Produces moves one at a time. The main search stages: TT move, good captures and
// promotions (SEE >= 0), killers, quiet moves by history, bad captures. In check: the TT
// move, then evasions (captures first). Quiescence: the TT move if tactical, captures and
// promotions, then checks when `with_checks`. Moves are pseudo-legal: the caller tests
// Position::is_legal. Skips useless non-promotions.
class MovePicker {
 public:
  // Main search.
  MovePicker(const Position& pos, Move tt_move, const Move killers[2],
             const ButterflyHistory* history);
  // Quiescence search.
  MovePicker(const Position& pos, Move tt_move, bool with_checks);

  // The next move, or kMoveNone when there are no more.
  Move next();
  // Whether the last returned move came from a quiet stage (killers or quiets).
  bool in_quiet_stage() const;

 private:
  enum Stage {
    kMainTT, kCapturesInit, kGoodCaptures, kKiller1, kKiller2, kQuietsInit, kQuiets,
    kBadCaptures,
    kEvasionTT, kEvasionsInit, kEvasions,
    kQuiescenceTT, kQCapturesInit, kQCaptures, kQChecksInit, kQChecks,
    kDone
  };
  struct Scored {
    Move move;
    int score;
  };
  void score_captures(int begin, int end);
  void score_quiets(int begin, int end);
  void score_evasions(int begin, int end);
  Move pick_best(int& cursor, int end);
  int append(GenType type, int end);
  bool is_ok_tt_move(Move m) const;

  const Position& pos_;
  const ButterflyHistory* history_ = nullptr;
  Move tt_move_;
  Move killers_[2] = {kMoveNone, kMoveNone};
  bool with_checks_ = false;
  Stage stage_;
  int cursor_ = 0, end_ = 0, bad_begin_ = 0, bad_end_ = 0;
  Scored moves_[MoveList::kCapacity * 2];  // captures, bad captures, quiets
};

}  // namespace engine
