// The switch tests share one EAL per process: no hugepages, no PCI, no shared config, one
// lcore. Every test must give back every mbuf it made; checked at the end.
#include <rte_eal.h>

#include <gtest/gtest.h>

#include <cstdio>

#include "tests/runtime/test_pool.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  char arg0[] = "switch_test";
  char no_huge[] = "--no-huge";
  char mem[] = "-m";
  char mem_mb[] = "256";
  char no_pci[] = "--no-pci";
  char no_shconf[] = "--no-shconf";
  char lcores[] = "-l";
  char lcore0[] = "0";
  char log[] = "--log-level=error";
  char* eal_argv[] = {arg0, no_huge, mem, mem_mb, no_pci, no_shconf, lcores, lcore0, log};
  if (rte_eal_init(static_cast<int>(std::size(eal_argv)), eal_argv) < 0) {
    std::fprintf(stderr, "switch_test: EAL initialisation failed\n");
    return 1;
  }
  int result = RUN_ALL_TESTS();
  if (const unsigned in_use = rtb::runtime::testing::frames_in_use(); in_use != 0) {
    std::fprintf(stderr, "switch_test: %u mbufs were not returned to the pool\n", in_use);
    result = 1;
  }
  rte_eal_cleanup();
  return result;
}
