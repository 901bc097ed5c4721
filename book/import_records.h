// ImportRecords: CSA game records (files or directories, recursively) into a BookBuilder.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "book/book_builder.h"
#include "shogi/csa_record.h"

namespace book {

// Which games and moves of the records go into the book.
enum class RecordResultFilter {
  kAll,       // every game, whatever its result
  kDecisive,  // games won by one side (no draw, no unknown result)
  kWinner,    // only the winner's moves of decisive games
};

struct RecordFilter {
  // Keep moves at ply <= max_ply (the first move of a record is ply 1); 0 keeps all.
  // Default: 0.
  int max_ply = 0;
  // Default: kAll.
  RecordResultFilter result = RecordResultFilter::kAll;
  // When not empty, keep only the moves of a player whose name (N+ / N- lines) contains it.
  // Default: "".
  std::string player;
};

// The side that won a record; returns false for a draw or an unknown result. Read from the
// final special move: %TORYO, %TIME_UP, %ILLEGAL_MOVE, %TSUMI: the side to move after the
// last move loses; %KACHI, %OUTE_SENNICHITE: it wins; %+ILLEGAL_ACTION / %-ILLEGAL_ACTION:
// Black / White loses. Draws: %SENNICHITE, %JISHOGI, %HIKIWAKE, %MAX_MOVES.
bool record_winner(const shogi::CsaRecord& record, shogi::Color& winner);

// Adds the moves of one record that pass the filter: each a BookMove with count 1, wins 1 if
// the mover won the game, losses 1 if the mover lost, sources kSourceRecords. A record whose
// game the filter excludes counts in stats.skipped.
void import_csa_record(const shogi::CsaRecord& record, const RecordFilter& filter, BookBuilder& out,
                       ImportStats& stats);

// Reads every ".csa" file under the paths (files, or directories searched recursively, in
// name order). A file that cannot be read or replayed is skipped with a warning in stats; a
// path that does not exist is an error naming it.
base::Status import_csa_records(const std::vector<std::string>& paths, const RecordFilter& filter,
                                BookBuilder& out, ImportStats& stats);

}  // namespace book
