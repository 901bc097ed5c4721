// Mate line extraction from the table and its verification by replay.
#include "engine/mate/mate_line.h"

#include <string>
#include <unordered_set>

#include "engine/mate/mate_moves.h"
#include "engine/names.h"
#include "shogi/notation.h"

namespace engine::mate {
namespace {

std::string at(int ply, Move m) {
  return "ply " + std::to_string(ply + 1) + " (" + format_usi_move(m) + ")";
}

}  // namespace

Status extract_mate_line(const Position& start, Color attacker, const MateTable& table,
                         int max_plies, std::vector<Move>& line, const ReproveFn& reprove) {
  line.clear();
  Position pos = start;
  // The table's proof of the attacker-to-move pos within `plies`, searched again if lost.
  auto proof_within = [&](int plies) {
    MateLookup l = table.lookup(pos.board_key(), pos.hand(attacker));
    const bool ok = l.found && l.pn == 0 && l.mate_len <= plies;
    if (!ok && reprove && plies > 0 && reprove(pos, plies))
      l = table.lookup(pos.board_key(), pos.hand(attacker));
    if (!(l.found && l.pn == 0 && l.mate_len <= plies)) l.found = false;
    return l;
  };
  for (int ply = 0;; ++ply) {
    if (ply > max_plies)
      return Status::error("mate line: longer than " + std::to_string(max_plies) + " plies");
    const int left = max_plies - ply;
    Move next = kMoveNone;
    if (pos.side_to_move() == attacker) {
      const MateLookup l = proof_within(left);
      if (!l.found)
        return Status::error("mate line: ply " + std::to_string(ply + 1) +
                             ": position not proven in the table within " + std::to_string(left) +
                             " plies (sfen " + pos.sfen() + ")");
      next = pos.complete_move(l.move);
      if (!pos.is_pseudo_legal(next) || !pos.is_legal(next))
        return Status::error("mate line: " + at(ply, l.move) + ": stored move is illegal");
    } else {
      MoveList evasions;
      generate_evasions(pos, evasions);
      if (evasions.empty()) return Status::ok();  // mated
      int longest = -1;
      for (Move e : evasions) {
        pos.do_move(e);
        const MateLookup l = proof_within(left - 1);
        pos.undo_move();
        if (!l.found && reprove)
          return Status::error("mate line: ply " + std::to_string(ply + 1) + ": the escape " +
                               format_usi_move(e) + " is not re-proven within " +
                               std::to_string(left - 1) + " plies");
        if (l.found && l.mate_len > longest) {
          longest = l.mate_len;
          next = e;
        }
      }
      if (next == kMoveNone)
        return Status::error("mate line: ply " + std::to_string(ply + 1) +
                             ": no escape proven in the table");
    }
    line.push_back(next);
    pos.do_move(next);
  }
}

Status verify_mate_line(const Position& start, Color attacker, const std::vector<Move>& line,
                        const ProvenFn& proven) {
  Position pos = start;
  std::unordered_set<uint64_t> seen{pos.key()};
  const size_t parity = pos.side_to_move() == attacker ? 1 : 0;
  if (line.size() % 2 != parity || (parity == 1 && line.empty()))
    return Status::error("mate line: " + std::to_string(line.size()) +
                         " plies; wrong parity for a mate line");
  for (size_t i = 0; i < line.size(); ++i) {
    const int ply = int(i);
    const Move m = pos.complete_move(line[i]);
    if (!pos.is_pseudo_legal(m) || !pos.is_legal(m))
      return Status::error("mate line: " + at(ply, m) + ": illegal move");
    if (pos.side_to_move() == attacker) {
      if (!pos.gives_check(m)) return Status::error("mate line: " + at(ply, m) + ": no check");
    } else if (proven) {
      MoveList evasions;
      generate_evasions(pos, evasions);
      for (Move e : evasions) {
        if (e == m) continue;
        pos.do_move(e);
        const bool ok = proven(pos);
        pos.undo_move();
        if (!ok)
          return Status::error("mate line: " + at(ply, m) + ": the escape " + format_usi_move(e) +
                               " is not proven mate");
      }
    }
    pos.do_move(m);
    if (!seen.insert(pos.key()).second)
      return Status::error("mate line: " + at(ply, m) + ": position repeats");
  }
  if (!is_checkmated(pos)) return Status::error("mate line: the final position is not mate");
  const Move last = line.empty() ? kMoveNone : line.back();
  if (last.is_ok() && last.is_drop() && last.dropped_type() == kPawn)
    return Status::error("mate line: ends with a pawn-drop mate (illegal)");
  return Status::ok();
}

}  // namespace engine::mate
