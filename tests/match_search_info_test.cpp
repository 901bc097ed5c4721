// sashite match: USI info lines (well-formed, malformed, garbage), the report kept over a
// search, and the floodgate-style comment a move gets in the record.
#include "tools/match/match_search_info.h"

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

namespace match_search_info_test {

using namespace tools;

namespace {

usi::SearchScore cp(int value) {
  usi::SearchScore s;
  s.cp = value;
  return s;
}

usi::SearchScore mate(int plies, bool mating) {
  usi::SearchScore s;
  s.is_mate = true;
  s.mate_plies = plies;
  s.mating = mating;
  return s;
}

usi::UsiInfoLine parse(const std::string& line) {
  usi::UsiInfoLine info;
  REQUIRE_MESSAGE(usi::parse_usi_info(line, info), line);
  return info;
}

usi::SearchReport track(const std::vector<std::string>& lines) {
  usi::SearchInfoTracker tracker;
  for (const std::string& line : lines) tracker.on_line(line);
  return tracker.report();
}

}  // namespace

TEST_CASE("search info: well-formed info lines") {
  usi::UsiInfoLine i = parse(
      "info depth 12 seldepth 20 score cp 34 nodes 123456 nps 1000 time 5 hashfull 3 pv 7g7f 3c3d");
  CHECK(i.depth == 12);
  CHECK(i.score == cp(34));
  CHECK(i.nodes == 123456);
  CHECK(i.nps == 1000);
  CHECK(i.multipv == 1);
  CHECK(parse("info nps x depth 2").nps == std::nullopt);

  i = parse("info\tdepth 7  score cp -120 upperbound nodes 9000000000");
  CHECK(i.depth == 7);
  CHECK(i.score == cp(-120));
  CHECK(i.nodes == 9000000000LL);

  CHECK(parse("info depth 3 score mate 5 pv 2b3c+").score == mate(5, true));
  CHECK(parse("info depth 3 score mate +5").score == mate(5, true));
  CHECK(parse("info depth 3 score mate -4").score == mate(4, false));
  CHECK(parse("info depth 1 score mate -0").score == mate(0, false));  // mated at the root
  CHECK(parse("info score mate + depth 4").score == mate(-1, true));
  CHECK(parse("info score mate - depth 4").score == mate(-1, false));
  CHECK(parse("info score mate - depth 4").depth == 4);
  CHECK(parse("info multipv 2 depth 5 score cp 3").multipv == 2);
  CHECK(parse("info depth 9 currmove 7g7f currmovenumber 1").score == std::nullopt);
}

TEST_CASE("search info: malformed lines give empty fields, never a failure") {
  usi::UsiInfoLine i;
  CHECK_FALSE(usi::parse_usi_info("", i));
  CHECK_FALSE(usi::parse_usi_info("   ", i));
  CHECK_FALSE(usi::parse_usi_info("infodepth 5", i));
  CHECK_FALSE(usi::parse_usi_info("bestmove 7g7f", i));
  CHECK_FALSE(usi::parse_usi_info(" id name info depth 5", i));

  i = parse("info");
  CHECK(!i.depth);
  CHECK(!i.score);
  CHECK(!i.nodes);
  i = parse("info string depth 99 score cp 1 nodes 5");  // a message, not fields
  CHECK(!i.depth);
  CHECK(!i.score);
  CHECK(!i.nodes);
  i = parse("info depth 4 pv 7g7f depth 9 nodes 5");  // the pv runs to the end
  CHECK(i.depth == 4);
  CHECK(!i.nodes);

  CHECK(!parse("info depth").depth);
  CHECK(!parse("info depth x").depth);
  CHECK(!parse("info depth 12.5").depth);
  CHECK(!parse("info depth -3").depth);
  CHECK(!parse("info depth 99999999999999999999999").depth);
  CHECK(!parse("info depth ++3").depth);
  CHECK(!parse("info nodes -5").nodes);
  CHECK(!parse("info nodes 99999999999999999999").nodes);
  CHECK(!parse("info score").score);
  CHECK(!parse("info score cp").score);
  CHECK(!parse("info score cp x").score);
  CHECK(!parse("info score cp 2147483647").score);  // beyond any real evaluation
  CHECK(!parse("info score cp -2147483648").score);
  CHECK(!parse("info score mate").score);
  CHECK(!parse("info score mate x5").score);
  CHECK(!parse("info score mate --5").score);
  CHECK(!parse("info score 30 depth 2").score);
  CHECK(parse("info score 30 depth 2").depth == 2);
  CHECK(parse("info multipv x depth 2").multipv == 1);
  CHECK(parse("info multipv 0 depth 2").multipv == 1);

  // A malformed value does not swallow the keyword after it.
  i = parse("info depth nodes 55 score cp pv 1 depth 3");
  CHECK(!i.depth);
  CHECK(i.nodes == 55);
  CHECK(!i.score);
  i = parse("info score cp depth 6");
  CHECK(!i.score);
  CHECK(i.depth == 6);
}

TEST_CASE("search info: random garbage never breaks the parser or the tracker") {
  std::mt19937 rng(12345);
  const std::vector<std::string> words = {
      "info", "depth", "score", "cp", "mate", "nodes", "multipv", "pv", "string",
      "+",    "-",     "-0",    "7",  "12",   "x",     "",        "\t", "99999999999999999999"};
  usi::SearchInfoTracker tracker;
  for (int n = 0; n < 5000; ++n) {
    std::string line = n % 2 ? "info" : "";
    const int count = int(rng() % 10);
    for (int k = 0; k < count; ++k) {
      line += rng() % 3 ? " " : "";
      if (rng() % 5 == 0)
        line += char(rng() % 256);
      else
        line += words[rng() % words.size()];
    }
    usi::UsiInfoLine info;
    usi::parse_usi_info(line, info);
    tracker.on_line(line);
    if (info.depth) CHECK(*info.depth >= 0);
  }
  (void)search_comment(tracker.report(), shogi::kWhite);
}

TEST_CASE("search info: the tracker keeps the last report of the first PV") {
  usi::SearchReport r = track({
      "info depth 1 seldepth 1 score cp 10 nodes 100 pv 7g7f",
      "info depth 2 seldepth 3 score cp 20 nodes 300 pv 7g7f 3c3d",
      "info depth 3 currmove 2g2f currmovenumber 1",  // progress: no score
      "info multipv 2 depth 3 score cp -5 nodes 350 pv 2g2f", "info string thinking",
      "info nodes 500 nps 1000 time 500",  // the final count, without a depth
      "info depth 9 score cp x",           // malformed score: a progress line
  });
  CHECK(r.depth == 2);
  CHECK(r.score == cp(20));
  CHECK(r.nodes == 500);

  r = track({"info depth 1 currmove 7g7f", "info depth 2 currmove 7g7f"});
  CHECK(r.depth == 2);  // no line had a score: the progress depth is all there is
  CHECK(!r.score);
  CHECK(!r.nodes);

  CHECK(track({}) == usi::SearchReport());
  CHECK(track({"bestmove 7g7f", "readyok"}) == usi::SearchReport());
  CHECK(track({"info depth 3 score mate 1 pv 5b5a"}).score == mate(1, true));
}

TEST_CASE("search info: the record comment, from Black's point of view") {
  usi::SearchReport r;
  CHECK(search_comment(r, shogi::kBlack) == "");
  r.depth = 12;
  CHECK(search_comment(r, shogi::kBlack) == "** ? depth 12");
  r.score = cp(30);
  CHECK(search_comment(r, shogi::kBlack) == "** 30 depth 12");
  r.nodes = 34567;
  CHECK(search_comment(r, shogi::kBlack) == "** 30 depth 12 nodes 34567");
  CHECK(search_comment(r, shogi::kWhite) == "** -30 depth 12 nodes 34567");
  r.score = cp(0);
  CHECK(search_comment(r, shogi::kWhite) == "** 0 depth 12 nodes 34567");

  r.score = mate(5, true);  // the mover mates in 5
  CHECK(search_comment(r, shogi::kBlack) == "** +M5 depth 12 nodes 34567");
  CHECK(search_comment(r, shogi::kWhite) == "** -M5 depth 12 nodes 34567");
  r.score = mate(3, false);  // the mover is mated in 3
  CHECK(search_comment(r, shogi::kBlack) == "** -M3 depth 12 nodes 34567");
  CHECK(search_comment(r, shogi::kWhite) == "** +M3 depth 12 nodes 34567");
  r.score = mate(-1, true);
  CHECK(search_comment(r, shogi::kWhite) == "** -M depth 12 nodes 34567");

  CHECK(usi::format_search_score(cp(-120)) == "-120");
  CHECK(usi::format_search_score(mate(0, false)) == "-M0");
  CHECK(cp(7).negated().negated() == cp(7));
}

}  // namespace match_search_info_test
