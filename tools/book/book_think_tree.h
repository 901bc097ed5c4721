// The multi-program search tree of `sashite book think` (docs/techniques.md §2): which positions
// the engines search, and the minimax that turns their scores into book move values.
//
// The method, for a root position P and a tree depth T (levels 0 .. T-1):
//   - every engine searches P (level 0) and names a best move; the distinct legal best moves
//     (in the order the engines named them) are the children of P;
//   - every engine searches each child; a node at level T-1 is a leaf, else its children are
//     again the distinct best moves of the engines there; and so on.
// Values, always from the side to move's point of view at the node:
//   - a leaf (level T-1, or a node where no engine names a move: all resign or declare) takes
//     the engines' scores combined by LeafCombine: kMean (default), the mean of the engines
//     that gave a score, rounded to the nearest integer, except that when any engine reports
//     a mate the lowest of the mate values is taken (a mate is a proof: averaging it with
//     centipawns gives a value that is neither); or kMin, the lowest score of all (the side
//     to move trusts the most pessimistic program);
//   - an inner node takes the best child: max over its children of -value(child). A child
//     with no value (no engine gave a score anywhere below it) is left out; when every child
//     is, the node falls back to its own engines' scores, as a leaf.
//   - each root move gets -value(P after the move): these are the book move values. With
//     T = 1 the children of P are not searched: each gets the scores of the engines that
//     named it at P, combined as at a leaf (their own values of P, so not negated).
// Depths: a leaf's depth is the search depth (--depth D; with --movetime the lowest depth the
// scoring engines reported), an inner node's the depth of the child its value comes from plus
// one. With --depth D and a full tree a root move gets D + T - 1: the plies from P the value
// looks ahead, as if P itself had been searched to that depth (the book convention: a search
// of P to depth d scores P's moves with d - 1 plies after them).
// Mates become values of +-(kThinkMateValue - plies) (see score_to_think_value).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "shogi/position.h"
#include "shogi/types.h"
#include "tools/match/match_search_info.h"

namespace tools {

// The value of a mate at the root (0 plies); a mate in n plies is kThinkMateValue - n.
constexpr int kThinkMateValue = 32000;
// Centipawn scores are clamped to +-kThinkMaxCp, below every mate value.
constexpr int kThinkMaxCp = 30000;
// A mate the engine gave no distance for ("mate +") counts as this many plies.
constexpr int kThinkUnknownMatePlies = 100;

// A USI score as a think value (the same point of view).
int score_to_think_value(const usi::SearchScore& score);

// Whether a think value is a mate value (for either side) rather than centipawns.
constexpr bool is_think_mate(int value) { return value > kThinkMaxCp || value < -kThinkMaxCp; }

// How the engines' scores at a leaf combine into one value.
enum class LeafCombine { kMean, kMin };

// One engine's answer at one node.
struct ThinkAnswer {
  std::string best_move;     // the word after "bestmove": "7g7f", "resign", "win"
  std::optional<int> value;  // side to move's view (score_to_think_value); none: no score
  int depth = 0;             // the depth the engine reported with its score (0: none)
};

// One searched position of the tree.
struct ThinkNode {
  std::vector<ThinkAnswer> answers;  // one per engine, in engine order
  struct Child {
    shogi::Move move;
    std::unique_ptr<ThinkNode> node;
  };
  std::vector<Child> children;  // the distinct best moves, in the order first named
};

// A node's value and the depth it comes from; no value when no engine scored anything.
struct ThinkValue {
  std::optional<int> value;
  int depth = 0;
};

// How values and depths are computed (see the file comment).
struct ThinkValuation {
  LeafCombine combine = LeafCombine::kMean;  // Default: kMean.
  int search_depth = 0;  // the --depth of every search; 0 (--movetime): reported depths
};

// The combined value of the engines' answers at one node (as a leaf).
ThinkValue combine_answers(const std::vector<ThinkAnswer>& answers, const ThinkValuation& how);
// The minimax value of a node (see the file comment).
ThinkValue evaluate_think_node(const ThinkNode& node, const ThinkValuation& how);

// A root move with its value (side to move at the root) and depth.
struct ScoredThinkMove {
  shogi::Move move;
  int value = 0;
  int depth = 0;
};
// The root's children with a value, in child order (a child not searched, as with tree depth
// 1, valued by the root's answers that named it).
std::vector<ScoredThinkMove> score_root_moves(const ThinkNode& root, const ThinkValuation& how);

// Runs one search: engine `engine_index` searches the root position after `path` (moves
// from the root, each legal) and answers. An error aborts the tree (an engine fault).
using ThinkSearch = std::function<base::Status(
    int engine_index, const std::vector<shogi::Move>& path, ThinkAnswer& answer)>;

// Builds the tree of `root` to `tree_depth` levels with `engine_count` engines, calling
// `search` for every (node, engine) pair, depth first, children in order; with tree_depth 1
// the root still gets its children, not searched (empty answers). A best move that is
// not a legal move here ("resign", "win", or an illegal one) adds no child; an illegal one is
// an error naming the engine, the position and the move.
// REQUIRES: tree_depth >= 1, engine_count >= 1.
base::Status expand_think_tree(const shogi::Position& root, int engine_count, int tree_depth,
                               const ThinkSearch& search, ThinkNode& out);

}  // namespace tools
