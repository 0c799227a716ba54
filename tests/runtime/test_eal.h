// The EAL for a test or benchmark binary: once per process, no hugepages, no PCI, no
// shared config, one lcore (runtime::start_eal's defaults), 256 MB.
#pragma once

#include <cstdio>

#include "runtime/pool/eal.h"

namespace rtb::runtime::testing {

inline bool start_test_eal(const char* program, unsigned memory_mb = 256) {
  EalOptions o;
  o.program = program;
  o.memory_mb = memory_mb;
  if (Status s = start_eal(o); !s) {
    std::fprintf(stderr, "%s: %s\n", program, s.message().c_str());
    return false;
  }
  return true;
}

}  // namespace rtb::runtime::testing
