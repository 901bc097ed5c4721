// BookDb: the opening book in a LevelDB directory (records laid out as in book_format.h).
#include "book/book_db.h"

#include <leveldb/db.h>
#include <leveldb/filter_policy.h>
#include <leveldb/write_batch.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <thread>
#include <unordered_map>

#include "book/book_format.h"

namespace book {

namespace {

constexpr const char* kStartposKeyMeta = "startpos_key";

// Stateless, shared by every open book (it must outlive each DB using it).
const leveldb::FilterPolicy* bloom_filter_policy() {
  static const leveldb::FilterPolicy* policy = leveldb::NewBloomFilterPolicy(10);
  return policy;
}

std::string hex64(uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

uint64_t startpos_key() { return shogi::Position().key(); }

std::string where(const std::string& directory) { return "book directory '" + directory + "': "; }

// Turns a LevelDB error into one that names the directory and says what to do.
base::Status leveldb_error(const std::string& directory, const leveldb::Status& s) {
  const std::string text = s.ToString();
  if (s.IsIOError() && text.find("lock") != std::string::npos)
    return base::Status::error(where(directory) +
                               "locked by another process (LevelDB lets one process open a "
                               "database at a time; close it or copy the book): " +
                               text);
  if (s.IsCorruption()) return base::Status::error(where(directory) + "corrupt database: " + text);
  return base::Status::error(where(directory) + text);
}

// Copies the database files of `directory` (not LevelDB's LOCK and LOG, which it writes
// anew) into a fresh private directory under the system's temporary directory.
base::Status make_private_copy(const std::string& directory, std::string& copy) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path base = fs::temp_directory_path(ec);
  if (ec) base = "/tmp";
  std::string pattern = (base / "sashite-book-XXXXXX").string();
  if (!::mkdtemp(pattern.data()))
    return base::Status::error(where(directory) +
                               "not writable, and no private copy could be made in " +
                               base.string() + ": " + std::strerror(errno));
  copy = pattern;
  for (const fs::directory_entry& file : fs::directory_iterator(directory, ec)) {
    const std::string name = file.path().filename().string();
    if (name == "LOCK" || name == "LOG" || name == "LOG.old" || !file.is_regular_file(ec)) continue;
    fs::copy_file(file.path(), fs::path(copy) / name, ec);
    if (ec) break;
  }
  if (ec) {
    fs::remove_all(copy);
    copy.clear();
    return base::Status::error(
        where(directory) +
        "not writable, and copying it to a private directory failed: " + ec.message());
  }
  return base::Status::ok();
}

base::Status read_only_error(const std::string& directory) {
  return base::Status::error(where(directory) +
                             "not writable (opened from a private copy, for reading only)");
}

}  // namespace

BookDb::BookDb() = default;
BookDb::~BookDb() { close(); }

void BookDb::close() {
  db_.reset();
  directory_.clear();
  if (!private_copy_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(private_copy_, ec);
    private_copy_.clear();
  }
}

base::Status BookDb::open(const std::string& directory, bool create) {
  close();
  locked_ = false;
  namespace fs = std::filesystem;
  std::error_code ec;
  const bool exists = fs::exists(directory, ec);
  if (exists && !fs::is_directory(directory, ec))
    return base::Status::error(where(directory) + "not a directory");
  const bool has_database = fs::exists(fs::path(directory) / "CURRENT", ec);
  if (!has_database) {
    if (!create)
      return base::Status::error(where(directory) + (exists
                                                         ? "not a book (no LevelDB database in it)"
                                                         : "does not exist"));
    if (exists && !fs::is_empty(directory, ec))
      return base::Status::error(where(directory) +
                                 "not a book (a non-empty directory without a LevelDB "
                                 "database); choose a new or empty directory");
  }

  // LevelDB writes a LOCK, a LOG and a new MANIFEST on every open: a book in a directory we
  // may only read (installed by root, shared storage) is opened from a private copy.
  std::string open_at = directory;
  if (!create && ::access(directory.c_str(), W_OK) != 0) {
    if (base::Status copied = make_private_copy(directory, private_copy_); !copied) return copied;
    open_at = private_copy_;
  }

  leveldb::Options options;
  options.create_if_missing = create;
  options.paranoid_checks = true;
  options.filter_policy = bloom_filter_policy();
  options.write_buffer_size = 16 << 20;
  leveldb::DB* raw = nullptr;
  leveldb::Status s = leveldb::DB::Open(options, open_at, &raw);
  if (!s.ok()) {
    const base::Status error = leveldb_error(directory, s);
    locked_ = error.message().find("locked by another process") != std::string::npos;
    close();
    return error;
  }
  db_.reset(raw);
  directory_ = directory;

  std::string version_text;
  s = db_->Get(leveldb::ReadOptions(), version_key(), &version_text);
  if (s.IsNotFound()) {
    std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(leveldb::ReadOptions()));
    it->SeekToFirst();
    const bool empty = !it->Valid();
    it.reset();
    if (!empty || !create) {
      close();
      return base::Status::error(where(directory) +
                                 "not a book (a LevelDB database without a format-version "
                                 "record)");
    }
    leveldb::WriteBatch batch;
    batch.Put(version_key(), version_value(kFormatVersion));
    batch.Put(meta_key(kStartposKeyMeta), hex64(startpos_key()));
    s = db_->Write(leveldb::WriteOptions(), &batch);
    if (!s.ok()) {
      close();
      return leveldb_error(directory, s);
    }
    return base::Status::ok();
  }
  if (!s.ok()) {
    close();
    return leveldb_error(directory, s);
  }
  int version = 0;
  if (!parse_version_value(version_text, version)) {
    close();
    return base::Status::error(where(directory) + "not a book (format-version record '" +
                               version_text + "')");
  }
  if (version > kFormatVersion) {
    close();
    return base::Status::error(where(directory) + "book format version " + std::to_string(version) +
                               " is newer than this sashite's (" + std::to_string(kFormatVersion) +
                               "); update sashite");
  }
  std::string stored_key;
  s = db_->Get(leveldb::ReadOptions(), meta_key(kStartposKeyMeta), &stored_key);
  if (s.ok() && stored_key != hex64(startpos_key())) {
    close();
    return base::Status::error(
        where(directory) + "built with different position keys (start position key " + stored_key +
        ", this sashite's " + hex64(startpos_key()) + "); rebuild it with sashite book import");
  }
  return base::Status::ok();
}

base::Status BookDb::get(uint64_t key, BookEntry& out, bool& found) const {
  found = false;
  if (!db_) return base::Status::error("book: get on a book that is not open");
  std::string value;
  leveldb::ReadOptions read_options;
  read_options.verify_checksums = true;
  const leveldb::Status s = db_->Get(read_options, entry_key(key), &value);
  if (s.IsNotFound()) return base::Status::ok();
  if (!s.ok()) return leveldb_error(directory_, s);
  out.key = key;
  base::Status decoded = decode_entry_value(value, out);
  if (!decoded)
    return base::Status::error(where(directory_) + "entry " + hex64(key) +
                               ": corrupt value: " + decoded.message());
  found = true;
  return base::Status::ok();
}

base::Status BookDb::put(const std::vector<BookEntry>& entries, bool combine) {
  if (!db_) return base::Status::error("book: put on a book that is not open");
  if (read_only()) return read_only_error(directory_);
  // Entries of this call sharing a key are combined (or the last one kept) before writing.
  std::unordered_map<uint64_t, BookEntry> merged;
  std::vector<uint64_t> order;
  merged.reserve(entries.size());
  for (const BookEntry& e : entries) {
    auto [it, inserted] = merged.try_emplace(e.key);
    BookEntry& target = it->second;
    if (inserted) {
      order.push_back(e.key);
      if (combine) {
        bool found = false;
        base::Status s = get(e.key, target, found);
        if (!s) return s;
        if (!found)
          target = e;
        else if (!(target.position == e.position))
          return base::Status::error(where(directory_) + "entry " + hex64(e.key) +
                                     ": two different positions share this key");
        else
          for (const BookMove& m : e.moves) target.merge_move(m);
      } else {
        target = e;
      }
      continue;
    }
    if (!combine) {
      target = e;
      continue;
    }
    if (!(target.position == e.position))
      return base::Status::error(where(directory_) + "entry " + hex64(e.key) +
                                 ": two different positions share this key");
    for (const BookMove& m : e.moves) target.merge_move(m);
  }
  leveldb::WriteBatch batch;
  std::string value;
  for (uint64_t key : order) {
    BookEntry& e = merged[key];
    if (int(e.moves.size()) > kMaxMovesPerEntry)
      return base::Status::error(where(directory_) + "entry " + hex64(key) + ": " +
                                 std::to_string(e.moves.size()) + " moves (at most " +
                                 std::to_string(kMaxMovesPerEntry) + ")");
    value.clear();
    encode_entry_value(e, value);
    batch.Put(entry_key(key), value);
  }
  const leveldb::Status s = db_->Write(leveldb::WriteOptions(), &batch);
  if (!s.ok()) return leveldb_error(directory_, s);
  return base::Status::ok();
}

base::Status BookDb::for_each(const std::function<bool(const BookEntry&)>& visit) const {
  if (!db_) return base::Status::error("book: for_each on a book that is not open");
  leveldb::ReadOptions read_options;
  read_options.verify_checksums = true;
  read_options.fill_cache = false;
  std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(read_options));
  BookEntry entry;
  for (it->Seek(std::string(1, kEntryTag)); it->Valid(); it->Next()) {
    const leveldb::Slice key = it->key();
    if (key.empty() || key[0] != kEntryTag) break;
    if (!parse_entry_key(std::string_view(key.data(), key.size()), entry.key))
      return base::Status::error(where(directory_) + "corrupt entry key of " +
                                 std::to_string(key.size()) + " bytes");
    const leveldb::Slice value = it->value();
    base::Status decoded = decode_entry_value(std::string_view(value.data(), value.size()), entry);
    if (!decoded)
      return base::Status::error(where(directory_) + "entry " + hex64(entry.key) +
                                 ": corrupt value: " + decoded.message());
    if (!visit(entry)) return base::Status::ok();
  }
  if (!it->status().ok()) return leveldb_error(directory_, it->status());
  return base::Status::ok();
}

base::Status BookDb::get_meta(const std::string& name, std::string& value, bool& found) const {
  found = false;
  if (!db_) return base::Status::error("book: get_meta on a book that is not open");
  const leveldb::Status s = db_->Get(leveldb::ReadOptions(), meta_key(name), &value);
  if (s.IsNotFound()) return base::Status::ok();
  if (!s.ok()) return leveldb_error(directory_, s);
  found = true;
  return base::Status::ok();
}

base::Status BookDb::put_meta(const std::string& name, const std::string& value) {
  if (!db_) return base::Status::error("book: put_meta on a book that is not open");
  if (read_only()) return read_only_error(directory_);
  const leveldb::Status s = db_->Put(leveldb::WriteOptions(), meta_key(name), value);
  if (!s.ok()) return leveldb_error(directory_, s);
  return base::Status::ok();
}

base::Status open_existing_book(BookDb& db, const std::string& directory, int lock_wait_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(lock_wait_ms);
  base::Status s = db.open(directory, /*create=*/false);
  // Another engine loading the same book holds LevelDB's lock for a moment: wait for it.
  for (int pause_ms = 10; !s && db.locked() && std::chrono::steady_clock::now() < deadline;
       pause_ms = std::min(pause_ms * 2, 200)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
    s = db.open(directory, /*create=*/false);
  }
  return s;
}

base::Status load_book(const std::string& directory, std::vector<BookEntry>& out,
                       int lock_wait_ms) {
  out.clear();
  BookDb db;
  base::Status s = open_existing_book(db, directory, lock_wait_ms);
  if (!s) return s;
  return db.for_each([&out](const BookEntry& e) {
    out.push_back(e);
    return true;
  });
}

}  // namespace book
