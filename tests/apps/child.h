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
};

struct Signal {
  int number = SIGINT;
  std::chrono::milliseconds after{0};
};

// `args` after the program name; the binary from ROCETB_BUILD_ROOT/apps/rocetb. Killed with
// SIGKILL (and reported so) when it runs past `timeout`.
ChildResult run_rocetb(const std::vector<std::string>& args, std::optional<Signal> signal = std::nullopt,
                       std::chrono::seconds timeout = std::chrono::seconds(120));

std::string source_root();
// ROCETB_BUILD_ROOT, else "build".
std::string build_root();

// Runs `command` with /bin/sh (stdout and stderr together): its exit status (-1 when it did
// not exit normally) and its output. For tests that need a pipeline or `&`.
std::pair<int, std::string> run_shell(const std::string& command);

}  // namespace rtb::apps::testing
