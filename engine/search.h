// Search: iterative-deepening PVS alpha-beta over Lazy-SMP threads, with its manager.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <thread>
#include <vector>

#include "engine/book_advisor.h"
#include "engine/correction_history.h"
#include "engine/engine.h"
#include "engine/eval/incremental_evaluator.h"
#include "engine/eval_noise.h"
#include "engine/futility.h"
#include "engine/movepick.h"
#include "engine/names.h"
#include "engine/nnue/evaluator.h"
#include "engine/search_params.h"
#include "engine/timeman.h"
#include "engine/tt.h"
#include "shogi/position.h"

namespace engine {

namespace eval {
class Weights;
}

class SearchManager;
struct ReductionTable;

namespace mate {
class MateTable;
class MateNodeLimitControl;
class MateSolver;
struct MateResult;
struct SvmModel;
}  // namespace mate

// The mate solver called inside the search (docs/techniques.md §1): at every node that is not the
// root, not in check and at least min_depth deep, df-pn looks for a mate by checks with a
// small node limit; a proven mate ends the node. Application 1 of the mate prediction scales
// each call's limit by the sigmoid of the SVM's decision value, normalised by its running
// mean (engine/mate/svm_control.h), times a multiplier.
// The defaults here are a bare SearchManager's (no calls); the engine's options (MateSearch,
// MateControl, MateAfterCuts) turn on the steered calls.
struct MateCallSettings {
  bool enabled = false;  // Default: off here; the MateSearch option's default is on
  uint64_t nodes = 32;   // Default: 32 (the base node limit of one call)
  int min_depth = 3;     // Default: 3 (remaining depth of the node, in plies)
  // Default: off. Call only at nodes that futility, reverse futility and null-move pruning did
  // not cut: a mate proven where the node is cut anyway changes nothing but its bound.
  bool after_cuts = false;
  bool control = false;  // Default: off (application 1)
  // Default: off. Application 1's step control: no call where the model predicts no mate;
  // elsewhere the limit nodes * multiplier * 2p, p the mate probability (about 1 to 2 times
  // the base: Platt's sigmoid gives a predicted mate p near 1/2 or more).
  bool step = false;
  double multiplier = 1.0;  // Default: 1 (application 1's total effort relative to nodes)
  std::shared_ptr<const mate::SvmModel> model;  // application 1's model (null: no control)
  // Shown every position where a call is made, before it (the dataset of `svm data
  // --insearch-nodes`); called from the search threads. Empty: none.
  std::function<void(const Position&)> observe;
  static constexpr int kMaxPlies = 63;  // longest mate line a call looks for
};

// The root's mate guard: a root move that becomes the best so far (from root depth
// kMinDepth) is checked once per search for a mate by checks that it allows the opponent,
// df-pn with a node limit; a move found to allow one gets the mated value. A search alone
// misses the long mates by checks that a strong opponent's mate solver finds.
struct MateGuardSettings {
  uint64_t nodes = 20000;  // Default: 20,000 (the node limit of one check; 0 = off)
  static constexpr int kMinDepth = 4;
};

// How an opening book guides a search (the Book* options): bonuses for book moves that carry
// into the search values at the root and the first plies, or a book move played outright.
struct BookGuidance {
  enum class Choice { kGuide, kWeighted, kBest };
  std::shared_ptr<const BookAdvisor> advisor;  // null: no book
  BookRequest request;
  Choice choice = Choice::kGuide;
  Value bonus = 120;      // centipawns for the book's favourite move, the others pro rata
  int max_game_ply = 40;  // consult the book up to this game ply (the SFEN move number)
  int search_plies = 2;   // bonuses at the root (1) and at the replies too (2)
};

// The book's moves for an info string: "book move M, from ..." when suggestions[chosen] is
// played outright, "book guides the search: ..." when chosen is past the end; each move with
// its weight, games and stored value.
std::string describe_book_suggestions(const std::vector<BookSuggestion>& suggestions,
                                      size_t chosen);

// One book bonus for a move of a position met in the first plies of the search.
struct BookBonus {
  uint16_t move16;
  Value bonus;
};

// One search thread's state: its own copy of the position, move-ordering tables and
// principal variations; everything else is shared through the manager.
class Worker {
 public:
  Worker(SearchManager& manager, int id);
  void clear();  // new game: forget histories and killers
  void prepare(const Position& root, Move root_hint);
  void iterate();  // iterative deepening until the manager stops it

  uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
  int completed_depth() const { return completed_depth_; }
  Value best_value() const { return best_value_; }
  const std::vector<Move>& best_pv() const { return best_pv_; }
  int seldepth() const { return seldepth_; }

 private:
  enum NodeType { kNonPV, kPV, kRoot };
  template <NodeType NT>
  Value search(Value alpha, Value beta, int depth, int ply, bool cut_node);
  template <bool PvNode>
  Value qsearch(Value alpha, Value beta, int qdepth, int ply);
  // The static evaluation of pos_ for the side to move: the network's or the weights', plus
  // the manager's EvalNoise when it is on (kept inside the mate bounds).
  Value evaluate();
  // `raw` (the evaluation function's value here) plus the correction history's correction.
  Value corrected_eval(Value raw, Move previous) const;
  void update_pv(int ply, Move m);
  Value book_bonus(const std::vector<BookBonus>* bonuses, Move m) const;
  void update_quiet_stats(int ply, Move best, const Move* quiets, int quiet_count, int depth);
  // After a cut-off: rewards the best move's capture history (when it is tactical) and
  // punishes the other tactical moves tried before it.
  void update_capture_stats(Move best, const Move* captures, int capture_count, int depth);
  // The histories the move ordering of the node at `ply` reads.
  MoveHistories histories(int ply);
  // The continuation entry of the move made `back` plies before `ply` (the sentinel before
  // the root or after a null move).
  ContinuationEntry* continuation_before(int ply, int back);
  // Whether the static evaluation at `ply` beats the one of our previous node (2 plies up,
  // or 4 when that one was in check): the line improves our position, so prune less.
  bool improving(int ply, Value static_eval) const;
  // A stopped iteration at `depth` (depth 1 finished): its best root move so far becomes
  // the result, with its line reported, when one is known; see search.cpp.
  void keep_unfinished_iteration(int depth, Value beta, const std::vector<Move>& fail_high_pv,
                                 Value fail_high_value);
  void check_limits();
  bool stopped() const;
  // The in-search mate call (search_mate.cpp): mate_in(ply + line length) when the side to
  // move mates by checks within the call's node limit, else kValueNone.
  Value probe_mate(int ply, Move& first_move);
  // The mate guard (search_mate.cpp) for the root move just made: mated_in(1 + the mate's
  // length) when the opponent, now to move, mates by checks within the guard's node limit,
  // else kValueNone. Each root move is checked once per search (guarded_ keeps the answers).
  Value guard_root_move(Move m);
  // The guard's answer for m when it was checked in this search (kValueNone: no mate found),
  // or nullopt when it was not.
  std::optional<Value> guarded(Move m) const;
  // df-pn on pos_ (the side to move attacks) for probe_mate and guard_root_move, stopped
  // with the search; its nodes count as the search's.
  mate::MateResult solve_here(mate::MateTable& table, uint64_t node_limit);

  SearchManager& manager_;
  const int id_;
  Position pos_;
  eval::IncrementalEvaluator evaluator_;
  nnue::Evaluator nnue_evaluator_;  // used when the manager has a network
  ButterflyHistory history_;
  CaptureHistory capture_history_;
  ContinuationHistory continuation_;  // about 13 MB; the Worker lives on the heap
  CorrectionHistory correction_;
  ContinuationEntry* continuation_at_[kMaxPly + 4];  // the entry of the move made at each ply
  Value static_eval_[kMaxPly + 4];                   // kValueNone in check
  Move killers_[kMaxPly + 4][2];
  Move current_move_[kMaxPly + 4];
  Move excluded_[kMaxPly + 4];          // the singular-extension test's excluded move, per ply
  int double_extensions_[kMaxPly + 4];  // double extensions on the path to each ply
  Move pv_[kMaxPly + 4][kMaxPly + 4];
  int pv_length_[kMaxPly + 4];
  std::atomic<uint64_t> nodes_{0};
  // Counts a node. Only this thread writes nodes_, so a plain load and store suffice (no
  // locked add); other threads only read it.
  void count_node();
  int seldepth_ = 0;
  int completed_depth_ = 0;
  int root_depth_ = 0;
  Value best_value_ = -kValueInfinite;
  std::vector<Move> best_pv_;
  Value root_value_ = -kValueInfinite;  // the value of the root move pv_[0] holds
  Move root_hint_ = kMoveNone;
  std::vector<Move> root_moves_;  // legal root moves (no useless non-promotions)
  // MultiPV: the line being searched (0 the best) and the first moves of the lines already
  // searched in this iteration, which the root skips.
  int pv_index_ = 0;
  std::vector<Move> pv_taken_;
  int calls_ = 0;
  std::unique_ptr<mate::MateTable> mate_table_;  // kept between calls, cleared by clear()
  std::unique_ptr<mate::MateNodeLimitControl> mate_limit_;
  std::unique_ptr<mate::MateTable> guard_table_;   // the mate guard's, kept between searches
  std::unique_ptr<mate::MateSolver> mate_solver_;  // the calls' and the guard's memory
  std::vector<std::pair<Move, Value>> guarded_;    // this search's guarded root moves
  uint64_t mate_calls_ = 0, mate_nodes_ = 0, mate_found_ = 0;  // this search's (SearchResult)

 public:
  ~Worker();
  uint64_t mate_calls() const { return mate_calls_; }
  uint64_t mate_nodes() const { return mate_nodes_; }
  uint64_t mate_found() const { return mate_found_; }
};

// The move of a search stopped before its first iteration ended (a think limit of 0): a
// mate in one, else the transposition table's move, else the legal move the static
// evaluation likes best among those that lose no material by exchange (among all when none
// is safe). REQUIRES: legal holds root's legal moves and is not empty.
Move unsearched_move(const Position& root, const MoveList& legal, const TranspositionTable& tt,
                     const eval::Weights& weights);

// Runs searches: owns the threads, the transposition table, the futility statistics and the
// time budget. One per Engine. Thread-safety: start/stop/ponderhit/wait from one thread.
class SearchManager {
 public:
  SearchManager();
  ~SearchManager();

  void set_threads(int count);
  void resize_tt(size_t megabytes) { tt_.resize(megabytes); }
  void set_weights(std::shared_ptr<const eval::Weights> weights) { weights_ = std::move(weights); }
  // The NNUE network that evaluates instead of the linear weights; null: the weights.
  void set_network(std::shared_ptr<const nnue::Network> network) { network_ = std::move(network); }
  void set_time_options(const TimeOptions& time) { time_ = time; }
  // MultiPV: the number of best lines searched and reported (1: only the best).
  void set_multipv(int lines) { multipv_ = std::max(lines, 1); }
  void set_resign_value(Value v) { resign_value_ = v; }
  void set_quiescence_checks(bool on) { quiescence_checks_ = on; }
  // The noise added to every static evaluation (the EvalNoise options); takes effect at the
  // next search (waits for one). A change clears the transposition table, whose stored
  // evaluations carry the old noise.
  void set_eval_noise(EvalNoise noise);
  const EvalNoise& eval_noise() const { return noise_; }
  // A tunable number of the search or the time manager (search_params.h); takes effect at the
  // next search (waits for one). REQUIRES: value within the parameter's range.
  void set_param(SearchParam p, int value);
  const SearchParams& params() const { return params_; }
  FutilityController& futility() { return futility_; }
  void set_keep_futility_stats(bool keep) { keep_futility_stats_ = keep; }
  void set_book(BookGuidance guidance) { book_ = std::move(guidance); }
  // The in-search mate call's settings; takes effect at the next search (waits for one).
  void set_mate_calls(MateCallSettings settings);
  const MateCallSettings& mate_calls() const { return mate_; }
  // The root's mate guard; takes effect at the next search (waits for one).
  void set_mate_guard(MateGuardSettings settings);
  void new_game();

  // Starts a search of `root` in the background; `on_result` fires when it ends.
  void start(const Position& root, const SearchLimits& limits, Engine::InfoCallback on_info,
             Engine::ResultCallback on_result);
  // The same search in the calling thread, returning when it ends (no thread started: the
  // short searches of data generation spent a third of their time starting one).
  void search_here(const Position& root, const SearchLimits& limits, Engine::InfoCallback on_info,
                   Engine::ResultCallback on_result);
  void stop();
  void ponderhit();
  void wait();
  uint64_t nodes() const;

 private:
  friend class Worker;
  void run();  // the main search thread's body
  // Sets up a search of `root` (what start and search_here share).
  void begin(const Position& root, const SearchLimits& limits, Engine::InfoCallback on_info,
             Engine::ResultCallback on_result);
  SearchResult pick_result();
  // An info line for w's best line at `depth` (a lower bound: the unfinished iteration's
  // move that failed high).
  void report(const Worker& w, int depth, SearchInfo::Bound bound = SearchInfo::Bound::kExact);
  // An info line for one of several lines (MultiPV): `multipv` counts from 1.
  void report_line(const Worker& w, int depth, int multipv, Value value,
                   const std::vector<Move>& pv,
                   SearchInfo::Bound bound = SearchInfo::Bound::kExact);
  int64_t elapsed_ms() const;
  // Fills book_bonuses_ for the root and the positions after each root move; returns the
  // root's suggestions.
  std::vector<BookSuggestion> prepare_book(const MoveList& legal);
  // With BookMoveChoice weighted or best, the book move to play outright (no search).
  std::optional<SearchResult> choose_book_move(const std::vector<BookSuggestion>& suggestions);
  // The bonuses of the position with this key, when it is one the book guides; else null.
  const std::vector<BookBonus>* book_bonuses(uint64_t key) const;

  TranspositionTable tt_;
  FutilityController futility_;
  bool keep_futility_stats_ = false;
  std::shared_ptr<const eval::Weights> weights_;
  std::shared_ptr<const nnue::Network> network_;
  std::vector<std::unique_ptr<Worker>> workers_;
  TimeOptions time_;
  int multipv_ = 1;
  Value resign_value_ = 0;
  bool quiescence_checks_ = true;
  EvalNoise noise_;
  SearchParams params_;
  std::unique_ptr<ReductionTable> reductions_;  // from params_[kLmrDivisor]
  BookGuidance book_;
  MateCallSettings mate_;
  MateGuardSettings guard_;
  // Per search: the book's bonuses by position key (root and, with search_plies 2, replies).
  std::vector<std::pair<uint64_t, std::vector<BookBonus>>> book_bonuses_;
  int book_plies_ = 0;  // the plies (from the root) that look bonuses up
  std::mt19937_64 book_random_{std::random_device{}()};

  // The current search.
  Position root_;
  SearchLimits limits_;
  TimeBudget budget_;
  Engine::InfoCallback on_info_;
  Engine::ResultCallback on_result_;
  std::chrono::steady_clock::time_point start_time_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> pondering_{false};
  std::atomic<int64_t> ponderhit_ms_{0};  // elapsed_ms() at the ponderhit; 0 without one
  double instability_ = 1.0;  // scales the optimum time when the best move keeps changing
  std::thread main_thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
};

}  // namespace engine
