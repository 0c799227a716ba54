// How the loader reports a problem internally: one LoadError carrying the finished
// message ("<file>:<line>: <key.path>: ..."). It is thrown from deep inside the section
// parsers and caught only at the public entry points (load.cc), which return it as an
// rtb::Error: set-up code, never the datapath, and it keeps every parser a straight list
// of reads instead of a ladder of error checks.
#pragma once

#include <string>

namespace rtb::scenario {

struct LoadError {
  std::string message;
};

}  // namespace rtb::scenario
