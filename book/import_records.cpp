// ImportRecords: the moves of CSA game records, with their results, into a BookBuilder.
#include "book/import_records.h"

#include <algorithm>

#include "shogi/csa_files.h"

namespace book {

bool record_winner(const shogi::CsaRecord& record, shogi::Color& winner) {
  using shogi::CsaSpecialMove;
  // The side to move when the game ended (before a rejected last move, which that side made).
  const shogi::Color to_move =
      record.moves.size() % 2 == 0 ? record.initial.side_to_move : ~record.initial.side_to_move;
  switch (record.result) {
    case CsaSpecialMove::kToryo:
    case CsaSpecialMove::kTimeUp:
    case CsaSpecialMove::kIllegalMove:
    case CsaSpecialMove::kTsumi:
      winner = ~to_move;
      return true;
    case CsaSpecialMove::kKachi:
    case CsaSpecialMove::kOuteSennichite:
      winner = to_move;
      return true;
    case CsaSpecialMove::kBlackIllegalAction:
      winner = shogi::kWhite;
      return true;
    case CsaSpecialMove::kWhiteIllegalAction:
      winner = shogi::kBlack;
      return true;
    default:
      return false;
  }
}

void import_csa_record(const shogi::CsaRecord& record, const RecordFilter& filter, BookBuilder& out,
                       ImportStats& stats) {
  shogi::Color winner = shogi::kBlack;
  const bool decisive = record_winner(record, winner);
  if (filter.result != RecordResultFilter::kAll && !decisive) {
    ++stats.skipped;
    return;
  }
  bool keep_side[shogi::kColorNb] = {true, true};
  if (!filter.player.empty()) {
    keep_side[shogi::kBlack] = record.black_name.find(filter.player) != std::string::npos;
    keep_side[shogi::kWhite] = record.white_name.find(filter.player) != std::string::npos;
  }
  if (filter.result == RecordResultFilter::kWinner) keep_side[~winner] = false;
  if (!keep_side[shogi::kBlack] && !keep_side[shogi::kWhite]) {
    ++stats.skipped;
    return;
  }
  shogi::Position pos;
  if (!pos.set(record.initial)) {
    ++stats.skipped;
    return;
  }
  ++stats.records;
  const size_t plies = filter.max_ply > 0 ? std::min(record.moves.size(), size_t(filter.max_ply))
                                          : record.moves.size();
  for (size_t i = 0; i < plies; ++i) {
    const shogi::Move move = record.moves[i].move;
    const shogi::Color mover = pos.side_to_move();
    if (keep_side[mover]) {
      BookMove m;
      m.move = move;
      m.count = 1;
      m.wins = decisive && winner == mover ? 1 : 0;
      m.losses = decisive && winner != mover ? 1 : 0;
      m.sources = kSourceRecords;
      ++stats.rows;
      if (!out.add(pos, m)) {
        ++stats.collisions;
        stats.warn("record move " + std::to_string(i + 1) +
                   ": key collision with another position; move dropped");
      }
    }
    pos.do_move(move);
  }
}

base::Status import_csa_records(const std::vector<std::string>& paths, const RecordFilter& filter,
                                BookBuilder& out, ImportStats& stats) {
  std::vector<std::string> files;
  for (const std::string& path : paths)
    if (base::Status s = shogi::list_csa_files(path, files); !s) return s;
  std::sort(files.begin(), files.end());
  for (const std::string& file : files) {
    shogi::CsaRecord record;
    base::Status s = shogi::load_csa_record_file(file, record);
    ++stats.files;
    if (!s) {
      ++stats.skipped;
      stats.warn(s.message() + " (record skipped)");
      continue;
    }
    import_csa_record(record, filter, out, stats);
  }
  return base::Status::ok();
}

}  // namespace book
