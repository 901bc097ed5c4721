// The search tree of `sashite book think`: expansion through a search callback and minimax.
#include "tools/book/book_think_tree.h"

#include <algorithm>
#include <cmath>

#include "shogi/notation.h"

namespace tools {

using base::Status;
using shogi::Move;
using shogi::Position;

int score_to_think_value(const usi::SearchScore& score) {
  if (!score.is_mate) return std::clamp(score.cp, -kThinkMaxCp, kThinkMaxCp);
  const int plies = score.mate_plies >= 0
                        ? std::min(score.mate_plies, kThinkMateValue - kThinkMaxCp - 1)
                        : kThinkUnknownMatePlies;
  const int value = kThinkMateValue - plies;
  return score.mating ? value : -value;
}

ThinkValue combine_answers(const std::vector<ThinkAnswer>& answers, const ThinkValuation& how) {
  ThinkValue result;
  int64_t sum = 0;
  int count = 0, lowest = 0, min_depth = 0, mates = 0, lowest_mate = 0;
  for (const ThinkAnswer& a : answers) {
    if (!a.value) continue;
    if (count == 0 || *a.value < lowest) lowest = *a.value;
    if (count == 0 || a.depth < min_depth) min_depth = a.depth;
    if (is_think_mate(*a.value) && (mates++ == 0 || *a.value < lowest_mate)) lowest_mate = *a.value;
    sum += *a.value;
    ++count;
  }
  if (count == 0) return result;
  if (how.combine == LeafCombine::kMin)
    result.value = lowest;
  else if (mates > 0)
    result.value = lowest_mate;  // a mate is a proof, not an estimate to average
  else
    result.value = int(std::lround(double(sum) / count));
  result.depth = how.search_depth > 0 ? how.search_depth : min_depth;
  return result;
}

ThinkValue evaluate_think_node(const ThinkNode& node, const ThinkValuation& how) {
  ThinkValue best;
  for (const ThinkNode::Child& child : node.children) {
    const ThinkValue v = evaluate_think_node(*child.node, how);
    if (!v.value) continue;
    const int value = -*v.value;
    // Ties keep the first child (engine order), so the result does not depend on anything
    // but the answers.
    if (!best.value || value > *best.value) {
      best.value = value;
      best.depth = v.depth + 1;
    }
  }
  if (best.value) return best;
  return combine_answers(node.answers, how);
}

std::vector<ScoredThinkMove> score_root_moves(const ThinkNode& root, const ThinkValuation& how) {
  std::vector<ScoredThinkMove> moves;
  for (const ThinkNode::Child& child : root.children) {
    if (child.node->answers.empty()) {  // not searched (tree depth 1): its engines' own scores
      std::vector<ThinkAnswer> named;
      for (const ThinkAnswer& a : root.answers)
        if (a.best_move == shogi::format_usi_move(child.move)) named.push_back(a);
      const ThinkValue v = combine_answers(named, how);
      if (v.value) moves.push_back({child.move, *v.value, v.depth});
      continue;
    }
    const ThinkValue v = evaluate_think_node(*child.node, how);
    if (!v.value) continue;
    moves.push_back({child.move, -*v.value, v.depth + 1});
  }
  return moves;
}

namespace {

// Adds the distinct legal best moves of `node`'s answers as its children, not searched.
Status add_best_moves(const Position& pos, int engine_count, ThinkNode& node) {
  for (int e = 0; e < engine_count; ++e) {
    const std::string& word = node.answers[size_t(e)].best_move;
    if (word == "resign" || word == "win" || word.empty()) continue;
    Move m;
    if (Status s = shogi::parse_usi_move(pos, word, m); !s)
      return Status::error("engine " + std::to_string(e) + " played '" + word + "' in " +
                           pos.sfen() + ": " + s.message());
    const bool seen = std::any_of(node.children.begin(), node.children.end(),
                                  [&](const ThinkNode::Child& c) { return c.move == m; });
    if (seen) continue;
    node.children.push_back({m, std::make_unique<ThinkNode>()});
  }
  return Status::ok();
}

Status expand(Position& pos, int engine_count, int levels_left, const ThinkSearch& search,
              std::vector<Move>& path, ThinkNode& node) {
  node.answers.assign(size_t(engine_count), ThinkAnswer());
  for (int e = 0; e < engine_count; ++e)
    if (Status s = search(e, path, node.answers[size_t(e)]); !s) return s;
  if (levels_left <= 1) return Status::ok();
  if (Status s = add_best_moves(pos, engine_count, node); !s) return s;
  for (ThinkNode::Child& child : node.children) {
    pos.do_move(child.move);
    path.push_back(child.move);
    Status s = expand(pos, engine_count, levels_left - 1, search, path, *child.node);
    path.pop_back();
    pos.undo_move();
    if (!s) return s;
  }
  return Status::ok();
}

}  // namespace

Status expand_think_tree(const Position& root, int engine_count, int tree_depth,
                         const ThinkSearch& search, ThinkNode& out) {
  Position pos = root;
  std::vector<Move> path;
  out = ThinkNode();
  if (Status s = expand(pos, engine_count, tree_depth, search, path, out); !s) return s;
  // One level: the root's moves are still the engines' best moves, children not searched
  // (score_root_moves values them by the scores of the engines that named them).
  return tree_depth == 1 ? add_best_moves(pos, engine_count, out) : Status::ok();
}

}  // namespace tools
