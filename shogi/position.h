// Position: the board, hands and side to move, with the rules of shogi (no evaluation).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "shogi/attacks.h"
#include "shogi/bitboard.h"
#include "shogi/hand.h"
#include "shogi/types.h"

namespace shogi {
using base::Status;

// The raw content of a position before validation: what SFEN and CSA parsers produce.
struct PositionSetup {
  std::array<Piece, kSquareNb> board{};
  Hand hands[kColorNb];
  Color side_to_move = kBlack;
  int game_ply = 1;  // the SFEN move number: 1 before Black's first move
};

// How a repetition ends the game, from the side to move's point of view.
enum class Repetition {
  kNone,
  kDraw,  // sennichite (千日手)
  kWin,   // the opponent gave check with every move of the cycle (連続王手の千日手)
  kLoss,  // the side to move did
};

// Per-ply state kept for undo and for the rules that look back (repetition).
struct StateInfo {
  uint64_t board_key = 0;       // pieces on board and side to move
  uint64_t hand_key = 0;        // additive: sum of one key per piece in hand
  Bitboard checkers;            // enemy pieces giving check to the side to move
  Bitboard blockers[kColorNb];  // pieces (either colour) shielding c's king from a slider
  Bitboard pinners[kColorNb];   // sliders of ~c pinning a c piece to c's king
  Piece captured = kNoPiece;
  Move move = kMoveNone;                     // the move that led here
  int continuous_checks[kColorNb] = {0, 0};  // consecutive checking moves by each side
  int plies_from_null = 0;
  uint64_t key() const { return board_key + hand_key; }
};

// A shogi position with the rules: legality, do/undo with incremental Zobrist hashing,
// checks and pins, repetition and the entering-king declaration. Positions without one
// side's king (mate problems) are supported: that side is never in check.
// Not thread-safe; copy one per thread.
class Position {
 public:
  static constexpr const char* kStartSfen =
      "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

  Position();  // the start position

  // Becomes `other` as it stands now, without the history before it (plies_played() 0),
  // keeping the memory this position already holds: for a searcher that only undoes its own
  // moves and never looks back for repetitions (the mate solver's copy, made per call).
  void copy_current(const Position& other);

  // Replaces the position. Returns an error (and leaves *this unchanged) when the setup
  // breaks the rules: two kings of a side, two unpromoted pawns of a side on a file, a
  // piece that can never move, the side not to move in check, or more pieces of a kind than
  // a hand can count (composed positions with more than one set's pieces are accepted:
  // perft tables use them).
  Status set(const PositionSetup& setup);
  // Parses SFEN ("<board> <side> <hands> [<ply>]", or "startpos"). Errors name the column.
  Status set_sfen(std::string_view sfen);
  std::string sfen(bool with_ply = true) const;
  PositionSetup setup() const;

  // Board and hands.
  Piece piece_on(Square s) const { return board_[s]; }
  Bitboard pieces() const { return occupied_; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType t) const { return by_type_[t]; }
  Bitboard pieces(Color c, PieceType t) const { return by_color_[c] & by_type_[t]; }
  Bitboard pieces(PieceType a, PieceType b) const { return by_type_[a] | by_type_[b]; }
  Bitboard pieces(Color c, PieceType a, PieceType b) const {
    return by_color_[c] & (by_type_[a] | by_type_[b]);
  }
  // Gold and the pieces that move like it (promoted pawn, lance, knight, silver).
  Bitboard golds(Color c) const {
    return by_color_[c] & (by_type_[kGold] | by_type_[kProPawn] | by_type_[kProLance] |
                           by_type_[kProKnight] | by_type_[kProSilver]);
  }
  Hand hand(Color c) const { return hands_[c]; }
  Color side_to_move() const { return side_to_move_; }
  int game_ply() const { return game_ply_; }
  // kSquareNone when c has no king.
  Square king_square(Color c) const { return king_square_[c]; }

  // Hashing: equal positions (board, hands, side to move) have equal keys.
  uint64_t key() const { return st().key(); }
  uint64_t board_key() const { return st().board_key; }
  // The key the position would have after m, without making it (for prefetching).
  uint64_t key_after(Move m) const;

  // Checks and pins.
  Bitboard checkers() const { return st().checkers; }
  bool in_check() const { return st().checkers.any(); }
  Bitboard blockers_for_king(Color c) const { return st().blockers[c]; }
  Bitboard pinned(Color c) const { return st().blockers[c] & by_color_[c]; }
  // Pieces of colour `by` attacking s, given the occupancy.
  Bitboard attackers_to(Color by, Square s, Bitboard occupied) const;
  Bitboard attackers_to(Color by, Square s) const { return attackers_to(by, s, occupied_); }
  bool is_attacked(Color by, Square s) const { return attackers_to(by, s).any(); }

  // Legality. REQUIRES for is_legal: m came from a pseudo-legal generator for this
  // position (or passed is_pseudo_legal). is_pseudo_legal accepts any 32-bit value.
  bool is_legal(Move m) const;
  bool is_pseudo_legal(Move m) const;
  bool gives_check(Move m) const;
  // True when dropping a pawn on `to` by the side to move would be mate (打ち歩詰め), i.e.
  // the drop is illegal. REQUIRES: the drop checks the enemy king and is otherwise legal.
  bool is_pawn_drop_mate(Square to) const;
  bool is_capture(Move m) const { return !m.is_drop() && board_[m.to()] != kNoPiece; }
  // Attaches the piece-after-move bits to a move given as from/to/promotion or drop.
  Move complete_move(Move m) const;

  // Making and unmaking moves. REQUIRES for do_move: m is legal.
  void do_move(Move m) { do_move(m, gives_check(m)); }
  void do_move(Move m, bool gives_check);
  void undo_move();
  void do_null_move();
  void undo_null_move();
  Move last_move() const { return st().move; }
  Piece captured_piece() const { return st().captured; }
  int plies_played() const { return int(states_.size()) - 1; }  // since set()
  // The state of the position `back` plies ago (0: now): its key, the move that led to it
  // and what that move captured. REQUIRES: 0 <= back <= plies_played().
  const StateInfo& state_before(int back) const { return states_[states_.size() - 1 - back]; }

  // Rules that end the game.
  // Looks for the current position earlier in the history: when it has occurred
  // `occurrences - 1` times before, returns how the repetition ends (kDraw, or kWin/kLoss
  // for perpetual check); else kNone. Game rules use 4; search uses 2.
  Repetition repetition(int occurrences) const;
  // The entering-king declaration (入玉宣言) as floodgate checks it (28 points for Black,
  // 27 for White; king in the enemy camp, not in check, 10 other pieces there).
  bool can_declare_win() const;

  // Debug: every incremental structure agrees with a recomputation.
  bool is_consistent() const;

 private:
  const StateInfo& st() const { return states_.back(); }
  StateInfo& st() { return states_.back(); }
  void put_piece(Square s, Piece p);
  void remove_piece(Square s);
  void update_check_info();
  void compute_blockers(Color c, StateInfo& si) const;
  void recompute_keys(StateInfo& si) const;

  std::array<Piece, kSquareNb> board_{};
  Bitboard by_color_[kColorNb];
  Bitboard by_type_[kPieceTypeNb];
  Bitboard occupied_;
  Hand hands_[kColorNb];
  Square king_square_[kColorNb] = {kSquareNone, kSquareNone};
  Color side_to_move_ = kBlack;
  int game_ply_ = 1;
  std::vector<StateInfo> states_;
};

namespace zobrist {
extern uint64_t psq[kPieceNb][kSquareNb];
extern uint64_t hand[kColorNb][kPieceTypeNb];
constexpr uint64_t kSide = 1;  // the board key's bit 0 says White to move
}  // namespace zobrist

}  // namespace shogi
