// ImportRecords: the moves of CSA game records, with their results, into a BookBuilder.
#include "book/import_records.h"

#include <algorithm>

#include "engine/csa_files.h"

namespace book {

bool record_winner(const engine::CsaRecord& record, engine::Color& winner) {
  using engine::CsaSpecialMove;
  // The side to move when the game ended (before a rejected last move, which that side made).
  const engine::Color to_move =
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
      winner = engine::kWhite;
      return true;
    case CsaSpecialMove::kWhiteIllegalAction:
      winner = engine::kBlack;
      return true;
    default:
      return false;
  }
}

void import_csa_record(const engine::CsaRecord& record, const RecordFilter& filter,
                       BookBuilder& out, ImportStats& stats) {
  engine::Color winner = engine::kBlack;
  const bool decisive = record_winner(record, winner);
  if (filter.result != RecordResultFilter::kAll && !decisive) {
    ++stats.skipped;
    return;
  }
  bool keep_side[engine::kColorNb] = {true, true};
  if (!filter.player.empty()) {
    keep_side[engine::kBlack] = record.black_name.find(filter.player) != std::string::npos;
    keep_side[engine::kWhite] = record.white_name.find(filter.player) != std::string::npos;
  }
  if (filter.result == RecordResultFilter::kWinner) keep_side[~winner] = false;
  if (!keep_side[engine::kBlack] && !keep_side[engine::kWhite]) {
    ++stats.skipped;
    return;
  }
  engine::Position pos;
  if (!pos.set(record.initial)) {
    ++stats.skipped;
    return;
  }
  ++stats.records;
  const size_t plies = filter.max_ply > 0 ? std::min(record.moves.size(), size_t(filter.max_ply))
                                          : record.moves.size();
  for (size_t i = 0; i < plies; ++i) {
    const engine::Move move = record.moves[i].move;
    const engine::Color mover = pos.side_to_move();
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

engine::Status import_csa_records(const std::vector<std::string>& paths, const RecordFilter& filter,
                                  BookBuilder& out, ImportStats& stats) {
  std::vector<std::string> files;
  for (const std::string& path : paths)
    if (engine::Status s = engine::list_csa_files(path, files); !s) return s;
  std::sort(files.begin(), files.end());
  for (const std::string& file : files) {
    engine::CsaRecord record;
    engine::Status s = engine::load_csa_record_file(file, record);
    ++stats.files;
    if (!s) {
      ++stats.skipped;
      stats.warn(s.message() + " (record skipped)");
      continue;
    }
    import_csa_record(record, filter, out, stats);
  }
  return engine::Status::ok();
}

}  // namespace book
