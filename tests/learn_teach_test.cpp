// Tests of `sashite learn teach`: positions from records, the output line, and a run with our
// own engine at a tiny depth that a rerun carries on without adding anything.
#include "tools/learn/learn_teach.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "shogi/notation.h"
#include "shogi/position.h"
#include "temp_dir.h"

namespace learn_teach_test {

using namespace tools;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

size_t data_lines(const std::string& path) {
  size_t n = 0;
  for (const std::string& line : lines_of(path)) n += !line.empty() && line[0] != '#';
  return n;
}

}  // namespace

TEST_CASE("learn teach: positions evenly spaced over each game from min_ply") {
  std::vector<ThinkWork> work;
  std::ostringstream err;
  int unreadable = 0;
  const base::Status s =
      pick_teach_positions(SASHITE_TEST_DATA_DIR "/learn_curve", 2, 2, work, err, unreadable);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  // a (6 moves): plies 3 and 5; b (3 moves): ply 2 once; c (4 moves): plies 2 and 3;
  // d: unreadable.
  CHECK(unreadable == 1);
  CHECK(err.str().find("d_broken.csa:8:") != std::string::npos);
  REQUIRE(work.size() == 5);
  shogi::Position pos;
  REQUIRE(pos.set_sfen(work[0].sfen).is_ok());
  CHECK(pos.game_ply() == 4);  // the SFEN move number: ply 3 + 1
  REQUIRE(pos.set_sfen(work[2].sfen).is_ok());
  CHECK(pos.game_ply() == 3);
}

TEST_CASE("learn teach: the line names the best-valued root move") {
  shogi::Position root;
  ThinkNode tree;
  ThinkAnswer a;
  a.best_move = "7g7f";
  a.value = 30;
  a.depth = 1;
  ThinkAnswer b = a;
  b.best_move = "2g2f";
  tree.answers = {a, b};
  shogi::Move m76, m26;
  REQUIRE(shogi::parse_usi_move(root, "7g7f", m76).is_ok());
  REQUIRE(shogi::parse_usi_move(root, "2g2f", m26).is_ok());
  ThinkAnswer reply;
  reply.best_move = "3c3d";
  reply.depth = 1;
  reply.value = 10;  // 7g7f: -10 for the root
  tree.children.push_back({m76, std::make_unique<ThinkNode>()});
  tree.children.back().node->answers = {reply, reply};
  reply.value = -40;  // 2g2f: +40
  tree.children.push_back({m26, std::make_unique<ThinkNode>()});
  tree.children.back().node->answers = {reply, reply};
  const std::string sfen = root.sfen();
  CHECK(format_teach_line(sfen, tree, {}) == sfen + "\t2g2f\t40\t7g7f 2g2f\n");
  ThinkNode resigned;
  ThinkAnswer r;
  r.best_move = "resign";
  resigned.answers = {r};
  CHECK(format_teach_line(sfen, resigned, {}) == "# no move\t" + sfen + "\tresign\n");
}

TEST_CASE("learn teach: two positions with our engine, then a rerun adds nothing") {
  TempDir dir("sashite-teach-test");
  const std::string sfens = dir.sub("positions.sfen");
  {
    std::ofstream f(sfens);
    f << "# two positions\n"
         "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n"
         "sfen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3\n"
         "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n";  // again
  }
  TeachOptions o;
  o.engines = {"build/sashite usi"};
  o.engine_options = {"0:Threads=1", "0:USI_Hash=16"};
  o.sfens_path = sfens;
  o.out_path = dir.sub("teach.tsv");
  o.depth = 1;
  o.tree_depth = 2;
  std::ostringstream out, err;
  base::Status s = run_learn_teach(o, out, err);
  INFO(out.str());
  INFO(err.str());
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  const std::vector<std::string> lines = lines_of(o.out_path);
  REQUIRE(lines.size() == 4);  // the settings, the columns, two positions
  CHECK(lines[0].rfind("# sashite learn teach: go depth 1; tree-depth 2", 0) == 0);
  CHECK(data_lines(o.out_path) == 2);
  for (size_t i = 2; i < 4; ++i) {
    const std::string& line = lines[i];
    const size_t tab = line.find('\t');
    REQUIRE(tab != std::string::npos);
    shogi::Position pos;
    REQUIRE(pos.set_sfen(line.substr(0, tab)).is_ok());
    const std::string move = line.substr(tab + 1, line.find('\t', tab + 1) - tab - 1);
    shogi::Move m;
    CHECK_MESSAGE(shogi::parse_usi_move(pos, move, m).is_ok(), line);
  }

  // The same --out without --resume: refused; with it: nothing to do, nothing added.
  std::ostringstream out2, err2;
  s = run_learn_teach(o, out2, err2);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find("--resume") != std::string::npos);
  o.resume = true;
  std::ostringstream out3, err3;
  s = run_learn_teach(o, out3, err3);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  CHECK(out3.str().find("2 already in") != std::string::npos);
  CHECK(lines_of(o.out_path) == lines);

  // A killed run's unfinished last line is cut off, and its position searched again.
  {
    std::ofstream f(o.out_path, std::ios::trunc);
    for (size_t i = 0; i < 3; ++i) f << lines[i] << "\n";
    f << lines[3].substr(0, 20);
  }
  std::ostringstream out4, err4;
  s = run_learn_teach(o, out4, err4);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  CHECK(out4.str().find("1 already in") != std::string::npos);
  CHECK(data_lines(o.out_path) == 2);
  CHECK(lines_of(o.out_path).size() == 4);
}

TEST_CASE("learn teach: option checks") {
  // std::string(...): GCC 12's -Wrestrict misfires on assigning short literals.
  TeachOptions o;
  o.out_path = std::string("teach.tsv");
  CHECK_FALSE(validate_teach_options(o).is_ok());  // no input
  o.sfens_path = std::string("positions.sfen");
  CHECK(validate_teach_options(o).is_ok());
  o.records_dir = std::string("records");
  CHECK_FALSE(validate_teach_options(o).is_ok());  // two inputs
  o.records_dir.clear();
  o.engines = {"/usr/games/gpsusi"};
  o.depth = 3;
  const base::Status s = validate_teach_options(o);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find("--byoyomi") != std::string::npos);
  o.depth = 0;
  o.byoyomi_ms = 1000;
  CHECK(validate_teach_options(o).is_ok());
}

}  // namespace learn_teach_test
