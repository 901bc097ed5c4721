// Book import and export: GPS TSV, joseki.dat, YaneuraOu text books, CSA records; round trips.
#include <doctest/doctest.h>
#include <osl/book/openingBook.h>
#include <osl/numEffectState.h>
#include <osl/usi.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "book/book_builder.h"
#include "book/book_db.h"
#include "book/book_plies.h"
#include "book/import_gps_tsv.h"
#include "book/import_joseki_dat.h"
#include "book/import_records.h"
#include "book/yaneuraou_book.h"
#include "shogi/csa_record.h"
#include "shogi/notation.h"
#include "shogi/position.h"

#ifndef SASHITE_TEST_DATA_DIR
#define SASHITE_TEST_DATA_DIR "tests/data"
#endif

namespace book_import_test {

namespace fs = std::filesystem;
using namespace book;

namespace {

const std::string kData = SASHITE_TEST_DATA_DIR;

std::vector<BookEntry> sorted_entries(const BookBuilder& b) { return b.sorted_entries(); }

// Exports to YaneuraOu text and imports it back.
BookBuilder through_yaneuraou(const BookBuilder& in, std::string* text_out = nullptr) {
  std::ostringstream text;
  REQUIRE(write_yaneuraou_book(sorted_entries(in), text).is_ok());
  BookBuilder out;
  ImportStats stats;
  base::Status s = import_yaneuraou_book_text(text.str(), "export", out, stats);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  CHECK(stats.skipped == 0);
  if (text_out) *text_out = text.str();
  return out;
}

// Equal as a YaneuraOu book keeps them: the positions with moves, and each move's count,
// value and depth (wins, losses and sources are not in that format).
void check_same_book(const BookBuilder& a, const BookBuilder& b) {
  std::vector<BookEntry> x, y;
  for (BookEntry& e : sorted_entries(a))
    if (!e.moves.empty()) x.push_back(e);
  for (BookEntry& e : sorted_entries(b))
    if (!e.moves.empty()) y.push_back(e);
  REQUIRE(x.size() == y.size());
  for (size_t i = 0; i < x.size(); ++i) {
    REQUIRE(x[i].key == y[i].key);
    CHECK(x[i].position == y[i].position);
    REQUIRE(x[i].moves.size() == y[i].moves.size());
    for (size_t j = 0; j < x[i].moves.size(); ++j) {
      CHECK(x[i].moves[j].move.raw() == y[i].moves[j].move.raw());
      CHECK(x[i].moves[j].count == y[i].moves[j].count);
      CHECK(x[i].moves[j].value == y[i].moves[j].value);
      CHECK(x[i].moves[j].depth == y[i].moves[j].depth);
    }
  }
}

const BookEntry& entry_of(const BookBuilder& b, const std::string& sfen) {
  shogi::Position pos;
  REQUIRE(pos.set_sfen(sfen).is_ok());
  auto it = b.entries().find(pos.key());
  REQUIRE(it != b.entries().end());
  return it->second;
}

const BookMove* find_move(const BookEntry& e, const std::string& usi) {
  for (const BookMove& m : e.moves)
    if (shogi::format_usi_move(m.move) == usi) return &m;
  return nullptr;
}

// ---- A joseki.dat writer for fixtures (OSL WeightedBook layout, see import_joseki_dat.h).

void put_int(std::string& out, int32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(char(uint32_t(v) >> shift));
}

int osl_ptype(shogi::PieceType t) {
  using namespace base;
  using namespace shogi;
  switch (t) {
    case kProPawn:
      return 2;
    case kProLance:
      return 3;
    case kProKnight:
      return 4;
    case kProSilver:
      return 5;
    case kHorse:
      return 6;
    case kDragon:
      return 7;
    case kKing:
      return 8;
    case kGold:
      return 9;
    case kPawn:
      return 10;
    case kLance:
      return 11;
    case kKnight:
      return 12;
    case kSilver:
      return 13;
    case kBishop:
      return 14;
    case kRook:
      return 15;
    default:
      return 0;
  }
}

int osl_square(shogi::Square s) { return (shogi::file_of(s) + 1) << 4 | (shogi::rank_of(s) + 1); }

struct DatMove {
  std::string usi;
  int next_state;
  int weight;
};
struct DatState {
  std::string sfen;
  int black_wins, white_wins;
  std::vector<DatMove> moves;
};

std::string make_joseki_dat(const std::vector<DatState>& states) {
  using namespace base;
  using namespace shogi;
  std::string header, state_bytes, move_bytes, board_bytes;
  int n_moves = 0;
  for (const DatState& st : states) {
    Position pos;
    REQUIRE(pos.set_sfen(st.sfen).is_ok());
    put_int(state_bytes, n_moves);
    put_int(state_bytes, int(st.moves.size()));
    put_int(state_bytes, st.black_wins);
    put_int(state_bytes, st.white_wins);
    const int owner_bits = pos.side_to_move() == kWhite ? int(0xF0000000u) : 0;
    for (const DatMove& dm : st.moves) {
      Move m;
      REQUIRE(parse_usi_move(pos, dm.usi, m).is_ok());
      int value = osl_square(m.to()) << 8 | osl_ptype(type_of(m.piece_after())) << 24 | owner_bits;
      if (!m.is_drop()) value |= osl_square(m.from()) | int(m.is_promotion()) << 19;
      put_int(move_bytes, value);
      put_int(move_bytes, dm.next_state);
      put_int(move_bytes, dm.weight);
      ++n_moves;
    }
    int pieces = 0;
    for (Square s = 0; s < kSquareNb; ++s) {
      const Piece p = pos.piece_on(s);
      if (p == kNoPiece) continue;
      put_int(board_bytes, (color_of(p) == kWhite ? int(0xFFF00000u) : 0) |
                               osl_ptype(type_of(p)) << 16 | osl_square(s));
      ++pieces;
    }
    for (Color c : {kBlack, kWhite})
      for (int t = kPawn; t <= kGold; ++t)
        for (int i = 0; i < pos.hand(c).count(PieceType(t)); ++i) {
          put_int(board_bytes, (c == kWhite ? int(0xFFF00000u) : 0) | osl_ptype(PieceType(t))
                                                                          << 16);
          ++pieces;
        }
    REQUIRE(pieces == 40);
    put_int(board_bytes, pos.side_to_move() == kWhite ? -1 : 0);
  }
  put_int(header, 1);
  put_int(header, int(states.size()));
  put_int(header, n_moves);
  put_int(header, 0);
  return header + state_bytes + move_bytes + board_bytes;
}

const char* const kStart = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const char* const kAfter76 = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
const char* const kAfter76_34 =
    "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
const char* const kAfterBishopTrade =
    "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4";

}  // namespace

TEST_CASE("book import: a directory where a book file is expected is named as one") {
  std::string text = "unchanged";
  const base::Status s = read_whole_file(kData + "/book", text);
  CHECK(s.message() == kData + "/book: Is a directory");
  CHECK(text == "unchanged");
}

TEST_CASE("book import: GPS TSV round trip through YaneuraOu") {
  BookBuilder gps;
  ImportStats stats;
  base::Status s = import_gps_tsv(kData + "/book/gps_sample.tsv", gps, stats);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  std::string text;
  BookBuilder back = through_yaneuraou(gps, &text);
  check_same_book(gps, back);
  CHECK(text.rfind("#YANEURAOU-DB2016 1.00\nsfen ", 0) == 0);
  // The start position: move number 1, 7g7f first, ponder = the best reply in the book.
  const std::string start_line = std::string("sfen ") + kStart + "\n";
  const size_t at = text.find(start_line);
  REQUIRE(at != std::string::npos);
  CHECK(text.substr(at + start_line.size(), 10) == "7g7f 3c3d ");
}

TEST_CASE("book import: joseki.dat fixture, and its round trip") {
  const std::string dat = make_joseki_dat({
      {kStart, 60, 40, {{"7g7f", 1, 700}, {"2g2f", 3, 300}}},
      {kAfter76, 35, 25, {{"3c3d", 2, 1000}}},
      {kAfter76_34, 20, 15, {{"8h2b+", 4, 5}}},
      {"lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2", 25, 15, {}},
      {kAfterBishopTrade, 11, 4, {}},
  });
  BookBuilder book;
  ImportStats stats;
  base::Status s = import_joseki_dat_bytes(dat, "fixture.dat", book, stats);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  CHECK(stats.rows == 4);
  CHECK(book.position_count() == 3);  // states with moves
  const BookEntry& start = entry_of(book, kStart);
  const BookMove* m76 = find_move(start, "7g7f");
  REQUIRE(m76);
  CHECK(m76->count == 700);
  CHECK(m76->wins == 35);  // state 1 seen from Black
  CHECK(m76->losses == 25);
  CHECK(m76->sources == kSourceJosekiDat);
  const BookMove* m34 = find_move(entry_of(book, kAfter76), "3c3d");
  REQUIRE(m34);
  CHECK(m34->wins == 15);  // state 2 seen from White
  CHECK(m34->losses == 20);
  const BookMove* trade = find_move(entry_of(book, kAfter76_34), "8h2b+");
  REQUIRE(trade);
  CHECK(trade->wins == 11);  // into a leaf: its counts are in joseki.dat
  check_same_book(book, through_yaneuraou(book));

  // Damage is reported with the name.
  s = import_joseki_dat_bytes(dat.substr(0, dat.size() - 1), "fixture.dat", book, stats);
  CHECK(s.message().rfind("fixture.dat: ", 0) == 0);
  std::string bad_move = dat;
  bad_move[16 + 5 * 16 + 2] = 0x55;  // the first move's destination: 5e (7g cannot go there)
  s = import_joseki_dat_bytes(bad_move, "fixture.dat", book, stats);
  CHECK(s.message().rfind("fixture.dat: state 0: move 0", 0) == 0);
}

TEST_CASE("book import: GPS's own joseki.dat agrees with OSL's reader") {
  const std::string path = "/usr/share/gpsshogi-data/data/joseki.dat";
  REQUIRE_MESSAGE(fs::exists(path),
                  path << " is missing (Debian gpsshogi-data): make deps installs it");
  BookBuilder book;
  ImportStats stats;
  base::Status s = import_joseki_dat(path, book, stats);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  osl::book::WeightedBook oracle(path.c_str());
  CHECK(stats.rows == 73498);
  int checked = 0;
  for (int state = 0; state < oracle.totalState(); state += 97) {
    const auto moves = oracle.moves(state);
    if (moves.empty()) continue;
    const osl::NumEffectState osl_state(oracle.board(state));
    std::string sfen = osl::usi::show(osl_state);
    if (sfen.rfind("sfen ", 0) == 0) sfen = sfen.substr(5);
    const BookEntry& e = entry_of(book, sfen);
    CHECK(e.moves.size() == moves.size());
    for (const osl::book::WMove& w : moves) {
      const BookMove* m = find_move(e, osl::usi::show(w.move));
      REQUIRE_MESSAGE(m, sfen << " " << osl::usi::show(w.move));
      CHECK(m->count == uint32_t(w.weight));
      const bool black = osl_state.turn() == osl::BLACK;
      CHECK(m->wins == uint32_t(black ? oracle.blackWinCount(w.stateIndex())
                                      : oracle.whiteWinCount(w.stateIndex())));
    }
    ++checked;
  }
  CHECK(checked > 400);
}

TEST_CASE("book import: YaneuraOu text book, values, skipped lines, round trip") {
  BookBuilder book;
  ImportStats stats;
  base::Status s = import_yaneuraou_book(kData + "/book/tiny_yaneuraou.db", book, stats);
  REQUIRE_MESSAGE(s.is_ok(), s.message());
  CHECK(stats.rows == 7);
  CHECK(stats.skipped == 1);  // 5e5d is not a move of the start position
  REQUIRE(stats.warnings.size() == 1);
  CHECK(stats.warnings[0].find("tiny_yaneuraou.db:7: USI move '5e5d'") != std::string::npos);
  const BookEntry& start = entry_of(book, kStart);
  CHECK(start.moves.size() == 3);
  const BookMove* m76 = find_move(start, "7g7f");
  REQUIRE(m76);
  CHECK(m76->value == 45);
  CHECK(m76->depth == 22);
  CHECK(m76->count == 7);
  CHECK(m76->sources == kSourceYaneuraou);
  CHECK_FALSE(find_move(start, "5g5f")->has_value());  // "0 0": no value
  const BookMove* no_count = find_move(entry_of(book, kAfter76), "8c8d");
  REQUIRE(no_count);
  CHECK(no_count->count == 1);
  CHECK(no_count->value == -60);
  CHECK(find_move(entry_of(book, kAfter76_34), "8h2b+")->move.is_promotion());
  const BookMove* depth1 = find_move(
      entry_of(book, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"), "4a3b");
  REQUIRE(depth1);
  CHECK(depth1->has_value());  // value 0 at depth 1 is a value

  std::string text;
  check_same_book(book, through_yaneuraou(book, &text));
  // Sorted by SFEN, move numbers from the start position through book moves.
  CHECK(text.find("sfen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3\n"
                  "8h2b+ none 120 10 1\n") != std::string::npos);
  CHECK(text.find(std::string("sfen ") + kStart +
                  "\n7g7f 3c3d 45 22 7\n2g2f none 30 20 3\n"
                  "5g5f none 0 0 1\n") != std::string::npos);
  // The position written with white to move but not reachable: move number 1.
  CHECK(text.find("LNSGKGSNL w - 1\n4a3b none 0 1 2\n") != std::string::npos);

  // Structural errors name the file and line.
  s = import_yaneuraou_book_text("#YANEURAOU-DB2016 1.00\n7g7f none 0 0 1\n", "b.db", book, stats);
  CHECK(s.message() == "b.db:2: a move line before any 'sfen' line");
  s = import_yaneuraou_book_text(std::string("sfen ") + kStart + "\n7g7f none x 0 1\n", "b.db",
                                 book, stats);
  CHECK(s.message() == "b.db:2: value 'x' is not a number");
}

TEST_CASE("book import: record winners from the special moves") {
  struct Case {
    const char* file;
    bool decisive;
    shogi::Color winner;
  } cases[] = {
      {"g000001.csa", true, shogi::kBlack},                  // checked below from the move count
      {"utf8_WCSC28_L2_HIM_NRK.csa", true, shogi::kBlack},   // %-ILLEGAL_ACTION
      {"utf8_WCSC28_L8_WOD_YUU.csa", true, shogi::kWhite},   // %+ILLEGAL_ACTION
      {"utf8_WCSC28_U1_USA_NAN.csa", false, shogi::kBlack},  // %SENNICHITE
      {"utf8_WCSC28_U4_HFW_APR.csa", false, shogi::kBlack},  // %CHUDAN
  };
  for (const Case& c : cases) {
    shogi::CsaRecord record;
    REQUIRE(shogi::load_csa_record_file(kData + "/records/" + c.file, record).is_ok());
    shogi::Color winner = shogi::kBlack;
    CHECK_MESSAGE(record_winner(record, winner) == c.decisive, c.file);
    if (std::string(c.file) == "g000001.csa") {
      // %TORYO: the side to move after the last move resigned.
      const shogi::Color to_move = record.moves.size() % 2 ? shogi::kWhite : shogi::kBlack;
      CHECK(winner == ~to_move);
    } else if (c.decisive) {
      CHECK_MESSAGE(winner == c.winner, c.file);
    }
  }
  shogi::CsaRecord kachi;
  REQUIRE(
      shogi::load_csa_record_file(kData + "/records/utf8_WCSC28_U1_TSG_HFW.csa", kachi).is_ok());
  shogi::Color winner = shogi::kWhite;
  REQUIRE(record_winner(kachi, winner));
  const shogi::Color to_move = kachi.moves.size() % 2 ? shogi::kWhite : shogi::kBlack;
  CHECK(winner == to_move);  // the declaring side wins
}

TEST_CASE("book import: CSA records, filters, round trip") {
  const std::vector<std::string> dir = {kData + "/records"};
  BookBuilder all;
  ImportStats stats;
  REQUIRE(import_csa_records(dir, RecordFilter(), all, stats).is_ok());
  CHECK(stats.files == 13);
  CHECK(stats.records == 13);
  CHECK(stats.skipped == 0);
  // Every game starts from the start position: 13 moves there, counted by first move.
  const BookEntry& start = entry_of(all, kStart);
  uint32_t first_moves = 0, decided = 0;
  for (const BookMove& m : start.moves) {
    first_moves += m.count;
    decided += m.wins + m.losses;
    CHECK(m.sources == kSourceRecords);
  }
  CHECK(first_moves == 13);
  CHECK(decided == 11);  // sennichite and chudan count neither
  check_same_book(all, through_yaneuraou(all));

  RecordFilter opening;
  opening.max_ply = 4;
  BookBuilder first4;
  ImportStats s4;
  REQUIRE(import_csa_records(dir, opening, first4, s4).is_ok());
  CHECK(s4.rows == 13 * 4);
  const auto plies = book_plies(first4.sorted_entries());
  for (const auto& [key, ply] : plies) CHECK(ply <= 3);

  RecordFilter decisive;
  decisive.result = RecordResultFilter::kDecisive;
  BookBuilder d;
  ImportStats sd;
  REQUIRE(import_csa_records(dir, decisive, d, sd).is_ok());
  CHECK(sd.records == 11);
  CHECK(sd.skipped == 2);

  RecordFilter winner;
  winner.result = RecordResultFilter::kWinner;
  BookBuilder w;
  ImportStats sw;
  REQUIRE(import_csa_records(dir, winner, w, sw).is_ok());
  for (const auto& [key, e] : w.entries())
    for (const BookMove& m : e.moves) {
      CHECK(m.losses == 0);
      CHECK(m.wins == m.count);
    }

  RecordFilter player;
  player.player = "gpsshogi";
  BookBuilder p;
  ImportStats sp;
  REQUIRE(import_csa_records(dir, player, p, sp).is_ok());
  CHECK(sp.records == 4);
  // gpsshogi is Black in g000001 and g000090 only: the start position has 2 moves of it.
  uint32_t n = 0;
  for (const BookMove& m : entry_of(p, kStart).moves) n += m.count;
  CHECK(n == 2);

  ImportStats missing;
  base::Status s = import_csa_records({kData + "/no-such-dir"}, RecordFilter(), p, missing);
  CHECK(s.message().find("no-such-dir: no such file or directory") != std::string::npos);
}

TEST_CASE("book import: every format through the LevelDB store and back") {
  std::string templ = (fs::temp_directory_path() / "sashite-book-import.XXXXXX").string();
  REQUIRE(::mkdtemp(templ.data()) != nullptr);
  const std::string dir = templ + "/book";
  BookBuilder yane;
  ImportStats stats;
  REQUIRE(import_yaneuraou_book(kData + "/book/tiny_yaneuraou.db", yane, stats).is_ok());
  {
    BookDb db;
    REQUIRE(db.open(dir, true).is_ok());
    REQUIRE(yane.write(db).is_ok());
  }
  std::vector<BookEntry> stored;
  REQUIRE(load_book(dir, stored).is_ok());
  std::ostringstream text;
  REQUIRE(write_yaneuraou_book(stored, text).is_ok());
  BookBuilder back;
  ImportStats again;
  REQUIRE(import_yaneuraou_book_text(text.str(), "stored", back, again).is_ok());
  check_same_book(yane, back);
  // A second import into the same directory adds up the counts.
  {
    BookDb db;
    REQUIRE(db.open(dir, true).is_ok());
    REQUIRE(yane.write(db).is_ok());
  }
  REQUIRE(load_book(dir, stored).is_ok());
  for (const BookEntry& e : stored)
    if (e.key == shogi::Position().key()) CHECK(e.moves.front().count == 14);
  fs::remove_all(templ);
}

}  // namespace book_import_test
