// The host tests share one EAL and one pool set per process; every test must leave every
// mbuf back in its pool (checked after each test and at the end).
#include <gtest/gtest.h>

#include <cstdio>

#include "runtime/pool/eal.h"
#include "runtime/pool/mbuf_pool_set.h"
#include "tests/host/host_fixture.h"
#include "wire/payload_pattern.h"

namespace {
// Deleted before the EAL stops; a death test's child exits without running its destructor
// (its mempools would be freed after rte_exit() cleaned the EAL up).
rtb::runtime::PoolSet* g_pools = nullptr;

class LeakCheck : public ::testing::EmptyTestEventListener {
  void OnTestEnd(const ::testing::TestInfo& info) override {
    const rtb::Status s = g_pools->check_no_leaks();
    if (!s) {
      std::fprintf(stderr, "host_test: %s leaked: %s\n", info.name(), s.message().c_str());
      leaked = true;
    }
  }

 public:
  bool leaked = false;
};
}  // namespace

rtb::runtime::PoolSet& rtb::host::testing::pools() { return *g_pools; }

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  rtb::runtime::PoolSizes sizes;
  sizes.data_count = 16'383;
  sizes.data_room = RTE_PKTMBUF_HEADROOM + 4'096 + 256;
  sizes.control_count = 8'191;
  sizes.control_room = RTE_PKTMBUF_HEADROOM + 256;
  rtb::runtime::EalOptions eal;
  eal.program = "host_test";
  eal.pool_bytes = sizes.memory_bytes();
  if (rtb::Status s = rtb::runtime::start_eal(eal); !s) {
    std::fprintf(stderr, "host_test: %s\n", s.message().c_str());
    return 1;
  }
  auto pools = rtb::runtime::PoolSet::create(sizes, &rtb::wire::payload_byte, "host");
  if (!pools) {
    std::fprintf(stderr, "host_test: %s\n", pools.error().message.c_str());
    return 1;
  }
  g_pools = new rtb::runtime::PoolSet(std::move(pools).value());
  auto* leaks = new LeakCheck;
  ::testing::UnitTest::GetInstance()->listeners().Append(leaks);
  int result = RUN_ALL_TESTS();
  if (leaks->leaked) result = 1;
  delete g_pools;
  g_pools = nullptr;
  (void)rtb::runtime::stop_eal();
  return result;
}
