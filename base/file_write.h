// Writing files so that a crash or a power cut never leaves half of one: whole files
// replaced through a synced temporary, results lines appended in one synced write.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"

namespace base {

// Whether replace_file also syncs the directory, so that a newly created name survives a
// power cut (the file's content is synced either way).
enum class DirectorySync { kYes, kNo };

// Replaces `path` with `text`, or creates it: writes "<path>.tmp", syncs it, renames it
// over `path`, then (kYes) syncs the directory. A reader sees the old file or the new one,
// never a part of either. On failure `path` is untouched, the temporary is removed, and
// the error names the file and the reason.
Status replace_file(const std::string& path, std::string_view text,
                    DirectorySync sync = DirectorySync::kYes);

// Appends `text` to `path` in one write (O_APPEND) and syncs it; creates the file if it is
// absent, and then syncs its directory.
Status append_file(const std::string& path, std::string_view text);

// Syncs a directory's entries. Best effort: some file systems refuse to sync a directory.
void sync_directory(const std::string& dir);

}  // namespace base
