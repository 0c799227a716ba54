#include "core/read_file.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace rtb {
namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

Status check_regular_file(const std::string& path, const std::string& what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return Error{fmt::format("{}: cannot be read ({}): expected {}", path, std::strerror(errno), what)};
  }
  if (!S_ISREG(st.st_mode)) {
    return Error{fmt::format("{}: is {}, not a regular file: expected {}", path, kind_of(st.st_mode), what)};
  }
  return {};
}

Expected<std::string> read_regular_file(const std::string& path, uint64_t max_bytes, const std::string& what) {
  if (Status s = check_regular_file(path, what); !s) return Error{s.message()};
  struct stat st {};
  ::stat(path.c_str(), &st);
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    return Error{fmt::format("{}: is {} bytes, more than the {} bytes allowed for {}", path, st.st_size,
                             max_bytes, what)};
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) return Error{fmt::format("{}: cannot be read: expected {}", path, what)};
  std::ostringstream text;
  text << f.rdbuf();
  std::string s = std::move(text).str();
  if (s.size() > max_bytes) {  // it grew after stat()
    return Error{fmt::format("{}: grew past the {} bytes allowed for {} while being read", path, max_bytes, what)};
  }
  return s;
}

}  // namespace rtb
