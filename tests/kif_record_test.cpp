// KIF records: the writer against a hand-checked fixture, BOD diagrams, round trips over the
// CSA fixtures, other programs' KIF, errors, and `sashite records convert`.
#include "shogi/kif_record.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "shogi/csa_notation.h"
#include "shogi/csa_record.h"
#include "shogi/notation.h"
#include "shogi/position.h"
#include "tests/file_text.h"
#include "tests/temp_dir.h"
#include "tools/records/records_convert.h"

#ifndef SASHITE_TEST_DATA_DIR
#define SASHITE_TEST_DATA_DIR "tests/data"
#endif

namespace kif_record_test {

using namespace base;
using namespace shogi;

namespace {

const std::string kDataDir = SASHITE_TEST_DATA_DIR;
const std::string kShortGameCsa = kDataDir + "/kif/short_game.csa";
const std::string kShortGameKif = kDataDir + "/kif/short_game.kifu";

CsaRecord load_csa(const std::string& path) {
  CsaRecord rec;
  Status status = load_csa_record_file(path, rec);
  REQUIRE_MESSAGE(status.is_ok(), status.message());
  return rec;
}

CsaRecord read_kif(const std::string& text, const std::string& name = "test.kifu") {
  CsaRecord rec;
  Status status = read_kif_record(text, name, rec);
  REQUIRE_MESSAGE(status.is_ok(), status.message());
  return rec;
}

// The error of reading `text`; fails the test if it reads.
std::string kif_error(const std::string& text) {
  CsaRecord rec;
  Status status = read_kif_record(text, "bad.kifu", rec);
  CHECK_MESSAGE(!status.is_ok(), text);
  return status.message();
}

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, from);
  return text.replace(at, from.size(), to);
}

// The side that loses a game ending in a foul; the side to move for kIllegalMove.
Color foul_loser(CsaSpecialMove s, Color to_move) {
  if (s == CsaSpecialMove::kBlackIllegalAction) return kBlack;
  if (s == CsaSpecialMove::kWhiteIllegalAction) return kWhite;
  return to_move;
}

bool is_foul(CsaSpecialMove s) {
  return s == CsaSpecialMove::kIllegalMove || s == CsaSpecialMove::kBlackIllegalAction ||
         s == CsaSpecialMove::kWhiteIllegalAction;
}

// What a KIF round trip keeps of a CSA record: everything but the version, the encoding,
// fractions of seconds, a missing time (read back as 0) and which CSA mark names a foul.
void check_same_game(const CsaRecord& a, const CsaRecord& b) {
  CHECK(a.black_name == b.black_name);
  CHECK(a.white_name == b.white_name);
  CHECK(a.info == b.info);
  CHECK(a.comments == b.comments);
  CHECK(same_position_setup(a.initial, b.initial));
  REQUIRE(a.moves.size() == b.moves.size());
  for (size_t i = 0; i < a.moves.size(); ++i) {
    INFO("move " << i + 1);
    CHECK(a.moves[i].move == b.moves[i].move);
    CHECK(a.moves[i].text == b.moves[i].text);
    CHECK(a.moves[i].time_ms.value_or(0) / 1000 * 1000 == b.moves[i].time_ms.value_or(0));
    CHECK(a.moves[i].comments == b.moves[i].comments);
  }
  const Color to_move = csa_final_position(a).side_to_move();
  if (is_foul(a.result)) {
    CHECK(is_foul(b.result));
    CHECK(foul_loser(a.result, to_move) == foul_loser(b.result, to_move));
  } else {
    CHECK(a.result == b.result);
  }
  CHECK(a.result_time_ms.value_or(0) / 1000 * 1000 == b.result_time_ms.value_or(0));
  CHECK(a.result_comments == b.result_comments);
  CHECK(a.has_rejected_last_move() == b.has_rejected_last_move());
  if (a.has_rejected_last_move() && b.has_rejected_last_move())
    CHECK(a.rejected_last_move->text == b.rejected_last_move->text);
}

// A record from a position and CSA moves, with no times.
CsaRecord record_from(const std::string& sfen, const std::vector<std::string>& moves,
                      CsaSpecialMove result) {
  CsaRecord rec;
  REQUIRE(parse_sfen(sfen, rec.initial).is_ok());
  Position pos;
  REQUIRE(pos.set(rec.initial).is_ok());
  for (const std::string& text : moves) {
    CsaRecordMove m;
    Status status = parse_csa_move(pos, text, m.move);
    REQUIRE_MESSAGE(status.is_ok(), status.message());
    m.text = text;
    pos.do_move(m.move);
    rec.moves.push_back(m);
  }
  rec.result = result;
  return rec;
}

const std::string kBodSfen = "l3k4/9/1+R2+P4/9/9/9/9/9/4K3L w 2GSPr2b2g3s4n2l15p 1";
const std::string kBodKif =
    "#KIF version=2.0 encoding=UTF-8\n"
    "後手の持駒：飛　角二　金二　銀三　桂四　香二　歩十五　\n"
    "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
    "+---------------------------+\n"
    "|v香 ・ ・ ・v玉 ・ ・ ・ ・|一\n"
    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n"
    "| ・ 龍 ・ ・ と ・ ・ ・ ・|三\n"
    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n"
    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n"
    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n"
    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n"
    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n"
    "| ・ ・ ・ ・ 玉 ・ ・ ・ 香|九\n"
    "+---------------------------+\n"
    "先手の持駒：金二　銀　歩　\n"
    "後手番\n"
    "手数----指手---------消費時間--\n"
    "   1 ６一玉(51)   ( 0:00/00:00:00)\n"
    "   2 ５二と(53)   ( 0:00/00:00:00)\n"
    "   3 ７一玉(61)   ( 0:00/00:00:00)\n"
    "   4 中断         ( 0:00/00:00:00)\n"
    "まで3手で中断\n";

}  // namespace

TEST_CASE("KIF record: the short game is written exactly as the hand-checked fixture") {
  const CsaRecord rec = load_csa(kShortGameCsa);
  const std::string expected = read_text(kShortGameKif);
  REQUIRE(!expected.empty());
  CHECK(write_kif_record(rec) == expected);
}

TEST_CASE("KIF record: the fixture reads back as the CSA record") {
  const CsaRecord csa = load_csa(kShortGameCsa);
  const std::string kif = read_text(kShortGameKif);
  const CsaRecord rec = read_kif(kif);
  check_same_game(csa, rec);
  CHECK(rec.moves[3].text == "-3122GI");  // 同　銀(31)
  CHECK(rec.moves[8].text == "+3423KA");  // the declined promotion
  CHECK(rec.moves[13].text == "-8687TO");
  CHECK(*rec.moves[4].time_ms == 65000);
  CHECK(rec.moves[0].comments == std::vector<std::string>{"* 30 -3334FU"});
  CHECK(*rec.find_info("TIME") == "600+10+0");
  CHECK(rec.result == CsaSpecialMove::kToryo);
  CHECK(*rec.result_time_ms == 15000);

  SUBCASE("with a BOM and CRLF line ends") {
    std::string crlf = "\xEF\xBB\xBF";
    for (char c : kif) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    check_same_game(csa, read_kif(crlf));
  }
  SUBCASE("不成 written out, and 同 without the full-width space") {
    std::string text = replace_once(kif, "２三角(34)  ", "２三角不成(34)");
    text = replace_once(text, "同　銀(31)", "同銀(31)");
    check_same_game(csa, read_kif(text));
  }
  SUBCASE("without times and the header line") {
    std::string text;
    std::istringstream in(kif);
    for (std::string line; std::getline(in, line);) {
      if (line.starts_with("手数----")) continue;
      const size_t time = line.find(" (");
      if (line.starts_with(" ") && time != std::string::npos) line.erase(time);
      text += line + "\n";
    }
    const CsaRecord untimed = read_kif(text);
    REQUIRE(untimed.moves.size() == csa.moves.size());
    CHECK(!untimed.moves[0].time_ms.has_value());
    CHECK(untimed.moves[17].move == csa.moves[17].move);
    CHECK(untimed.result == CsaSpecialMove::kToryo);
  }
}

TEST_CASE("KIF record: a start position other than 平手 is a BOD diagram") {
  CsaRecord rec = record_from(kBodSfen, {"-5161OU", "+5352TO", "-6171OU"}, CsaSpecialMove::kChudan);
  CHECK(write_kif_record(rec) == kBodKif);
  const CsaRecord back = read_kif(kBodKif);
  CHECK(same_position_setup(back.initial, rec.initial));
  CHECK(format_sfen(back.initial) == kBodSfen);
  REQUIRE(back.moves.size() == 3);
  CHECK(back.moves[1].text == "+5352TO");
  CHECK(back.result == CsaSpecialMove::kChudan);

  SUBCASE("the two-piece handicap of the learn fixture") {
    const CsaRecord handicap = load_csa(kDataDir + "/learn_label/handicap.csa");
    const std::string kif = write_kif_record(handicap);
    CHECK(kif.find("| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n") != std::string::npos);
    CHECK(kif.find("後手番\n") != std::string::npos);
    CHECK(kif.find("手合割") == std::string::npos);
    check_same_game(handicap, read_kif(kif));
  }
  SUBCASE("手合割 names the standard handicaps") {
    const CsaRecord two = read_kif("手合割：二枚落ち\n   1 ３四歩(33)\n");
    CHECK(format_csa_position(two.initial) == "PI82HI22KA\n-\n");
    CHECK(two.moves[0].text == "-3334FU");
  }
  SUBCASE("board cells as other programs write them") {
    // Kifu for iPhone and some sites: 王 for the king, hands separated by ASCII spaces.
    std::string text = replace_once(kBodKif, "v玉", "v王");
    text = replace_once(text, "金二　銀　歩　", "金二 銀 歩");
    CHECK(same_position_setup(read_kif(text).initial, rec.initial));
  }
}

TEST_CASE("KIF record: CSA -> KIF -> CSA round trips over the CSA fixtures") {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kDataDir))
    if (entry.is_regular_file() && entry.path().extension() == ".csa")
      files.push_back(entry.path().string());
  REQUIRE(files.size() >= 20);
  int round_trips = 0;
  for (const std::string& file : files) {
    CAPTURE(file);
    CsaRecord csa;
    if (!load_csa_record_file(file, csa)) continue;  // fixtures that are broken on purpose
    const std::string kif = write_kif_record(csa);
    const CsaRecord back = read_kif(kif, file + ".kifu");
    check_same_game(csa, back);
    // And the KIF-read record is a CSA record again.
    CsaRecord again;
    Status status = read_csa_record(write_csa_record(back, CsaVersion::kV30), "again.csa", again);
    REQUIRE_MESSAGE(status.is_ok(), status.message());
    check_same_game(csa, again);
    CHECK(write_kif_record(again) == kif);
    ++round_trips;
  }
  CHECK(round_trips >= 20);
}

TEST_CASE("KIF record: endings and their summary lines") {
  struct Case {
    CsaSpecialMove result;
    const char* line;
    const char* summary;
  };
  // After 7776FU 3334FU it is Black's turn.
  const Case cases[] = {
      {CsaSpecialMove::kToryo, "   3 投了         ", "まで2手で後手の勝ち"},
      {CsaSpecialMove::kChudan, "   3 中断         ", "まで2手で中断"},
      {CsaSpecialMove::kSennichite, "   3 千日手       ", "まで2手で千日手"},
      {CsaSpecialMove::kTimeUp, "   3 切れ負け     ", "まで2手で時間切れにより後手の勝ち"},
      {CsaSpecialMove::kKachi, "   3 入玉勝ち     ", "まで2手で先手の入玉勝ち"},
      {CsaSpecialMove::kJishogi, "   3 持将棋       ", "まで2手で持将棋"},
      {CsaSpecialMove::kMaxMoves, "   3 持将棋       ", "まで2手で持将棋"},
      {CsaSpecialMove::kTsumi, "   3 詰み         ", "まで2手で詰み"},
      {CsaSpecialMove::kIllegalMove, "   3 反則負け     ", "まで2手で先手の反則負け"},
      {CsaSpecialMove::kWhiteIllegalAction, "   3 反則勝ち     ", "まで2手で先手の反則勝ち"},
  };
  for (const Case& c : cases) {
    CAPTURE(csa_special_move_name(c.result));
    const CsaRecord rec = record_from("startpos", {"+7776FU", "-3334FU"}, c.result);
    const std::string kif = write_kif_record(rec);
    CHECK(kif.find(std::string("\n") + c.line + "( 0:00/00:00:00)\n" + c.summary + "\n") !=
          std::string::npos);
    const CsaRecord back = read_kif(kif);
    if (c.result != CsaSpecialMove::kMaxMoves) CHECK(back.result == c.result);
    // Without the special move line the summary line gives the result.
    std::string summary_only = replace_once(kif, std::string(c.line) + "( 0:00/00:00:00)\n", "");
    if (c.result != CsaSpecialMove::kMaxMoves) CHECK(read_kif(summary_only).result == c.result);
  }
}

TEST_CASE("KIF record: info lines and time controls") {
  CsaRecord rec = record_from("startpos", {}, CsaSpecialMove::kNone);
  rec.info = {{"TIME", "300+0+10"},       {"TIME+", "5400+60+0"}, {"TIME-", "0+10+0"},
              {"TIME_LIMIT", "00:25+00"}, {"MAX_MOVES", "256"},   {"JISHOGI", "27"},
              {"SITE", "floodgate"},      {"CUSTOM", "x:y"}};
  const std::string kif = write_kif_record(rec);
  CHECK(kif ==
        "#KIF version=2.0 encoding=UTF-8\n"
        "持ち時間：5分+1手10秒加算\n"
        "先手持ち時間：1時間30分+1分\n"
        "後手持ち時間：0分+10秒\n"
        "持ち時間：25分\n"
        "最大手数：256\n"
        "持将棋：27\n"
        "場所：floodgate\n"
        "CUSTOM：x:y\n"
        "手合割：平手\n"
        "手数----指手---------消費時間--\n");
  const CsaRecord back = read_kif(kif);
  REQUIRE(back.info.size() == rec.info.size());
  CHECK(back.info[0] == std::pair<std::string, std::string>{"TIME", "300+0+10"});
  CHECK(back.info[1] == std::pair<std::string, std::string>{"TIME+", "5400+60+0"});
  CHECK(back.info[2] == std::pair<std::string, std::string>{"TIME-", "0+10+0"});
  CHECK(back.info[3] == std::pair<std::string, std::string>{"TIME", "1500+0+0"});  // same rule
  for (size_t i = 4; i < rec.info.size(); ++i) CHECK(back.info[i] == rec.info[i]);

  // Other programs' forms: ShogiHome writes CSA values, Kifu for Windows its own words.
  const CsaRecord other = read_kif(
      "持ち時間：30+0+5\n先手持ち時間：00:30+05\n後手持ち時間：15分+60秒\n秒読み：30秒\n"
      "持ち時間：各5時間\n");
  CHECK(other.info[0] == std::pair<std::string, std::string>{"TIME", "30+0+5"});
  CHECK(other.info[1] == std::pair<std::string, std::string>{"先手持ち時間", "00:30+05"});
  CHECK(other.info[2] == std::pair<std::string, std::string>{"TIME-", "900+60+0"});
  CHECK(other.info[3] == std::pair<std::string, std::string>{"秒読み", "30秒"});
  CHECK(other.info[4] == std::pair<std::string, std::string>{"持ち時間", "各5時間"});
}

TEST_CASE("KIF record: files as Kifu for Windows and ShogiHome write them") {
  const std::string text =
      "# ----  Kifu for Windows V7 V7.70 棋譜ファイル  ----\n"
      "開始日時：2021/10/17\n"
      "手合割：平手　　\n"
      "下手：ZhangJingding\n"
      "上手：Sota_FUJII\n"
      "*before the first move\n"
      "手数----指手---------消費時間--\n"
      "1   ７六歩(77)   (0:23/0:0:23)\n"
      "&しおり\n"
      "2   ３四歩(33)   (0:29/0:0:29)+\n"
      "   3 ２二角成(88) ( 0:04/00:00:27)\n"
      "   4 同　銀(31)   (70:05/01:10:34)\n"
      "   5 ４五角打     ( 0:02/00:00:29)\n"
      "   6 中断         ( 0:03/01:10:37)\n"
      "*after the end\n"
      "まで5手で中断\n"
      "\n"
      "変化：2手\n"
      "   2 ８四歩(83)   ( 0:01/00:00:01)\n";
  const CsaRecord rec = read_kif(text);
  CHECK(rec.black_name == "ZhangJingding");
  CHECK(rec.white_name == "Sota_FUJII");
  CHECK(*rec.find_info("START_TIME") == "2021/10/17");
  CHECK(rec.comments == std::vector<std::string>{"before the first move"});
  REQUIRE(rec.moves.size() == 5);
  CHECK(*rec.moves[0].time_ms == 23000);
  CHECK(*rec.moves[3].time_ms == (70 * 60 + 5) * 1000);
  CHECK(rec.moves[1].text == "-3334FU");  // the main line, not the variation
  CHECK(rec.result == CsaSpecialMove::kChudan);
  CHECK(*rec.result_time_ms == 3000);
  CHECK(rec.result_comments == std::vector<std::string>{"after the end"});
}

TEST_CASE("KIF record: errors name the line and the column") {
  const std::string game = read_text(kShortGameKif);
  SUBCASE("an illegal move") {
    CHECK(kif_error(replace_once(kBodKif, "   3 ７一玉(61)", "   3 ７二玉(61)")) ==
          "bad.kifu:20:6: illegal move ７二玉(61): leaves the king in check");
    CHECK(kif_error(replace_once(game, "   2 ３四歩(33)", "   2 ３五歩(33)")) ==
          "bad.kifu:12:6: illegal move ３五歩(33): FU on 33 cannot move to 35");
    CHECK(kif_error(replace_once(game, "   5 ４五角打", "   5 ４五飛打")) ==
          "bad.kifu:16:6: illegal move ４五飛打: no HI in hand");
    CHECK(kif_error(replace_once(game, "   6 ８四歩(83)", "   6 ８四銀(83)")) ==
          "bad.kifu:17:8: the piece on 83 is 歩, not 銀");
  }
  SUBCASE("a bad square") {
    CHECK(kif_error(replace_once(game, "   1 ７六歩(77)", "   1 ０六歩(77)")) ==
          "bad.kifu:10:6: bad square: expected the file, a digit １ to ９");
    CHECK(kif_error(replace_once(game, "   1 ７六歩(77)", "   1 ７〇歩(77)")) ==
          "bad.kifu:10:7: bad square: expected the rank, 一 to 九");
    CHECK(kif_error(replace_once(game, "   1 ７六歩(77)", "   1 ７六歩(70)")) ==
          "bad.kifu:10:9: bad square: expected the origin as (77), digits 1 to 9");
  }
  SUBCASE("a bad line") {
    CHECK(kif_error(replace_once(game, "手合割：平手\n", "手合割：平手\nhello world\n")) ==
          "bad.kifu:6:1: unrecognised line 'hello world'");
    CHECK(kif_error(replace_once(game, "   2 ３四歩(33)", "   3 ３四歩(33)")) ==
          "bad.kifu:12:4: move number 3, expected 2");
    CHECK(kif_error(replace_once(game, "   1 ７六歩(77)", "   1 反則(77)")) ==
          "bad.kifu:10:6: unknown move or special move '反則'");
    CHECK(kif_error(replace_once(game, "   1 ７六歩(77)   ( 0:03", "   1 ７六歩(77)   ( 0-03")) ==
          "bad.kifu:10:19: bad time: expected M:SS");
    CHECK(kif_error(game + "  20 ７七歩打\n") ==
          "bad.kifu:33:3: a move after the end of the game (%TORYO)");
    CHECK(kif_error(game + "後手番\n") == "bad.kifu:33:1: a position line after the moves began");
    CHECK(kif_error("手合割：詰将棋\n   1 投了\n") ==
          "bad.kifu:1:1: unknown 手合割 '詰将棋' and no board diagram");
    CHECK(kif_error(replace_once(kBodKif, "   1 ６一玉(51)", "   1 同　玉(51)")) ==
          "bad.kifu:18:6: 同 with no previous move");
    CHECK(kif_error(replace_once(kBodKif, "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n", "")) ==
          "bad.kifu:12:1: the board diagram has 8 of its 9 ranks");
  }
  SUBCASE("Shift_JIS text") {
    CHECK(kif_error("先手：x\n\x90\xe6\x8e\xe8\x81\x46x\n") ==
          "bad.kifu:2:1: not UTF-8 text (Shift_JIS .kif files are not supported: convert the "
          "file to UTF-8 first, e.g. iconv -f CP932 -t UTF-8)");
  }
}

TEST_CASE("records convert: CSA to KIF and back, failures named, the rest converted") {
  TempDir dir("sashite-kif-test");
  std::filesystem::copy_file(kShortGameCsa, dir.sub("game.csa"));
  std::filesystem::copy_file(kDataDir + "/records/g000001.csa", dir.sub("other.csa"));
  {
    std::ofstream bad(dir.sub("broken.csa"));
    bad << "PI\n+\n+7775FU\n";
  }
  std::ostringstream out;
  tools::RecordsConvertOptions to_kif{"kif", "", {dir.path.string()}};
  CHECK(tools::run_records_convert(to_kif, out) == 1);
  CHECK(out.str() == dir.sub("broken.csa") +
                         ":3:1: illegal move +7775FU (FU on 77 cannot move to 75)\n"
                         "records: 2 converted, 1 failed\n");
  CHECK(read_text(dir.sub("game.kifu")) == read_text(kShortGameKif));

  std::ostringstream back_out;
  tools::RecordsConvertOptions to_csa{"csa", dir.sub("csa"), {dir.sub("game.kifu")}};
  CHECK(tools::run_records_convert(to_csa, back_out) == 0);
  CHECK(back_out.str() == "records: 1 converted, 0 failed\n");
  CsaRecord back;
  REQUIRE(load_csa_record_file(dir.sub("csa/game.csa"), back).is_ok());
  check_same_game(load_csa(kShortGameCsa), back);

  SUBCASE("a file already in the target format, a missing path") {
    std::ostringstream o;
    tools::RecordsConvertOptions same{"kif", "", {dir.sub("game.kifu"), dir.sub("none.csa")}};
    CHECK(tools::run_records_convert(same, o) == 1);
    CHECK(o.str() == dir.sub("game.kifu") + ": already a KIF record\n" + dir.sub("none.csa") +
                         ": no such file or directory\nrecords: 0 converted, 2 failed\n");
  }
}

}  // namespace kif_record_test
