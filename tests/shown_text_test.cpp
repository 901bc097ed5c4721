// shown_text: control bytes and stray bytes escaped, UTF-8 kept, long input cut; the USI loop
// and the CSA reader quote input through it.
#include "base/shown_text.h"

#include <doctest/doctest.h>

#include <sstream>

#include "engine/engine.h"
#include "engine/usi.h"
#include "shogi/csa_record.h"

namespace shown_text_test {

using base::shown_text;

TEST_CASE("shown_text: printable, UTF-8 kept, bytes escaped, long text cut") {
  CHECK(shown_text("7g7f") == "7g7f");
  CHECK(shown_text(std::string("a\x01\x1b[2J\x7f", 7)) == "a\\x01\\x1b[2J\\x7f");
  CHECK(shown_text("\xe5\x85\x88\xe6\x89\x8b") == "\xe5\x85\x88\xe6\x89\x8b");  // 先手
  CHECK(shown_text("\xff\xe5\x85") == "\\xff\\xe5\\x85");  // not UTF-8: escaped
  CHECK(shown_text(std::string("a\0b", 3)) == "a\\x00b");
  const std::string big(14 << 20, 'x');
  const std::string cut = shown_text(big, 90);
  CHECK(cut.size() < 130);
  CHECK(cut.find(" ...(14680064 bytes)... ") == 60);
}

TEST_CASE("shown_text: the USI loop and the CSA reader never echo raw bytes or whole lines") {
  engine::Engine e;
  std::istringstream in(std::string("hello\x01\xff\n", 8) + "position sfen \x1b[2J b - 1\nquit\n");
  std::ostringstream out;
  engine::run_usi(e, in, out);
  const std::string text = out.str();
  CHECK(text.find("unknown command: hello\\x01\\xff") != std::string::npos);
  CHECK(text.find("'\\x1b[2J b - 1'") != std::string::npos);
  for (char c : text) CHECK((c == '\n' || (c >= 0x20 && c < 0x7f)));

  shogi::CsaRecord rec;
  const std::string csa = "V2.2\nPI\n+\n+7776FU" + std::string(1 << 20, 'x') + "\n";
  const base::Status s = shogi::read_csa_record(csa, "long.csa", rec);
  CHECK_FALSE(s.is_ok());
  CHECK(s.message().size() < 600);
  CHECK(s.message().find("long.csa:4:") == 0);
}

}  // namespace shown_text_test
