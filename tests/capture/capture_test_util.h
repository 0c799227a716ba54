// Helpers for the capture tests: a scratch folder per test and reading whole files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rtb::capture::testing {

// A fresh folder under $TMPDIR (or /tmp), removed with its contents on destruction.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string file(const std::string& name) const { return dir_ + "/" + name; }

 private:
  std::string dir_;
};

std::vector<uint8_t> read_file_bytes(const std::string& path);
void write_file_bytes(const std::string& path, const std::vector<uint8_t>& bytes);

// A frame of `n` bytes whose byte i is (seed + i * 7) & 0xff.
std::vector<uint8_t> test_frame(size_t n, uint8_t seed);

// The folder holding the reference captures: $ROCETB_SHARED/captures.
std::string shared_captures_dir();

// Why the reference captures cannot be read (the folder is missing: the repository was
// cloned without the shared folder beside it), or nothing when they can.
std::optional<std::string> shared_captures_missing();

// First statement of a test that reads the reference captures: skips it, naming the
// missing folder, instead of going on with no data (indexing an empty file crashes).
#define SKIP_WITHOUT_SHARED_CAPTURES()                                          \
  if (const auto missing = ::rtb::capture::testing::shared_captures_missing()) \
  GTEST_SKIP() << *missing

// Runs a shell command; returns its stdout and sets `exit_code`.
std::string run_command(const std::string& command, int& exit_code);
bool have_program(const std::string& name);

}  // namespace rtb::capture::testing
