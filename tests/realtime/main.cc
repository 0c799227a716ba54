// The realtime tests share one EAL per process: no hugepages, no PCI, no shared config,
// main lcore 0 and one worker lcore 1 (RealtimeScheduler runs loops on both).
#include <gtest/gtest.h>

#include <cstdio>

#include "runtime/pool/eal.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  rtb::runtime::EalOptions o;
  o.program = "realtime_test";
  o.memory_mb = 128;
  o.main_lcore = 0;
  o.worker_lcores = {1};
  if (rtb::Status s = rtb::runtime::start_eal(o); !s) {
    std::fprintf(stderr, "realtime_test: %s\n", s.message().c_str());
    return 1;
  }
  const int result = RUN_ALL_TESTS();
  (void)rtb::runtime::stop_eal();
  return result;
}
