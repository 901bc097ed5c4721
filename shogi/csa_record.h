// CSA record files (棋譜ファイル, V2.2 and V3.0): read, write and replay game records.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace shogi {
using base::Status;

enum class CsaVersion { kV22, kV30 };

// The special moves (特殊な指し手) that end a CSA game; kNone when the record has none.
enum class CsaSpecialMove {
  kNone,
  kToryo,               // %TORYO: resignation (投了)
  kChudan,              // %CHUDAN: game suspended (中断)
  kSennichite,          // %SENNICHITE: repetition draw (千日手)
  kOuteSennichite,      // %OUTE_SENNICHITE: perpetual check, the checking side loses
  kIllegalMove,         // %ILLEGAL_MOVE: the side to move played an illegal move and lost
  kBlackIllegalAction,  // %+ILLEGAL_ACTION: Black (先手) did something illegal and lost
  kWhiteIllegalAction,  // %-ILLEGAL_ACTION: White (後手) did something illegal and lost
  kTimeUp,              // %TIME_UP: the side to move lost on time
  kJishogi,             // %JISHOGI: impasse (持将棋)
  kKachi,               // %KACHI: entering-king declaration (入玉宣言) by the side to move
  kHikiwake,            // %HIKIWAKE: draw agreed
  kMaxMoves,            // %MAX_MOVES: the move limit was reached (V3.0)
  kTsumi,               // %TSUMI: mate (詰み)
  kFuzumi,              // %FUZUMI: no mate (不詰), for mate problems
  kMatta,               // %MATTA: take-back (待った); recorded as a terminal mark only
  kError,               // %ERROR
};

// "%TORYO" for kToryo; "" for kNone.
const char* csa_special_move_name(CsaSpecialMove s);
// The special move written as text ("%TORYO"); kNone when the text is not one.
CsaSpecialMove csa_special_move_from_name(std::string_view text);

// One move of a record, with what the record says about it.
struct CsaRecordMove {
  Move move;                          // legal before it; kMoveNone in rejected_last_move
  std::string text;                   // the move as read ("+7776FU")
  std::optional<int64_t> time_ms;     // the T line (V3.0 allows T1.234); none when absent
  std::vector<std::string> comments;  // comment lines after the move, without the leading
                                      // quote: "'* 30 -3334FU" is kept as "* 30 -3334FU"
};

// A game record as a CSA file holds it. A plain value type.
// Invariant after read_csa_record: `initial` is a valid position and every entry of `moves`
// is legal in turn from it.
struct CsaRecord {
  std::string encoding;    // from a first line "'CSA encoding=UTF-8" (V3.0); "" when absent.
                           // Text is kept as bytes; nothing is transcoded.
  std::string version;     // "V2.2", "V3.0", ...; "" when the file has no version line
  std::string black_name;  // N+ (先手)
  std::string white_name;  // N- (後手)
  // $KEY:VALUE lines in file order, the key without '$': {"EVENT", "..."}, {"START_TIME",
  // "2018/05/03 11:00:54"}, {"TIME_LIMIT", "00:25+00"}, and the V3.0 time controls {"TIME",
  // "600+10+0"}, {"TIME+", ...}, {"TIME-", ...}, {"MAX_MOVES", "256"}, {"JISHOGI", "27"}.
  // Lines found after the moves (WCSC files put $END_TIME there) are kept here too.
  std::vector<std::pair<std::string, std::string>> info;
  // Comments before the first move (header, position block, between the side line and the
  // first move), without the leading quote. Floodgate's "'summary:..." and "'rating:..." lines
  // are plain comments like any other.
  std::vector<std::string> comments;
  PositionSetup initial;
  std::vector<CsaRecordMove> moves;
  // Set only when the game ends in %ILLEGAL_MOVE, %+ILLEGAL_ACTION or %-ILLEGAL_ACTION and its
  // final move is not legal by our rules: that move, kept as text (move == kMoveNone), with its
  // time and comments. It is not part of `moves`.
  std::optional<CsaRecordMove> rejected_last_move;
  CsaSpecialMove result = CsaSpecialMove::kNone;  // the special move ending the game, if any
  std::optional<int64_t> result_time_ms;          // its T line, if any
  std::vector<std::string> result_comments;       // comments after it
  // True when the file held more games after a '/' separator line; they were not read.
  bool more_games_in_file = false;

  // The value of the first info line with this key ("EVENT"), or nullptr.
  const std::string* find_info(std::string_view key) const;
  bool has_rejected_last_move() const { return rejected_last_move.has_value(); }
};

// Options for read_csa_record.
struct CsaReadOptions {
  // Accept a final move that breaks our rules when the game ends in %ILLEGAL_MOVE,
  // %+ILLEGAL_ACTION or %-ILLEGAL_ACTION, keeping it in rejected_last_move. When false such a
  // record is an error like any other illegal move. Default: true.
  bool allow_rejected_last_move = true;
};

// Reads a CSA record (V1, V2, V2.1, V2.2 or V3.0) and replays its moves.
// Accepts UTF-8 with or without a BOM, LF or CRLF line ends, several statements on a line
// separated by commas ("+7776FU,T12"), comment lines ('...) anywhere, blank lines, and $ lines
// after the moves. Only the first game of a file is read: a line "/" ends it (and sets
// more_games_in_file). Every move is checked against the rules; a move that is not legal is an
// error, except the final move of a game ending in an illegal-move mark (see CsaReadOptions).
// Errors read "NAME:LINE:COL: message", NAME being `input_name`, e.g.
// "game.csa:12:1: illegal move +7775FU (FU on 77 cannot move to 75)".
// On error `out` is left in an unspecified state.
Status read_csa_record(std::string_view text, std::string_view input_name, CsaRecord& out);
Status read_csa_record(std::string_view text, std::string_view input_name, CsaRecord& out,
                       const CsaReadOptions& options);

// The whole file at `path` as bytes, for the record readers; errors name the path
// ("PATH: cannot open the file", "PATH: read error").
Status read_record_file_text(const std::string& path, std::string& out);

// Reads the file at `path` and parses it with read_csa_record (the path is the input name).
// Errors name the path when the file cannot be read.
Status load_csa_record_file(const std::string& path, CsaRecord& out);

// What a record's end claims that its moves do not bear out: a %SENNICHITE without a fourfold
// repetition, a %KACHI the entering-king rule (CSA's 27 points) does not allow, or moves
// played after a fourfold repetition ended the game. "" when the record is consistent (or
// ends with a rejected move). Learning from such records learns results that did not happen.
// REQUIRES: a record read_csa_record accepted (its moves legal).
std::string csa_record_ending_problem(const CsaRecord& record);

// Writes a record as CSA text, LF line ends, no BOM. V3.0 starts with "'CSA encoding=..."
// (rec.encoding, else UTF-8) and "V3.0", and writes times as T12.345 when they are not whole
// seconds; V2.2 writes "V2.2" and whole seconds (fractions are truncated). Then N+ / N-, the
// info lines, the comments, the position block, each move with its T line and comments, the
// rejected last move if any, and the special move with its time and comments.
// read_csa_record(write_csa_record(r, v)) gives back r, but for `version` (and `encoding` in
// V2.2), and for fractions of seconds in V2.2.
std::string write_csa_record(const CsaRecord& rec, CsaVersion version);

// The position after the first `plies` moves of rec (every move when plies is kAllMoves).
// Errors if rec.initial is not a valid position, if plies is out of range, or if a move is not
// legal in turn (possible only for a record not produced by read_csa_record).
constexpr int kAllMoves = -1;
Status replay_csa_record(const CsaRecord& rec, Position& out, int plies = kAllMoves);
// The position after every move of rec. REQUIRES: rec came from read_csa_record (otherwise it
// stops before the first move that is not legal, or gives the start position when rec.initial
// is not valid).
Position csa_final_position(const CsaRecord& rec);

}  // namespace shogi
