// Training positions for evaluation learning: record positions and teacher files, with their moves.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace tools {

// A position and the move the teacher (a record's player, or a multi-program search) chose.
// `group` numbers the game (records) or the line (teacher files): held-out sets are whole
// groups, so that positions of one game never straddle training and evaluation.
struct TrainingPosition {
  shogi::PositionSetup setup;  // kept as a setup: a replayed Position carries its history
  shogi::Move teacher = shogi::kMoveNone;
  int group = 0;
  bool training_only = false;  // never held out (extra teacher data, not the measured set)
};

// Whether group `group` is held out when one in every `every` is (the last of each `every`:
// groups every - 1, 2 * every - 1, ...); `every` <= 0 holds none out. Records are numbered
// from 0 in sorted path order, so this also names the held-out records of a directory.
inline bool is_held_out_group(int group, int every) {
  return every > 0 && group % every == every - 1;
}

// Reads teacher lines "<SFEN> <TAB> <USI move>" (the SFEN may start with "sfen "); '#' starts
// a comment, blank lines are ignored. The move must be legal in the position. Errors name
// the input and the line: "teach.tsv:12: 'abc' is not a move: ...". Groups are numbered on
// from `first_group`, one per line. `name` stands for the input in messages.
base::Status parse_teacher_text(std::string_view text, const std::string& name, int first_group,
                                std::vector<TrainingPosition>& out);
base::Status read_teacher_file(const std::string& path, int first_group,
                               std::vector<TrainingPosition>& out);

// Every position of every .csa record under `dir` (recursively, paths sorted) before each
// record move, both colours, skipping the first `skip_plies` moves of each record. Each
// record is one group, numbered on from `first_group` in path order. Unreadable records are
// errors ("path:line:col: ..."). *records gets the number of records read. A non-empty
// `player` keeps only the moves of a side whose name (N+ or N-) contains it: a strong
// program's moves in games against weaker ones.
base::Status collect_record_positions(const std::string& dir, int skip_plies, int first_group,
                                      std::vector<TrainingPosition>& out, int* records,
                                      const std::string& player = "");

// Where `learn train` takes its positions from. The measured data (records, then teacher
// files) comes first and is held out by group as the options say; the training-only data
// after it (records, then teacher files) is marked training_only and never held out.
struct TrainingSources {
  std::string records;  // directory, or empty
  int skip_plies = 0;
  std::vector<std::string> teachers;
  std::vector<std::string> train_records;  // directories
  std::string train_player;                // filter of train_records' moves (see above)
  int train_skip_plies = 0;
  std::vector<std::string> train_teachers;
};

// How many positions each kind of source gave.
struct TrainingCounts {
  int records = 0;  // records read under TrainingSources::records
  size_t record_positions = 0;
  size_t teacher_positions = 0;
  size_t train_record_positions = 0;
  size_t train_teacher_positions = 0;
};

// Reads every source in the order above into `out` (groups numbered on, one run), counting
// into `counts`; each training-only input gets a line on `log` when given. The first error
// (naming the input and place) stops it.
base::Status gather_training_positions(const TrainingSources& sources,
                                       std::vector<TrainingPosition>& out, TrainingCounts& counts,
                                       std::ostream* log = nullptr);

// Keeps at most max_positions, evenly spread over the list (order kept); 0 keeps all.
void thin_positions(std::vector<TrainingPosition>& positions, int max_positions);

}  // namespace tools
