// The sample inputs of the params tests (tests/params/data), from ROCETB_SOURCE_ROOT.
#pragma once

#include <cstdlib>
#include <string>

namespace rtb::params::testing {

inline std::string data(const std::string& name) {
  const char* root = std::getenv("ROCETB_SOURCE_ROOT");
  return std::string(root != nullptr ? root : ".") + "/tests/params/data/" + name;
}

}  // namespace rtb::params::testing
