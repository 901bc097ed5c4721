// libFuzzer target: CSA record files and position blocks. The input is the text of a .csa
// file, read by read_csa_record (with and without rejected last moves) and, line by line, by
// parse_csa_position.
//
// Oracles beyond "no crash, no sanitizer report":
//   - a record that reads is replayed by replay_csa_record to the same final position;
//   - write_csa_record (V2.2 and V3.0) of it reads back with the same moves and result;
//   - a position block that parses and makes a legal Position is written by
//     format_csa_position and parses back to the same setup.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "shogi/csa_notation.h"
#include "shogi/csa_record.h"
#include "shogi/position.h"

using namespace base;
using namespace shogi;

namespace {

void check_record(const CsaRecord& rec) {
  Position replayed;
  const Status st = replay_csa_record(rec, replayed);
  FUZZ_CHECK(st, "replay_csa_record failed on a record that read: " + st.message());
  const std::string final_sfen = csa_final_position(rec).sfen();
  FUZZ_CHECK(replayed.sfen() == final_sfen, "replay and csa_final_position differ");
  for (int plies = 0; plies <= int(rec.moves.size()); plies += 7) {
    Position p;
    FUZZ_CHECK(replay_csa_record(rec, p, plies), "replay of a prefix failed");
  }
  for (CsaVersion v : {CsaVersion::kV22, CsaVersion::kV30}) {
    const std::string text = write_csa_record(rec, v);
    CsaRecord again;
    const Status r = read_csa_record(text, "rewritten", again);
    FUZZ_CHECK(r, "write_csa_record output does not read back: " + r.message() + "\n" + text);
    FUZZ_CHECK(again.moves.size() == rec.moves.size(), "move count differs\n" + text);
    FUZZ_CHECK(again.result == rec.result, "result differs\n" + text);
    FUZZ_CHECK(again.has_rejected_last_move() == rec.has_rejected_last_move(),
               "rejected last move differs\n" + text);
    FUZZ_CHECK(csa_final_position(again).sfen() == final_sfen, "final position differs\n" + text);
  }
}

void check_position_block(const std::vector<std::string>& lines) {
  PositionSetup setup;
  if (!parse_csa_position(lines, 1, "fuzz", setup)) return;
  Position pos;
  if (!pos.set(setup)) return;
  const std::string text = format_csa_position(setup);
  std::vector<std::string> again_lines;
  for (size_t p = 0; p < text.size();) {
    const size_t e = text.find('\n', p);
    again_lines.push_back(text.substr(p, e - p));
    p = e + 1;
  }
  PositionSetup again;
  const Status st = parse_csa_position(again_lines, 1, "rewritten", again);
  FUZZ_CHECK(st, "format_csa_position output does not parse back: " + st.message() + "\n" + text);
  FUZZ_CHECK(same_position_setup(setup, again), "position block differs\n" + text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  CsaRecord rec;
  if (read_csa_record(text, "fuzz", rec)) check_record(rec);
  CsaRecord strict;
  CsaReadOptions options;
  options.allow_rejected_last_move = false;
  if (read_csa_record(text, "fuzz", strict, options)) check_record(strict);

  // The lines from the first one starting with 'P' through the first side line, as a
  // position block (what read_csa_record and the Game_Summary parser hand over).
  std::vector<std::string> lines;
  bool in_block = false;
  for (size_t p = 0; p < text.size();) {
    size_t e = text.find('\n', p);
    if (e == std::string_view::npos) e = text.size();
    std::string line(text.substr(p, e - p));
    p = e + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!in_block && !line.starts_with("P")) continue;
    in_block = true;
    lines.push_back(line);
    if (line == "+" || line == "-") break;
  }
  if (!lines.empty()) check_position_block(lines);
  return 0;
}
