// A virtual run writes its mbuf pools as it needs mbufs: a 32 MiB switch buffer is sized
// for about 135,000 data mbufs (a buffer full of the smallest frames), and a short 8:1
// incast that queues a few thousand frames writes only those it uses.
#include <gtest/gtest.h>

#include <string>

#include "cc_algos/registry.h"
#include "runtime/pool/mbuf_pool.h"
#include "scenario/load.h"
#include "testbed/run.h"
#include "tests/testbed/test_util.h"

namespace rtb::testbed {
namespace {

TEST(PoolGrowthRun, AVirtualRunWritesTheMbufsItUsesNotTheWorstCaseItWasSizedFor) {
  auto s = scenario::load_scenario(testing::source_root() + "/scenarios/hpcc_match_incast8_100g.toml",
                                   {"run.duration=300us", "run.warmup=100us"});
  ASSERT_TRUE(s.ok()) << s.error().message;
  cc::Registry registry = cc::Registry::with_builtins();
  auto r = run_virtual(s.value(), registry, "pool_growth_run_test");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& pools = r.value().run["pools"];
  const uint64_t sized = pools["data_mbufs"].get<uint64_t>();
  const uint64_t written = pools["data_populated"].get<uint64_t>();
  const uint64_t peak = pools["data_peak_in_use"].get<uint64_t>();
  EXPECT_GT(sized, 100'000u) << pools.dump();
  EXPECT_GT(peak, 100u) << "the incast queued no frames: " << pools.dump();
  EXPECT_GE(written, peak) << pools.dump();
  // Doubling from the first chunk: never more than twice what the run needed at its peak.
  EXPECT_LE(written, std::max<uint64_t>(2 * peak, runtime::MbufPool::kFirstChunk)) << pools.dump();
  EXPECT_LT(pools["memory_bytes"].get<uint64_t>(), 64ull << 20) << pools.dump();
  // Not written is still free: the leak check compares the configured counts.
  EXPECT_EQ(pools["data_free_at_start"], pools["data_mbufs"]) << pools.dump();
  EXPECT_EQ(pools["data_free_at_end"], pools["data_mbufs"]) << pools.dump();
}

}  // namespace
}  // namespace rtb::testbed
