// MovePicker: yields a node's moves in stages, best-first, generating lazily.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "engine/names.h"
#include "shogi/movegen.h"
#include "shogi/position.h"

namespace engine {

// Moves a history entry toward +-limit by `bonus` (clamped to the limit), with gravity: the
// closer the entry already is to the bound, the less it moves, so it never leaves
// [-limit, limit] and old results fade.
inline void update_history_entry(int16_t& entry, int bonus, int limit) {
  bonus = bonus > limit ? limit : bonus < -limit ? -limit : bonus;
  entry = int16_t(entry + bonus - entry * (bonus < 0 ? -bonus : bonus) / limit);
}

// History of quiet moves that caused cut-offs, by colour, origin (square or 81 + dropped
// kind) and destination. Per search thread.
struct ButterflyHistory {
  static constexpr int kLimit = 16384;
  int16_t table[kColorNb][kSquareNb + kHandTypeNb][kSquareNb];

  void clear() { std::memset(table, 0, sizeof table); }
  static int origin(Move m) { return m.is_drop() ? kSquareNb + m.dropped_type() : m.from(); }
  int get(Color c, Move m) const { return table[c][origin(m)][m.to()]; }
  void update(Color c, Move m, int bonus) {
    update_history_entry(table[c][origin(m)][m.to()], bonus, kLimit);
  }
};

// A history table of one kind of statistics by moved piece (colour included, as it stands
// after the move) and destination; `Limit` bounds the values (the update's gravity).
template <int Limit>
struct PieceToHistory {
  int16_t table[kPieceNb][kSquareNb];

  void clear() { std::memset(table, 0, sizeof table); }
  int get(Move m) const { return table[m.piece_after()][m.to()]; }
  void update(Move m, int bonus) {
    update_history_entry(table[m.piece_after()][m.to()], bonus, Limit);
  }
};

// Continuation history: how well a quiet move did right after an earlier move of the line
// (1, 2 or 4 plies before), by that earlier move's piece and destination. It holds the
// counter-move (1 ply) and follow-up (2 plies) patterns, which a butterfly table cannot.
using ContinuationEntry = PieceToHistory<30000>;
struct ContinuationHistory {
  ContinuationEntry table[kPieceNb][kSquareNb];

  void clear() { std::memset(table, 0, sizeof table); }
  ContinuationEntry& after(Move m) { return table[m.piece_after()][m.to()]; }
  // What a node reads for a ply before the root or a null move: no real move's entry, and
  // never updated (the updates skip those plies), so it stays zero.
  ContinuationEntry& sentinel() { return table[kNoPiece][0]; }
};

// Capture history: how well captures (and promotions) did, by moved piece, destination and
// the kind captured. Orders captures of equal material the way the search found best.
struct CaptureHistory {
  static constexpr int kLimit = 16384;
  int16_t table[kPieceNb][kSquareNb][kPieceTypeNb];

  void clear() { std::memset(table, 0, sizeof table); }
  int get(const Position& pos, Move m) const {
    return table[m.piece_after()][m.to()][type_of(pos.piece_on(m.to()))];
  }
  void update(const Position& pos, Move m, int bonus) {
    update_history_entry(table[m.piece_after()][m.to()][type_of(pos.piece_on(m.to()))], bonus,
                         kLimit);
  }
};

// The history tables a node's move ordering reads: the thread's butterfly and capture
// histories, and the continuation entries of the moves 1, 2 and 4 plies before.
struct MoveHistories {
  const ButterflyHistory* butterfly = nullptr;
  const CaptureHistory* captures = nullptr;
  const ContinuationEntry* continuation[3] = {nullptr, nullptr, nullptr};

  // The quiet-move score used for ordering and reductions.
  int quiet_score(Color us, Move m) const {
    int s = butterfly ? butterfly->get(us, m) : 0;
    if (continuation[0]) s += 2 * continuation[0]->get(m);
    if (continuation[1]) s += continuation[1]->get(m);
    if (continuation[2]) s += continuation[2]->get(m);
    return s;
  }
};

// True for the non-promotions search leaves out: a pawn, bishop or rook that could promote
// and does not (never better, barring rare pawn-drop-mate tricks).
bool is_useless_non_promotion(const Position& pos, Move m);

// Produces moves one at a time. The main search stages: TT move, good captures and
// promotions (SEE >= 0; by material, then capture history), killers, quiet moves by
// butterfly and continuation histories, bad captures. In check: the TT move, then evasions
// (captures first). Quiescence: the TT move if tactical, captures and promotions, then
// checks when `with_checks`. Moves are pseudo-legal: the caller tests Position::is_legal.
// Skips useless non-promotions.
class MovePicker {
 public:
  // Main search.
  MovePicker(const Position& pos, Move tt_move, const Move killers[2],
             const MoveHistories& histories);
  // Quiescence search (`captures` may be null: material order alone).
  MovePicker(const Position& pos, Move tt_move, bool with_checks,
             const CaptureHistory* captures = nullptr);
  MovePicker(const MovePicker&) = delete;  // moves_ points into the object itself
  MovePicker& operator=(const MovePicker&) = delete;

  // The next move, or kMoveNone when there are no more.
  Move next();
  // Whether the last returned move came from a quiet stage (killers or quiets).
  bool in_quiet_stage() const;

 private:
  enum Stage {
    kMainTT,
    kCapturesInit,
    kGoodCaptures,
    kKiller1,
    kKiller2,
    kQuietsInit,
    kQuiets,
    kBadCaptures,
    kEvasionTT,
    kEvasionsInit,
    kEvasions,
    kQuiescenceTT,
    kQCapturesInit,
    kQCaptures,
    kQChecksInit,
    kQChecks,
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
  MoveHistories histories_;
  Move tt_move_;
  Move killers_[2] = {kMoveNone, kMoveNone};
  bool with_checks_ = false;
  Stage stage_;
  int cursor_ = 0, end_ = 0, bad_begin_ = 0, bad_end_ = 0;
  static constexpr int kQuietsSelected = 3;
  int quiets_picked_ = 0;
  // Captures, bad captures, quiets. Left uninitialised (see MoveList): zeroing it cost
  // about 7% of the search's time.
  alignas(Scored) std::byte storage_[sizeof(Scored) * MoveList::kCapacity * 2];
  Scored* const moves_ = reinterpret_cast<Scored*>(storage_);
};

}  // namespace engine
