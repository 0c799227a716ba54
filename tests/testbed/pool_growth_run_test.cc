// A virtual run writes its mbuf pools as it needs mbufs: a 32 MiB switch buffer is sized
// for about 135,000 data mbufs (a buffer full of the smallest frames), and a short 8:1
// incast that queues a few thousand frames writes only those it uses.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "cc_algos/registry.h"
#include "runtime/pool/eal.h"
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

// The EAL a virtual run starts holds only its pools' rings (the mbufs are mapped on demand),
// so a realtime run after it in the same process, whose pools are written up front in DPDK
// memory, cannot have them: it says why and what to do instead of only "raise -m".
TEST(PoolGrowthRun, ARealtimeRunAfterAVirtualOneSaysItsEalHoldsOnlyRings) {
  const std::string file = testing::source_root() + "/scenarios/default.toml";
  const std::vector<std::string> shortened = {"run.duration=2us", "run.warmup=0us", "run.sample_interval=1us"};
  cc::Registry registry = cc::Registry::with_builtins();
  auto virt = scenario::load_scenario(file, shortened);
  ASSERT_TRUE(virt.ok()) << virt.error().message;
  ASSERT_TRUE(run_virtual(virt.value(), registry, "pool_growth_run_test").ok());
  const std::vector<std::string>& args = runtime::eal_arguments_used();
  const auto m = std::find(args.begin(), args.end(), "-m");
  ASSERT_NE(m, args.end());
  if (std::stoul(*(m + 1)) >= 512) {
    GTEST_SKIP() << "another test of this binary started the EAL with room for realtime pools (-m " << *(m + 1) << ")";
  }
  std::vector<std::string> realtime = shortened;
  realtime.insert(realtime.end(), {"run.clock=\"realtime\"", "realtime.dilation=4000", "realtime.links=\"ring\""});
  auto rt = scenario::load_scenario(file, realtime);
  ASSERT_TRUE(rt.ok()) << rt.error().message;
  auto r = run_realtime(rt.value(), registry, "pool_growth_run_test");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, ::testing::HasSubstr("cannot allocate mbuf pool"));
  EXPECT_THAT(r.error().message,
              ::testing::HasSubstr("this process's EAL was started by an earlier run with " + *(m + 1) + " MB"));
  EXPECT_THAT(r.error().message, ::testing::HasSubstr("run realtime scenarios before virtual ones"));
}

}  // namespace
}  // namespace rtb::testbed
