// The 129 mate-prediction features: king zones, control, hands, check potential (see header).
#include "engine/mate/mate_features.h"

#include <cstdlib>
#include <string>

#include "engine/names.h"
#include "shogi/attacks.h"
#include "shogi/bitboard.h"

namespace engine::mate {

namespace {

enum Zone { kAround = 0, kFront = 1, kBack = 2, kZoneNb = 3 };

// Per king colour and square: the three zones and how many of their squares fall off the
// board; the 5x5 box around a square (centre excluded); the promotion zones.
struct ZoneTables {
  Bitboard zone[kColorNb][kSquareNb][kZoneNb];
  int edge[kColorNb][kSquareNb][kZoneNb];
  Bitboard box5[kSquareNb];
  Bitboard promotion_zone[kColorNb];
  Bitboard files[9];
  Bitboard near[kSquareNb + 1];  // files +-3, ranks +-4: where a step piece can matter

  ZoneTables() {
    init_attacks();
    for (int f = 0; f < 9; ++f) files[f] = file_bb(f);
    for (Square s = 0; s < kSquareNb; ++s)
      for (Square t = 0; t < kSquareNb; ++t)
        if (std::abs(file_of(s) - file_of(t)) <= 3 && std::abs(rank_of(s) - rank_of(t)) <= 4)
          near[s].set(t);
    near[kSquareNone] = Bitboard();
    for (int c = 0; c < kColorNb; ++c) {
      promotion_zone[c] = far_ranks_bb(Color(c), 3);
      const int forward = c == kBlack ? -1 : 1;  // rank-index step toward the enemy camp
      for (Square s = 0; s < kSquareNb; ++s) {
        for (int z = 0; z < kZoneNb; ++z) edge[c][s][z] = 0;
        for (int df = -2; df <= 2; ++df) {
          for (int dr = -2; dr <= 2; ++dr) {
            if (df == 0 && dr == 0) continue;
            const int ahead = dr * forward;  // > 0: ahead of the king
            const bool around = std::abs(df) <= 1 && std::abs(dr) <= 1;
            const bool front = ahead > 0 || (ahead == 0 && std::abs(df) == 2);
            const bool back = ahead < 0;
            const int f = file_of(s) + df, r = rank_of(s) + dr;
            const bool on = is_on_board(f, r);
            auto put = [&](Zone z) {
              if (on)
                zone[c][s][z].set(make_square(f, r));
              else
                ++edge[c][s][z];
            };
            if (around) put(kAround);
            if (front) put(kFront);
            if (back) put(kBack);
            if (c == kBlack && on) box5[s].set(make_square(f, r));
          }
        }
      }
    }
  }
};

const ZoneTables& zone_tables() {
  static const ZoneTables tables;
  return tables;
}

// Per-square attack counts of one side as three bit planes (count = b0 + 2 b1 + 4 b2);
// counts of 8 or more read as 4..7 (they never matter near a king).
struct AttackCounter {
  Bitboard b0, b1, b2;
  void add(Bitboard a) {
    const Bitboard c0 = b0 & a;
    b0 ^= a;
    const Bitboard c1 = b1 & c0;
    b1 ^= c0;
    b2 |= c1;
  }
  Bitboard at_least_one() const { return b0 | b1 | b2; }
  Bitboard at_least_two() const { return b1 | b2; }
  int sum(Bitboard z) const {
    return (b0 & z).count() + 2 * (b1 & z).count() + 4 * (b2 & z).count();
  }
};

// Squares where a's count exceeds b's.
[[gnu::always_inline]] inline Bitboard greater(const AttackCounter& a, const AttackCounter& b) {
  const Bitboard eq2 = ~(a.b2 ^ b.b2);
  const Bitboard eq1 = ~(a.b1 ^ b.b1);
  return a.b2.and_not(b.b2) | (eq2 & (a.b1.and_not(b.b1) | (eq1 & a.b0.and_not(b.b0))));
}

// What one side's pieces do: control, and checks on the enemy king.
struct SideScan {
  AttackCounter count;
  int checking_pieces = 0;
  int checking_moves = 0;
  Bitboard check_destinations;
};

// chk[t]: squares from which a piece of kind t of colour c would attack `target` (the enemy
// king), given `occupied`. Gold-movers share the gold entry.
[[gnu::always_inline]] inline void check_squares(Color c, Square target, Bitboard occupied,
                                                 Bitboard* chk) {
  const Color e = ~c;
  for (int t = kPawn; t <= kDragon; ++t) chk[t] = Bitboard();
  if (target == kSquareNone) return;
  chk[kPawn] = step_attacks(e, kPawn, target);
  chk[kLance] = lance_attacks(e, target, occupied);
  chk[kKnight] = step_attacks(e, kKnight, target);
  chk[kSilver] = step_attacks(e, kSilver, target);
  chk[kGold] = step_attacks(e, kGold, target);
  chk[kBishop] = bishop_attacks(target, occupied);
  chk[kRook] = rook_attacks(target, occupied);
  chk[kHorse] = chk[kBishop] | step_attacks(kBlack, kKing, target);
  chk[kDragon] = chk[kRook] | step_attacks(kBlack, kKing, target);
  chk[kProPawn] = chk[kProLance] = chk[kProKnight] = chk[kProSilver] = chk[kGold];
}

// Scans c's pieces once: adds their attacks to the counter (sliders see through the enemy
// king) and collects the board moves that would check the enemy king (pseudo-legal).
[[gnu::always_inline]] inline void scan_side(const Position& pos, Color c, const Bitboard* chk,
                                             SideScan& out) {
  const ZoneTables& zt = zone_tables();
  const Color e = ~c;
  const Square enemy_king = pos.king_square(e);
  const Bitboard occupied = pos.pieces();
  const Bitboard xray_occupied =
      enemy_king == kSquareNone ? occupied : occupied ^ square_bb(enemy_king);
  const Bitboard own = pos.pieces(c);
  const Bitboard discoverers =
      enemy_king == kSquareNone ? Bitboard() : pos.blockers_for_king(e) & own;
  const Bitboard promotion_zone = zt.promotion_zone[c];

  // Pawns that do not uncover a check, all at once (at most one per file: no overlaps).
  const Bitboard pawns = pos.pieces(c, kPawn);
  const Bitboard bulk_pawns = pawns.and_not(discoverers);
  const Bitboard pawn_attacks = c == kBlack ? Bitboard(bulk_pawns.lo >> 1, bulk_pawns.hi >> 1)
                                            : Bitboard((bulk_pawns.lo << 1) & Bitboard::kLoMask,
                                                       (bulk_pawns.hi << 1) & Bitboard::kHiMask);
  out.count.add(pawn_attacks);
  if (enemy_king != kSquareNone) {
    const Bitboard targets =
        pawn_attacks.and_not(own) & (chk[kPawn] | (promotion_zone & chk[kGold]));
    const int n = targets.count();
    out.checking_pieces += n;
    out.checking_moves += n;
    out.check_destinations |= targets;
  }

  // A step piece matters only near a king: its attacks reach the king zones (the counts are
  // read only there) or it can check. Sliders and discoverers always matter.
  const Bitboard sliders =
      pos.pieces(kLance) | pos.pieces(kBishop, kRook) | pos.pieces(kHorse, kDragon);
  const Bitboard near_kings = zt.near[pos.king_square(c)] | zt.near[enemy_king];
  Bitboard rest = (own.and_not(bulk_pawns) & (sliders | near_kings)) | discoverers;
  while (rest.any()) {
    const Square s = rest.pop();
    const PieceType t = type_of(pos.piece_on(s));
    const Bitboard attacks = piece_attacks(c, t, s, xray_occupied);
    out.count.add(attacks);
    if (enemy_king == kSquareNone || t == kKing) continue;
    const Bitboard moves = attacks.and_not(own);
    Bitboard targets = moves & chk[t];
    if (can_promote(t)) {
      const Bitboard promoting = promotion_zone.test(s) ? moves : moves & promotion_zone;
      targets |= promoting & chk[promote(t)];
    }
    if (discoverers.test(s)) targets |= moves.and_not(line_bb(s, enemy_king));
    if (targets.any()) {
      ++out.checking_pieces;
      out.checking_moves += targets.count();
      out.check_destinations |= targets;
    }
  }
}

[[gnu::always_inline]] inline void king_features(const Position& pos, Color c,
                                                 const SideScan* scans, float* block) {
  const ZoneTables& zt = zone_tables();
  const Color e = ~c;
  const Square k = pos.king_square(c);
  namespace f = feature;
  if (k == kSquareNone) {
    for (int i = f::kKingFile; i < f::kHandTotal; ++i) block[i] = 0;
    block[f::kXrayThreats] = 0;
    return;
  }
  block[f::kKingFile] = float(c == kBlack ? 9 - file_of(k) : file_of(k) + 1);
  block[f::kKingRank] = float(c == kBlack ? 9 - rank_of(k) : rank_of(k) + 1);
  const AttackCounter& own_count = scans[c].count;
  const AttackCounter& enemy_count = scans[e].count;
  const Bitboard enemy_wins = greater(enemy_count, own_count);
  const Bitboard own_wins = greater(own_count, enemy_count);
  const Bitboard enemy_attacked = enemy_count.at_least_one();
  const Bitboard occupied = pos.pieces();
  const Bitboard own = pos.pieces(c);
  const Bitboard enemy = pos.pieces(e);
  const Bitboard pinned = pos.pinned(c);
  for (int z = 0; z < kZoneNb; ++z) {
    const Bitboard zone = zt.zone[c][k][z];
    float* v = block + f::kZoneAround + 8 * z;
    v[f::kZoneEdge] = float(zt.edge[c][k][z]);
    v[f::kZoneOccupied] = float((occupied & zone).count());
    v[f::kZoneEnemyControl] = float((enemy_wins & zone).count());
    v[f::kZoneOwnControl] = float((own_wins & zone).count());
    v[f::kZoneEscape] = float(zone.and_not(own | enemy_attacked).count());
    v[f::kZoneDefenders] = float((own & zone).count());
    v[f::kZoneAttackers] = float((enemy & zone).count());
    v[f::kZonePinned] = float((pinned & zone).count());
    block[f::kEnemyAttackSum + z] = float(enemy_count.sum(zone));
    block[f::kOwnAttackSum + z] = float(own_count.sum(zone));
  }
  const Bitboard empty;
  const Bitboard xray = (pos.pieces(e, kRook, kDragon) & rook_attacks(k, empty)) |
                        (pos.pieces(e, kBishop, kHorse) & bishop_attacks(k, empty)) |
                        (pos.pieces(e, kLance) & lance_attacks(c, k, empty));
  block[f::kXrayThreats] = float(xray.count());
}

[[gnu::always_inline]] inline void side_features(const Position& pos, Color c,
                                                 const SideScan* scans, const Bitboard* chk,
                                                 float* block) {
  namespace f = feature;
  const ZoneTables& zt = zone_tables();
  const Color e = ~c;
  const Hand hand = pos.hand(c);
  block[f::kHandTotal] = float(hand.total());
  static constexpr PieceType kHandKinds[7] = {kPawn, kLance,  kKnight, kSilver,
                                              kGold, kBishop, kRook};
  for (int i = 0; i < 7; ++i) block[f::kHandPawn + i] = float(hand.count(kHandKinds[i]));

  block[f::kCheckingPieces] = float(scans[c].checking_pieces);
  block[f::kCheckingMoves] = float(scans[c].checking_moves);
  block[f::kCheckers] = pos.side_to_move() == c ? float(pos.checkers().count()) : 0.0f;
  block[f::kBoardPawns + 0] = float(pos.pieces(c, kPawn).count());
  block[f::kBoardPawns + 1] = float(pos.pieces(c, kLance).count());
  block[f::kBoardPawns + 2] = float(pos.pieces(c, kKnight).count());
  block[f::kBoardPawns + 3] = float(pos.pieces(c, kSilver).count());
  block[f::kBoardPawns + 4] = float(pos.golds(c).count());
  block[f::kBoardPawns + 5] = float(pos.pieces(c, kBishop, kHorse).count());
  block[f::kBoardPawns + 6] = float(pos.pieces(c, kRook, kDragon).count());
  block[f::kBoardPawns + 7] = float(pos.pieces(c, kHorse, kDragon).count());

  const Square enemy_king = pos.king_square(e);
  if (enemy_king == kSquareNone) {
    for (int i = f::kDropCheckSquares; i <= f::kDropCheckPawn + 6; ++i) block[i] = 0;
    for (int i = f::kContactDropChecks; i <= f::kSupportedMoveChecks; ++i) block[i] = 0;
    return;
  }
  const Bitboard empty_squares = ~pos.pieces();
  Bitboard drops;
  for (int i = 0; i < 7; ++i) {
    const PieceType t = kHandKinds[i];
    Bitboard squares;
    if (hand.has(t)) {
      squares = chk[t] & empty_squares;
      if (t == kPawn && squares.any() &&
          (pos.pieces(c, kPawn) & zt.files[file_of(squares.lsb())]).any())
        squares = Bitboard();
    }
    block[f::kDropCheckPawn + i] = float(squares.count());
    drops |= squares;
  }
  block[f::kDropCheckSquares] = float(drops.count());

  // Enemy defence of a square by a piece other than its king.
  const Bitboard king_reach = step_attacks(e, kKing, enemy_king);
  const AttackCounter& defence = scans[e].count;
  const Bitboard defended =
      defence.at_least_one().and_not(king_reach) | (defence.at_least_two() & king_reach);
  const Bitboard near = zt.box5[enemy_king];
  const Bitboard supported = scans[c].count.at_least_one();
  block[f::kContactDropChecks] = float((drops & king_reach & supported).and_not(defended).count());
  block[f::kNearDropChecks] = float((drops & near).and_not(defended).count());
  const Bitboard near_moves = (scans[c].check_destinations & near).and_not(defended);
  block[f::kNearMoveChecks] = float(near_moves.count());
  block[f::kSupportedMoveChecks] =
      float((near_moves & king_reach & scans[c].count.at_least_two()).count());
}

}  // namespace

// Built twice, with and without the POPCNT instruction (the default x86-64 target lacks it
// and counts bits in a libgcc call); the loader picks the one the CPU runs. The helpers
// above are forced inline so that they are compiled into both. Not under ThreadSanitizer: the
// loader runs the chooser before the sanitizer's runtime is up, and its instrumented code
// crashes there.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__)
__attribute__((target_clones("popcnt", "default")))
#endif
void compute_mate_features(const Position& pos, MateFeatures& out) {
  const Color attacker = pos.side_to_move();
  const Color defender = ~attacker;
  Bitboard chk[kColorNb][kPieceTypeNb];
  check_squares(kBlack, pos.king_square(kWhite), pos.pieces(), chk[kBlack]);
  check_squares(kWhite, pos.king_square(kBlack), pos.pieces(), chk[kWhite]);
  SideScan scans[kColorNb];
  scan_side(pos, kBlack, chk[kBlack], scans[kBlack]);
  scan_side(pos, kWhite, chk[kWhite], scans[kWhite]);

  float* a = out.data() + kAttackerBlock;
  float* d = out.data() + kDefenderBlock;
  king_features(pos, attacker, scans, a);
  king_features(pos, defender, scans, d);
  side_features(pos, attacker, scans, chk[attacker], a);
  side_features(pos, defender, scans, chk[defender], d);

  const Square ka = pos.king_square(attacker), kd = pos.king_square(defender);
  out[feature::kKingDistance] =
      ka == kSquareNone || kd == kSquareNone
          ? 0.0f
          : float(std::abs(file_of(ka) - file_of(kd)) + std::abs(rank_of(ka) - rank_of(kd)));
}

const char* mate_feature_name(int i) {
  static const auto names = [] {
    std::array<std::string, kMateFeatureCount> n;
    n[0] = "king_distance";
    const char* zones[3] = {"around", "front", "back"};
    const char* zone_values[8] = {"edge",   "occupied",  "enemy_control", "own_control",
                                  "escape", "defenders", "attackers",     "pinned"};
    const char* kinds[7] = {"pawn", "lance", "knight", "silver", "gold", "bishop", "rook"};
    const char* board[8] = {"pawn",      "lance",        "knight",      "silver",
                            "gold_like", "bishop_horse", "rook_dragon", "promoted_major"};
    for (int side = 0; side < 2; ++side) {
      const std::string p = side == 0 ? "A." : "D.";
      std::string* b = n.data() + (side == 0 ? kAttackerBlock : kDefenderBlock);
      b[0] = p + "king.file";
      b[1] = p + "king.rank";
      for (int z = 0; z < 3; ++z) {
        for (int v = 0; v < 8; ++v) b[2 + 8 * z + v] = p + zones[z] + "." + zone_values[v];
        b[26 + z] = p + zones[z] + ".enemy_attack_sum";
        b[29 + z] = p + zones[z] + ".own_attack_sum";
      }
      b[32] = p + "hand.total";
      for (int k = 0; k < 7; ++k) b[33 + k] = p + "hand." + kinds[k];
      b[40] = p + "check.pieces";
      b[41] = p + "check.moves";
      b[42] = p + "check.drop_squares";
      for (int k = 0; k < 7; ++k) b[43 + k] = p + "check.drop." + kinds[k];
      b[50] = p + "checkers";
      for (int k = 0; k < 8; ++k) b[51 + k] = p + "board." + board[k];
      b[59] = p + "check.contact_drops";
      b[60] = p + "check.near_drops";
      b[61] = p + "check.near_moves";
      b[62] = p + "check.supported_moves";
      b[63] = p + "xray_threats";
    }
    return n;
  }();
  return names[i].c_str();
}

}  // namespace engine::mate
