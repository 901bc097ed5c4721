// Mate-search move generation: movegen's pseudo-legal checks and evasions, filtered legal.
#include "engine/mate/mate_moves.h"

#include "engine/names.h"

namespace engine::mate {
namespace {

void append_legal(const Position& pos, const MoveList& pseudo, MoveList& list) {
  for (Move m : pseudo)
    if (pos.is_legal(m)) list.push(m);
}

}  // namespace

void generate_checks(const Position& pos, MoveList& list) {
  MoveList pseudo;
  generate(pos, GenType::kChecks, pseudo);
  append_legal(pos, pseudo, list);
}

void generate_evasions(const Position& pos, MoveList& list) {
  MoveList pseudo;
  generate(pos, GenType::kEvasions, pseudo);
  append_legal(pos, pseudo, list);
}

bool is_checkmated(const Position& pos) {
  if (!pos.in_check()) return false;
  MoveList pseudo;
  generate(pos, GenType::kEvasions, pseudo);
  for (Move m : pseudo)
    if (pos.is_legal(m)) return false;
  return true;
}

}  // namespace engine::mate
