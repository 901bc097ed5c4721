// `sashite book import | export | stats`: opening books into and out of the LevelDB store.
#include "tools/book/book_store.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>
#include <unordered_map>

#include "base/file_write.h"
#include "book/book_builder.h"
#include "book/book_db.h"
#include "book/book_format.h"
#include "book/book_plies.h"
#include "book/import_gps_tsv.h"
#include "book/import_joseki_dat.h"
#include "book/import_records.h"
#include "book/yaneuraou_book.h"
#include "tools/common/progress_bar.h"

namespace tools {

namespace {

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

std::string rate(double count, double seconds) {
  char text[64];
  std::snprintf(text, sizeof text, "%.0f/s", seconds > 0 ? count / seconds : 0.0);
  return text;
}

}  // namespace

base::Status run_book_import(const BookImportOptions& o) {
  // A directory where a file is expected: std::ifstream opens it and reads it as empty.
  if (o.format != "csa")
    for (const std::string& path : o.paths)
      if (std::error_code ec; std::filesystem::is_directory(path, ec))
        return base::Status::error(path + ": cannot read: Is a directory");
  // Opened first: a wrong, foreign or locked directory is reported before a long read.
  book::BookDb db;
  base::Status s = db.open(o.book, /*create=*/true);
  if (!s) return s;
  const auto start = std::chrono::steady_clock::now();
  book::BookBuilder builder;
  book::ImportStats stats;
  if (o.format == "csa") {
    book::RecordFilter filter;
    filter.max_ply = o.max_ply;
    filter.player = o.player;
    filter.result = o.result == "decisive" ? book::RecordResultFilter::kDecisive
                    : o.result == "winner" ? book::RecordResultFilter::kWinner
                                           : book::RecordResultFilter::kAll;
    s = book::import_csa_records(o.paths, filter, builder, stats);
  } else {
    for (const std::string& path : o.paths) {
      if (o.format == "gps-tsv")
        s = book::import_gps_tsv(path, builder, stats);
      else if (o.format == "joseki-dat")
        s = book::import_joseki_dat(path, builder, stats);
      else
        s = book::import_yaneuraou_book(path, builder, stats);
      if (!s) break;
    }
  }
  if (!s) return s;
  const double read_seconds = seconds_since(start);
  const auto write_start = std::chrono::steady_clock::now();

  s = builder.write(db);
  if (!s) return s;
  std::string provenance;
  bool found = false;
  s = db.get_meta("provenance", provenance, found);
  if (!s) return s;
  std::string line = utc_now() + " import --format " + o.format;
  if (o.format == "csa")
    line += " --max-ply " + std::to_string(o.max_ply) + " --result " + o.result +
            (o.player.empty() ? "" : " --player '" + o.player + "'");
  for (const std::string& path : o.paths) line += " " + path;
  line += ": " + std::to_string(stats.rows) + " moves read, " +
          std::to_string(builder.position_count()) + " positions\n";
  s = db.put_meta("provenance", provenance + line);
  if (!s) return s;
  size_t positions = 0, moves = 0;
  s = db.for_each([&](const book::BookEntry& e) {
    ++positions;
    moves += e.moves.size();
    return true;
  });
  if (!s) return s;
  db.close();
  const double write_seconds = seconds_since(write_start);
  const double total_seconds = seconds_since(start);

  if (!o.quiet)
    for (const std::string& w : stats.warnings) std::cerr << "warning: " << w << '\n';
  std::printf(
      "read %llu moves (%zu positions, %zu distinct moves) from %llu files in %.2f s "
      "(%s positions, %s moves)\n",
      static_cast<unsigned long long>(stats.rows), builder.position_count(), builder.move_count(),
      static_cast<unsigned long long>(stats.files), read_seconds,
      rate(double(builder.position_count()), read_seconds).c_str(),
      rate(double(stats.rows), read_seconds).c_str());
  if (o.format == "csa")
    std::printf("games used %llu, skipped %llu\n", static_cast<unsigned long long>(stats.records),
                static_cast<unsigned long long>(stats.skipped));
  else if (stats.skipped)
    std::printf("skipped %llu\n", static_cast<unsigned long long>(stats.skipped));
  if (stats.collisions)
    std::printf("key collisions (moves dropped): %llu\n",
                static_cast<unsigned long long>(stats.collisions));
  std::printf(
      "wrote in %.2f s; book %s now holds %zu positions, %zu moves; total %.2f s "
      "(%s positions)\n",
      write_seconds, o.book.c_str(), positions, moves, total_seconds,
      rate(double(builder.position_count()), total_seconds).c_str());
  return base::Status::ok();
}

base::Status run_book_export(const BookExportOptions& o) {
  std::vector<book::BookEntry> entries;
  base::Status s = book::load_book(o.book, entries, book::kBookLockWaitMs);
  if (!s) return s;
  size_t written = 0;
  if (o.out.empty()) {
    s = book::write_yaneuraou_book(entries, std::cout, &written);
    std::cout.flush();
  } else {
    std::ostringstream out;
    s = book::write_yaneuraou_book(entries, out, &written);
    if (s) s = base::replace_file(o.out, out.str());
  }
  if (!s) return s;
  if (!o.out.empty()) std::printf("wrote %zu positions to %s\n", written, o.out.c_str());
  return base::Status::ok();
}

base::Status run_book_stats(const BookStatsOptions& o) {
  book::BookDb db;
  base::Status s = book::open_existing_book(db, o.book, book::kBookLockWaitMs);
  if (!s) return s;
  std::vector<book::BookEntry> entries;
  s = db.for_each([&](const book::BookEntry& e) {
    entries.push_back(e);
    return true;
  });
  if (!s) return s;
  std::string provenance, startpos_key;
  bool has_provenance = false, has_key = false;
  if (!(s = db.get_meta("provenance", provenance, has_provenance))) return s;
  if (!(s = db.get_meta("startpos_key", startpos_key, has_key))) return s;
  db.close();

  size_t moves = 0, valued = 0, with_results = 0, empty = 0;
  uint64_t games = 0;
  std::map<std::string, size_t> by_source;
  const std::pair<uint8_t, const char*> kSources[] = {{book::kSourceGpsTsv, "gps-tsv"},
                                                      {book::kSourceJosekiDat, "joseki-dat"},
                                                      {book::kSourceYaneuraou, "yaneuraou"},
                                                      {book::kSourceRecords, "csa records"},
                                                      {book::kSourceThink, "book think"}};
  for (const book::BookEntry& e : entries) {
    moves += e.moves.size();
    if (e.moves.empty()) ++empty;
    for (const book::BookMove& m : e.moves) {
      if (m.has_value()) ++valued;
      if (m.wins + m.losses > 0) ++with_results;
      games += m.count;
      for (const auto& [flag, name] : kSources)
        if (m.sources & flag) ++by_source[name];
    }
  }
  std::printf("book:                 %s\n", o.book.c_str());
  std::printf("format version:       %d (layout in book/book_format.h)\n", book::kFormatVersion);
  std::printf("positions:            %zu (%zu without moves)\n", entries.size(), empty);
  std::printf("moves:                %zu (count total %llu)\n", moves,
              static_cast<unsigned long long>(games));
  std::printf("moves with values:    %zu\n", valued);
  std::printf("moves with results:   %zu\n", with_results);
  for (const auto& [name, n] : by_source)
    std::printf("moves from %-12s %zu\n", (name + ":").c_str(), n);
  const std::unordered_map<uint64_t, int> plies = book::book_plies(entries);
  std::map<int, size_t> histogram;
  for (const auto& [key, ply] : plies) ++histogram[ply];
  std::printf("positions by ply from the start position (through book moves):\n");
  for (const auto& [ply, n] : histogram) std::printf("  ply %3d: %zu\n", ply, n);
  std::printf("  not reached from the start position: %zu\n", entries.size() - plies.size());
  if (has_key) std::printf("start position key:   %s\n", startpos_key.c_str());
  if (has_provenance) std::printf("provenance:\n%s", provenance.c_str());
  return base::Status::ok();
}

}  // namespace tools
