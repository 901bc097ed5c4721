// BookPlayer: reads the book once, then picks book moves as the engine's BookMoveChoice does.
#include "client/book_player.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "base/shipped_file.h"
#include "book/engine_book.h"
#include "shogi/movegen.h"
#include "shogi/notation.h"

namespace client {
namespace {

const char* mode_name(engine::BookMode mode) {
  switch (mode) {
    case engine::BookMode::kExact:
      return "exact";
    case engine::BookMode::kSimple:
      return "simple";
    case engine::BookMode::kRelation:
      return "relation";
    case engine::BookMode::kOff:
      break;
  }
  return "off";
}

// Several clients started at the same moment must not all draw the same choices.
uint64_t clock_seed() {
  const uint64_t t = uint64_t(std::chrono::system_clock::now().time_since_epoch().count());
  return t ^ (uint64_t(::getpid()) << 32) ^ 0x9E3779B97F4A7C15ull;
}

}  // namespace

BookPlayer::BookPlayer() = default;
BookPlayer::~BookPlayer() = default;

base::Status BookPlayer::open(const BookPlayOptions& options) {
  book_.reset();
  path_.clear();
  options_ = options;
  random_.seed(options.seed != 0 ? options.seed : clock_seed());
  if (options.mode == engine::BookMode::kOff) return base::Status::ok();
  if (options.k < 1) return base::Status::error("book: k must be at least 1");
  if (options.max_distance < 0)
    return base::Status::error("book: max_distance must not be negative");
  if (options.max_ply < 0) return base::Status::error("book: max_ply must not be negative");
  if (!(options.min_weight >= 0 && options.min_weight <= 1))
    return base::Status::error("book: min_weight must be between 0 and 1");
  const std::string path = options.path.empty() || options.path == "default"
                               ? base::default_book_directory()
                               : options.path;
  // load_engine_book reads every entry and closes the directory (waiting out another
  // process's load), as the engine does at isready; nothing keeps LevelDB's lock.
  std::shared_ptr<const engine::BookAdvisor> loaded;
  if (base::Status st = book::load_engine_book(path, loaded); !st) return st;
  book_ = std::dynamic_pointer_cast<const book::EngineBook>(loaded);
  if (!book_) return base::Status::error("book directory '" + path + "': not loaded");
  path_ = path;
  return base::Status::ok();
}

size_t BookPlayer::positions() const { return book_ ? book_->book().size() : 0; }

std::optional<BookPlay> BookPlayer::choose(const shogi::Position& pos) const {
  if (!book_ || options_.mode == engine::BookMode::kOff) return std::nullopt;
  if (options_.max_ply > 0 && pos.game_ply() > options_.max_ply) return std::nullopt;
  engine::BookRequest request;
  request.mode = options_.mode;
  request.k = options_.k;
  request.max_distance = options_.max_distance;
  const std::vector<engine::BookSuggestion> all = book_->suggest(pos, request);
  // The book's moves are made legal by the probe; checked again, since the client sends them
  // to the server without an engine to refuse them.
  const shogi::MoveList legal = shogi::legal_moves(pos);
  std::vector<engine::BookSuggestion> kept;
  for (const engine::BookSuggestion& s : all)
    if (s.weight > 0 && s.weight >= options_.min_weight && legal.contains(s.move))
      kept.push_back(s);
  if (kept.empty()) return std::nullopt;
  const engine::BookSuggestion& chosen =
      kept[engine::pick_book_suggestion(kept, options_.weighted, random_)];

  BookPlay play;
  play.move = chosen.move;
  play.weight = chosen.weight;
  play.count = chosen.count;
  play.choices = int(kept.size());
  play.exact = book_->book().find(pos) != nullptr;
  if (!play.exact) {
    // The note says how far the book had to look; only the positions are wanted here.
    const book::ProbeResult probe =
        book_->book().probe(pos,
                            options_.mode == engine::BookMode::kSimple ? book::BookMode::kSimple
                                                                       : book::BookMode::kRelation,
                            options_.k, double(options_.max_distance));
    if (!probe.positions.empty()) play.distance = probe.positions.front().distance;
  }
  char where[64];
  if (play.exact)
    std::snprintf(where, sizeof where, "exact");
  else
    std::snprintf(where, sizeof where, "similar, distance %.1f", play.distance);
  char text[192];
  std::snprintf(text, sizeof text, "book %s %s weight %.2f count %u (%d move%s, %s)",
                mode_name(options_.mode), shogi::format_usi_move(play.move).c_str(), play.weight,
                unsigned(play.count), play.choices, play.choices == 1 ? "" : "s", where);
  play.note = text;
  return play;
}

}  // namespace client
