// Running a helper program to its end and collecting what it printed: the results tools
// are Python scripts (scripts/plot.py), started with posix_spawn(3) without a shell, so no
// path or argument is ever parsed by one.
#pragma once

#include <string>
#include <vector>

#include "core/error.h"

namespace rtb::plots {

struct ProcessResult {
  int exit_code = -1;  // the program's exit status; -1 when a signal ended it
  std::string out;     // its standard output
  std::string err;     // its standard error
};

// argv[0] is the program's path. An error only when it could not be started.
Expected<ProcessResult> run_process(const std::vector<std::string>& argv);

// The last non-empty line of `text` (a tool's one-line reason), without its newline.
std::string last_line(const std::string& text);

}  // namespace rtb::plots
