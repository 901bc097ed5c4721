// KIF game records (棋譜, Kakinoki's format that ShogiHome, Kifu for Windows and ShogiGUI open):
// written from and read into CsaRecord.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"
#include "shogi/csa_record.h"

namespace shogi {
using base::Status;

// Writes `record` as KIF text: UTF-8, no BOM, LF line ends, the layout Kifu for Windows and
// ShogiHome write:
//   #KIF version=2.0 encoding=UTF-8
//   開始日時：2018/05/03 11:00:54          info lines: START_TIME 開始日時, END_TIME 終了日時,
//   棋戦：floodgate                        EVENT 棋戦, SITE 場所, OPENING 戦型, TIME and
//   持ち時間：10分+10秒                    TIME_LIMIT 持ち時間 (600+10+0 is 10分+10秒; an
//                                          increment is "+1手10秒加算"), TIME+ 先手持ち時間,
//                                          TIME- 後手持ち時間, MAX_MOVES 最大手数, JISHOGI
//                                          持将棋; any other key as "KEY：VALUE"
//   手合割：平手                           or, for any other start, a BOD diagram (後手の持駒,
//                                          the board, 先手の持駒, 後手番 when White moves first)
//   先手：NAME / 後手：NAME                when the names are not empty
//   手数----指手---------消費時間--
//   *comment                               the record's comments, each "*" + the CSA text
//      1 ７六歩(77)   ( 0:16/00:00:16)     number (width 4), move padded to 12 columns, this
//   ** 30 -3334FU                          move's time / that side's total; then its comments
//      2 同　歩(23)   ...                  同 + U+3000 when the destination repeats
//     88 投了         ( 0:03/00:10:32)     the special move (its time: result_time_ms)
//   まで87手で先手の勝ち                   the summary Kifu for Windows writes
// Promotions are "成"; a declined promotion is written as a plain move, as the KIF format
// says ("不成" is KI2 notation: ShogiHome's and Kifu for JS's KIF readers reject it). Drops are
// "打", promoted pieces と 成香 成桂 成銀 馬 龍, both kings 玉. Missing times are written as 0.
// The special moves: %TORYO 投了, %CHUDAN %MATTA %ERROR 中断, %SENNICHITE 千日手, %TIME_UP
// 切れ負け, %KACHI 入玉勝ち, %JISHOGI %HIKIWAKE %MAX_MOVES 持将棋 (as ShogiHome writes them),
// %TSUMI 詰み, %FUZUMI 不詰, and the fouls %ILLEGAL_MOVE, %+ILLEGAL_ACTION, %-ILLEGAL_ACTION and
// %OUTE_SENNICHITE as 反則負け (the side to move lost) or 反則勝ち (the side that just moved
// lost). A rejected last move is kept as the comment "*反則手：<CSA move>" after the special
// move. KIF has no place for fractions of seconds: times are truncated to whole seconds.
// REQUIRES: record.initial is a valid position and its moves are legal in turn (records from
// read_csa_record or read_kif_record are); writing stops before a move that is not.
std::string write_kif_record(const CsaRecord& record);

// Reads a KIF record (UTF-8, with or without a BOM, LF or CRLF) and replays its moves:
// header lines "KEY：VALUE" (or "KEY:VALUE"; the keys above become their CSA info keys, and
// 持ち時間 values in the forms above, "600+10+0" or "00:10+10" become TIME or TIME_LIMIT; other
// keys are kept as they are), 先手/下手 and 後手/上手 names, 手合割 (平手 and the standard
// handicaps), a BOD diagram, move lines "  12 ７六歩(77)  ( 0:16/00:00:16)" with 同, 成, 不成
// (accepted as a plain move), 打, an optional time and an optional "+" (a variation follows),
// comment lines "*..." (kept without the "*"), the special move line and the "まで..." line
// (which gives the result when no special move line did). "#" lines and "&" bookmarks are
// skipped; reading stops at the first "変化：" line (variations are not read). Every move is
// checked against the rules. Errors read "NAME:LINE:COL: message", NAME being `input_name`
// and COL counting characters (not bytes) from 1, e.g.
//   "game.kifu:12:6: illegal move ７五歩(77): FU on 77 cannot move to 75".
// Text that is not UTF-8 (a Shift_JIS .kif file) is an error naming the first bad byte's place.
// The record's version and encoding are left empty; on error `out` is in an unspecified state.
Status read_kif_record(std::string_view text, std::string_view input_name, CsaRecord& out);

// Reads the file at `path` and parses it with read_kif_record (the path is the input name).
// Errors name the path when the file cannot be read.
Status load_kif_record_file(const std::string& path, CsaRecord& out);

}  // namespace shogi
