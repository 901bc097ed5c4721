// `sashite learn label`: the positions of CSA records labelled with another USI engine's
// search values, so that `sashite learn fit` can fit our evaluation to a stronger program's
// judgement (distillation).
//
// Every .csa record under each --records DIR is copied to OUT/<DIR's last component>/<its
// path under DIR>. In the copy each move whose ply (1: the record's first move) is within
// [first_ply, last_ply] carries, as its first comment, the engine's value of the position
// after the move, from Black's point of view, as `sashite match` writes it and
// tools/learn/learn_fit.h reads it: "** 30 depth 7 nodes 10134", mates "** +M depth 9 nodes 500"
// (Black mates) or "** -M ..." (White mates). Every "** " comment of the source is dropped;
// the rest of the record (names, info, initial position, moves, times, other comments, the
// result) is kept.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "base/status.h"
#include "shogi/csa_record.h"
#include "shogi/types.h"
#include "tools/match/match_search_info.h"

namespace tools {

// What `sashite learn label` is asked to do. Defaults are those of the command line.
struct LabelOptions {
  std::vector<std::string> records;         // directories of .csa records (recursive)
  std::string out_dir;                      // OUT
  std::string engine;                       // the labelling engine's command line
  std::vector<std::string> engine_options;  // "NAME=VALUE": setoption at session start
  int byoyomi_ms = 1000;                    // go btime 0 wtime 0 byoyomi MS
  // Non-empty: the whole go command instead, e.g. "go depth 4" or "go nodes 20000" for an
  // engine that takes them (gpsusi does not). Default: "".
  std::string go;
  int first_ply = 13;  // label the positions after moves first_ply .. last_ply
  int last_ply = 90;
  int jobs = 2;                  // engine processes, each labelling whole records
  int ready_timeout_ms = 30000;  // usiok, readyok
  int think_timeout_ms = 0;      // bestmove after go; 0: 2 * byoyomi_ms + 30000
  bool progress = false;         // a progress bar (records) on `err`
};

// What a run did.
struct LabelCounts {
  int records = 0;  // .csa files found under the --records directories
  int skipped = 0;  // their output already existed
  int read = 0;     // loaded to be labelled (records - skipped)
  int written = 0;
  int64_t positions = 0;  // searches asked of the engine
  int64_t labelled = 0;   // positions given a value comment (mates included)
  int64_t mates = 0;
  int64_t failures = 0;  // the engine timed out or exited: left unlabelled, engine restarted
  int64_t unscored = 0;  // bestmove without a scored info line: left unlabelled
  double seconds = 0;
};

// The checks the command line cannot make: the plies, the options' NAME=VALUE form, two
// --records directories with the same last component (their outputs would mix), --out
// inside a --records directory.
base::Status validate_label_options(const LabelOptions& o);

// "position startpos moves 7g7f ..." (or "position sfen <initial> moves ...") for the
// position after the first `plies` moves of `rec`. REQUIRES: 0 <= plies <= rec.moves.size().
std::string label_position_command(const shogi::CsaRecord& rec, int plies);

// The value comment (without the quote) for a search of a position with `side_to_move` to
// move: "** <cp from Black's view> depth D nodes N", a mate as "+M"/"-M" (no distance);
// "" when the report has no score.
std::string label_value_comment(const usi::SearchReport& report, shogi::Color side_to_move);

// Drops every comment starting "** " after the moves of `rec` (the rejected last move too).
void drop_value_comments(shogi::CsaRecord& rec);

// Runs `sashite learn label`. Every record to label is loaded before an engine starts: one
// that does not load is an error naming the file, line and column, and nothing is written.
// Each output is written to "<name>.tmp" and renamed. An engine that cannot be started (or
// answer usi / isready after a restart) stops the run with an error; the records already
// written stay. Engine faults during a search are summed up on `err` at the end.
base::Status run_learn_label(const LabelOptions& o, LabelCounts& counts, std::ostream& err);

// "3 records: 0 skipped (already labelled), 3 read, 3 written; 130 positions: 128 labelled
// (4 mates), 1 failure, 1 unscored; 12 s" and a newline.
std::string format_label_summary(const LabelCounts& c);

}  // namespace tools
