// The 129 mate-prediction features of a position (docs/techniques.md §1), for the side to move as
// the attacker: what a linear SVM reads to guess "mate / no mate" before any mate search.
#pragma once

#include <array>
#include <cstdint>

#include "engine/names.h"
#include "shogi/position.h"

namespace engine::mate {

// The feature vector. Every value is a small non-negative count (or a position on the board),
// stored raw; the model (svm_model.h) carries weights that apply to the raw values.
constexpr int kMateFeatureCount = 129;
using MateFeatures = std::array<float, kMateFeatureCount>;

// Layout. Index 0 is shared; then one block of 64 for each side, the attacker's (the side to
// move) at kAttackerBlock and the defender's at kDefenderBlock. In the block of side c, "own"
// means c, "enemy" means ~c, "the king" is c's king, and the attack-potential features are
// c attacking the enemy king (so the defender's king safety and the attacker's checks are in
// different blocks, as in the document: every feature is taken for both sides).
//
//   0     Manhattan distance between the two kings (0 when a king is missing)
//
// Block offsets (add kAttackerBlock or kDefenderBlock):
//   0     king file, 1..9 counted from the king owner's left (file 9 for Black, file 1 for
//         White, so the value is mirror-free for both colours); 0 when c has no king
//   1     king rank, 1..9 counted from the owner's own back rank (1 = home rank); 0 = no king
//   2..9    zone "around": the 8 neighbours of the king
//   10..17  zone "front": the 14 squares ahead of the king within two files and two ranks
//           (the 10 squares one and two ranks ahead, plus the 4 on the king's rank two files
//           away); "ahead" is toward the enemy camp
//   18..25  zone "back": the 10 squares one and two ranks behind, within two files
//     each zone's 8 values, at zone offset +:
//     0 edge: zone squares off the board
//     1 occupied: zone squares holding a piece of either side
//     2 enemy-controlled: squares with more enemy attackers than own (the own king counts)
//     3 own-controlled: squares with more own attackers than enemy
//     4 escape / safe squares: squares not holding an own piece and not attacked by the
//       enemy (sliders seen through the king); for "around" these are the king's escapes
//     5 defending pieces: own pieces (king excluded) on the zone
//     6 attacking pieces: enemy pieces on the zone
//     7 pinned pieces: own pieces on the zone pinned to the king
//   26..31  enemy attack count summed over the zone squares (around, front, back), then the
//           own attack count summed likewise (around, front, back). Attack counts are per
//           square, sliders seeing through the opposing king; 8 or more reads as 4..7
//   32    pieces in hand, total
//   33..39  pieces in hand by kind: pawn, lance, knight, silver, gold, bishop, rook
//   40    board pieces of c that have a move giving check to the enemy king (discovered
//         checks included); pseudo-legal: pins ignored, king moves not counted
//   41    destination squares of those checking board moves, summed over the pieces (a
//         move checking with and without promotion counts once)
//   42    drop squares where some piece of c's hand gives check (the union over kinds;
//         the pawn-drop-mate rule is not applied)
//   43..49  drop squares giving check, by kind in hand: pawn (no nifu), lance, knight,
//           silver, gold, bishop, rook (0 when c does not hold the kind)
//   50    checks on c's king (the number of checkers; only the attacker can be in check)
//   51..58  c's board pieces: pawn, lance, knight, silver, gold and promoted minors, bishop
//           and horse, rook and dragon, promoted majors (horse and dragon)
//   59    checking drop squares next to the enemy king that another piece of c attacks and
//         no enemy piece but its king defends (contact drops the king cannot take)
//   60    checking drop squares within two squares of the enemy king that no enemy piece
//         but its king defends
//   61    checking board-move destinations within two squares of the enemy king that no
//         enemy piece but its king defends
//   62    of those (61), the ones next to the enemy king that another piece of c also
//         attacks (the capture by the king would be illegal)
//   63    enemy sliders (lance, bishop, rook, horse, dragon) on a line toward c's king
//         through any number of pieces (x-ray threats)
constexpr int kAttackerBlock = 1;
constexpr int kDefenderBlock = 65;
constexpr int kBlockSize = 64;

// Zone and block offsets named for callers (tests, analysis).
namespace feature {
constexpr int kKingDistance = 0;
constexpr int kKingFile = 0;
constexpr int kKingRank = 1;
constexpr int kZoneAround = 2;
constexpr int kZoneFront = 10;
constexpr int kZoneBack = 18;
constexpr int kZoneEdge = 0;
constexpr int kZoneOccupied = 1;
constexpr int kZoneEnemyControl = 2;
constexpr int kZoneOwnControl = 3;
constexpr int kZoneEscape = 4;
constexpr int kZoneDefenders = 5;
constexpr int kZoneAttackers = 6;
constexpr int kZonePinned = 7;
constexpr int kEnemyAttackSum = 26;
constexpr int kOwnAttackSum = 29;
constexpr int kHandTotal = 32;
constexpr int kHandPawn = 33;  // + (kind - kPawn): pawn, lance, knight, silver, then
constexpr int kHandGold = 37;  // gold, bishop, rook
constexpr int kHandBishop = 38;
constexpr int kHandRook = 39;
constexpr int kCheckingPieces = 40;
constexpr int kCheckingMoves = 41;
constexpr int kDropCheckSquares = 42;
constexpr int kDropCheckPawn = 43;  // same kind order as the hand
constexpr int kCheckers = 50;
constexpr int kBoardPawns = 51;
constexpr int kContactDropChecks = 59;
constexpr int kNearDropChecks = 60;
constexpr int kNearMoveChecks = 61;
constexpr int kSupportedMoveChecks = 62;
constexpr int kXrayThreats = 63;
}  // namespace feature

// Fills `out` with the features of `pos`, the side to move attacking. No allocation; about
// 0.4 microseconds. Works with a king missing (mate problems): that king's features are 0.
void compute_mate_features(const Position& pos, MateFeatures& out);

// A short name of feature i ("A.around.escape", "D.hand.rook", "king_distance"), for reports.
// REQUIRES: 0 <= i < kMateFeatureCount.
const char* mate_feature_name(int i);

}  // namespace engine::mate
