// Synced whole-file replacement and appends (file_write.h).
#include "base/file_write.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace base {
namespace {

Status write_error(const std::string& path, int error) {
  return Status::error(path + ": cannot write: " + std::strerror(error));
}

// Writes all of `text` to `fd` and syncs it; closes `fd`.
Status write_all_and_close(int fd, const std::string& path, std::string_view text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : EIO;
      ::close(fd);
      return write_error(path, error);
    }
    done += size_t(n);
  }
  if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
    const int error = errno;
    ::close(fd);
    return write_error(path, error);
  }
  if (::close(fd) != 0) return write_error(path, errno);
  return Status::ok();
}

// The directory holding `path` ("." for a bare file name).
std::string directory_of(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

}  // namespace

Status replace_file(const std::string& path, std::string_view text, DirectorySync sync) {
  const std::string temporary = path + ".tmp";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return write_error(temporary, errno);
  if (Status s = write_all_and_close(fd, temporary, text); !s) {
    std::remove(temporary.c_str());
    return s;
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temporary.c_str());
    return Status::error(path + ": cannot replace it with " + temporary + ": " +
                         std::strerror(error));
  }
  if (sync == DirectorySync::kYes) sync_directory(directory_of(path));
  return Status::ok();
}

Status append_file(const std::string& path, std::string_view text) {
  std::error_code ec;
  const bool created = !std::filesystem::exists(path, ec);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return write_error(path, errno);
  if (Status s = write_all_and_close(fd, path, text); !s) return s;
  if (created) sync_directory(directory_of(path));
  return Status::ok();
}

void sync_directory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace base
