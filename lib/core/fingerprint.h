// What a file held when a result was made from it: its size and its FNV-1a 64-bit hash
// (Fowler, Noll, Vo; draft-eastlake-fnv: offset basis 14695981039346656037, prime
// 1099511628211), the same on every machine. Not a cryptographic hash: it tells an
// edited or rebuilt input from the one a result came from, not a forged one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.h"

namespace rtb {

class Fnv1a64 {
 public:
  void add(std::string_view bytes) {
    for (unsigned char c : bytes) h_ = (h_ ^ c) * 1099511628211ull;
  }
  uint64_t value() const { return h_; }
  std::string hex() const;  // 16 lower-case hex digits

 private:
  uint64_t h_ = 14695981039346656037ull;
};

std::string fnv1a64_hex(std::string_view bytes);

struct FileFingerprint {
  std::string path;
  uint64_t bytes = 0;
  std::string fnv1a64;

  bool operator==(const FileFingerprint&) const = default;
};

// Read in blocks (any size, nothing kept); an error names the path and why.
Expected<FileFingerprint> fingerprint_file(const std::string& path);

}  // namespace rtb
