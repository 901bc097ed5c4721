// The NNUE evaluation: features, the network file, incremental against scratch, AVX2 against
// the plain code, symmetry.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/nnue/evaluator.h"
#include "engine/nnue/features.h"
#include "engine/nnue/network.h"
#include "nnue_test_network.h"
#include "shogi/movegen.h"
#include "shogi/position.h"
#include "test_positions.h"

namespace nnue_test {

using namespace engine;
using namespace engine::nnue;
using test_positions::colour_flipped;
using test_positions::from_sfen;
using test_positions::mirrored;
using test_positions::random_playout_sfens;

namespace {

std::string temporary_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("sashite_nnue_test_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

// The nodes the engine searches to `depth` after 7g7f 3c3d, its book off.
uint64_t nodes_at_depth(Engine& engine, int depth) {
  REQUIRE(engine.set_option("USI_OwnBook", "false"));
  REQUIRE(engine.prepare().is_ok());
  engine.new_game();
  REQUIRE(engine.set_position("startpos", {"7g7f", "3c3d"}).is_ok());
  SearchLimits limits;
  limits.depth = depth;
  const SearchResult r = engine.search(limits);
  CHECK(r.kind == SearchResult::Kind::kMove);
  return engine.nodes_searched();
}

}  // namespace

TEST_CASE("nnue: a full set has 40 distinct features per perspective, inside the range") {
  for (const std::string& sfen :
       {std::string(Position::kStartSfen),
        std::string("ln1g3+Rl/2skg4/ppppp1+B1p/9/9/9/PPPPP3P/2G6/LNK5L b BGSNr2sn6p 99"),
        random_playout_sfens(1, 1, 150).back()}) {
    const Position pos = from_sfen(sfen);
    for (Color c : {kBlack, kWhite}) {
      FeatureList list;
      active_features(pos, c, list);
      CAPTURE(sfen);
      CHECK(list.size == 40);
      std::set<int> seen(list.index.begin(), list.index.begin() + list.size);
      CHECK(int(seen.size()) == list.size);
      CHECK(*seen.rbegin() < kFeatureNb);
    }
  }
}

TEST_CASE("nnue: king frames") {
  // Black's king on 5i: file group 5, back rank, not mirrored.
  CHECK(king_frame(kBlack, make_square(4, 8)) == KingFrame{8, false});
  // 8h (file index 7) mirrors to file 2: edge group, second rank.
  CHECK(king_frame(kBlack, make_square(7, 7)) == KingFrame{1, true});
  CHECK(king_frame(kBlack, make_square(1, 7)) == KingFrame{1, false});
  // White's king on 5a is its back rank; on 2b (file index 1, rank b) it sees itself on 8h.
  CHECK(king_frame(kWhite, make_square(4, 0)) == KingFrame{8, false});
  CHECK(king_frame(kWhite, make_square(1, 1)) == KingFrame{1, true});
  // Far up the board: the last rank group.
  CHECK(king_frame(kBlack, make_square(2, 1)).bucket == 4 + 3);
  // No king: the 5i frame.
  CHECK(king_frame(kBlack, kSquareNone) == KingFrame{8, false});
}

TEST_CASE("nnue: the network file round-trips and every damage is named") {
  const Network net = test::random_network(3);
  const std::string path = temporary_path("net.nnue");
  REQUIRE(net.save(path).is_ok());
  CHECK(std::filesystem::file_size(path) < 20u * 1024 * 1024);
  Network loaded;
  REQUIRE(loaded.load(path).is_ok());
  CHECK(loaded.file_bytes() == net.file_bytes());

  const std::string bytes = net.file_bytes();
  Network n;
  auto error_of = [&](const std::string& b) {
    const Status st = n.parse(b, "x.nnue");
    REQUIRE_FALSE(st.is_ok());
    CHECK(st.message().find("x.nnue") != std::string::npos);
    return st.message();
  };
  CHECK(error_of("hello").find("not a sashite NNUE file") != std::string::npos);
  std::string wrong_version = bytes;
  wrong_version[16] = 9;
  CHECK(error_of(wrong_version).find("version 9") != std::string::npos);
  std::string wrong_shape = bytes;
  wrong_shape[24] = 1;
  CHECK(error_of(wrong_shape).find("shape") != std::string::npos);
  CHECK(error_of(bytes.substr(0, bytes.size() - 1)).find("cut short") != std::string::npos);
  std::string damaged = bytes;
  damaged[bytes.size() / 2] ^= 1;
  CHECK(error_of(damaged).find("checksum") != std::string::npos);
  CHECK(n.load(temporary_path("absent.nnue")).message().find("cannot open") != std::string::npos);
  std::filesystem::remove(path);
}

TEST_CASE("nnue: the incremental evaluator equals evaluation from scratch along random games") {
  const Network net = test::random_network(7);
  std::mt19937_64 rng(41);
  Evaluator evaluator;
  int checked = 0, distinct = 0;
  std::set<Value> values;
  for (int game = 0; game < 30; ++game) {
    Position pos;
    for (int ply = 0; ply < 200; ++ply) {
      const MoveList moves = legal_moves(pos);
      if (moves.empty()) break;
      // Now and then a null move, a take-back, or a step back and forth (as a search does).
      const uint64_t r = rng() % 16;
      if (r == 0 && !pos.in_check()) {
        pos.do_null_move();
        CHECK(evaluator.evaluate(pos, net) == evaluate(pos, net));
        pos.undo_null_move();
      } else if (r == 1 && pos.plies_played() > 2) {
        pos.undo_move();
        CHECK(evaluator.evaluate(pos, net) == evaluate(pos, net));
        continue;
      }
      pos.do_move(moves[int(rng() % uint64_t(moves.size()))]);
      if (rng() % 3 == 0) continue;  // some positions are skipped, as with TT hits
      const Value v = evaluator.evaluate(pos, net);
      REQUIRE(v == evaluate(pos, net));
      values.insert(v);
      ++checked;
    }
  }
  distinct = int(values.size());
  CHECK(checked > 2000);
  CHECK(distinct > 100);  // the random network is not constant
}

TEST_CASE("nnue: AVX2 and the plain code give the same values") {
  const Network net = test::random_network(9);
  std::vector<Value> with_simd;
  const std::vector<std::string> sfens = random_playout_sfens(5, 8, 150);
  for (const std::string& sfen : sfens) with_simd.push_back(evaluate(from_sfen(sfen), net));
  INFO("simd: ", simd_name());
  set_simd(false);
  CHECK(std::string(simd_name()) == "plain");
  for (size_t i = 0; i < sfens.size(); ++i)
    CHECK(evaluate(from_sfen(sfens[i]), net) == with_simd[i]);
  set_simd(true);
}

TEST_CASE("nnue: colour-flipped positions evaluate the same, and mirrored ones off file 5") {
  const Network net = test::random_network(13);
  int mirrored_checked = 0;
  for (const std::string& sfen : random_playout_sfens(77, 20, 160)) {
    const Position pos = from_sfen(sfen);
    CAPTURE(sfen);
    CHECK(evaluate(pos, net) == evaluate(colour_flipped(pos), net));
    if (file_of(pos.king_square(kBlack)) != 4 && file_of(pos.king_square(kWhite)) != 4) {
      CHECK(evaluate(pos, net) == evaluate(mirrored(pos), net));
      ++mirrored_checked;
    }
  }
  CHECK(mirrored_checked > 100);
}

TEST_CASE("nnue: a position without a king evaluates") {
  const Network net = test::random_network(2);
  const Position pos = from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
  Evaluator evaluator;
  CHECK(evaluator.evaluate(pos, net) == evaluate(pos, net));
}

TEST_CASE("nnue: EvalFile names a network; the search uses it; a damaged one is an error") {
  const std::string path = temporary_path("engine.nnue");
  REQUIRE(test::random_network(21).save(path).is_ok());
  // Depth 2: deeper, a random network's wide swings send reduced moves back a ply deeper
  // at ply after ply (the late-move re-search), so that the depth stops falling and the
  // tree grows far too large for a unit test; the two evaluations' trees differ at depth 1.
  auto search_nodes = [](Engine& engine) { return nodes_at_depth(engine, 2); };
  Engine linear, network;
  REQUIRE(linear.set_option("EvalFile", "linear"));
  REQUIRE(network.set_option("EvalFile", path));
  const uint64_t linear_nodes = search_nodes(linear), network_nodes = search_nodes(network);
  CHECK(linear_nodes != network_nodes);           // another evaluation, another tree
  CHECK(search_nodes(network) == network_nodes);  // and deterministic

  std::string bytes = test::random_network(21).file_bytes();
  bytes[bytes.size() - 7] ^= 1;
  const std::string damaged = temporary_path("damaged.nnue");
  {
    std::ofstream out(damaged, std::ios::binary);
    out << bytes;
  }
  Engine broken;
  REQUIRE(broken.set_option("EvalFile", damaged));
  const Status st = broken.prepare();
  REQUIRE_FALSE(st.is_ok());
  CHECK(st.message().find(damaged) != std::string::npos);
  CHECK(st.message().find("checksum") != std::string::npos);
  std::filesystem::remove(path);
  std::filesystem::remove(damaged);
}

TEST_CASE("nnue: EvalFile default is the shipped network, linear the shipped linear weights") {
  const std::string data = std::string(SASHITE_TEST_DATA_DIR) + "/../../data/";
  auto search_nodes = [](const std::string& eval_file) {
    Engine engine;
    if (!eval_file.empty()) REQUIRE(engine.set_option("EvalFile", eval_file));
    return nodes_at_depth(engine, 3);
  };
  const uint64_t by_default = search_nodes("");
  CHECK(search_nodes("default") == by_default);
  CHECK(search_nodes(data + "nnue/default.nnue") == by_default);
  const uint64_t linear = search_nodes("linear");
  CHECK(search_nodes(data + "weights/default.eval") == linear);
  CHECK(linear != by_default);
}

TEST_CASE("nnue: the shipped networks load and see material, with and without AVX2") {
  for (const char* name : {"candidate.nnue", "default.nnue"}) {
    CAPTURE(name);
    const std::string path = std::string(SASHITE_TEST_DATA_DIR) + "/../../data/nnue/" + name;
    Network net;
    const Status loaded = net.load(path);
    REQUIRE_MESSAGE(loaded.is_ok(), loaded.message());
    // Black a rook up (White's rook in Black's hand): better for Black, worse for White to
    // move, by several pawns either way; the start position is near even.
    const char* ahead = "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1";
    const char* behind = "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w R 1";
    Position pos;
    REQUIRE(pos.set_sfen(ahead).is_ok());
    const Value black_to_move = evaluate(pos, net);
    REQUIRE(pos.set_sfen(behind).is_ok());
    const Value white_to_move = evaluate(pos, net);
    REQUIRE(pos.set_sfen("startpos").is_ok());
    const Value start = evaluate(pos, net);
    CHECK(black_to_move > 500);
    CHECK(white_to_move < -500);
    CHECK(std::abs(start) < 200);
    set_simd(false);
    REQUIRE(pos.set_sfen(ahead).is_ok());
    CHECK(evaluate(pos, net) == black_to_move);
    set_simd(true);
  }
}

}  // namespace nnue_test
