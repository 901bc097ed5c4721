// `sashite book merge`: every entry of the inputs merged, batch by batch, into one book.
#include "tools/book/book_merge.h"

#include <filesystem>

#include "book/book_db.h"

namespace tools {

using base::Status;

Status merge_books(const std::vector<std::string>& inputs, const std::string& out_dir,
                   BookMergeStats& stats, int batch) {
  stats = BookMergeStats();
  if (inputs.empty()) return Status::error("book merge: no input book");
  for (const std::string& in : inputs) {
    std::error_code ec;
    if (std::filesystem::equivalent(in, out_dir, ec))
      return Status::error("book merge: input " + in + " is the output " + out_dir);
    // Every input must open before the output is created.
    book::BookDb check;
    if (Status s = check.open(in, false); !s) return s;
  }
  book::BookDb out;
  if (Status s = out.open(out_dir, true); !s) return s;
  for (const std::string& in_dir : inputs) {
    book::BookDb in;
    if (Status s = in.open(in_dir, false); !s) return s;
    std::vector<book::BookEntry> pending;
    Status error;
    const auto write = [&] {
      if (Status s = out.put(pending, true); !s) error = s;
      pending.clear();
      return bool(error);
    };
    Status s = in.for_each([&](const book::BookEntry& entry) {
      ++stats.entries_read;
      book::BookEntry existing;
      bool found = false;
      if (Status g = out.get(entry.key, existing, found); !g) {
        error = g;
        return false;
      }
      if (found) ++stats.entries_merged;
      pending.push_back(entry);
      return pending.size() < size_t(std::max(1, batch)) || write();
    });
    if (s && error && !pending.empty()) write();
    if (!s) return s;
    if (!error) return error;
  }
  out.close();
  return Status::ok();
}

}  // namespace tools
