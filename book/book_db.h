// BookDb: an opening book stored in LevelDB (see book_format.h for the key/value layout).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "book/book_entry.h"

namespace leveldb {
class DB;
}

namespace book {

// A LevelDB book directory, opened by one process at a time (LevelDB's LOCK file). The
// engine never keeps it open: it loads every entry at start-up (load_book) and closes it, so
// that any number of engines can use one book. Not thread-safe.
class BookDb {
 public:
  BookDb();
  ~BookDb();
  BookDb(const BookDb&) = delete;
  BookDb& operator=(const BookDb&) = delete;

  // Opens an existing book (create=false) or creates one (create=true; an existing book is
  // opened). Errors name the directory: not a book (no format-version record), a newer
  // format, a corrupt database, locked by another process. An existing book in a directory
  // this process may not write is opened from a private copy (LevelDB writes on every open),
  // deleted at close; writes to it are errors.
  base::Status open(const std::string& directory, bool create);
  void close();

  // Reads one entry by key; returns false when absent. Corrupt values are errors.
  base::Status get(uint64_t key, BookEntry& out, bool& found) const;
  // Writes entries in one atomic WriteBatch; with combine, each is merged (BookEntry::
  // merge_move) into what is stored under its key, else it replaces it.
  base::Status put(const std::vector<BookEntry>& entries, bool combine);
  // Calls visit for every entry in key order; stops early (ok) when visit returns false.
  base::Status for_each(const std::function<bool(const BookEntry&)>& visit) const;
  // Free-form metadata records (provenance, progress of `book think`), outside entry keys.
  base::Status get_meta(const std::string& name, std::string& value, bool& found) const;
  base::Status put_meta(const std::string& name, const std::string& value);

  const std::string& directory() const { return directory_; }
  // True when the book was opened from a private copy (its directory is not writable).
  bool read_only() const { return !private_copy_.empty(); }
  // True when the last open failed because another process (or BookDb) holds the book.
  bool locked() const { return locked_; }

 private:
  std::unique_ptr<leveldb::DB> db_;
  std::string directory_;
  std::string private_copy_;  // the copy opened instead of a read-only directory, or ""
  bool locked_ = false;
};

// Opens an existing book (BookDb::open with create=false); while another process holds the
// book's lock (an engine loading it), retries for up to lock_wait_ms.
base::Status open_existing_book(BookDb& db, const std::string& directory, int lock_wait_ms);

// How long the command-line tools and the engine wait for a book another process holds.
constexpr int kBookLockWaitMs = 10000;

// Reads a whole book into memory (open, for_each, close). While another process holds the
// book's lock (an engine loading it too), retries for up to lock_wait_ms.
base::Status load_book(const std::string& directory, std::vector<BookEntry>& out,
                       int lock_wait_ms = 0);

}  // namespace book
