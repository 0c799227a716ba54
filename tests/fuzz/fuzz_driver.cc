// A bounded, reproducible fuzz pass for a libFuzzer target without libFuzzer: the target's
// LLVMFuzzerTestOneInput on the seed corpus, then on `runs` inputs mutated from it with a
// fixed seed (the same inputs on every machine), so the pass runs in every build as a
// normal test. Coverage-guided campaigns are scripts/fuzz.sh's (clang, libFuzzer).
//
//   <target>_pass [--runs N] [--seed S] [--dict FILE] CORPUS_DIR...
//
// A crash (a signal) writes the input to ./crash-input before the process dies, so that
// it can be kept as a regression seed in the corpus.
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tests/fuzz/mutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

const std::string* g_current = nullptr;  // the input being run, for the crash handler

void on_crash(int sig) {
  if (g_current != nullptr) {
    const int fd = ::open("crash-input", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      (void)!::write(fd, g_current->data(), g_current->size());
      ::close(fd);
    }
    static const char kMsg[] = "fuzz pass: crashed; the input is in ./crash-input\n";
    (void)!::write(2, kMsg, sizeof kMsg - 1);
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void run_one(const std::string& input) {
  g_current = &input;
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
  g_current = nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  rtb::fuzz::PassOptions o;
  if (auto error = rtb::fuzz::parse_pass_options(argc, argv, o)) {
    std::fprintf(stderr, "%s\n", error->c_str());
    return 2;
  }
  for (int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL}) std::signal(sig, on_crash);
  const auto start = std::chrono::steady_clock::now();
  for (const std::string& seed : o.corpus) run_one(seed);
  rtb::fuzz::Mutator m(o.seed, o.corpus, o.dictionary, o.max_len);
  for (uint64_t i = 0; i < o.runs; ++i) run_one(m.next());
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("fuzz pass: %zu seeds and %llu mutated inputs in %.1f s, no crash\n", o.corpus.size(),
              static_cast<unsigned long long>(o.runs), s);
  return 0;
}
