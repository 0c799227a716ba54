// Shared by the testbed tests.
#pragma once

#include <cstdlib>
#include <string>

namespace rtb::testbed::testing {

// The source tree (meson sets ROCETB_SOURCE_ROOT for tests).
inline std::string source_root() {
  const char* r = std::getenv("ROCETB_SOURCE_ROOT");
  return r != nullptr ? r : ".";
}

}  // namespace rtb::testbed::testing
