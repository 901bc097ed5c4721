// Engine: options, the game position, and searches handed to the SearchManager.
#include "engine/engine.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "base/shipped_file.h"
#include "engine/eval/weights.h"
#include "engine/eval_noise.h"
#include "engine/mate/svm_model.h"
#include "engine/mate_runner.h"
#include "engine/names.h"
#include "engine/search.h"
#include "shogi/notation.h"

namespace engine {
namespace {

FutilityController::Mode futility_mode(const std::string& name) {
  if (name == "fixed") return FutilityController::Mode::kFixed;
  if (name == "paper") return FutilityController::Mode::kPaper;
  if (name == "off") return FutilityController::Mode::kOff;
  return FutilityController::Mode::kDynamic;
}

}  // namespace

Engine::Engine()
    : search_(std::make_unique<SearchManager>()), mate_(std::make_unique<MateRunner>()) {
  // Default: 256. The transposition table in megabytes.
  options_.add_spin("USI_Hash", 256, 1, 1 << 20, "The transposition table, in MB.").on_change =
      [this](const Option& o) { search_->resize_tt(size_t(o.as_int())); };
  options_.add_check(
      "USI_Ponder", false,
      "Whether the GUI may send go ponder (the engine ponders whenever it is asked).");
  // Default: 1. Search threads (Lazy SMP); with 1 the search is deterministic.
  options_
      .add_spin("Threads", 1, 1, 512,
                "Search threads (Lazy SMP); with 1 the search is deterministic.")
      .on_change = [this](const Option& o) { search_->set_threads(int(o.as_int())); };
  // Default: "default", the shipped NNUE network data/nnue/default.nnue (it beat the linear
  // evaluation at equal time); "linear" the shipped linear weights data/weights/default.eval.
  // A file named *.nnue is an NNUE network (engine/nnue/network.h), any other a weight file.
  options_
      .add_filename("EvalFile", "default",
                    "The evaluation: default = the shipped network data/nnue/default.nnue; "
                    "linear = the shipped linear weights data/weights/default.eval; a *.nnue "
                    "file is an NNUE network, another file linear weights.")
      .on_change = [this](const Option&) { weights_loaded_ = false; };
  // Default: 0 (off). Noise added to every static evaluation, a function of the position and the
  // seed (EvalNoise in eval_noise.h): copies of the engine with other seeds are other players,
  // the voters of a council of engines. Both options set the search's one EvalNoise.
  options_
      .add_spin("EvalNoise", 0, 0, EvalNoise::kMaxAmplitudeCp,
                "Adds to each static evaluation a number in [-this, +this] centipawns drawn from "
                "the position and EvalNoiseSeed (0 = off).")
      .on_change = [this](const Option&) { apply_eval_noise(); };
  // Default: 0. The seed of EvalNoise: the same seed gives the same noise and search.
  options_
      .add_spin("EvalNoiseSeed", 0, 0, (int64_t(1) << 31) - 1,
                "The seed of EvalNoise: the same seed gives the same search, another seed "
                "another player.")
      .on_change = [this](const Option&) { apply_eval_noise(); };
  // Default: fixed. Futility pruning margin: chosen by target precision (dynamic), fixed,
  // or off. Fixed is the default by measurement: dynamic lost to it at fixed nodes and at
  // 10 s + 0.1 s with the shipped weights and book (docs/search-parameters.md).
  options_
      .add_combo("FutilityMode", "fixed", {"dynamic", "paper", "fixed", "off"},
                 "Futility pruning's margin: fixed, chosen online by target precision (dynamic; "
                 "paper: the document's plain method), or off.")
      .on_change = [this](const Option&) { apply_futility(); };
  // Default: 60 (percent). The precision a dynamic margin must reach.
  options_
      .add_spin("FutilityTargetPrecision", 60, 1, 100,
                "The precision (%) a dynamic margin must reach.")
      .on_change = [this](const Option&) { apply_futility(); };
  // Default: 100 (centipawns, doubled at pre-frontier nodes). The margin of fixed mode,
  // chosen by self-play at several node counts against 50, 150 and 200
  // (docs/search-parameters.md).
  options_
      .add_spin("FutilityMargin", FutilityController::kDefaultFixedMargin, 0, 5000,
                "The fixed mode's margin, centipawns a ply (doubled at pre-frontier nodes).")
      .on_change = [this](const Option&) { apply_futility(); };
  // Default: false (the statistics of each game start afresh, as in the source document).
  // Whether the dynamic statistics carry over from one game to the next.
  options_
      .add_check("FutilityKeepStats", false,
                 "Whether the dynamic mode's statistics carry over from one game to the next.")
      .on_change = [this](const Option& o) { search_->set_keep_futility_stats(o.as_bool()); };
  // Default: 1. The number of best lines searched and reported (GUIs' analysis modes).
  options_
      .add_spin("MultiPV", 1, 1, kMaxMultiPv,
                "The number of best lines searched and reported (info ... multipv K).")
      .on_change = [this](const Option& o) { search_->set_multipv(int(o.as_int())); };
  // The time options (TimeOptions in timeman.h). MoveOverhead is ours; the others have the
  // names and meanings of YaneuraOu's, which GUI users and operators know, but defaults that
  // leave MoveOverhead alone in charge.
  // Default: 100 (ms). Time lost per move between the engine and the clock (GUI, network).
  options_
      .add_spin("MoveOverhead", 100, 0, 60000,
                "Milliseconds lost per move between the engine and the clock; the floor of both "
                "delays below.")
      .on_change = [this](const Option&) { apply_time_options(); };
  // Default: 0 (ms). The usual network delay, taken from the target time.
  options_
      .add_spin("NetworkDelay", 0, 0, 60000,
                "The usual network delay (ms), taken from the target time (YaneuraOu's meaning).")
      .on_change = [this](const Option&) { apply_time_options(); };
  // Default: 0 (ms). The worst network delay, taken from the hard limit.
  options_
      .add_spin(
          "NetworkDelay2", 0, 0, 60000,
          "The worst network delay (ms), taken from the hard limit, the byoyomi and movetime.")
      .on_change = [this](const Option&) { apply_time_options(); };
  // Default: 0 (ms). Think at least this long on main time, when the clock allows.
  options_
      .add_spin("MinimumThinkingTime", 0, 0, 600000,
                "Think at least this long (ms) on main time, when the clock allows.")
      .on_change = [this](const Option&) { apply_time_options(); };
  // Default: 100 (percent). Scales the target time on main time.
  options_.add_spin("SlowMover", 100, 1, 1000, "Scales the target time on main time (%).")
      .on_change = [this](const Option&) { apply_time_options(); };
  // Default: 0 (none). Every search stops at this depth, whatever go says.
  options_.add_spin("DepthLimit", 0, 0, kMaxPly,
                    "Every search stops at this depth, whatever go says (0 = none).");
  // Default: 0 (none). Every search stops after this many nodes, whatever go says.
  options_.add_spin("NodesLimit", 0, 0, int64_t(1) << 50,
                    "Every search stops after this many nodes, whatever go says (0 = none).");
  // Default: 0 (never, except with no legal move). Resign when the score is below -value.
  options_
      .add_spin("ResignValue", 0, 0, kValueMate,
                "Resign when the score falls below minus this (centipawns; 0 = never, except with "
                "no legal move).")
      .on_change = [this](const Option& o) { search_->set_resign_value(Value(o.as_int())); };
  // Default: true. Quiet checking moves at the first ply of the quiescence search (off lost
  // in self-play: docs/search-parameters.md).
  options_
      .add_check("QuiescenceChecks", true,
                 "Quiet checking moves at the first ply of the quiescence search.")
      .on_change = [this](const Option& o) { search_->set_quiescence_checks(o.as_bool()); };
  // The search's and the time manager's tunable numbers (search_params.h), one spin option
  // each, for `sashite tune` and `sashite match --opt`.
  for (int i = 0; i < kSearchParamCount; ++i) {
    const SearchParamSpec& spec = search_param_spec(SearchParam(i));
    options_.add_spin(spec.name, spec.default_value, spec.min, spec.max, spec.what).on_change =
        [this, i](const Option& o) { search_->set_param(SearchParam(i), int(o.as_int())); };
  }
  // The mate solver inside the search (MateCallSettings in search.h) and application 1 of the
  // mate prediction (docs/techniques.md §1).
  // Default: true. df-pn looks for a mate by checks at the search's inner nodes, where the
  // mate prediction says a mate is likely (MateControl step, MateAfterCuts): so steered, it
  // finds mates earlier at no measurable cost in games at equal time; called everywhere, its
  // calls cost more than the mates they find (docs/search-parameters.md).
  options_
      .add_check("MateSearch", true,
                 "df-pn looks for a mate by checks at the search's inner nodes.")
      .on_change = [this](const Option&) { apply_mate_calls(); };
  // Default: 32. The node limit of one call (the base that MateControl scales).
  options_.add_spin("MateNodes", 32, 1, 10000000, "The node limit of one in-search mate call.")
      .on_change = [this](const Option&) { apply_mate_calls(); };
  // Default: 3. Calls at nodes with at least this much remaining depth (plies): at 2 the
  // calls dominate the search's time, at 3 they cost little (docs/search-parameters.md).
  options_
      .add_spin("MateMinDepth", 3, 1, 100,
                "In-search mate calls at nodes with at least this much remaining depth (plies).")
      .on_change = [this](const Option&) { apply_mate_calls(); };
  // Default: true. Calls only at nodes that the pruning steps before the moves (futility,
  // reverse futility, null move) did not cut (MateCallSettings::after_cuts): the same mates
  // for fewer calls.
  options_
      .add_check("MateAfterCuts", true,
                 "In-search mate calls only at nodes that futility and null-move pruning did not "
                 "cut.")
      .on_change = [this](const Option&) { apply_mate_calls(); };
  // Default: step: a call only where the SVM predicts a mate, its limit growing with the mate
  // probability (MateCallSettings::step). limit: each call's node limit scaled by the sigmoid
  // of the SVM's decision value, normalised by its running mean, so the total effort stays
  // MateNodes times MateMultiplier. none: a call at every node, MateNodes each.
  options_
      .add_combo(
          "MateControl", "step", {"none", "limit", "step"},
          "step: calls only where the SVM predicts a mate, more nodes the likelier; limit: each "
          "call's node limit scaled by the prediction (docs/techniques.md §1, application 1); "
          "none: a call at every node.")
      .on_change = [this](const Option&) {
    mate_model_loaded_ = mate_model_ != nullptr;
    apply_mate_calls();
  };
  // Default: 100 (percent). The mate calls' total effort relative to MateNodes.
  options_
      .add_spin("MateMultiplier", 100, 1, 10000,
                "The mate calls' total effort relative to MateNodes (%).")
      .on_change = [this](const Option&) { apply_mate_calls(); };
  // Default: 20000. The root's mate guard (MateGuardSettings in search.h): the node limit of
  // the df-pn check, once per search, of each root move that becomes the best, for a mate by
  // checks it allows; 0 = off. On positions of games lost to gpsusi it avoids some of the
  // moves that allowed a mate, for a few per cent of the nodes (docs/search-parameters.md).
  // The option's default is the settings' own, so the two cannot drift apart.
  options_
      .add_spin("MateGuardNodes", int64_t(MateGuardSettings{}.nodes), 0, 100000000,
                "The root's mate guard: df-pn nodes to check a new best move for a mate it allows "
                "(0 = off).")
      .on_change = [this](const Option& o) {
    MateGuardSettings settings;
    settings.nodes = uint64_t(o.as_int());
    search_->set_mate_guard(settings);
  };
  // Default: 256. The table of `go mate` (the solver's own; USI_Hash is the search's), made
  // at the first go mate and remade when this changes.
  options_.add_spin("MateHash", 256, 1, 1 << 20,
                    "The mate table of go mate, in MB (the search's table is USI_Hash).");
  // Default: "default", the shipped model (data/mate/svm.model).
  options_
      .add_filename("MateSvmFile", "default",
                    "The mate prediction's model: default = the shipped data/mate/svm.model.")
      .on_change = [this](const Option&) {
    mate_model_loaded_ = false;
    mate_model_.reset();
    apply_mate_calls();
  };
  // The opening book (book/ loads it; see set_book_loader). Users of other engines expect
  // USI_OwnBook and the cut-offs below; the guidance itself follows docs/techniques.md §3.
  // Default: true. Use the engine's own book.
  options_.add_check("USI_OwnBook", true, "Use the engine's own opening book.").on_change =
      [this](const Option&) { apply_book(); };
  // Default: "default", the book make builds from data/book (build/book/default).
  options_
      .add_filename("BookFile", "default",
                    "The book directory: default = the built book (build/book/default, or the "
                    "installed one).")
      .on_change = [this](const Option&) {
    book_loaded_ = false;
    book_.reset();
    apply_book();
  };
  // Default: relation. exact: the position itself; simple / relation: similar positions
  // lend their moves (relation weighs squares by the near positions' book moves).
  options_
      .add_combo(
          "BookMode", "relation", {"off", "exact", "simple", "relation"},
          "exact: the position itself; simple, relation: similar positions lend their moves.")
      .on_change = [this](const Option&) { apply_book(); };
  // Default: guide (bonuses in the search). weighted: play a book move chosen at random by
  // weight, without searching; best: play the favourite book move.
  options_
      .add_combo("BookMoveChoice", "guide", {"guide", "weighted", "best"},
                 "guide: bonuses in the search; weighted: play a book move at random by weight; "
                 "best: the favourite.")
      .on_change = [this](const Option&) { apply_book(); };
  // Default: 120 (centipawns). The bonus of the book's favourite move; others pro rata.
  options_
      .add_spin("BookBonus", 120, 0, 2000,
                "The bonus of the book's favourite move in centipawns; the others pro rata.")
      .on_change = [this](const Option&) { apply_book(); };
  // Default: 40. The last game ply (SFEN move number) at which the book is consulted.
  options_
      .add_spin("BookMaxPly", 40, 0, 1000,
                "The last game ply (SFEN move number) at which the book is consulted.")
      .on_change = [this](const Option&) { apply_book(); };
  // Default: 2. Plies of the search that get bonuses: 1 the root, 2 the replies as well.
  options_
      .add_spin("BookSearchPlies", 2, 1, 2,
                "Plies of the search that get bonuses: 1 the root, 2 the replies as well.")
      .on_change = [this](const Option&) { apply_book(); };
  // Default: 12 (differing squares plus hand pieces). Farther positions lend nothing.
  options_
      .add_spin("BookMaxDistance", 12, 0, 200,
                "Similar positions farther than this (squares plus hand pieces) lend nothing.")
      .on_change = [this](const Option&) { apply_book(); };
  // Default: 4. Similar positions whose moves are considered.
  options_
      .add_spin("BookSimilarPositions", 4, 1, 64, "Similar positions whose moves are considered.")
      .on_change = [this](const Option&) { apply_book(); };
  // Default: 0 (percent; 0 keeps all). Narrow book: drop moves under this share of the count.
  options_
      .add_spin("BookNarrowCut", 0, 0, 100,
                "Drop book moves under this share of the count (%; 0 keeps all).")
      .on_change = [this](const Option&) { apply_book(); };
  // Default: 0 (centipawns; 0 is off). Drop moves whose stored value trails the best by more.
  options_
      .add_spin("BookEvalDiff", 0, 0, 10000,
                "Drop book moves whose stored value trails the best by more (centipawns; 0 = off).")
      .on_change = [this](const Option&) { apply_book(); };
  // Default: 0 (0 is off). Drop moves whose stored value comes from a shallower search.
  options_
      .add_spin("BookDepthLimit", 0, 0, 1000,
                "Drop book moves whose stored value comes from a shallower search (0 = off).")
      .on_change = [this](const Option&) { apply_book(); };
  for (const Option& o : options_.all())
    if (o.on_change) o.on_change(o);
}

void Engine::set_book_loader(BookLoader loader) {
  search_->wait();
  book_loader_ = std::move(loader);
  book_loaded_ = false;
  book_.reset();
  apply_book();
}

void Engine::apply_book() {
  BookGuidance g;
  g.advisor = options_.get_bool("USI_OwnBook") ? book_ : nullptr;
  g.request.mode = BookMode::kRelation;  // the combo allows only the modes' names
  parse_book_mode(options_.get_string("BookMode"), g.request.mode);
  g.request.k = int(options_.get_int("BookSimilarPositions"));
  g.request.max_distance = int(options_.get_int("BookMaxDistance"));
  g.request.narrow_cut_percent = int(options_.get_int("BookNarrowCut"));
  g.request.eval_diff_cp = int(options_.get_int("BookEvalDiff"));
  g.request.min_depth = int(options_.get_int("BookDepthLimit"));
  const std::string& choice = options_.get_string("BookMoveChoice");
  g.choice = choice == "weighted" ? BookGuidance::Choice::kWeighted
             : choice == "best"   ? BookGuidance::Choice::kBest
                                  : BookGuidance::Choice::kGuide;
  g.bonus = Value(options_.get_int("BookBonus"));
  g.max_game_ply = int(options_.get_int("BookMaxPly"));
  g.search_plies = int(options_.get_int("BookSearchPlies"));
  search_->set_book(std::move(g));
}

Status Engine::load_book() {
  if (book_loaded_ || !book_loader_ || !options_.get_bool("USI_OwnBook") ||
      options_.get_string("BookMode") == "off")
    return Status::ok();
  book_loaded_ = true;  // one attempt per BookFile: a missing book is reported once
  std::string path = options_.get_string("BookFile");
  if (path == "default" || path.empty()) path = default_book_directory();
  std::shared_ptr<const BookAdvisor> loaded;
  Status status = book_loader_(path, loaded);
  book_ = status ? loaded : nullptr;
  apply_book();
  if (!status) return Status::error(status.message() + " (playing without a book)");
  return Status::ok();
}

Engine::~Engine() {
  stop();
  wait();
}

void Engine::apply_eval_noise() {
  EvalNoise noise;
  noise.amplitude_cp = int(options_.get_int("EvalNoise"));
  noise.seed = uint64_t(options_.get_int("EvalNoiseSeed"));
  search_->set_eval_noise(noise);
}

void Engine::apply_time_options() {
  TimeOptions time;
  time.overhead_ms = options_.get_int("MoveOverhead");
  time.network_delay_ms = options_.get_int("NetworkDelay");
  time.network_delay2_ms = options_.get_int("NetworkDelay2");
  time.minimum_thinking_ms = options_.get_int("MinimumThinkingTime");
  time.slow_mover_percent = int(options_.get_int("SlowMover"));
  search_->set_time_options(time);
}

SearchLimits Engine::with_option_limits(SearchLimits limits) const {
  if (const int depth = int(options_.get_int("DepthLimit")); depth > 0)
    limits.depth = limits.depth > 0 ? std::min(limits.depth, depth) : depth;
  if (const auto nodes = uint64_t(options_.get_int("NodesLimit")); nodes > 0)
    limits.nodes = limits.nodes > 0 ? std::min(limits.nodes, nodes) : nodes;
  return limits;
}

void Engine::apply_futility() {
  search_->futility().configure(futility_mode(options_.get_string("FutilityMode")),
                                int(options_.get_int("FutilityTargetPrecision")),
                                Value(options_.get_int("FutilityMargin")));
}

Status Engine::set_option(const std::string& name, const std::string& value) {
  search_->wait();
  return options_.set(name, value);
}

Status Engine::prepare() {
  // Every file that cannot be loaded is named, not only the first: an operator fixing one
  // path should not find the next one broken only on the next start.
  const Status statuses[] = {load_book(), load_weights(), load_mate_model()};
  std::string errors;
  for (const Status& st : statuses)
    if (!st) errors += (errors.empty() ? "" : "; ") + st.message();
  return errors.empty() ? Status::ok() : Status::error(errors);
}

void Engine::set_mate_call_observer(std::function<void(const Position&)> observer) {
  mate_call_observer_ = std::move(observer);
  apply_mate_calls();
}

void Engine::apply_mate_calls() {
  MateCallSettings settings;
  settings.control = options_.get_string("MateControl") == "limit";
  settings.step = options_.get_string("MateControl") == "step";
  // A control without its model (not loaded yet, or failed to load) makes no calls: calls
  // everywhere would cost more than they find.
  settings.enabled =
      options_.get_bool("MateSearch") && (!(settings.control || settings.step) || mate_model_);
  settings.nodes = uint64_t(options_.get_int("MateNodes"));
  settings.min_depth = int(options_.get_int("MateMinDepth"));
  settings.after_cuts = options_.get_bool("MateAfterCuts");
  settings.multiplier = double(options_.get_int("MateMultiplier")) / 100.0;
  settings.model = mate_model_;
  settings.observe = mate_call_observer_;
  search_->set_mate_calls(std::move(settings));
}

// The model is read at isready, and only when MateControl needs it.
Status Engine::load_mate_model() {
  if (mate_model_loaded_ || options_.get_string("MateControl") == "none") return Status::ok();
  std::string path = options_.get_string("MateSvmFile");
  if (path == "default" || path.empty()) path = mate::default_svm_model_path();
  auto model = std::make_shared<mate::SvmModel>();
  mate_model_loaded_ = true;
  if (Status status = mate::load_svm_model(path, *model); !status) {
    mate_model_.reset();
    apply_mate_calls();
    return Status::error(status.message() + " (no mate calls in the search without it)");
  }
  mate_model_ = std::move(model);
  apply_mate_calls();
  return Status::ok();
}

Status Engine::load_weights() {
  if (weights_loaded_) return Status::ok();
  const std::string path = base::resolve_eval_file(options_.get_string("EvalFile"));
  // A network file (.nnue) evaluates with NNUE; the quick move of a search stopped before
  // depth 1 then uses the built-in hand-set weights (no second file to load).
  if (base::is_network_file(path)) {
    auto network = std::make_shared<nnue::Network>();
    Status status = network->load(path);
    search_->set_weights(std::make_shared<eval::Weights>(eval::Weights::hand_set()));
    if (status)
      search_->set_network(std::move(network));
    else
      search_->set_network(nullptr);
    weights_loaded_ = true;
    if (!status) return Status::error(status.message() + " (using the built-in hand-set weights)");
    return Status::ok();
  }
  auto weights = std::make_shared<eval::Weights>();
  Status status = weights->load(path);
  if (!status) {
    // Keep playing with the built-in hand-set weights, but say so.
    search_->set_weights(std::make_shared<eval::Weights>(eval::Weights::hand_set()));
    search_->set_network(nullptr);
    weights_loaded_ = true;
    return Status::error(status.message() + " (using the built-in hand-set weights)");
  }
  search_->set_weights(std::move(weights));
  search_->set_network(nullptr);
  weights_loaded_ = true;
  return Status::ok();
}

void Engine::new_game() { search_->new_game(); }

Status check_piece_set(const Position& pos) {
  if (pos.pieces(kKing).count() == 0) return Status::error("sfen: no king on the board");
  constexpr const char* kNames[kHandTypeNb] = {"",        "pawns",   "lances", "knights",
                                               "silvers", "bishops", "rooks",  "golds"};
  for (int t = kPawn; t <= kGold; ++t) {
    const PieceType type = PieceType(t);
    int count =
        pos.pieces(type).count() + pos.hand(kBlack).count(type) + pos.hand(kWhite).count(type);
    if (can_promote(type)) count += pos.pieces(promote(type)).count();
    if (count > Hand::kMaxCount[t])
      return Status::error("sfen: " + std::to_string(count) + " " + kNames[t] +
                           " on the board and in hand, a set has " +
                           std::to_string(Hand::kMaxCount[t]));
  }
  return Status::ok();
}

Status Engine::set_position(const Position& root, const std::vector<Move>& moves) {
  if (Status status = check_piece_set(root); !status) return status;
  Position pos = root;
  for (size_t i = 0; i < moves.size(); ++i) {
    if (!pos.is_pseudo_legal(moves[i]) || !pos.is_legal(moves[i]))
      return Status::error("move " + std::to_string(i + 1) + " of the position: " +
                           format_usi_move(moves[i]) + " is not legal in " + pos.sfen());
    pos.do_move(moves[i]);
  }
  search_->wait();
  position_ = std::move(pos);
  return Status::ok();
}

Status Engine::set_position(std::string_view sfen_or_startpos,
                            const std::vector<std::string>& moves) {
  Position root;
  Status status = root.set_sfen(sfen_or_startpos);
  if (!status) return status;
  if (status = check_piece_set(root); !status) return status;
  // The moves are read against the position they are played in, then checked again (cheaply)
  // by the overload above.
  Position pos = root;
  std::vector<Move> parsed;
  parsed.reserve(moves.size());
  for (size_t i = 0; i < moves.size(); ++i) {
    Move m;
    status = parse_usi_move(pos, moves[i], m);
    if (!status)
      return Status::error("move " + std::to_string(i + 1) +
                           " of the position: " + status.message());
    pos.do_move(m);
    parsed.push_back(m);
  }
  return set_position(root, parsed);
}

void Engine::go(const SearchLimits& limits) {
  prepare();
  search_->start(position_, with_option_limits(limits), on_info_, on_result_);
}

void Engine::stop() {
  search_->stop();
  mate_->stop();
}

void Engine::ponderhit() { search_->ponderhit(); }

void Engine::wait() {
  mate_->wait();
  search_->wait();
}

void Engine::go_mate(int64_t time_ms) {
  mate_->start(position_, time_ms, size_t(options_.get_int("MateHash")), on_mate_info_,
               on_mate_result_);
}

SearchResult Engine::search(const SearchLimits& limits) {
  prepare();
  SearchResult result;
  search_->search_here(position_, with_option_limits(limits), on_info_,
                       [&result](const SearchResult& r) { result = r; });
  return result;
}

uint64_t Engine::nodes_searched() const { return search_->nodes(); }

std::string Engine::futility_report() const { return search_->futility().report(); }

}  // namespace engine
