// sashite book think and book merge: the minimax on hand-made trees, the tree expansion with
// a fake search, shards and the work list, the progress line; with our engine (build/sashite,
// relative to the repo root, the tests' working directory): shards merged equal a single run,
// and a run killed with SIGKILL then resumed equals an uninterrupted one.
#include "tools/book/book_think.h"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "base/child_process.h"
#include "book/book_db.h"
#include "shogi/notation.h"
#include "shogi/position.h"
#include "tests/temp_dir.h"
#include "tools/book/book_merge.h"
#include "tools/book/book_think_engines.h"
#include "tools/book/book_think_tree.h"
#include "tools/book/book_think_work.h"
#include "tools/common/progress_bar.h"

#ifndef SASHITE_TEST_DATA_DIR
#define SASHITE_TEST_DATA_DIR "tests/data"
#endif

namespace book_think_test {

using namespace tools;
namespace fs = std::filesystem;

namespace {

shogi::Move usi_move(const shogi::Position& pos, const std::string& text) {
  shogi::Move m;
  REQUIRE(shogi::parse_usi_move(pos, text, m).is_ok());
  return m;
}

ThinkAnswer answer(const std::string& move, std::optional<int> value, int depth = 5) {
  ThinkAnswer a;
  a.best_move = move;
  a.value = value;
  a.depth = depth;
  return a;
}

// A leaf child of `node` reached by `move`, with the engines' answers there.
ThinkNode& add_child(ThinkNode& node, shogi::Move move, std::vector<ThinkAnswer> answers) {
  node.children.push_back({move, std::make_unique<ThinkNode>()});
  node.children.back().node->answers = std::move(answers);
  return *node.children.back().node;
}

const char* kPositionsFile = SASHITE_TEST_DATA_DIR "/book_think_positions.sfen";

// Options for our engine at a small depth: two engines that differ (one without futility
// pruning), so that their best moves differ now and then and the tree branches.
BookThinkOptions engine_options(const fs::path& out, int depth) {
  BookThinkOptions o;
  o.engines = {"build/sashite usi", "build/sashite usi"};
  o.engine_options = {"0:Threads=1", "0:USI_Hash=16", "1:Threads=1", "1:USI_Hash=16",
                      "1:FutilityMode=off"};
  o.depth = depth;
  o.sfens_path = kPositionsFile;
  o.out_dir = out.string();
  o.batch = 1;
  return o;
}

// The book as comparable text: one line per move, in key order.
std::string book_text(const fs::path& dir) {
  std::vector<book::BookEntry> entries;
  const base::Status s = book::load_book(dir.string(), entries);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  std::ostringstream text;
  for (const book::BookEntry& e : entries) {
    text << std::hex << e.key << std::dec << ":";
    for (const book::BookMove& m : e.moves)
      text << " " << shogi::format_usi_move(m.move) << " v" << m.value << " d" << m.depth << " c"
           << m.count << " s" << int(m.sources);
    text << "\n";
  }
  return text.str();
}

size_t book_size(const fs::path& dir) {
  std::vector<book::BookEntry> entries;
  REQUIRE(book::load_book(dir.string(), entries).is_ok());
  return entries.size();
}

void run_think(const BookThinkOptions& o) {
  std::ostringstream out, err;
  const base::Status s = run_book_think(o, out, err);
  INFO(out.str());
  INFO(err.str());
  REQUIRE_MESSAGE(s.is_ok(), s.message());
}

}  // namespace

TEST_CASE("book think: mate and centipawn scores as values") {
  usi::SearchScore cp;
  cp.cp = 123;
  CHECK(score_to_think_value(cp) == 123);
  cp.cp = 999999;
  CHECK(score_to_think_value(cp) == kThinkMaxCp);
  usi::SearchScore mate;
  mate.is_mate = true;
  mate.mate_plies = 5;
  CHECK(score_to_think_value(mate) == kThinkMateValue - 5);
  CHECK(score_to_think_value(mate.negated()) == -(kThinkMateValue - 5));
  mate.mate_plies = -1;
  CHECK(score_to_think_value(mate) == kThinkMateValue - kThinkUnknownMatePlies);

  usi::BestMove resign;
  resign.move = "resign";
  CHECK(think_answer_from(resign).value == -kThinkMateValue);
  usi::BestMove played;
  played.move = "7g7f";
  played.search.depth = 7;
  played.search.score = cp;
  CHECK(think_answer_from(played).value == kThinkMaxCp);
  CHECK(think_answer_from(played).depth == 7);
  played.search = {};
  CHECK(!think_answer_from(played).value);
}

TEST_CASE("book think: leaf combination by mean and by min") {
  const std::vector<ThinkAnswer> answers = {answer("7g7f", 100, 6), answer("2g2f", -51, 4),
                                            answer("resign", std::nullopt, 0)};
  ThinkValuation mean;
  mean.search_depth = 6;
  ThinkValue v = combine_answers(answers, mean);
  REQUIRE(v.value);
  CHECK(*v.value == 25);  // (100 - 51) / 2 = 24.5, rounded away from zero
  CHECK(v.depth == 6);
  ThinkValuation min{LeafCombine::kMin, 0};  // --movetime: the reported depths
  v = combine_answers(answers, min);
  CHECK(*v.value == -51);
  CHECK(v.depth == 4);
  CHECK(!combine_answers({answer("resign", std::nullopt)}, mean).value);
}

TEST_CASE("book think: a mate is not averaged with centipawns") {
  ThinkValuation mean;
  // One engine sees a mate in 5, the other +300 cp: the leaf is the mate, not their mean.
  ThinkValue v =
      combine_answers({answer("2b3c+", kThinkMateValue - 5, 8), answer("7g7f", 300, 8)}, mean);
  REQUIRE(v.value);
  CHECK(*v.value == kThinkMateValue - 5);
  CHECK(is_think_mate(*v.value));
  // Mates for both sides: the pessimistic one (being mated in 7).
  v = combine_answers({answer("2b3c+", kThinkMateValue - 5, 8),
                       answer("7g7f", -(kThinkMateValue - 7), 8), answer("8h2b+", 120, 8)},
                      mean);
  CHECK(*v.value == -(kThinkMateValue - 7));
  // No mate: the plain mean.
  v = combine_answers({answer("7g7f", 300, 8), answer("2g2f", 100, 8)}, mean);
  CHECK(*v.value == 200);
  CHECK(!is_think_mate(kThinkMaxCp));
  CHECK(is_think_mate(-kThinkMateValue));
}

TEST_CASE("book think: minimax over a hand-made tree of depth 2 and 3") {
  shogi::Position root;
  const shogi::Move m76 = usi_move(root, "7g7f"), m26 = usi_move(root, "2g2f"),
                    m56 = usi_move(root, "5g5f");
  ThinkValuation how;  // mean
  how.search_depth = 4;

  // Depth 2: the engines at the root named 7g7f and 2g2f; at the leaves (White to move) the
  // two engines score White's view.
  ThinkNode tree;
  tree.answers = {answer("7g7f", 40), answer("2g2f", 30)};
  add_child(tree, m76, {answer("3c3d", -50), answer("8c8d", -30)});  // mean -40: 7g7f = +40
  add_child(tree, m26, {answer("8c8d", 10), answer("8c8d", -70)});   // mean -30: 2g2f = +30
  std::vector<ScoredThinkMove> moves = score_root_moves(tree, how);
  REQUIRE(moves.size() == 2);
  CHECK(moves[0].move == m76);
  CHECK(moves[0].value == 40);
  CHECK(moves[0].depth == 5);  // search depth 4 + tree depth 2 - 1
  CHECK(moves[1].move == m26);
  CHECK(moves[1].value == 30);
  CHECK(evaluate_think_node(tree, how).value == 40);
  // By min, White takes the most pessimistic score for itself at each leaf.
  how.combine = LeafCombine::kMin;
  moves = score_root_moves(tree, how);
  CHECK(moves[0].value == 50);  // White's min is -50
  CHECK(moves[1].value == 70);
  CHECK(evaluate_think_node(tree, how).value == 70);
  how.combine = LeafCombine::kMean;

  // Depth 3: below 7g7f White's candidates 3c3d and 8c8d, Black's engines score the leaves.
  // White picks the reply that is worst for Black: value(7g7f) = min over replies.
  ThinkNode deep;
  deep.answers = {answer("7g7f", 40), answer("5g5f", 10)};
  shogi::Position after76 = root;
  after76.do_move(m76);
  ThinkNode& n76 = add_child(deep, m76, {answer("3c3d", -40), answer("8c8d", -20)});
  add_child(n76, usi_move(after76, "3c3d"), {answer("2g2f", 60), answer("2g2f", 80)});  // 70
  add_child(n76, usi_move(after76, "8c8d"), {answer("2g2f", 20), answer("6i7h", 10)});  // 15
  // Below 5g5f nobody scored the leaves: the node falls back to its own engines' scores.
  ThinkNode& n56 = add_child(deep, m56, {answer("3c3d", -100), answer("3c3d", -120)});
  shogi::Position after56 = root;
  after56.do_move(m56);
  add_child(n56, usi_move(after56, "3c3d"), {answer("resign", std::nullopt)});
  moves = score_root_moves(deep, how);
  REQUIRE(moves.size() == 2);
  CHECK(moves[0].value == 15);
  CHECK(moves[0].depth == 6);  // 4 + 3 - 1
  CHECK(moves[1].value == 110);
  CHECK(moves[1].depth == 5);  // the fallback is one level shallower
  CHECK(evaluate_think_node(deep, how).value == 110);
}

TEST_CASE("book think: the tree asks every engine at every node, children deduplicated") {
  shogi::Position root;
  // Engine 0 always plays the first legal move in a fixed list, engine 1 the second; at the
  // root both lists agree on 7g7f for engine 0 and 2g2f for engine 1.
  std::vector<std::string> calls;
  const ThinkSearch search = [&](int e, const std::vector<shogi::Move>& path, ThinkAnswer& a) {
    std::string key = std::to_string(e) + ":";
    for (shogi::Move m : path) key += shogi::format_usi_move(m) + ",";
    calls.push_back(key);
    if (path.empty())
      a.best_move = e == 0 ? "7g7f" : "2g2f";
    else if (path.size() == 1)
      a.best_move = "3c3d";  // both engines agree: one child
    else
      a.best_move = "resign";
    a.value = int(path.size()) * 10 + e;
    return base::Status::ok();
  };
  ThinkNode tree;
  REQUIRE(expand_think_tree(root, 2, 3, search, tree).is_ok());
  CHECK(calls == std::vector<std::string>{"0:", "1:", "0:7g7f,", "1:7g7f,", "0:7g7f,3c3d,",
                                          "1:7g7f,3c3d,", "0:2g2f,", "1:2g2f,", "0:2g2f,3c3d,",
                                          "1:2g2f,3c3d,"});
  REQUIRE(tree.children.size() == 2);
  CHECK(tree.children[0].node->children.size() == 1);

  // An illegal best move is an error naming the engine and the move.
  const ThinkSearch illegal = [](int, const std::vector<shogi::Move>&, ThinkAnswer& a) {
    a.best_move = "5e5d";
    return base::Status::ok();
  };
  const base::Status s = expand_think_tree(root, 1, 2, illegal, tree);
  CHECK(!s.is_ok());
  CHECK(s.message().find("'5e5d'") != std::string::npos);
}

TEST_CASE("book think: tree depth 1 scores the engines' best moves with their own scores") {
  shogi::Position root;
  const ThinkSearch search = [](int e, const std::vector<shogi::Move>& path, ThinkAnswer& a) {
    CHECK(path.empty());  // only the root is searched
    a.best_move = e == 1 ? "2g2f" : "7g7f";
    a.value = e == 1 ? 50 : 10 + 10 * e;  // 7g7f: 10 and 30; 2g2f: 50
    a.depth = 6;
    return base::Status::ok();
  };
  ThinkNode tree;
  REQUIRE(expand_think_tree(root, 3, 1, search, tree).is_ok());
  ThinkValuation how;
  how.search_depth = 6;
  const std::vector<ScoredThinkMove> moves = score_root_moves(tree, how);
  REQUIRE(moves.size() == 2);
  CHECK(moves[0].move == usi_move(root, "7g7f"));
  CHECK(moves[0].value == 20);  // the mean of the two engines that named it
  CHECK(moves[0].depth == 6);   // search depth 6 + tree depth 1 - 1
  CHECK(moves[1].move == usi_move(root, "2g2f"));
  CHECK(moves[1].value == 50);
}

TEST_CASE("book think: shards split the work, SFEN files, engine options") {
  ThinkShard shard;
  CHECK(parse_think_shard("1/3", shard).is_ok());
  CHECK(shard.index == 1);
  CHECK(shard.count == 3);
  CHECK(!parse_think_shard("3/3", shard).is_ok());
  CHECK(!parse_think_shard("a/3", shard).is_ok());
  CHECK(!parse_think_shard("1", shard).is_ok());

  std::vector<ThinkWork> work;
  REQUIRE(add_sfen_file_positions(kPositionsFile, work).is_ok());
  REQUIRE(work.size() >= 4);
  std::vector<ThinkWork> twice = work;
  twice.insert(twice.end(), work.begin(), work.end());
  select_think_work(ThinkShard{}, twice);
  CHECK(twice.size() == work.size());  // duplicates dropped
  size_t total = 0;
  for (int i = 0; i < 3; ++i) {
    std::vector<ThinkWork> part = work;
    select_think_work(ThinkShard{i, 3}, part);
    total += part.size();
  }
  CHECK(total == work.size());

  TempDir dir;
  const fs::path bad = dir.path / "bad.sfen";
  std::ofstream(bad) << "startpos\n\n# comment\nnot a position\n";
  work.clear();
  const base::Status s = add_sfen_file_positions(bad.string(), work);
  CHECK(!s.is_ok());
  CHECK(s.message().find("line 4") != std::string::npos);

  BookThinkOptions o;
  o.engines = {"a", "b"};
  o.engine_options = {"1:UCI_Variant=shogi", "0:Threads=1"};
  std::vector<usi::EngineConfig> configs;
  REQUIRE(make_think_engine_configs(o, configs).is_ok());
  REQUIRE(configs[1].options.size() == 1);
  CHECK(configs[1].options[0] == std::make_pair(std::string("UCI_Variant"), std::string("shogi")));
  o.engine_options = {"2:Threads=1"};
  CHECK(!make_think_engine_configs(o, configs).is_ok());
  o.engine_options = {"Threads=1"};
  CHECK(!make_think_engine_configs(o, configs).is_ok());
  o.engines.clear();
  o.engine_options.clear();
  REQUIRE(make_think_engine_configs(o, configs).is_ok());
  CHECK(configs[0].command.find("sashite' usi") != std::string::npos);
}

TEST_CASE("book think: positions from CSA records, up to a ply, by occurrences") {
  const std::string records = std::string(SASHITE_TEST_DATA_DIR) + "/records";
  std::vector<tools::ThinkWork> all, common;
  REQUIRE(tools::add_record_positions({records}, 4, 0, all).is_ok());
  REQUIRE(tools::add_record_positions({records}, 4, 2, common).is_ok());
  CHECK(all.size() > common.size());
  CHECK_FALSE(common.empty());
  const shogi::Position start;
  bool has_start = false;
  for (const tools::ThinkWork& w : common) {
    shogi::Position pos;
    REQUIRE(pos.set_sfen(w.sfen).is_ok());
    CHECK(pos.key() == w.key);
    has_start = has_start || w.key == start.key();
  }
  CHECK(has_start);  // every record begins there
  std::vector<tools::ThinkWork> none;
  base::Status s = tools::add_record_positions({records + "/missing"}, 4, 0, none);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find("missing") != std::string::npos);
}

TEST_CASE("book think: progress line with rate and ETA") {
  CHECK(format_duration_s(42) == "42s");
  CHECK(format_duration_s(185) == "3m05s");
  CHECK(format_duration_s(3720) == "1h02m");
  const std::string line = format_progress_line(10, 40, 60.0, 8, "positions", "");
  CHECK(line == "[##......] 10/40 positions 10.0/min ETA 3m00s");
  CHECK(format_progress_line(0, 40, 1.0, 4, "positions", "").find("ETA ?") != std::string::npos);
  CHECK(format_progress_line(40, 40, 120.0, 4, "positions", "").find("in 2m00s") !=
        std::string::npos);
}

TEST_CASE("book think: shards 0/2 and 1/2 merged equal a single run" *
          doctest::test_suite("slow")) {
  TempDir dir;
  BookThinkOptions single = engine_options(dir.path / "single", 3);
  run_think(single);
  const std::string expected = book_text(dir.path / "single");
  std::vector<ThinkWork> work;
  REQUIRE(add_sfen_file_positions(kPositionsFile, work).is_ok());
  CHECK(book_size(dir.path / "single") == work.size());
  CHECK(expected.find(" s16") != std::string::npos);  // kSourceThink

  std::vector<std::string> shards;
  for (int i = 0; i < 2; ++i) {
    BookThinkOptions o = engine_options(dir.path / ("shard-" + std::to_string(i)), 3);
    o.shard = std::to_string(i) + "/2";
    o.jobs = 2;
    run_think(o);
    shards.push_back(o.out_dir);
  }
  BookMergeStats stats;
  REQUIRE(merge_books(shards, (dir.path / "merged").string(), stats).is_ok());
  CHECK(stats.entries_read == work.size());
  CHECK(stats.entries_merged == 0);
  CHECK(book_text(dir.path / "merged") == expected);

  // Merging into a book that has the positions keeps the deeper values and adds counts.
  REQUIRE(
      merge_books({(dir.path / "single").string()}, (dir.path / "merged").string(), stats).is_ok());
  CHECK(stats.entries_merged == work.size());
  CHECK(book_text(dir.path / "merged") == expected);

  // A rerun finds everything done and writes nothing.
  std::ostringstream out, err;
  REQUIRE(run_book_think(single, out, err).is_ok());
  CHECK(out.str().find(std::to_string(work.size()) + " already in") != std::string::npos);
  CHECK(book_text(dir.path / "single") == expected);

  // Not a book: a clear error.
  const base::Status s =
      merge_books({(dir.path / "nothing").string()}, (dir.path / "out").string(), stats);
  CHECK(!s.is_ok());
}

TEST_CASE("book think: killed with SIGKILL after the first batch, resumed, equals one run" *
          doctest::test_suite("slow")) {
  TempDir dir;
  run_think(engine_options(dir.path / "whole", 4));
  const std::string expected = book_text(dir.path / "whole");

  const fs::path out = dir.path / "killed";
  const std::vector<std::string> argv = {"build/sashite",
                                         "book",
                                         "think",
                                         "--sfens",
                                         kPositionsFile,
                                         "--out",
                                         out.string(),
                                         "--depth",
                                         "4",
                                         "--batch",
                                         "1",
                                         "--engine",
                                         "build/sashite usi",
                                         "--engine",
                                         "build/sashite usi",
                                         "--option",
                                         "0:Threads=1",
                                         "--option",
                                         "0:USI_Hash=16",
                                         "--option",
                                         "1:Threads=1",
                                         "--option",
                                         "1:USI_Hash=16",
                                         "--option",
                                         "1:FutilityMode=off"};
  base::ChildProcess child;
  REQUIRE(child.start(argv, {}, "").is_ok());
  std::string line;
  bool batch_written = false;
  const auto deadline = base::ChildProcess::Clock::now() + std::chrono::seconds(60);
  while (!batch_written && child.read_line(line, deadline) == base::ChildProcess::ReadResult::kLine)
    batch_written = line.rfind("batch:", 0) == 0;
  REQUIRE(batch_written);
  child.kill();  // SIGKILL: the engines it started die with their pipes closed
  const size_t partial = book_size(out);
  CHECK(partial >= 1);
  std::vector<ThinkWork> work;
  REQUIRE(add_sfen_file_positions(kPositionsFile, work).is_ok());
  WARN(partial < work.size());  // killed in the middle (the run takes about a second)

  std::ostringstream o, e;
  REQUIRE(run_book_think(engine_options(out, 4), o, e).is_ok());
  CHECK(o.str().find(std::to_string(partial) + " already in") != std::string::npos);
  CHECK(book_text(out) == expected);
}

}  // namespace book_think_test
