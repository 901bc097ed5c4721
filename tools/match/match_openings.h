// Openings for matches: a start position and USI moves from it, read from a text file.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace tools {

// A position to start a game from: `sfen` ("startpos" or an SFEN) then `moves` (USI), every
// move legal in turn (load_openings and parse_opening_line check it).
struct Opening {
  std::string sfen = "startpos";
  std::vector<std::string> moves;
  std::string source = "start position";  // where it came from: "book.txt:12"
};

// One line of an openings file, one of:
//   startpos [moves M1 M2 ...]
//   position startpos [moves ...]  /  position sfen <SFEN> [moves ...]
//   sfen <SFEN> [moves ...]
//   <SFEN> [moves ...]              (board, side, hands and an optional move number)
//   M1 M2 ...                       (USI moves from the start position: "7g7f 3c3d")
// Errors say what is wrong ("move 3 '2b8h': illegal in this position").
base::Status parse_opening_line(std::string_view line, Opening& out);

// Reads a file of openings, one per line; blank lines and text after '#' are ignored.
// Errors name the file and line; an empty file is an error.
base::Status load_openings(const std::string& path, std::vector<Opening>& out);

}  // namespace tools
