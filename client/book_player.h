// BookPlayer: the client plays opening-book moves itself, in front of any USI engine.
#pragma once

// The CSA client asks the book before it asks the engine: while the book has a move for the
// position (or, with retrieval, for a similar one: docs/techniques.md §3), the client plays it and
// the engine is not consulted; when the book runs out the engine takes over. The choice is the
// engine's own BookMoveChoice weighted / best (SearchManager::choose_book_move) over the
// suggestions of book::EngineBook, so a book plays the same in front of sashite and of any
// other engine.

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include "base/status.h"
#include "engine/book_advisor.h"
#include "shogi/position.h"
#include "shogi/types.h"

namespace book {
class EngineBook;
}

namespace client {

struct BookPlayOptions {
  // The book directory. Default: "" (the shipped book, as the engine's BookFile "default":
  // book/default beside the binary, then build/book/default; "default" means the same).
  std::string path;
  // Default: relation. kExact: the position itself must be in the book; kSimple, kRelation:
  // similar positions lend their moves; kOff: no book move, and no book is read.
  engine::BookMode mode = engine::BookMode::kRelation;
  // Default: true. Pick a suggestion at random in proportion to its weight; false: the best.
  bool weighted = true;
  // Default: 0. Suggestions with a smaller share of the book's weight (0..1) are never played.
  double min_weight = 0.0;
  // Default: 40 (the engine's BookMaxPly). No book move when the game ply (the SFEN move
  // number, 1 before Black's first move) is above this; 0: no limit.
  int max_ply = 40;
  // Default: 12 and 4 (the engine's BookMaxDistance and BookSimilarPositions): similar
  // positions farther than max_distance lend nothing; the k nearest are kept.
  int max_distance = 12;
  int k = 4;
  // Default: 0 (seeded from the clock and the process id). The generator of weighted choices;
  // a fixed seed repeats the same choices.
  uint64_t seed = 0;
};

// A book move chosen for a position.
struct BookPlay {
  shogi::Move move;     // legal in the position
  double weight = 0;    // its share of the book's suggestions here (before min_weight)
  uint32_t count = 0;   // the book's count of it (summed over the retrieved positions)
  int choices = 0;      // the suggestions it was chosen from (after min_weight)
  bool exact = false;   // the position itself is in the book
  double distance = 0;  // 0 when exact; else the nearest retrieved position's distance
  // One line for the log and the record's comment, e.g.
  // "book relation 7g7f weight 0.62 count 120 (3 moves, exact)".
  std::string note;
};

// The book held in memory: open() reads the LevelDB directory and closes it at once, so that
// any number of clients and engines on the machine share one book (LevelDB lets one process
// open it at a time). choose() draws from one generator: not safe to call from two threads at
// once; otherwise immutable after open().
class BookPlayer {
 public:
  BookPlayer();
  ~BookPlayer();
  BookPlayer(const BookPlayer&) = delete;
  BookPlayer& operator=(const BookPlayer&) = delete;

  // Reads the book (replacing any read before). Errors name the directory and say why (does
  // not exist, not a book, locked by another process past a wait, corrupt) or name the bad
  // option; after an error choose() returns nullopt. With mode kOff nothing is read and the
  // call succeeds.
  base::Status open(const BookPlayOptions& options);

  // The book move to play in pos, or nullopt: mode off or no book, the game ply above
  // max_ply, no suggestion, or none with at least min_weight.
  std::optional<BookPlay> choose(const shogi::Position& pos) const;

  // True when a book is in memory and the mode is not off.
  bool active() const { return book_ != nullptr; }
  // The directory read (the default resolved); "" before open or with mode off.
  const std::string& path() const { return path_; }
  // The book's positions in memory (0 when not active).
  size_t positions() const;

 private:
  BookPlayOptions options_;
  std::string path_;
  std::shared_ptr<const book::EngineBook> book_;  // null: no book (not open, off, failed)
  mutable std::mt19937_64 random_;
};

}  // namespace client
