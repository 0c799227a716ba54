// How the loader reports a problem internally: one LoadError carrying the finished
// message ("<file>:<line>: <key.path>: ..."). It is thrown from deep inside the section
// parsers and caught only at the public entry points (load.cc), which return it as an
// rtb::Error: set-up code, never the datapath, and it keeps every parser a straight list
// of reads instead of a ladder of error checks.
//
// Where one check finds several problems at once (an algorithm's parameter checks, a
// switch's validation), each is its own line with its own location, in file order: the
// message then holds one line per problem, separated by '\n'.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rtb::scenario {

struct LoadError {
  std::string message;
};

// One problem of several: its line in the file (0 when it has none) and the finished text.
struct LocatedProblem {
  uint32_t line = 0;
  std::string text;
};

// Throws the problems as one LoadError, one per line, sorted by line (stable).
[[noreturn]] void fail_all(std::vector<LocatedProblem> problems);

}  // namespace rtb::scenario
