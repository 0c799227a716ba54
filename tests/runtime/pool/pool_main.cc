// pool_test's own main: the EAL starts once per process, through start_eal(), before any
// test runs, and stops after the last one.
#include <gtest/gtest.h>

#include <cstdio>

#include "runtime/pool/eal.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // Death tests fork after the EAL started its threads; "threadsafe" would re-run main().
  GTEST_FLAG_SET(death_test_style, "fast");
  rtb::runtime::EalOptions eal;
  eal.program = "pool_test";
  eal.pool_bytes = 96ull << 20;  // the largest pools the tests create, with room to spare
  if (rtb::Status s = rtb::runtime::start_eal(eal); !s) {
    std::fprintf(stderr, "pool_test: %s\n", s.message().c_str());
    return 1;
  }
  const int result = RUN_ALL_TESTS();
  if (rtb::Status s = rtb::runtime::stop_eal(); !s) {
    std::fprintf(stderr, "pool_test: %s\n", s.message().c_str());
    return 1;
  }
  return result;
}
