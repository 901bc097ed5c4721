// gensfen: self-play games on worker threads, positions batched into files as they fill.
#include "tools/learn/gensfen.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>

#include "base/file_write.h"
#include "base/shipped_file.h"
#include "engine/engine.h"
#include "engine/eval/incremental_evaluator.h"
#include "engine/eval/weights.h"
#include "shogi/movegen.h"
#include "shogi/notation.h"
#include "shogi/position.h"
#include "tools/common/splitmix.h"
#include "tools/learn/gensfen_format.h"
#include "tools/learn/learn_search.h"
#include "tools/match/match_openings.h"

namespace tools {

using base::Status;
namespace fs = std::filesystem;

namespace {

// Keys of positions written in this run: a fixed table, a slot per key's hash. A key is
// known only when its slot holds it, so a collision may let a duplicate through but never
// drops a new position.
class SeenKeys {
 public:
  explicit SeenKeys(size_t megabytes) {
    size_t slots = 1;
    while (slots * 2 * sizeof(uint64_t) <= megabytes * (size_t(1) << 20)) slots *= 2;
    slots_.assign(slots, 0);
  }
  // True when the key was new (and is now known).
  bool insert(uint64_t key) {
    std::lock_guard<std::mutex> lock(mu_);
    uint64_t& slot = slots_[size_t(key) & (slots_.size() - 1)];
    if (slot == key) return false;
    slot = key;
    return true;
  }

 private:
  std::mutex mu_;
  std::vector<uint64_t> slots_;
};

// "gensfen-s<shard>-<NNNNNN>.bin" numbers in `dir` already taken, for this shard.
int first_free_number(const fs::path& dir, int shard) {
  const std::string prefix = "gensfen-s" + std::to_string(shard) + "-";
  int next = 0;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || e.path().extension() != ".bin") continue;
    const std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - 4);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    next = std::max(next, std::stoi(digits) + 1);
  }
  return next;
}

int16_t clamp_value(shogi::Value v) { return int16_t(std::clamp<int>(v, -32000, 32000)); }

// A position's record from its search (the result is filled in when the game ends).
GensfenRecord record_of(const shogi::Position& pos, const engine::SearchResult& r) {
  GensfenRecord rec;
  rec.position = pos.setup();
  rec.value = clamp_value(r.score);
  rec.move16 = r.best.key16();
  rec.ply = uint16_t(std::min(pos.game_ply(), 65535));
  rec.depth = uint8_t(std::clamp(r.depth, 0, 255));
  return rec;
}

// The opening as a position and moves, so that each ply of a game gives the engine the moves
// played (Engine::set_position) without reading the whole list as text again.
Status read_opening(const Opening& opening, shogi::Position& root,
                    std::vector<shogi::Move>& moves) {
  if (Status s = root.set_sfen(opening.sfen); !s) return s;
  moves.clear();
  shogi::Position pos = root;
  for (const std::string& text : opening.moves) {
    shogi::Move m;
    if (Status s = shogi::parse_usi_move(pos, text, m); !s) return s;
    pos.do_move(m);
    moves.push_back(m);
  }
  return Status::ok();
}

}  // namespace

Status validate_gensfen_options(const GensfenOptions& o) {
  if (o.out_dir.empty()) return Status::error("--out DIR is required");
  if ((o.depth > 0) == (o.nodes > 0))
    return Status::error("give exactly one of --depth D and --nodes N");
  if (o.threads < 1 || o.batch < 1 || o.random_min < 0 || o.random_max < o.random_min)
    return Status::error("bad --threads, --batch or --random-plies");
  if (o.leaves < 0 || (o.leaves > 0) != !o.leaves_dir.empty())
    return Status::error("--leaves N and --leaves-out DIR go together");
  std::error_code ec;
  if (o.leaves > 0 && fs::weakly_canonical(o.leaves_dir, ec) == fs::weakly_canonical(o.out_dir, ec))
    return Status::error("--leaves-out must be another directory than --out");
  for (const std::string& kv : o.engine_options)
    if (kv.find('=') == std::string::npos)
      return Status::error("engine option '" + kv + "': expected NAME=VALUE");
  return Status::ok();
}

Status run_gensfen(const GensfenOptions& o, std::ostream& out) {
  if (Status s = validate_gensfen_options(o); !s) return s;
  std::vector<Opening> openings;
  if (!o.openings_path.empty()) {
    if (Status s = load_openings(o.openings_path, openings); !s) return s;
  } else {
    openings.push_back(Opening{});
  }
  std::error_code ec;
  for (const std::string& dir : {o.out_dir, o.leaves_dir}) {
    if (dir.empty()) continue;
    fs::create_directories(dir, ec);
    if (!fs::is_directory(dir, ec)) return Status::error(dir + ": cannot create the directory");
  }
  // The leaves' quiescence search uses the shipped linear weights, whatever the games play.
  engine::eval::Weights linear;
  if (o.leaves > 0) {
    if (Status s = linear.load(base::linear_eval_file()); !s) return s;
  }
  // Check that the engine options and the evaluation load, once, before the threads.
  {
    engine::Engine probe;
    for (const std::string& kv : o.engine_options) {
      const size_t eq = kv.find('=');
      if (Status s = probe.set_option(kv.substr(0, eq), kv.substr(eq + 1)); !s) return s;
    }
    if (Status s = probe.prepare(); !s) return s;
  }

  std::mutex mu;  // guards the counters below, the file numbers and `out`
  int next_file = first_free_number(o.out_dir, o.shard);
  int next_leaf_file = o.leaves > 0 ? first_free_number(o.leaves_dir, o.shard) : 0;
  int64_t written = 0, games = 0, files = 0, leaves_written = 0;
  int64_t generated = 0;  // positions of finished games, written or waiting in a batch
  Status failure;
  std::atomic<bool> stop{false};
  SeenKeys seen(size_t(std::max(1, o.dedup_mb)));
  const uint64_t seed =
      o.seed ? o.seed : uint64_t(std::chrono::system_clock::now().time_since_epoch().count());
  const auto start = std::chrono::steady_clock::now();
  auto report = [&](const char* what) {  // REQUIRES: mu held
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    char line[256];
    std::snprintf(line, sizeof line,
                  "gensfen: %s %lld positions (%lld written in %lld files), %lld games, %.0f s, "
                  "%.0f positions/hour",
                  what, static_cast<long long>(generated), static_cast<long long>(written),
                  static_cast<long long>(files), static_cast<long long>(games), s,
                  s > 0 ? double(generated) * 3600.0 / s : 0.0);
    out << line;
    if (o.leaves > 0) out << ", " << leaves_written << " leaves written";
    out << std::endl;
  };
  out << "gensfen: shard " << o.shard << ", " << o.threads << " threads, "
      << (o.depth > 0 ? "depth " + std::to_string(o.depth) : "nodes " + std::to_string(o.nodes))
      << ", openings "
      << (o.openings_path.empty() ? std::string("start position") : o.openings_path) << " ("
      << openings.size() << "), random plies " << o.random_min << ".." << o.random_max
      << ", from ply " << o.min_ply << ", files from number " << next_file << " in " << o.out_dir
      << ", seed " << seed;
  if (o.leaves > 0) out << ", " << o.leaves << " leaves a position in " << o.leaves_dir;
  out << std::endl;

  auto set_up = [&](engine::Engine& e) {
    e.set_option("USI_Hash", std::to_string(o.hash_mb));
    e.set_option("USI_OwnBook", "false");
    e.set_option("Threads", "1");
    for (const std::string& kv : o.engine_options) {
      const size_t eq = kv.find('=');
      e.set_option(kv.substr(0, eq), kv.substr(eq + 1));
    }
    (void)e.prepare();  // checked above
  };
  auto worker = [&](int id) {
    engine::Engine e;
    set_up(e);
    SplitMix64 rng{seed ^ (0x632BE59BD9B4E019ull * uint64_t(id + 1)) ^ (uint64_t(o.shard) << 48)};
    // The leaves have their own engine and random numbers: with or without them, a seed
    // plays the same games.
    std::unique_ptr<engine::Engine> leaf_engine;
    if (o.leaves > 0) {
      leaf_engine = std::make_unique<engine::Engine>();
      set_up(*leaf_engine);
    }
    SplitMix64 leaf_rng{~rng.state};
    std::vector<GensfenRecord> batch, leaf_batch;
    engine::SearchLimits limits;
    limits.depth = o.depth;
    limits.nodes = o.nodes;
    engine::eval::IncrementalEvaluator leaf_evaluator;
    // Writes a full batch (any, when partial) of positions or of leaves to its directory.
    auto flush_records = [&](std::vector<GensfenRecord>& records, bool leaves, bool partial) {
      if (records.empty() || (!partial && int(records.size()) < o.batch)) return true;
      int number;
      {
        std::lock_guard<std::mutex> lock(mu);
        number = leaves ? next_leaf_file++ : next_file++;
      }
      char name[64];
      std::snprintf(name, sizeof name, "gensfen-s%d-%06d.bin", o.shard, number);
      const Status w =
          base::replace_file((fs::path(leaves ? o.leaves_dir : o.out_dir) / name).string(),
                             gensfen_file_bytes(records));
      std::lock_guard<std::mutex> lock(mu);
      if (!w.is_ok()) {
        if (failure.is_ok()) failure = w;
        stop = true;
        return false;
      }
      if (leaves) {
        leaves_written += int64_t(records.size());
      } else {
        written += int64_t(records.size());
        ++files;
        if (o.positions > 0 && written >= o.positions) stop = true;
      }
      records.clear();
      return true;
    };
    auto flush = [&](bool partial) {
      return flush_records(batch, false, partial) && flush_records(leaf_batch, true, partial);
    };
    // Up to o.leaves leaves of `parent` (the game's position after root and moves, `played`
    // its move): a random other legal move, the linear quiescence PV after it, the engine's
    // search there (by the leaves' engine).
    auto add_leaves = [&](const shogi::Position& parent, shogi::Move played,
                          const shogi::Position& root, const std::vector<shogi::Move>& moves,
                          std::vector<GensfenRecord>& leaves, std::vector<shogi::Color>& movers) {
      const shogi::MoveList legal = shogi::legal_moves(parent);
      if (legal.size() < 2) return;
      shogi::Position work = parent;
      std::vector<shogi::Move> line;
      for (int k = 0; k < o.leaves && !stop; ++k) {
        shogi::Move m;
        do m = legal[size_t(leaf_rng.below(legal.size()))];
        while (m == played);
        const MoveLeaf leaf = search_move_leaf(work, leaf_evaluator, linear, m);
        if (leaf.mated) continue;
        const shogi::Position at = leaf_position(parent, leaf);
        if (at.in_check() || shogi::legal_moves(at).size() == 0 || !seen.insert(at.key())) continue;
        line = moves;
        line.push_back(m);
        line.insert(line.end(), leaf.pv.begin(), leaf.pv.end());
        if (!leaf_engine->set_position(root, line).is_ok()) continue;
        const engine::SearchResult r = leaf_engine->search(limits);
        if (r.kind != engine::SearchResult::Kind::kMove || r.best == shogi::kMoveNone ||
            r.score == shogi::kValueNone)
          continue;
        leaves.push_back(record_of(at, r));
        movers.push_back(at.side_to_move());
      }
    };
    while (!stop) {
      const Opening& opening = openings[rng.below(openings.size())];
      shogi::Position root;
      std::vector<shogi::Move> moves;
      if (!read_opening(opening, root, moves).is_ok() || !e.set_position(root, moves).is_ok())
        continue;
      // Random legal moves after the opening.
      const int random = o.random_min + int(rng.below(uint64_t(o.random_max - o.random_min + 1)));
      bool dead = false;
      for (int i = 0; i < random; ++i) {
        const shogi::MoveList legal = shogi::legal_moves(e.position());
        if (legal.size() == 0) {
          dead = true;
          break;
        }
        moves.push_back(legal[size_t(rng.below(legal.size()))]);
        e.set_position(root, moves);
      }
      if (dead) continue;
      e.new_game();
      std::vector<GensfenRecord> game, game_leaves;
      std::vector<shogi::Color> movers, leaf_movers;
      int winner = -1;  // colour that won, 2 for a draw
      while (!stop) {
        const shogi::Position& pos = e.position();
        const shogi::Color us = pos.side_to_move();
        if (pos.game_ply() > o.max_plies) {
          winner = 2;
          break;
        }
        if (shogi::legal_moves(pos).size() == 0) {
          winner = ~us;
          break;
        }
        if (pos.can_declare_win()) {
          winner = us;
          break;
        }
        const engine::SearchResult r = e.search(limits);
        if (r.kind == engine::SearchResult::Kind::kResign || r.best == shogi::kMoveNone) {
          winner = ~us;
          break;
        }
        if (r.kind == engine::SearchResult::Kind::kWin) {
          winner = us;
          break;
        }
        if (r.score != shogi::kValueNone && std::abs(r.score) >= o.eval_limit) {
          winner = r.score > 0 ? us : ~us;
          break;
        }
        if (pos.game_ply() >= o.min_ply && !pos.in_check() && r.score != shogi::kValueNone &&
            seen.insert(pos.key())) {
          game.push_back(record_of(pos, r));
          movers.push_back(us);
          if (o.leaves > 0) {
            add_leaves(pos, r.best, root, moves, game_leaves, leaf_movers);
          }
        }
        moves.push_back(r.best);
        if (!e.set_position(root, moves).is_ok()) break;
        const shogi::Repetition rep = e.position().repetition(4);
        if (rep != shogi::Repetition::kNone) {
          // The side to move now: kWin, it won (the mover checked every time); kLoss, it lost.
          const shogi::Color now = e.position().side_to_move();
          winner = rep == shogi::Repetition::kDraw  ? 2
                   : rep == shogi::Repetition::kWin ? int(now)
                                                    : int(~now);
          break;
        }
      }
      if (winner < 0) break;  // stopped in the middle of a game: its positions have no result
      for (size_t i = 0; i < game.size(); ++i) {
        game[i].result = winner == 2 ? 0 : int(movers[i]) == winner ? 1 : -1;
        batch.push_back(game[i]);
        if (!flush(false)) return;
      }
      for (size_t i = 0; i < game_leaves.size(); ++i) {
        game_leaves[i].result = winner == 2 ? 0 : int(leaf_movers[i]) == winner ? 1 : -1;
        leaf_batch.push_back(game_leaves[i]);
        if (!flush(false)) return;
      }
      std::lock_guard<std::mutex> lock(mu);
      ++games;
      generated += int64_t(game.size());
    }
    // A run that ends by its count, not by a failure, keeps what the batch holds.
    bool ok;
    {
      std::lock_guard<std::mutex> lock(mu);
      ok = failure.is_ok();
    }
    if (ok) flush(true);
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < o.threads; ++t) threads.emplace_back(worker, t);
  // Progress while the workers run.
  for (;;) {
    bool done = true;
    for (int waited = 0; waited < o.progress_seconds * 10; ++waited) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      done = stop.load();
      if (done) break;
    }
    std::lock_guard<std::mutex> lock(mu);
    if (done) break;
    report("so far");
  }
  for (std::thread& t : threads) t.join();
  std::lock_guard<std::mutex> lock(mu);
  report("done:");
  return failure;
}

Status inspect_gensfen(const std::string& path, int limit, std::ostream& out) {
  std::vector<GensfenRecord> records;
  if (Status s = read_gensfen_file(path, records); !s) return s;
  int64_t wins = 0, draws = 0, losses = 0;
  for (const GensfenRecord& r : records) (r.result > 0 ? wins : r.result < 0 ? losses : draws)++;
  out << path << ": " << records.size() << " positions; results for the side to move: " << wins
      << " won, " << draws << " drawn, " << losses << " lost\n";
  for (size_t i = 0; i < records.size() && int(i) < limit; ++i) {
    const GensfenRecord& r = records[i];
    shogi::Position pos;
    std::string move = "?";
    if (pos.set(r.position).is_ok()) {
      const shogi::Move m = pos.complete_move(shogi::Move(r.move16));
      if (m != shogi::kMoveNone) move = shogi::format_usi_move(m);
    }
    out << "sfen " << shogi::format_sfen(r.position) << " value " << r.value << " move " << move
        << " result " << int(r.result) << " depth " << int(r.depth);
    if (r.labelled) out << " teacher " << r.teacher_value << " static " << r.teacher_static;
    out << "\n";
  }
  return Status::ok();
}

Status parse_random_plies(const std::string& text, int& min, int& max) {
  const size_t comma = text.find(',');
  try {
    if (comma == std::string::npos) {
      min = max = std::stoi(text);
    } else {
      min = std::stoi(text.substr(0, comma));
      max = std::stoi(text.substr(comma + 1));
    }
  } catch (const std::exception&) {
    return Status::error("--random-plies '" + text + "': expected N or MIN,MAX");
  }
  return Status::ok();
}

}  // namespace tools
