#include "pcap/file_sink.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include <fmt/format.h>

namespace rtb::capture {
namespace {

constexpr size_t kBufferBytes = 256 * 1024;

std::string system_reason(int err) { return std::strerror(err); }

}  // namespace

Expected<FileSink> FileSink::create(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    return Error{fmt::format("cannot create capture file '{}': {}; check that the folder "
                             "exists and is writable", path, system_reason(err))};
  }
  return FileSink(path, fd);
}

FileSink::FileSink(std::string path, int fd) : path_(std::move(path)), fd_(fd) {
  buf_.reserve(kBufferBytes);
}

FileSink::FileSink(FileSink&& o) noexcept
    : path_(std::move(o.path_)), fd_(std::exchange(o.fd_, -1)), buf_(std::move(o.buf_)),
      error_(std::move(o.error_)), appended_(o.appended_) {}

FileSink& FileSink::operator=(FileSink&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(o.path_);
    fd_ = std::exchange(o.fd_, -1);
    buf_ = std::move(o.buf_);
    error_ = std::move(o.error_);
    appended_ = o.appended_;
  }
  return *this;
}

FileSink::~FileSink() {
  if (fd_ >= 0) {
    (void)flush();
    ::close(fd_);
  }
}

Status FileSink::fail(const char* what, int err) {
  error_ = Error{fmt::format("cannot {} capture file '{}': {}", what, path_,
                             system_reason(err))};
  buf_.clear();
  return error_;
}

Status FileSink::append(std::span<const uint8_t> bytes) {
  if (!error_) return error_;
  if (fd_ < 0) return Error{fmt::format("capture file '{}' is already closed", path_)};
  appended_ += bytes.size();
  if (buf_.size() + bytes.size() > kBufferBytes) {
    if (Status s = flush(); !s) return s;
    if (bytes.size() >= kBufferBytes) return write_out(bytes.data(), bytes.size());
  }
  buf_.insert(buf_.end(), bytes.begin(), bytes.end());
  return {};
}

Status FileSink::append_zeros(size_t n) {
  static constexpr uint8_t kZeros[8] = {};
  while (n > 0) {
    const size_t k = n < sizeof kZeros ? n : sizeof kZeros;
    if (Status s = append({kZeros, k}); !s) return s;
    n -= k;
  }
  return {};
}

Status FileSink::write_out(const uint8_t* data, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd_, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return fail("write", errno);
    }
    data += w;
    n -= static_cast<size_t>(w);
  }
  return {};
}

Status FileSink::flush() {
  if (!error_) return error_;
  if (fd_ < 0 || buf_.empty()) return {};
  Status s = write_out(buf_.data(), buf_.size());
  buf_.clear();
  return s;
}

Status FileSink::close() {
  if (fd_ < 0) return error_;
  Status s = flush();
  const int rc = ::close(std::exchange(fd_, -1));
  if (s && rc != 0) return fail("close", errno);
  return s;
}

}  // namespace rtb::capture
