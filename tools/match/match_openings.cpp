// Openings for matches: parsing lines of an openings file and checking their moves.
#include "tools/match/match_openings.h"

#include <fstream>
#include <sstream>

#include "shogi/notation.h"
#include "shogi/position.h"

namespace tools {

using base::Status;

namespace {

std::vector<std::string> whitespace_words(std::string_view line) {
  std::vector<std::string> words;
  std::istringstream in{std::string(line)};
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

}  // namespace

Status parse_opening_line(std::string_view line, Opening& out) {
  std::vector<std::string> words = whitespace_words(line);
  size_t i = 0;
  if (i < words.size() && words[i] == "position") ++i;
  std::string sfen;
  if (i < words.size() && words[i] == "startpos") {
    sfen = "startpos";
    ++i;
  } else if (i < words.size() && words[i] == "sfen") {
    ++i;
  }
  if (sfen.empty()) {
    // SFEN fields up to "moves", unless the line is a bare move list.
    shogi::Position probe;
    shogi::Move m;
    if (i < words.size() && words[i] != "moves" &&
        shogi::parse_usi_move(probe, words[i], m).is_ok()) {
      sfen = "startpos";
    } else {
      while (i < words.size() && words[i] != "moves")
        sfen += (sfen.empty() ? "" : " ") + words[i++];
      if (sfen.empty()) return Status::error("no position");
    }
  }
  shogi::Position pos;
  if (Status s = pos.set_sfen(sfen); !s) return s;
  if (i < words.size() && words[i] == "moves") ++i;
  Opening opening;
  opening.sfen = sfen == "startpos" ? sfen : pos.sfen();
  for (int n = 1; i < words.size(); ++i, ++n) {
    shogi::Move m;
    if (Status s = shogi::parse_usi_move(pos, words[i], m); !s)
      return Status::error("move " + std::to_string(n) + ": " + s.message());
    pos.do_move(m);
    opening.moves.push_back(words[i]);
  }
  opening.source = out.source;
  out = std::move(opening);
  return Status::ok();
}

Status load_openings(const std::string& path, std::vector<Opening>& out) {
  std::ifstream in(path);
  if (!in) return Status::error(path + ": cannot open the openings file");
  out.clear();
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    Opening opening;
    opening.source = path + ":" + std::to_string(number);
    if (Status s = parse_opening_line(line, opening); !s)
      return Status::error(opening.source + ": " + s.message());
    out.push_back(std::move(opening));
  }
  if (out.empty()) return Status::error(path + ": no openings in the file");
  return Status::ok();
}

}  // namespace tools
