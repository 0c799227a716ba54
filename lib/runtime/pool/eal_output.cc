#include "runtime/pool/eal_output.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

namespace rtb::runtime {
namespace {

bool g_verbose = false;

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '.' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

}  // namespace

void set_eal_verbose(bool verbose) { g_verbose = verbose; }
bool eal_verbose() { return g_verbose; }

OutputCapture::OutputCapture() {
  char path[] = "/tmp/rocetb-eal-output-XXXXXX";
  file_ = ::mkstemp(path);
  if (file_ < 0) return;  // nothing captured: the EAL prints as it always did
  ::unlink(path);
  std::fflush(stdout);
  std::fflush(stderr);
  saved_out_ = ::dup(1);
  saved_err_ = ::dup(2);
  ::dup2(file_, 1);
  ::dup2(file_, 2);
}

OutputCapture::~OutputCapture() { (void)finish(); }

std::string OutputCapture::finish() {
  if (file_ < 0) return {};
  std::fflush(stdout);
  std::fflush(stderr);
  ::dup2(saved_out_, 1);
  ::dup2(saved_err_, 2);
  ::close(saved_out_);
  ::close(saved_err_);
  std::string text;
  char buf[4096];
  ::lseek(file_, 0, SEEK_SET);
  for (ssize_t n; (n = ::read(file_, buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
  ::close(file_);
  file_ = -1;
  return text;
}

std::string eal_output_summary(const std::string& captured) {
  std::istringstream in(captured);
  std::string last_eal, option;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("EAL: ", 0) == 0 && line.find("Invalid 'command line' arguments") == std::string::npos) {
      last_eal = trimmed(line.substr(5));
    } else if (option.empty() && (line.find("unrecognized option") != std::string::npos ||
                                  line.find("requires an argument") != std::string::npos ||
                                  line.find("invalid option") != std::string::npos)) {
      const size_t colon = line.find(": ");
      option = trimmed(colon == std::string::npos ? line : line.substr(colon + 2));
    }
  }
  return option.empty() ? last_eal : option;
}

}  // namespace rtb::runtime
