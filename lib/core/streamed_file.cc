#include "core/streamed_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "core/write_file.h"

namespace rtb {

Expected<StreamedFile> StreamedFile::create(const std::string& path) {
  const std::string tmp = temporary_name(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Error{fmt::format("cannot write {}: {}", path, std::strerror(errno))};
  return StreamedFile(path, fd);
}

StreamedFile::StreamedFile(std::string path, int fd) : path_(std::move(path)), tmp_(temporary_name(path_)), fd_(fd) {
  buf_.reserve(kBufferBytes + kMaxRowBytes);
}

StreamedFile::StreamedFile(StreamedFile&& o) noexcept
    : path_(std::move(o.path_)), tmp_(std::move(o.tmp_)), fd_(std::exchange(o.fd_, -1)), buf_(std::move(o.buf_)),
      written_(o.written_), error_(o.error_), committed_(std::exchange(o.committed_, true)) {}

StreamedFile::~StreamedFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(tmp_.c_str());
}

void StreamedFile::flush() {
  std::string_view rest = buf_;
  while (!rest.empty() && error_ == 0 && fd_ >= 0) {
    const ssize_t n = ::write(fd_, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error_ = n < 0 ? errno : ENOSPC;
      break;
    }
    rest.remove_prefix(static_cast<size_t>(n));
    written_ += static_cast<uint64_t>(n);
  }
  buf_.clear();  // keeps its capacity: the buffer is reused, never grown
}

Status StreamedFile::finish() {
  flush();
  if (fd_ < 0) return Error{fmt::format("cannot write {}: already finished", path_)};
  if (error_ == 0 && ::fdatasync(fd_) != 0) error_ = errno;
  if (::close(fd_) != 0 && error_ == 0) error_ = errno;
  fd_ = -1;
  if (error_ != 0) return Error{fmt::format("cannot write {}: {}", path_, std::strerror(error_))};
  return {};
}

Status StreamedFile::commit() {
  if (fd_ >= 0 || error_ != 0) return Error{fmt::format("cannot write {}: not finished", path_)};
  if (::rename(tmp_.c_str(), path_.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(tmp_.c_str());
    committed_ = true;  // nothing left to remove
    return Error{fmt::format("cannot write {}: {}", path_, reason)};
  }
  committed_ = true;
  return {};
}

}  // namespace rtb
