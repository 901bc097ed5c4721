// Book retrieval: the similarity measures, the move filters, exact lookup, simple and
// relation-number retrieval on small hand-made books, and the index against a full scan.
#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "book/book.h"
#include "book/position_index.h"
#include "book/similarity.h"
#include "shogi/movegen.h"
#include "shogi/notation.h"
#include "shogi/position.h"
#include "tests/test_prng.h"
#include "tools/book/book_bench.h"

namespace book_retrieval_test {

using namespace base;
using namespace shogi;
using book::Book;
using book::BookEntry;
using book::BookMode;

namespace {

// The start position after the USI moves (space separated).
Position after(const std::string& moves) {
  Position pos;
  size_t i = 0;
  while (i < moves.size()) {
    size_t j = moves.find(' ', i);
    if (j == std::string::npos) j = moves.size();
    Move m;
    REQUIRE(parse_usi_move(pos, moves.substr(i, j - i), m).is_ok());
    pos.do_move(m);
    i = j + 1;
  }
  Position copy;  // a position without history, as the book stores it
  REQUIRE(copy.set(pos.setup()).is_ok());
  return copy;
}

BookEntry entry(const Position& pos, const std::vector<std::pair<std::string, uint32_t>>& moves) {
  BookEntry e;
  e.key = pos.key();
  e.position = book::PackedPosition::from(pos);
  for (const auto& [usi, count] : moves) {
    book::BookMove m;
    REQUIRE(parse_usi_move(pos, usi, m.move).is_ok());
    m.count = count;
    e.moves.push_back(m);
  }
  return e;
}

Square square(const char* usi) {  // "2f"
  return make_square(usi[0] - '1', usi[1] - 'a');
}

std::vector<std::string> sfens(const book::ProbeResult& r) {
  std::vector<std::string> out;
  for (const auto& p : r.positions) {
    Position pos;
    REQUIRE(pos.set(p.entry->position.setup()).is_ok());
    out.push_back(pos.sfen(false));
  }
  return out;
}

}  // namespace

TEST_CASE("book similarity: board and hand differences") {
  const Position start;
  const Position moved = after("7g7f 3c3d");
  const book::BoardRow a = book::board_row(start), b = book::board_row(moved);
  CHECK(book::board_difference(a.squares, a.squares) == 0);
  CHECK(book::board_difference(a.squares, b.squares) == 4);
  const book::SquareSet differ = book::differing_squares(a.squares, b.squares);
  CHECK(differ.count() == 4);
  for (const char* s : {"7g", "7f", "3c", "3d"}) CHECK(differ.test(square(s)));
  CHECK(!differ.test(square("5i")));

  Position captured;  // Black holds a pawn and a bishop, White two pawns
  REQUIRE(
      captured.set_sfen("lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b BPp 1").is_ok());
  const uint32_t h_start[2] = {start.hand(kBlack).raw(), start.hand(kWhite).raw()};
  const uint32_t h_captured[2] = {captured.hand(kBlack).raw(), captured.hand(kWhite).raw()};
  CHECK(book::hand_difference(h_start, h_captured) == 3);
  CHECK(book::simple_difference(book::PackedPosition::from(start),
                                book::PackedPosition::from(captured)) == 1 + 3);
}

TEST_CASE("book similarity: block summaries bound the board difference from below") {
  const book::BoardRow start = book::board_row(Position());
  const book::BoardSummary s0 = book::board_summary(start);
  CHECK(book::block_difference(s0, s0) == 0);
  // 7g and 7f lie in two blocks of file 7 (d-f and g-i).
  const book::BoardSummary s1 = book::board_summary(book::board_row(after("7g7f")));
  CHECK(book::block_difference(s0, s1) <= 2);
  book::BoardSummary spare = s0;
  spare.spare[0] = 9;  // spare bytes are not blocks
  CHECK(book::block_difference(s0, spare) == 0);
  std::vector<BookEntry> entries = tools::grow_book({entry(Position(), {{"7g7f", 1}})}, 2000, 5);
  test::Prng prng(5);
  int equal_bounds = 0;
  for (int i = 0; i < 3000; ++i) {
    const book::BoardRow a = book::board_row(entries[prng.below(2000)].position);
    const book::BoardRow b = book::board_row(entries[prng.below(2000)].position);
    const int bound = book::block_difference(book::board_summary(a), book::board_summary(b));
    const int d = book::board_difference(a.squares, b.squares);
    CHECK(bound <= d);
    CHECK(bound <= 27);
    if (d == 0) CHECK(bound == 0);
    equal_bounds += bound == d;
  }
  CHECK(equal_bounds > 100);  // the bound is tight for some pairs (218 of 3000 here)
}

TEST_CASE("book similarity: legality and the attacker-count filter") {
  const Position start;
  Move m;
  REQUIRE(parse_usi_move(start, "7g7f", m).is_ok());
  CHECK(book::translate_move(after("2g2f 8c8d"), m) == m);
  CHECK(book::translate_move(after("7g7f 8c8d"), m) == kMoveNone);  // no pawn on 7g

  // A White pawn on 7e attacks 7f: 7g7f there goes to a contested square.
  Position contested;
  REQUIRE(contested.set_sfen("lnsgkgsnl/1r5b1/pp1pppppp/9/2p6/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
              .is_ok());
  const Move there = book::translate_move(contested, m);
  REQUIRE(there != kMoveNone);
  const book::MoveAttackers in_book = book::count_move_attackers(start, m);
  const book::MoveAttackers in_query = book::count_move_attackers(contested, there);
  CHECK(in_book.enemy_to == 0);
  CHECK(in_query.enemy_to == 1);
  CHECK(in_book.own_to == 1);  // the pawn itself
  CHECK(!book::attackers_compatible(in_book, in_query, false));
  CHECK(book::attackers_compatible(in_book, in_book, false));

  book::MoveAttackers x{2, 1, 1, 0};
  CHECK(book::attackers_compatible(x, {3, 2, 1, 0}, false));   // own +1, enemy still > 0
  CHECK(!book::attackers_compatible(x, {4, 1, 1, 0}, false));  // own +2
  CHECK(!book::attackers_compatible(x, {2, 1, 1, 1}, false));  // origin newly attacked
  CHECK(book::attackers_compatible(x, {2, 1, 1, 1}, true));    // drops have no origin

  // In the book, the Black book position with 7g7f is skipped for the contested query.
  Book b({entry(start, {{"7g7f", 10}})});
  CHECK(b.probe(contested, BookMode::kSimple, 4, 20).positions.empty());
  CHECK(b.probe(after("7g7f 8c8d"), BookMode::kSimple, 4, 20).positions.empty());  // illegal
}

TEST_CASE("book exact lookup: hit, miss, and keys verified by the packed position") {
  const Position p1 = after("7g7f"), p2 = after("2g2f"), p3 = after("5g5f");
  Book b({entry(Position(), {{"7g7f", 1}}), entry(p1, {{"3c3d", 1}}), entry(p2, {{"8c8d", 1}})});
  CHECK(b.size() == 3);
  REQUIRE(b.find(p1) != nullptr);
  CHECK(b.find(p1)->key == p1.key());
  CHECK(b.find(p1)->position == book::PackedPosition::from(p1));
  CHECK(b.find(p3) == nullptr);
  const book::ProbeResult exact = b.probe(p1, BookMode::kExact, 4, 0);
  REQUIRE(exact.positions.size() == 1);
  CHECK(exact.positions[0].entry == b.find(p1));
  REQUIRE(exact.moves.size() == 1);
  CHECK(format_usi_move(exact.moves[0].move) == "3c3d");
  CHECK(b.probe(p3, BookMode::kExact, 4, 0).empty());
  CHECK(b.probe(p1, BookMode::kOff, 4, 100).empty());

  // A colliding key: an entry for p3 stored under p2's key comes first in the table, and
  // must not be returned for p2; p3 itself is not found under its own key.
  BookEntry forged = entry(p3, {{"8c8d", 1}});
  forged.key = p2.key();
  Book collide({forged, entry(p2, {{"8c8d", 2}})});
  REQUIRE(collide.find(p2) != nullptr);
  CHECK(collide.find(p2)->position == book::PackedPosition::from(p2));
  CHECK(collide.find(p2)->moves[0].count == 2);
  CHECK(collide.find(p3) == nullptr);
  Book only_forged({forged});
  CHECK(only_forged.find(p2) == nullptr);
}

// Query Q = 2g2f 8c8d. A = 2g2f 3c3d (differs on 8c 8d 3c 3d) plays 2f2e; B = 7g7f 8c8d
// (differs on 2g 2f 7g 7f) plays 6g6f; C = 2g2f 8c8d 2f2e 8d8e (differs on 2f 2e 8d 8e)
// plays 2e2d, illegal in Q. Simple: A and B tie at 4, C is skipped. Relation: A's move
// touches 2f and 2e, B's 6g and 6f, one vote each: those squares weigh 1 + 4 = 5, the rest
// 1; A stays at 4 (no weighted square differs), B becomes 1 + 5 + 1 + 1 = 8.
TEST_CASE("book retrieval: simple and relation-number on a hand-made book") {
  const Position q = after("2g2f 8c8d");
  const Position a = after("2g2f 3c3d"), bpos = after("7g7f 8c8d");
  const Position c = after("2g2f 8c8d 2f2e 8d8e");
  // White to move, a king elsewhere, a pawn in hand: never compared with a Black query.
  const Position far = after("5g5f 5c5d 5f5e 5d5e 5i4h");
  Book b({entry(Position(), {{"7g7f", 10}, {"2g2f", 5}}), entry(a, {{"2f2e", 10}}),
          entry(bpos, {{"6g6f", 10}}), entry(c, {{"2e2d", 10}}), entry(far, {{"3c3d", 1}})});

  // The start position differs from Q on 2g 2f 8c 8d: its 2g2f is illegal in Q, its 7g7f
  // legal: a fourth position at 4.
  book::ProbeResult simple = b.probe(q, BookMode::kSimple, 1, 4);
  CHECK(simple.positions.size() == 3);  // ties with the first are kept
  for (const auto& p : simple.positions) CHECK(p.distance == 4);
  CHECK(sfens(simple) ==
        std::vector<std::string>{Position().sfen(false), a.sfen(false), bpos.sfen(false)});
  // Candidates: start's 7g7f share 10/15, A's 2f2e 1, B's 6g6f 1, each divided by 1 + 4.
  REQUIRE(simple.moves.size() == 3);
  CHECK(format_usi_move(simple.moves[0].move) == "2f2e");   // ties by weight: count order
  CHECK(simple.moves[0].weight == doctest::Approx(0.375));  // 0.2 / (0.2 + 0.2 + 2/15)
  CHECK(format_usi_move(simple.moves[2].move) == "7g7f");
  CHECK(simple.moves[2].weight == doctest::Approx((2.0 / 15) / (0.4 + 2.0 / 15)));
  CHECK(simple.moves[2].count == 10);
  double sum = 0;
  for (const auto& m : simple.moves) sum += m.weight;
  CHECK(sum == doctest::Approx(1.0));

  // Relation: the start position's passing move 7g7f touches 7g and 7f with its share
  // 10/15 of the vote; A's 2f, 2e and B's 6g, 6f get a whole vote.
  book::ProbeResult relation = b.probe(q, BookMode::kRelation, 1, 4);
  const auto& w = relation.weights.weight;
  CHECK(w[square("2f")] == doctest::Approx(5.0));
  CHECK(w[square("2e")] == doctest::Approx(5.0));
  CHECK(w[square("6g")] == doctest::Approx(5.0));
  CHECK(w[square("6f")] == doctest::Approx(5.0));
  CHECK(w[square("7g")] == doctest::Approx(1.0 + 4.0 * 10 / 15));
  CHECK(w[square("7f")] == doctest::Approx(1.0 + 4.0 * 10 / 15));
  CHECK(w[square("5e")] == doctest::Approx(1.0));
  // Weighted: A 4; start 2g + 2f(5) + 8c + 8d = 8; B 2g + 2f(5) + 7g(11/3) + 7f(11/3) = 40/3.
  REQUIRE(relation.positions.size() == 1);
  CHECK(relation.positions[0].entry->position == book::PackedPosition::from(a));
  CHECK(relation.positions[0].distance == doctest::Approx(4.0));
  REQUIRE(relation.moves.size() == 1);
  CHECK(format_usi_move(relation.moves[0].move) == "2f2e");
  CHECK(relation.moves[0].weight == doctest::Approx(1.0));

  book::ProbeResult three = b.probe(q, BookMode::kRelation, 3, 4);
  REQUIRE(three.positions.size() == 3);
  CHECK(three.positions[1].distance == doctest::Approx(8.0));
  CHECK(three.positions[2].distance == doctest::Approx(40.0 / 3));

  // The threshold: nothing within 3. The far position is never retrieved.
  CHECK(b.probe(q, BookMode::kSimple, 100, 200).positions.size() == 3);
  CHECK(b.probe(q, BookMode::kSimple, 4, 3).positions.empty());
  CHECK(b.probe(q, BookMode::kRelation, 4, 3).positions.empty());
}

TEST_CASE("book weight table") {
  book::SquareTouches t;
  t.add_move(Move::board(square("7g"), square("7f"), false, make_piece(kBlack, kPawn)), 1.0);
  t.add_move(Move::drop(kPawn, square("7f"), kBlack), 0.5);
  CHECK(t.count[square("7f")] == 1.5);
  CHECK(t.count[square("7g")] == 1.0);
  const book::WeightTable w = book::WeightTable::from_touches(t, 2.0);
  CHECK(w.weight[square("7f")] == doctest::Approx(3.0));
  CHECK(w.weight[square("7g")] == doctest::Approx(1.0 + 2.0 / 1.5));
  CHECK(w.weight[square("1a")] == 1.0);
  const book::WeightTable flat = book::WeightTable::from_touches(book::SquareTouches(), 2.0);
  for (double x : flat.weight) CHECK(x == 1.0);

  const book::BoardRow s = book::board_row(Position()), m = book::board_row(after("7g7f"));
  const uint32_t none[2] = {0, 0}, pawn[2] = {1, 0};
  CHECK(book::weighted_difference(s.squares, none, m.squares, pawn, w) ==
        doctest::Approx(3.0 + (1.0 + 2.0 / 1.5) + 1));
}

TEST_CASE("book index: equals a full scan on random books") {
  // A random book: positions from random playouts from the start, each with random moves.
  const Position start;
  std::vector<BookEntry> seed_entries = {entry(start, {{"7g7f", 3}, {"2g2f", 2}})};
  for (const auto& [seed, size] : {std::pair<uint64_t, size_t>{1, 3000}, {2, 3000}, {3, 30000}}) {
    std::vector<BookEntry> entries = tools::grow_book(seed_entries, size, seed);
    REQUIRE(entries.size() == size);
    // Give some positions a second move so that candidates merge.
    test::Prng prng(seed * 77);
    for (BookEntry& e : entries) {
      Position pos;
      REQUIRE(pos.set(e.position.setup()).is_ok());
      const MoveList legal = legal_moves(pos);
      if (prng.below(2)) {
        book::BookMove m;
        m.move = legal[prng.below(legal.size())];
        m.count = uint32_t(prng.below(5));
        e.merge_move(m);
      }
    }
    std::vector<book::PackedPosition> from;
    for (const BookEntry& e : entries) from.push_back(e.position);
    Book b(std::move(entries));
    CHECK(b.index().size() >= size);  // one row per (position, move)
    const std::vector<Position> queries = tools::random_queries(from, b, 60, seed + 10);
    REQUIRE(queries.size() == 60);
    int nonempty = 0;
    for (size_t i = 0; i < queries.size(); ++i) {
      const Position& q = queries[i];
      CHECK(b.find(q) == nullptr);
      std::vector<book::QueryMove> moves;
      for (const Move m : legal_moves(q)) moves.push_back({m, book::count_move_attackers(q, m)});
      for (int k : {1, 3, 10}) {
        for (int d : {0, 4, 10, 30}) {
          CHECK(b.index().nearest(q, moves, k, d) == b.index().nearest_by_scan(q, moves, k, d));
        }
      }
      for (BookMode mode : {BookMode::kSimple, BookMode::kRelation}) {
        const int k = 1 + int(i % 5);
        const book::ProbeResult x = b.probe(q, mode, k, 10), y = b.probe_by_scan(q, mode, k, 10);
        REQUIRE(x.positions.size() == y.positions.size());
        for (size_t j = 0; j < x.positions.size(); ++j) {
          CHECK(x.positions[j].entry == y.positions[j].entry);
          CHECK(x.positions[j].distance == y.positions[j].distance);
        }
        REQUIRE(x.moves.size() == y.moves.size());
        for (size_t j = 0; j < x.moves.size(); ++j) {
          CHECK(x.moves[j].move == y.moves[j].move);
          CHECK(x.moves[j].weight == doctest::Approx(y.moves[j].weight));
          Position copy = q;
          CHECK(copy.is_legal(x.moves[j].move));
        }
        nonempty += !x.moves.empty();
      }
    }
    CHECK(nonempty > 20);  // the property is not vacuous
  }
}

TEST_CASE("book probes from several threads at once agree with one thread") {
  std::vector<BookEntry> seed_entries = {entry(Position(), {{"7g7f", 3}, {"2g2f", 2}})};
  std::vector<BookEntry> entries = tools::grow_book(seed_entries, 5000, 9);
  std::vector<book::PackedPosition> from;
  for (const BookEntry& e : entries) from.push_back(e.position);
  const Book b(std::move(entries));
  const std::vector<Position> queries = tools::random_queries(from, b, 40, 19);
  std::vector<book::ProbeResult> expected;
  for (const Position& q : queries) expected.push_back(b.probe(q, BookMode::kRelation, 3, 10));
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int round = 0; round < 5; ++round)
        for (size_t i = 0; i < queries.size(); ++i) {
          const book::ProbeResult r = b.probe(queries[i], BookMode::kRelation, 3, 10);
          bool same = r.positions.size() == expected[i].positions.size() &&
                      r.moves.size() == expected[i].moves.size();
          for (size_t j = 0; same && j < r.positions.size(); ++j)
            same = r.positions[j].entry == expected[i].positions[j].entry;
          if (!same) ++mismatches;
          if (b.find(queries[i]) != nullptr) ++mismatches;
        }
    });
  for (std::thread& t : threads) t.join();
  CHECK(mismatches == 0);
}

}  // namespace book_retrieval_test
