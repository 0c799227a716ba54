// The switch tests share one EAL per process: no hugepages, no PCI, no shared config, one
// lcore. Every test must give back every mbuf it made; checked at the end.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/runtime/test_eal.h"
#include "tests/runtime/test_pool.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (!rtb::runtime::testing::start_test_eal("switch_test")) return 1;
  int result = RUN_ALL_TESTS();
  if (const unsigned in_use = rtb::runtime::testing::frames_in_use(); in_use != 0) {
    std::fprintf(stderr, "switch_test: %u mbufs were not returned to the pool\n", in_use);
    result = 1;
  }
  if (rtb::Status s = rtb::runtime::testing::test_control_pool().check_no_leaks(); !s) {
    std::fprintf(stderr, "switch_test: %s\n", s.message().c_str());
    result = 1;
  }
  (void)rtb::runtime::stop_eal();
  return result;
}
