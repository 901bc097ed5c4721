// libFuzzer target: the CSA protocol lines. The input is a byte stream from the network: it is
// cut into lines by LineSplitter (in two chunks, at a place the first byte chooses), and every
// line goes through parse_server_line, parse_client_line and a SummaryParser, as the client
// and the local server see them.
//
// Oracles beyond "no crash, no sanitizer report":
//   - LineSplitter never delivers a line longer than kMaxLineLength + 1 nor one holding LF;
//   - a Game_Summary the parser accepted, written back by format_game_summary, is accepted
//     again and gives the same position and moves.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "client/csa_protocol.h"
#include "client/transport.h"
#include "fuzz/fuzz_check.h"
#include "shogi/notation.h"

using namespace client;

namespace {

void check_summary_round_trip(const GameSummary& s) {
  const std::vector<std::string> lines = format_game_summary(s);
  SummaryParser again;
  SummaryParser::Result r = SummaryParser::Result::kNeedMore;
  for (const std::string& l : lines) r = again.feed(l);
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  FUZZ_CHECK(r == SummaryParser::Result::kDone,
             "format_game_summary output rejected: " + again.error() + "\n" + text);
  const GameSummary& t = again.summary();
  FUZZ_CHECK(t.moves.size() == s.moves.size(), "moves differ after a round trip\n" + text);
  FUZZ_CHECK(t.position().sfen() == s.position().sfen(),
             "position differs after a round trip\n" + text);
  FUZZ_CHECK(t.game_id == s.game_id && t.your_turn == s.your_turn && t.max_moves == s.max_moves,
             "fields differ after a round trip\n" + text);
}

void feed_line(const std::string& line, SummaryParser& summary) {
  FUZZ_CHECK(line.size() <= kMaxLineLength + 1, "LineSplitter gave an overlong line");
  FUZZ_CHECK(line.find('\n') == std::string::npos, "LineSplitter gave a line holding LF");

  ServerLine sl;
  if (parse_server_line(line, sl)) {
    (void)quote_line(sl.name);
    if (sl.type == ServerLineType::kStart) {
      (void)game_name_from_id(sl.game_id);
      (void)parse_game_name_time(game_name_from_id(sl.game_id));
    }
  }
  ClientLine cl;
  if (parse_client_line(line, cl)) {
    if (cl.type == ClientLineType::kLogin && is_valid_login_name(cl.name) &&
        is_valid_password(cl.password)) {
      ClientLine again;
      FUZZ_CHECK(parse_client_line(format_login(cl.name, cl.password, cl.x1), again) &&
                     again.type == ClientLineType::kLogin && again.name == cl.name,
                 "format_login output does not parse back: " + quote_line(line));
    }
    if (cl.type == ClientLineType::kMove) {
      const std::string out = format_move_line(cl.move.move, cl.move.comment);
      FUZZ_CHECK(out.size() <= kMaxLineLength, "format_move_line longer than a line");
      ClientLine again;
      FUZZ_CHECK(parse_client_line(out, again) && again.type == ClientLineType::kMove &&
                     again.move.move == cl.move.move,
                 "format_move_line output does not parse back: " + quote_line(out));
    }
    if (cl.type == ClientLineType::kX1Command) (void)parse_game_name_time(cl.args);
  }
  (void)parse_t_milli(line);
  (void)quote_line(line, line.size() % 100);

  // A summary parser fed every line, as the session feeds it once BEGIN Game_Summary came.
  if (!summary.in_progress() && detail::strip_cr(line) != "BEGIN Game_Summary") return;
  const SummaryParser::Result r = summary.feed(line);
  if (r == SummaryParser::Result::kDone) {
    check_summary_round_trip(summary.summary());
    summary.reset();
  } else if (summary.finished()) {
    summary.reset();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const size_t cut = size == 0 ? 0 : (data[0] * size) / 256;
  LineSplitter splitter;
  std::vector<std::string> lines;
  splitter.append(bytes.substr(0, cut), lines);
  splitter.append(bytes.substr(cut), lines);
  if (splitter.has_partial()) lines.push_back(splitter.take_partial());
  FUZZ_CHECK(!splitter.has_partial(), "take_partial left a partial line");

  SummaryParser summary;
  for (const std::string& line : lines) feed_line(line, summary);
  return 0;
}
