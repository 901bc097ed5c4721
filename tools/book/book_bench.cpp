// Book retrieval benchmark: random growth, random queries, latency percentiles.
#include "tools/book/book_bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <numeric>
#include <unordered_set>

#include "book/book_db.h"
#include "shogi/movegen.h"

namespace tools {

namespace {

using book::Book;
using book::BookEntry;
using book::BookMode;
using book::PackedPosition;
using shogi::Position;

// splitmix64: the same sequence on every platform.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return size_t(next() % n); }

 private:
  uint64_t state_;
};

bool set_packed(Position& pos, const PackedPosition& packed) {
  return pos.set(packed.setup()).is_ok();
}

using Clock = std::chrono::steady_clock;

struct Latency {
  std::vector<double> micros;
  void print(std::ostream& out, const char* name) const {
    if (micros.empty()) return;
    std::vector<double> v = micros;
    std::sort(v.begin(), v.end());
    auto at = [&](double q) { return v[std::min(v.size() - 1, size_t(q * double(v.size())))]; };
    const double mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
    char line[200];
    std::snprintf(line, sizeof line,
                  "%-22s n %6zu  p50 %9.2f us  p99 %9.2f us  mean %9.2f us  max %9.2f us\n", name,
                  v.size(), at(0.50), at(0.99), mean, v.back());
    out << line;
  }
};

template <typename F>
double time_micros(F&& f) {
  const auto start = Clock::now();
  f();
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// This thread's CPU time in microseconds: unlike the wall clock, it leaves out the time the
// thread waits while other processes run (the machine may be busy).
double thread_cpu_micros() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e6 + double(t.tv_nsec) / 1e3;
}

bool same_result(const book::ProbeResult& a, const book::ProbeResult& b) {
  if (a.positions.size() != b.positions.size() || a.moves.size() != b.moves.size()) return false;
  for (size_t i = 0; i < a.positions.size(); ++i)
    if (a.positions[i].entry != b.positions[i].entry ||
        a.positions[i].distance != b.positions[i].distance)
      return false;
  for (size_t i = 0; i < a.moves.size(); ++i)
    if (a.moves[i].move != b.moves[i].move) return false;
  return true;
}

}  // namespace

std::vector<BookEntry> grow_book(std::vector<BookEntry> entries, size_t target, uint64_t seed) {
  if (entries.empty() || entries.size() >= target) return entries;
  Random random(seed);
  std::unordered_set<uint64_t> keys;
  keys.reserve(target * 2);
  for (const BookEntry& e : entries) keys.insert(e.key);
  const size_t original = entries.size();
  Position pos;
  int failures = 0;
  while (entries.size() < target && failures < 1000000) {
    if (!set_packed(pos, entries[random.below(original)].position)) {
      ++failures;
      continue;
    }
    const int plies = 1 + int(random.below(8));
    for (int ply = 0; ply < plies && entries.size() < target; ++ply) {
      shogi::MoveList moves = shogi::legal_moves(pos);
      if (moves.empty()) break;
      pos.do_move(moves[int(random.below(size_t(moves.size())))]);
      shogi::MoveList replies = shogi::legal_moves(pos);
      if (replies.empty() || !keys.insert(pos.key()).second) continue;
      BookEntry e;
      e.key = pos.key();
      e.position = PackedPosition::from(pos);
      book::BookMove m;
      m.move = replies[int(random.below(size_t(replies.size())))];
      m.count = uint32_t(1 + random.below(100));
      e.moves.push_back(m);
      entries.push_back(std::move(e));
    }
  }
  return entries;
}

std::vector<Position> random_queries(const std::vector<PackedPosition>& from, const Book& book,
                                     int count, uint64_t seed) {
  Random random(seed);
  std::vector<Position> out;
  Position pos;
  while (int(out.size()) < count && !from.empty()) {
    if (!set_packed(pos, from[random.below(from.size())])) continue;
    const int plies = 1 + int(random.below(6));
    bool stuck = false;
    for (int ply = 0; (ply < plies || book.find(pos)) && ply < 16; ++ply) {
      shogi::MoveList moves = shogi::legal_moves(pos);
      if (moves.empty()) {
        stuck = true;
        break;
      }
      pos.do_move(moves[int(random.below(size_t(moves.size())))]);
    }
    if (stuck || shogi::legal_moves(pos).empty()) continue;
    Position copy;
    if (copy.set(pos.setup()).is_ok()) out.push_back(copy);
  }
  return out;
}

base::Status run_book_bench(const BookBenchOptions& options, std::ostream& out) {
  std::vector<BookEntry> entries;
  auto start = Clock::now();
  if (base::Status status = book::load_book(options.book_directory, entries); !status)
    return status;
  const double load_s = std::chrono::duration<double>(Clock::now() - start).count();
  std::vector<PackedPosition> originals;
  for (const BookEntry& e : entries) originals.push_back(e.position);
  out << "loaded " << entries.size() << " positions from " << options.book_directory << " in "
      << load_s << " s\n";
  if (options.positions > entries.size()) {
    start = Clock::now();
    entries = grow_book(std::move(entries), options.positions, options.seed);
    out << "grown to " << entries.size() << " positions by random playouts in "
        << std::chrono::duration<double>(Clock::now() - start).count() << " s\n";
  }
  start = Clock::now();
  const Book book(std::move(entries));
  out << "built the book (exact table, attacker counts, index) in "
      << std::chrono::duration<double>(Clock::now() - start).count()
      << " s: " << book.index().size() << " index rows (position, move), "
      << book.index().group_count() << " (move, attacker counts) groups\n";

  const std::vector<Position> queries =
      random_queries(originals, book, options.queries, options.seed + 1);
  out << queries.size()
      << " query positions (random playouts from book positions, not in the book)\n";

  // Exact lookups: hits on random book positions, misses on the queries.
  Latency hit, miss;
  {
    Random random(options.seed + 2);
    Position pos;
    size_t found = 0;
    for (int i = 0; i < options.queries; ++i) {
      if (!set_packed(pos, book.entries()[random.below(book.size())].position)) continue;
      const book::BookEntry* e = nullptr;
      hit.micros.push_back(time_micros([&] { e = book.find(pos); }));
      found += e != nullptr;
    }
    out << "exact hits found: " << found << "/" << hit.micros.size() << "\n";
  }
  for (const Position& q : queries) miss.micros.push_back(time_micros([&] { (void)book.find(q); }));

  Latency simple, relation, simple_cpu, relation_cpu;
  book::IndexSearchStats simple_stats, relation_stats;
  std::vector<int> last_distance;
  size_t simple_found = 0, relation_found = 0, simple_positions = 0, relation_positions = 0;
  // One pass per mode, so that neither finds the other's rows in the caches.
  for (const Position& q : queries) {
    book::ProbeResult r;
    const double cpu = thread_cpu_micros();
    simple.micros.push_back(time_micros([&] {
      r = book.probe(q, BookMode::kSimple, options.k, options.max_distance, options.retrieval,
                     &simple_stats);
    }));
    simple_cpu.micros.push_back(thread_cpu_micros() - cpu);
    simple_found += !r.moves.empty();
    simple_positions += r.positions.size();
    last_distance.push_back(r.positions.empty() ? -1 : int(r.positions.back().distance));
  }
  for (const Position& q : queries) {
    book::ProbeResult r;
    const double cpu = thread_cpu_micros();
    relation.micros.push_back(time_micros([&] {
      r = book.probe(q, BookMode::kRelation, options.k, options.max_distance, options.retrieval,
                     &relation_stats);
    }));
    relation_cpu.micros.push_back(thread_cpu_micros() - cpu);
    relation_found += !r.moves.empty();
    relation_positions += r.positions.size();
  }
  out << "\nlatency (k " << options.k << ", max distance " << options.max_distance
      << ", relation: alpha " << options.retrieval.relation_alpha << ", support "
      << options.retrieval.relation_support << "):\n";
  hit.print(out, "exact (hit)");
  miss.print(out, "exact (miss)");
  simple.print(out, "simple");
  relation.print(out, "relation");
  out << "the same, in this thread's CPU time (without the waits of a busy machine):\n";
  simple_cpu.print(out, "simple (cpu)");
  relation_cpu.print(out, "relation (cpu)");
  const double n = std::max<double>(1, double(queries.size()));
  char line[300];
  std::snprintf(line, sizeof line,
                "simple: %.1f%% of queries got moves, %.2f positions, %.0f groups, %.0f chunks "
                "skipped, %.0f rows and %.0f board compares per probe\n"
                "relation: %.1f%% of queries got moves, %.2f positions, %.0f groups, %.0f rows and "
                "%.0f board compares per probe\n",
                100.0 * double(simple_found) / n, double(simple_positions) / n,
                double(simple_stats.groups_visited) / n, double(simple_stats.chunks_skipped) / n,
                double(simple_stats.rows_visited) / n, double(simple_stats.rows_compared) / n,
                100.0 * double(relation_found) / n, double(relation_positions) / n,
                double(relation_stats.groups_visited) / n, double(relation_stats.rows_visited) / n,
                double(relation_stats.rows_compared) / n);
  out << line;
  {
    std::vector<int> histogram(size_t(options.max_distance) + 2, 0);
    for (int d : last_distance) ++histogram[size_t(d + 1)];
    out << "simple: queries by the difference of the farthest position retrieved (none, 0, 1, "
           "...):";
    for (int h : histogram) out << " " << h;
    out << "\n";
  }

  // The index must give what a scan of the whole book gives.
  int checked = 0, mismatches = 0;
  Latency scan;
  for (size_t i = 0; i < queries.size() && checked < options.verify; ++i, ++checked) {
    for (BookMode mode : {BookMode::kSimple, BookMode::kRelation}) {
      book::ProbeResult by_scan;
      const double t = time_micros([&] {
        by_scan = book.probe_by_scan(queries[i], mode, options.k, options.max_distance,
                                     options.retrieval);
      });
      if (mode == BookMode::kSimple) scan.micros.push_back(t);
      if (!same_result(
              book.probe(queries[i], mode, options.k, options.max_distance, options.retrieval),
              by_scan))
        ++mismatches;
    }
  }
  scan.print(out, "simple by full scan");
  out << "verified against a full scan: " << checked << " queries, " << mismatches
      << " mismatches\n";
  if (mismatches > 0)
    return base::Status::error(std::to_string(mismatches) +
                               " probes differ from a full scan of the book");
  return base::Status::ok();
}

}  // namespace tools
