#include "core/write_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rtb {
namespace {

// Every byte of `text` to `fd`, retrying short writes and EINTR; errno on failure.
bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    text.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

Status failed(const std::string& path, const std::string& tmp) {
  const std::string reason = std::strerror(errno);
  ::unlink(tmp.c_str());
  return Error{fmt::format("cannot write {}: {}", path, reason)};
}

}  // namespace

std::string temporary_name(const std::string& path) {
  const size_t slash = path.rfind('/');
  const size_t name = slash == std::string::npos ? 0 : slash + 1;
  return path.substr(0, name) + "." + path.substr(name) + ".tmp";
}

Status write_file_atomically(const std::string& path, std::string_view text) {
  const std::string tmp = temporary_name(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Error{fmt::format("cannot write {}: {}", path, std::strerror(errno))};
  // fdatasync before the rename: after a crash the name holds the new bytes, not an empty file.
  if (!write_all(fd, text) || ::fdatasync(fd) != 0) {
    const int saved = errno;
    ::close(fd);
    errno = saved;
    return failed(path, tmp);
  }
  if (::close(fd) != 0 || ::rename(tmp.c_str(), path.c_str()) != 0) return failed(path, tmp);
  return {};
}

}  // namespace rtb
