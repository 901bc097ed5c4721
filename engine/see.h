// Static exchange evaluation: the material outcome of the captures on one square.
#pragma once

#include "engine/names.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace engine {

// Exchange values of the piece kinds (centipawns), for SEE and capture ordering only.
Value exchange_value(PieceType t);
// What capturing a piece of kind t gains: it leaves the board and joins the hand.
inline Value capture_gain(PieceType t) {
  return t == kNoPieceType ? 0 : exchange_value(t) + exchange_value(unpromote(t));
}

// True when the exchange started by m, both sides recapturing with their least valuable
// piece and stopping when it pays, wins at least `threshold`. Pins are ignored.
// REQUIRES: m is pseudo-legal.
bool see_ge(const Position& pos, Move m, Value threshold);

}  // namespace engine
