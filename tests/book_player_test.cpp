// The client's book player and the book in front of an engine, on a small LevelDB book.
#include "client/book_player.h"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "book/book_db.h"
#include "client/book_front_player.h"
#include "shogi/movegen.h"
#include "shogi/notation.h"
#include "tests/search_request.h"
#include "tests/temp_dir.h"

namespace book_player_test {

using client::BookPlay;
using client::BookPlayer;
using client::BookPlayOptions;
using engine::BookMode;
using shogi::Position;

namespace {

// The start position after the USI moves (space separated), with its history.
Position after(const std::string& moves) {
  Position pos;
  size_t i = 0;
  while (i < moves.size()) {
    size_t j = moves.find(' ', i);
    if (j == std::string::npos) j = moves.size();
    shogi::Move m;
    REQUIRE(shogi::parse_usi_move(pos, moves.substr(i, j - i), m).is_ok());
    pos.do_move(m);
    i = j + 1;
  }
  return pos;
}

// A book of two positions in dir/book: the start (7g7f 60, 2g2f 30, 5g5f 10: weights 0.6,
// 0.3, 0.1) and after 7g7f (3c3d 5, 8c8d 5).
struct SmallBook {
  TempDir dir{"sashite-book-player"};
  std::string path = dir.sub("book");

  SmallBook() {
    book::BookDb db;
    REQUIRE(db.open(path, true).is_ok());
    std::vector<book::BookEntry> entries;
    auto add = [&](const Position& pos, std::vector<std::pair<std::string, uint32_t>> moves) {
      book::BookEntry e;
      e.key = pos.key();
      e.position = book::PackedPosition::from(pos);
      for (const auto& [usi, count] : moves) {
        book::BookMove m;
        REQUIRE(shogi::parse_usi_move(pos, usi, m.move).is_ok());
        m.count = count;
        e.moves.push_back(m);
      }
      entries.push_back(e);
    };
    add(Position(), {{"7g7f", 60}, {"2g2f", 30}, {"5g5f", 10}});
    add(after("7g7f"), {{"3c3d", 5}, {"8c8d", 5}});
    REQUIRE(db.put(entries, false).is_ok());
  }
};

BookPlayOptions options_for(const SmallBook& b, BookMode mode, uint64_t seed = 1) {
  BookPlayOptions o;
  o.path = b.path;
  o.mode = mode;
  o.seed = seed;
  return o;
}

std::string usi(const std::optional<BookPlay>& p) {
  return p ? shogi::format_usi_move(p->move) : std::string("none");
}

}  // namespace

TEST_CASE("book player: an exact hit plays a legal book move and says so") {
  SmallBook b;
  BookPlayer player;
  REQUIRE(player.open(options_for(b, BookMode::kExact)).is_ok());
  CHECK(player.active());
  CHECK(player.positions() == 2);
  const Position start;
  for (int i = 0; i < 20; ++i) {
    const std::optional<BookPlay> p = player.choose(start);
    REQUIRE(p);
    CHECK(shogi::legal_moves(start).contains(p->move));
    const std::string m = usi(p);
    CHECK((m == "7g7f" || m == "2g2f" || m == "5g5f"));
    CHECK(p->exact);
    CHECK(p->distance == 0);
    CHECK(p->choices == 3);
    CHECK(p->note.find("book exact " + m) == 0);
    CHECK(p->note.find("(3 moves, exact)") != std::string::npos);
  }
  const std::optional<BookPlay> reply = player.choose(after("7g7f"));
  REQUIRE(reply);
  CHECK((usi(reply) == "3c3d" || usi(reply) == "8c8d"));
  CHECK(reply->weight == doctest::Approx(0.5));
  CHECK(reply->count == 5);
}

TEST_CASE("book player: the book is read and closed, so another process may open it") {
  SmallBook b;
  BookPlayer player;
  REQUIRE(player.open(options_for(b, BookMode::kRelation)).is_ok());
  book::BookDb writer;
  CHECK(writer.open(b.path, false).is_ok());
  // And a second player loads it while the first one plays.
  BookPlayer second;
  writer.close();
  CHECK(second.open(options_for(b, BookMode::kRelation)).is_ok());
  CHECK(player.choose(Position()));
}

TEST_CASE(
    "book player: a position not in the book: none when exact, a similar one's move by relation") {
  SmallBook b;
  // White to move after 1g1f: differs from the book's position after 7g7f on 7g 7f 1g 1f.
  const Position q = after("1g1f");
  BookPlayer exact;
  REQUIRE(exact.open(options_for(b, BookMode::kExact)).is_ok());
  CHECK_FALSE(exact.choose(q));

  for (BookMode mode : {BookMode::kRelation, BookMode::kSimple}) {
    CAPTURE(int(mode));
    BookPlayer similar;
    REQUIRE(similar.open(options_for(b, mode)).is_ok());
    const std::optional<BookPlay> p = similar.choose(q);
    REQUIRE(p);
    CHECK((usi(p) == "3c3d" || usi(p) == "8c8d"));
    CHECK(shogi::legal_moves(q).contains(p->move));
    CHECK_FALSE(p->exact);
    CHECK(p->distance > 0);
    CHECK(p->note.find("similar, distance") != std::string::npos);
    // Too far for a max_distance below the 4 differing squares.
    BookPlayOptions near = options_for(b, mode);
    near.max_distance = 3;
    REQUIRE(similar.open(near).is_ok());
    CHECK_FALSE(similar.choose(q));
  }
}

TEST_CASE("book player: max_ply") {
  SmallBook b;
  BookPlayOptions o = options_for(b, BookMode::kExact);
  o.max_ply = 1;
  BookPlayer player;
  REQUIRE(player.open(o).is_ok());
  CHECK(player.choose(Position()));           // ply 1
  CHECK_FALSE(player.choose(after("7g7f")));  // ply 2, in the book
  // The start position at move number 100: out of the default 40, in with no limit.
  Position late;
  REQUIRE(
      late.set_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 100").is_ok());
  REQUIRE(player.open(options_for(b, BookMode::kExact)).is_ok());
  CHECK_FALSE(player.choose(late));
  o.max_ply = 0;
  REQUIRE(player.open(o).is_ok());
  CHECK(player.choose(late));
  CHECK(player.choose(after("7g7f")));
}

TEST_CASE("book player: min_weight drops the rare moves") {
  SmallBook b;
  BookPlayOptions o = options_for(b, BookMode::kExact);
  o.min_weight = 0.25;  // 7g7f 0.6 and 2g2f 0.3 stay, 5g5f 0.1 goes
  BookPlayer player;
  REQUIRE(player.open(o).is_ok());
  for (int i = 0; i < 200; ++i) {
    const std::optional<BookPlay> p = player.choose(Position());
    REQUIRE(p);
    CHECK(usi(p) != "5g5f");
    CHECK(p->choices == 2);
  }
  o.min_weight = 0.7;  // nothing is that common
  REQUIRE(player.open(o).is_ok());
  CHECK_FALSE(player.choose(Position()));
  o.min_weight = 1.5;
  CHECK_FALSE(player.open(o).is_ok());
  CHECK_FALSE(player.active());
}

TEST_CASE("book player: weighted choices follow the weights; a seed repeats them") {
  SmallBook b;
  BookPlayer player;
  REQUIRE(player.open(options_for(b, BookMode::kExact, 7)).is_ok());
  std::map<std::string, int> seen;
  constexpr int kDraws = 3000;
  for (int i = 0; i < kDraws; ++i) ++seen[usi(player.choose(Position()))];
  CHECK(seen.size() == 3);
  CHECK(double(seen["7g7f"]) / kDraws == doctest::Approx(0.6).epsilon(0.1));
  CHECK(double(seen["2g2f"]) / kDraws == doctest::Approx(0.3).epsilon(0.15));
  CHECK(double(seen["5g5f"]) / kDraws == doctest::Approx(0.1).epsilon(0.35));

  // Over seeds: the first choice varies, and each seed gives its sequence again.
  std::map<std::string, int> first;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    BookPlayer a, again;
    REQUIRE(a.open(options_for(b, BookMode::kExact, seed)).is_ok());
    REQUIRE(again.open(options_for(b, BookMode::kExact, seed)).is_ok());
    std::string sa, sb;
    for (int i = 0; i < 8; ++i) {
      sa += usi(a.choose(Position())) + " ";
      sb += usi(again.choose(Position())) + " ";
    }
    CHECK(sa == sb);
    ++first[sa.substr(0, 4)];
  }
  CHECK(first.size() >= 2);
  CHECK(first["7g7f"] > first["5g5f"]);
}

TEST_CASE("book player: best plays the top move") {
  SmallBook b;
  BookPlayOptions o = options_for(b, BookMode::kRelation);
  o.weighted = false;
  for (uint64_t seed : {1, 2, 3, 99}) {
    o.seed = seed;
    BookPlayer player;
    REQUIRE(player.open(o).is_ok());
    const std::optional<BookPlay> p = player.choose(Position());
    REQUIRE(p);
    CHECK(usi(p) == "7g7f");
    CHECK(p->weight == doctest::Approx(0.6));
    CHECK(p->count == 60);
    CHECK(p->note == "book relation 7g7f weight 0.60 count 60 (3 moves, exact)");
  }
}

TEST_CASE("book player: a book that cannot be read is an error naming it") {
  TempDir dir{"sashite-book-player"};
  BookPlayer player;
  const std::string missing = dir.sub("no-such-book");
  BookPlayOptions o;
  o.path = missing;
  base::Status s = player.open(o);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find(missing) != std::string::npos);
  CHECK(s.message().find("does not exist") != std::string::npos);
  CHECK_FALSE(player.active());
  CHECK_FALSE(player.choose(Position()));

  o.path = dir.path.string();  // a directory, but no book in it
  s = player.open(o);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().find(o.path) != std::string::npos);

  // A book that was open stays closed after a failed open: no silent fallback to it.
  SmallBook b;
  REQUIRE(player.open(options_for(b, BookMode::kExact)).is_ok());
  o.path = missing;
  CHECK_FALSE(player.open(o).is_ok());
  CHECK_FALSE(player.choose(Position()));
}

TEST_CASE("book player: mode off reads nothing and plays nothing") {
  BookPlayer player;
  BookPlayOptions o;
  o.path = "/nonexistent/sashite-book";
  o.mode = BookMode::kOff;
  CHECK(player.open(o).is_ok());
  CHECK_FALSE(player.active());
  CHECK(player.path().empty());
  CHECK_FALSE(player.choose(Position()));

  SmallBook b;
  o.path = b.path;
  CHECK(player.open(o).is_ok());
  CHECK_FALSE(player.choose(Position()));
}

TEST_CASE("book player: the default path is the engine's shipped book") {
  BookPlayer player;
  BookPlayOptions o;  // path ""
  const base::Status s = player.open(o);
  // Found or not (a build without the book), the directory is book/default.
  if (s.is_ok()) {
    CHECK(player.path().ends_with("book/default"));
    CHECK(player.choose(Position()));  // the shipped book knows the start position
  } else {
    CHECK(s.message().find("book/default") != std::string::npos);
  }
}

}  // namespace book_player_test

namespace book_player_test {

namespace {

// Records what reaches the engine behind the book.
class RecordingEngine : public client::EnginePlayer {
 public:
  base::Status prepare() override { return base::Status::ok(); }
  void new_game(const client::GameSummary&) override {}
  void start(const client::SearchRequest& r, AnswerCallback answer) override {
    started.push_back(r.id);
    client::EngineMove m;
    m.note = "engine";
    answer(r.id, m);
  }
  void ponderhit(uint64_t id, const client::SearchRequest&) override { hits.push_back(id); }
  void stop(uint64_t) override {}
  void wait() override {}
  std::vector<uint64_t> started, hits;
};

client::SearchRequest request_after(uint64_t id, std::vector<std::string> moves,
                                    bool ponder = false) {
  client::SearchRequest r;
  r.id = id;
  test_requests::set_usi_moves(r, moves);
  r.limits.ponder = ponder;
  return r;
}

}  // namespace

TEST_CASE("book front: book positions get the book's move, the rest go to the engine") {
  SmallBook b;
  BookPlayer book;
  REQUIRE(book.open(options_for(b, BookMode::kRelation)).is_ok());
  RecordingEngine engine;
  client::BookFrontPlayer front(book, engine);
  front.new_game(client::GameSummary());
  std::vector<std::pair<uint64_t, client::EngineMove>> answers;
  auto collect = [&](uint64_t id, client::EngineMove m) { answers.emplace_back(id, m); };
  front.start(request_after(1, {}), collect);
  REQUIRE(answers.size() == 1);
  CHECK(engine.started.empty());
  CHECK(answers[0].second.note.find("book relation") == 0);
  // A ponder request on a book position is answered by the book at its ponderhit.
  front.start(request_after(2, {"7g7f"}, true), collect);
  CHECK(answers.size() == 1);
  front.ponderhit(2, request_after(2, {"7g7f"}));
  REQUIRE(answers.size() == 2);
  CHECK(answers[1].first == 2);
  const std::string reply = shogi::format_usi_move(answers[1].second.move);
  CHECK((reply == "3c3d" || reply == "8c8d"));
  CHECK(engine.hits.empty());
  // Only similar (White to move after 1g1f, not in the book): the engine plays it, and the
  // rest of the game, even when a book position comes back.
  front.start(request_after(3, {"1g1f"}), collect);
  REQUIRE(answers.size() == 3);
  CHECK(answers[2].second.note == "engine");
  CHECK(engine.started == std::vector<uint64_t>{3});
  front.start(request_after(4, {}), collect);
  CHECK(engine.started == std::vector<uint64_t>{3, 4});
  // With a play distance that allows it, the similar position's move is played.
  RecordingEngine engine2;
  client::BookFrontPlayer near(book, engine2, 20);
  near.new_game(client::GameSummary());
  near.start(request_after(5, {"1g1f"}), collect);
  CHECK(engine2.started.empty());
  CHECK(answers.back().second.note.find("similar") != std::string::npos);
}

}  // namespace book_player_test
