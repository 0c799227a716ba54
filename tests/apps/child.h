// Running the rocetb binary as a user would, for the tests of its commands: the exit code,
// what it printed, and optionally a signal sent to it after a delay (Ctrl-C).
#pragma once

#include <chrono>
#include <csignal>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rtb::apps::testing {

struct ChildResult {
  int pid = 0;
  int exit_code = -1;         // -1 when it did not exit normally
  int term_signal = 0;        // the signal that ended it, if any
  std::string out;            // stdout and stderr together
  std::chrono::duration<double> wall{};
  uint64_t max_rss_kib = 0;   // its peak resident memory (wait4(2) rusage ru_maxrss)
  // With rss_every: its VmRSS (/proc/PID/status) in KiB, with the seconds since its start.
  std::vector<std::pair<double, uint64_t>> rss_kib;
};

struct Signal {
  int number = SIGINT;
  std::chrono::milliseconds after{0};
};

// `args` after the program name; the binary from ROCETB_BUILD_ROOT/apps/rocetb. Killed with
// SIGKILL (and reported so) when it runs past `timeout`.
ChildResult run_rocetb(const std::vector<std::string>& args, std::optional<Signal> signal = std::nullopt,
                       std::chrono::seconds timeout = std::chrono::seconds(120),
                       std::optional<std::chrono::milliseconds> rss_every = std::nullopt);

std::string source_root();
// ROCETB_BUILD_ROOT, else "build".
std::string build_root();

// Runs `command` with /bin/sh (stdout and stderr together): its exit status (-1 when it did
// not exit normally) and its output. For tests that need a pipeline or `&`.
std::pair<int, std::string> run_shell(const std::string& command);

}  // namespace rtb::apps::testing
