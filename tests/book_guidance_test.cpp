// The engine's use of an opening book: bonuses that guide the search, book moves played
// outright, and the options that limit the book (with a scripted BookAdvisor).
#include <doctest/doctest.h>

#include <atomic>
#include <map>
#include <memory>

#include "engine/engine.h"
#include "shogi/notation.h"

namespace book_guidance_test {

using namespace engine;

namespace {

// A book that knows moves by position SFEN (without the move number) and counts probes.
class ScriptedBook : public BookAdvisor {
 public:
  std::map<std::string, std::vector<std::pair<std::string, double>>> moves;  // sfen -> usi, weight
  mutable std::atomic<int> probes{0};
  mutable BookRequest last_request;

  std::vector<BookSuggestion> suggest(const Position& pos,
                                      const BookRequest& request) const override {
    ++probes;
    last_request = request;
    std::vector<BookSuggestion> out;
    auto it = moves.find(pos.sfen(false));
    if (it == moves.end()) return out;
    for (const auto& [usi, weight] : it->second) {
      Move m;
      REQUIRE(parse_usi_move(pos, usi, m).is_ok());
      out.push_back({m, weight, 1, kValueNone});
    }
    return out;
  }
};

std::shared_ptr<ScriptedBook> attach(Engine& engine) {
  auto book = std::make_shared<ScriptedBook>();
  engine.set_book_loader([book](const std::string&, std::shared_ptr<const BookAdvisor>& out) {
    out = book;
    return Status::ok();
  });
  return book;
}

SearchResult search_depth(Engine& engine, const std::string& sfen, int depth) {
  REQUIRE(engine.set_position(sfen, {}).is_ok());
  SearchLimits limits;
  limits.depth = depth;
  return engine.search(limits);
}

const std::string kStart = Position::kStartSfen;
const std::string kStartNoPly = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";

}  // namespace

TEST_CASE("book guidance: a bonus makes a quiet book move the choice, and no book leaves it") {
  Engine engine;
  engine.set_option("USI_Hash", "16");
  auto book = attach(engine);
  book->moves[kStartNoPly] = {{"9g9f", 1.0}};
  REQUIRE(engine.set_option("BookBonus", "400").is_ok());
  SearchResult r = search_depth(engine, kStart, 5);
  CHECK(format_usi_move(r.best) == "9g9f");
  CHECK(r.depth == 5);      // searched, not played blind
  CHECK(book->probes > 1);  // the root and the replies (BookSearchPlies 2)

  REQUIRE(engine.set_option("USI_OwnBook", "false").is_ok());
  engine.new_game();
  r = search_depth(engine, kStart, 5);
  CHECK(format_usi_move(r.best) != "9g9f");
}

TEST_CASE("book guidance guides and does not dictate: a move that loses material is refused") {
  Engine engine;
  engine.set_option("USI_Hash", "16");
  auto book = attach(engine);
  // Black's rook on 5e, White's pawn on 5c: the book says 5e5d, where the pawn takes it.
  const std::string sfen = "4k4/9/4p4/9/4R4/9/9/9/4K4 b - 1";
  Position pos;
  REQUIRE(pos.set_sfen(sfen).is_ok());
  book->moves[pos.sfen(false)] = {{"5e5d", 1.0}};
  REQUIRE(engine.set_option("BookBonus", "120").is_ok());
  SearchResult r = search_depth(engine, sfen, 4);
  CHECK(format_usi_move(r.best) != "5e5d");
}

TEST_CASE("book: BookMoveChoice best plays the favourite without searching") {
  Engine engine;
  engine.set_option("USI_Hash", "16");
  auto book = attach(engine);
  book->moves[kStartNoPly] = {{"1g1f", 0.7}, {"9g9f", 0.3}};
  REQUIRE(engine.set_option("BookMoveChoice", "best").is_ok());
  SearchResult r = search_depth(engine, kStart, 5);
  CHECK(format_usi_move(r.best) == "1g1f");
  CHECK(r.depth == 0);
  CHECK(r.nodes == 0);
  REQUIRE(engine.set_option("BookMoveChoice", "weighted").is_ok());
  for (int i = 0; i < 8; ++i) {
    r = search_depth(engine, kStart, 5);
    const std::string m = format_usi_move(r.best);
    CHECK((m == "1g1f" || m == "9g9f"));
  }
}

TEST_CASE("book: options reach the probe; BookMaxPly and BookMode off silence the book") {
  Engine engine;
  engine.set_option("USI_Hash", "16");
  auto book = attach(engine);
  REQUIRE(engine.set_option("BookMode", "simple").is_ok());
  REQUIRE(engine.set_option("BookSimilarPositions", "7").is_ok());
  REQUIRE(engine.set_option("BookMaxDistance", "9").is_ok());
  REQUIRE(engine.set_option("BookNarrowCut", "5").is_ok());
  REQUIRE(engine.set_option("BookEvalDiff", "150").is_ok());
  REQUIRE(engine.set_option("BookDepthLimit", "16").is_ok());
  REQUIRE(engine.set_option("BookSearchPlies", "1").is_ok());
  search_depth(engine, kStart, 2);
  CHECK(book->probes == 1);  // the root only
  CHECK(book->last_request.mode == BookMode::kSimple);
  CHECK(book->last_request.k == 7);
  CHECK(book->last_request.max_distance == 9);
  CHECK(book->last_request.narrow_cut_percent == 5);
  CHECK(book->last_request.eval_diff_cp == 150);
  CHECK(book->last_request.min_depth == 16);

  book->probes = 0;
  REQUIRE(engine.set_option("BookMaxPly", "10").is_ok());
  search_depth(engine, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 11", 2);
  CHECK(book->probes == 0);
  REQUIRE(engine.set_option("BookMode", "off").is_ok());
  search_depth(engine, kStart, 2);
  CHECK(book->probes == 0);
}

TEST_CASE("book: a loader failure is reported once and the engine plays on without a book") {
  Engine engine;
  engine.set_option("USI_Hash", "16");
  int calls = 0;
  engine.set_book_loader([&calls](const std::string& path, std::shared_ptr<const BookAdvisor>&) {
    ++calls;
    return Status::error("book '" + path + "': not a book");
  });
  REQUIRE(engine.set_option("BookFile", "/nonexistent").is_ok());
  Status st = engine.prepare();
  CHECK_FALSE(st.is_ok());
  CHECK(st.message().find("/nonexistent") != std::string::npos);
  CHECK(st.message().find("without a book") != std::string::npos);
  CHECK(engine.prepare().is_ok());
  const SearchResult r = search_depth(engine, kStart, 3);
  CHECK(r.kind == SearchResult::Kind::kMove);
  CHECK(calls == 1);
}

}  // namespace book_guidance_test
