// The bench tests share one EAL per process: no hugepages, no PCI, main lcore 0 and one
// worker lcore 1 (the two-lcore tx mode).
#include <gtest/gtest.h>

#include <cstdio>

#include "bench/bench_eal.h"
#include "runtime/pool/eal.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (rtb::Status s = rtb::bench::start_bench_eal("bench_test", {0, 1}, 256ull << 20); !s) {
    std::fprintf(stderr, "bench_test: %s\n", s.message().c_str());
    return 1;
  }
  const int result = RUN_ALL_TESTS();
  (void)rtb::runtime::stop_eal();
  return result;
}
