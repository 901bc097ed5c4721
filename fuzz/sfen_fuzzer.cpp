// libFuzzer target: SFEN positions and USI moves. The input's first line is an SFEN; the
// other lines hold moves, one or more per line separated by spaces. Each move is read as USI
// (parse_usi_move) and, failing that, as CSA (parse_csa_move), and played when legal.
//
// Oracles beyond "no crash, no sanitizer report":
//   - parse_sfen and Position::set_sfen agree; format_sfen of a setup parses back to it;
//   - a legal position's sfen() sets again to the same key;
//   - a parsed move is among the legal moves and formats back (USI and CSA) to a text that
//     parses to the same move; the position stays consistent after do_move and undo_move.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "shogi/csa_notation.h"
#include "shogi/movegen.h"
#include "shogi/notation.h"
#include "shogi/position.h"

using namespace base;
using namespace shogi;

namespace {

constexpr int kMaxPlies = 512;

void check_move(const Position& pos, Move m, std::string_view text) {
  const std::string t(text);
  FUZZ_CHECK(legal_moves(pos).contains(m), "parsed move not legal: " + t + " in " + pos.sfen());
  Move again;
  const std::string usi = format_usi_move(m);
  FUZZ_CHECK(parse_usi_move(pos, usi, again) && again == m,
             "USI move does not parse back: " + usi + " in " + pos.sfen());
  const std::string csa = format_csa_move(m);
  FUZZ_CHECK(parse_csa_move(pos, csa, again) && again == m,
             "CSA move does not parse back: " + csa + " in " + pos.sfen());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const size_t eol = text.find('\n');
  const std::string_view sfen = text.substr(0, eol);
  const std::string_view rest = eol == std::string_view::npos ? "" : text.substr(eol + 1);

  PositionSetup setup;
  const bool parsed = bool(parse_sfen(sfen, setup));
  Position pos;
  const bool set = bool(pos.set_sfen(sfen));
  FUZZ_CHECK(!set || parsed, "set_sfen accepted what parse_sfen refused: " + std::string(sfen));
  if (parsed) {
    const std::string out = format_sfen(setup);
    PositionSetup again;
    FUZZ_CHECK(parse_sfen(out, again), "format_sfen output does not parse: " + out);
    FUZZ_CHECK(format_sfen(again) == out, "format_sfen round trip differs: " + out);
    (void)format_csa_position(setup);
  }
  if (!set) return 0;
  FUZZ_CHECK(pos.is_consistent(), "inconsistent after set_sfen: " + std::string(sfen));
  Position copy;
  FUZZ_CHECK(copy.set_sfen(pos.sfen()) && copy.key() == pos.key(),
             "sfen() does not set back: " + pos.sfen());

  int plies = 0;
  for (size_t p = 0; p < rest.size() && plies < kMaxPlies;) {
    size_t e = rest.find_first_of(" \n", p);
    if (e == std::string_view::npos) e = rest.size();
    const std::string_view word = rest.substr(p, e - p);
    p = e + 1;
    if (word.empty()) continue;
    Move m;
    if (!parse_usi_move(pos, word, m) && !parse_csa_move(pos, word, m)) continue;
    check_move(pos, m, word);
    const uint64_t key = pos.key();
    pos.do_move(m);
    FUZZ_CHECK(pos.is_consistent(), "inconsistent after " + std::string(word));
    (void)pos.repetition(4);
    (void)pos.can_declare_win();
    if (word.size() % 3 == 0) {  // sometimes take the move back and play it again
      pos.undo_move();
      FUZZ_CHECK(pos.key() == key && pos.is_consistent(), "undo differs: " + std::string(word));
      pos.do_move(m);
    }
    ++plies;
  }
  return 0;
}
