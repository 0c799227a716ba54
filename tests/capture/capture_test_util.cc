#include "capture_test_util.h"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace rtb::capture::testing {

ScratchDir::ScratchDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp != nullptr ? tmp : "/tmp") + "/rocetb-capture-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed: " + pattern);
  dir_ = pattern;
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

std::vector<uint8_t> read_file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

std::vector<uint8_t> test_frame(size_t n, uint8_t seed) {
  std::vector<uint8_t> f(n);
  for (size_t i = 0; i < n; ++i) f[i] = static_cast<uint8_t>(seed + i * 7);
  return f;
}

std::string shared_captures_dir() {
  const char* shared = std::getenv("ROCETB_SHARED");
  return std::string(shared != nullptr ? shared : "../shared") + "/captures";
}

std::optional<std::string> shared_captures_missing() {
  const std::string dir = shared_captures_dir();
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec)) return std::nullopt;
  return "the reference captures folder " + dir +
         " is missing: set ROCETB_SHARED to the shared folder (its captures/ subfolder), or clone the "
         "repository beside it";
}

std::string run_command(const std::string& command, int& exit_code) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) {
    exit_code = -1;
    return out;
  }
  char buf[4096];
  size_t n = 0;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = pclose(p);
  exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

bool have_program(const std::string& name) {
  int rc = 0;
  run_command("command -v " + name + " >/dev/null 2>&1", rc);
  return rc == 0;
}

}  // namespace rtb::capture::testing
