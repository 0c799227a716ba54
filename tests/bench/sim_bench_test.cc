// `rocetb bench sim` on a short scenario: speed figures consistent with the run itself.
#include "bench/sim_bench.h"

#include <gtest/gtest.h>

#include "tests/scenario/scenario_test_util.h"

#include <string>

namespace rtb::bench {
namespace {

TEST(SimBench, ReportsFrameHopsPerWallSecondOfAScenario) {
  cc::Registry registry = cc::Registry::with_builtins();
  SimOptions o;
  o.scenario = scenario::testing::in_scenarios("default.toml");
  o.overrides = {"run.duration=\"500us\"", "run.warmup=\"0s\""};
  o.repeat = 2;
  auto r = run_sim(o, registry);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_GT(r->figure("frame_hops"), 1'000);
  EXPECT_DOUBLE_EQ(r->figure("simulated_seconds"), 500e-6);
  EXPECT_NEAR(r->figure("frame_hops_per_s"), r->figure("frame_hops") / r->figure("wall_seconds"),
              1e-6 * r->figure("frame_hops_per_s"));
  EXPECT_GE(r->figure("frame_hops_per_s"), r->figure("frame_hops_per_s_median"));
  EXPECT_GT(r->figure("polls_per_frame_hop"), 0.5);
  EXPECT_EQ(r->details["wall_seconds_sorted"].size(), 2u);
}

TEST(SimBench, ReportsTheSpeedPerThreadOfAPartitionedRun) {
  cc::Registry registry = cc::Registry::with_builtins();
  SimOptions o;
  o.scenario = scenario::testing::in_scenarios("alltoall_leafspine.toml");
  o.overrides = {"run.duration=\"200us\"", "run.partitions=2", "run.threads=2"};
  o.repeat = 1;
  auto r = run_sim(o, registry);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->figure("partitions"), 2);
  EXPECT_EQ(r->figure("threads"), 2);
  EXPECT_NEAR(r->figure("frame_hops_per_s_per_thread"), r->figure("frame_hops_per_s") / 2,
              1e-6 * r->figure("frame_hops_per_s"));
  // 200 us of 50 ns windows at most (windows skip idle time, so fewer): 4,000.
  EXPECT_GE(r->figure("frame_hops") / r->figure("frame_hops_per_window"), 100.0);
  EXPECT_LE(r->figure("frame_hops") / r->figure("frame_hops_per_window"), 4'001.0);
}

TEST(SimBench, RefusesARealtimeScenarioAndABadFile) {
  cc::Registry registry = cc::Registry::with_builtins();
  SimOptions o;
  o.scenario = scenario::testing::in_scenarios("default.toml");
  o.overrides = {"run.clock=\"realtime\""};
  auto r = run_sim(o, registry);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("virtual"), std::string::npos) << r.error().message;
  o.scenario = scenario::testing::in_scenarios("no_such_file.toml");
  o.overrides = {};
  EXPECT_FALSE(run_sim(o, registry).ok());
}

}  // namespace
}  // namespace rtb::bench
