#include "core/fingerprint.h"

#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "core/read_file.h"

namespace rtb {

std::string Fnv1a64::hex() const { return fmt::format("{:016x}", h_); }

std::string fnv1a64_hex(std::string_view bytes) {
  Fnv1a64 h;
  h.add(bytes);
  return h.hex();
}

Expected<FileFingerprint> fingerprint_file(const std::string& path) {
  if (Status st = check_regular_file(path, "a regular file"); !st) return Error{st.message()};  // a FIFO would block
  std::ifstream f(path, std::ios::binary);
  if (!f) return Error{fmt::format("{}: cannot be read ({})", path, std::strerror(errno))};
  Fnv1a64 h;
  uint64_t bytes = 0;
  std::array<char, 64 * 1024> block{};
  while (f) {
    f.read(block.data(), block.size());
    const auto n = static_cast<size_t>(f.gcount());
    h.add(std::string_view(block.data(), n));
    bytes += n;
  }
  if (f.bad()) return Error{fmt::format("{}: cannot be read to the end", path)};
  return FileFingerprint{path, bytes, h.hex()};
}

}  // namespace rtb
