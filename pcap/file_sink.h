// A buffered, append-only output file for the capture writers.
//
// Bytes are gathered in a 256 KiB buffer and written with write(2) when it fills, so a
// capture costs one system call per few hundred frames. Errors (cannot open, disk full,
// I/O error) come back as a Status naming the path and the system's reason. The first
// error sticks: every later call returns it again, so a caller may check only close().
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/error.h"

namespace rtb::capture {

class FileSink {
 public:
  // Creates or truncates `path`. The error names the path and the reason.
  static Expected<FileSink> create(const std::string& path);

  FileSink(FileSink&& o) noexcept;
  FileSink& operator=(FileSink&& o) noexcept;
  FileSink(const FileSink&) = delete;
  FileSink& operator=(const FileSink&) = delete;
  ~FileSink();  // closes without reporting errors: call close() to see them

  // Appends bytes (buffered).
  Status append(std::span<const uint8_t> bytes);
  // Appends `n` zero bytes (block padding).
  Status append_zeros(size_t n);
  // Writes out the buffer.
  Status flush();
  // Flushes and closes; later calls return the first error or success again.
  Status close();

  const std::string& path() const { return path_; }
  // Bytes appended so far (buffered or written): the file's size once closed.
  uint64_t bytes_appended() const { return appended_; }
  bool is_open() const { return fd_ >= 0; }

 private:
  FileSink(std::string path, int fd);
  Status fail(const char* what, int err);
  Status write_out(const uint8_t* data, size_t n);

  std::string path_;
  int fd_ = -1;
  std::vector<uint8_t> buf_;
  Status error_;
  uint64_t appended_ = 0;
};

}  // namespace rtb::capture
