// The runtime tests share one EAL per process: no hugepages, no PCI, no shared config,
// one lcore.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/runtime/test_eal.h"
#include "tests/runtime/test_pool.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (!rtb::runtime::testing::start_test_eal("runtime_test")) return 1;
  int result = RUN_ALL_TESTS();
  // Leak check: every frame a test made must be back in the pool.
  if (const unsigned in_use = rtb::runtime::testing::frames_in_use(); in_use != 0) {
    std::fprintf(stderr, "runtime_test: %u mbufs were not returned to the pool\n", in_use);
    result = 1;
  }
  (void)rtb::runtime::stop_eal();
  return result;
}
