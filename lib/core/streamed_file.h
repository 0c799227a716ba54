// A results file written as a run goes, in bounded memory, and still never seen in part
// (write_file.h): rows are appended to a fixed-size buffer that is written to the
// temporary name (".NAME.tmp") each time it fills; finish() writes the rest and flushes it
// to the disk, commit() renames it over NAME. A file never committed is removed when its
// StreamedFile is destroyed, so a failed run leaves no temporary behind.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.h"

namespace rtb {

class StreamedFile {
 public:
  // The buffer: flushed when it holds kBufferBytes; a row appended to it may take it up to
  // kBufferBytes + kMaxRowBytes, reserved once, so appending never allocates.
  static constexpr size_t kBufferBytes = 256 * 1024;
  static constexpr size_t kMaxRowBytes = 4096;

  // Creates PATH's temporary; "cannot write PATH: REASON" on failure.
  static Expected<StreamedFile> create(const std::string& path);
  StreamedFile(StreamedFile&& o) noexcept;
  StreamedFile& operator=(StreamedFile&&) = delete;
  StreamedFile(const StreamedFile&) = delete;
  ~StreamedFile();

  // The buffer to append one row (at most kMaxRowBytes) to; call row_done() after it.
  std::string& row() { return buf_; }
  void row_done() {
    if (buf_.size() >= kBufferBytes) flush();
  }
  void append(std::string_view text) {
    buf_.append(text);
    row_done();
  }

  // Writes the rest, flushes it to the disk and closes the temporary. The first write
  // error of the file (a full disk) is reported here, naming the file.
  Status finish();
  // After finish(): renames the temporary over PATH.
  Status commit();

  const std::string& path() const { return path_; }
  uint64_t bytes() const { return written_ + buf_.size(); }
  size_t buffer_capacity() const { return buf_.capacity(); }

 private:
  StreamedFile(std::string path, int fd);
  void flush();

  std::string path_;
  std::string tmp_;
  int fd_ = -1;
  std::string buf_;
  uint64_t written_ = 0;
  int error_ = 0;  // errno of the first failed write
  bool committed_ = false;
};

}  // namespace rtb
