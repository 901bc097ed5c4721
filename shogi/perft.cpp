// perft: leaf counting over legal moves, with bulk counting at the last ply.
#include "shogi/perft.h"

#include "shogi/movegen.h"

namespace shogi {

uint64_t perft(Position& pos, int depth) {
  if (depth == 0) return 1;
  MoveList list;
  generate(pos, GenType::kLegal, list);
  if (depth == 1) return uint64_t(list.size());
  uint64_t nodes = 0;
  for (Move m : list) {
    pos.do_move(m, pos.gives_check(m));
#ifndef NDEBUG
    if (!pos.is_consistent()) __builtin_trap();
#endif
    nodes += perft(pos, depth - 1);
    pos.undo_move();
#ifndef NDEBUG
    if (!pos.is_consistent()) __builtin_trap();
#endif
  }
  return nodes;
}

std::vector<std::pair<Move, uint64_t>> perft_divide(Position& pos, int depth) {
  std::vector<std::pair<Move, uint64_t>> result;
  if (depth < 1) return result;
  MoveList list;
  generate(pos, GenType::kLegal, list);
  for (Move m : list) {
    pos.do_move(m);
    result.emplace_back(m, perft(pos, depth - 1));
    pos.undo_move();
  }
  return result;
}

}  // namespace shogi
