// `rocetb bench loop`: the default scenario's closed loop in realtime on two lcores (hosts
// on 0, the switch on 1, every cable over rte_ring pairs), slowed 1000 times so this
// machine keeps up: data arrives, ACKs and CNPs come back, and the report says so.
#include "bench/loop_bench.h"

#include <gtest/gtest.h>

#include "tests/scenario/scenario_test_util.h"

#include <algorithm>
#include <string>

namespace rtb::bench {
namespace {

TEST(LoopBench, TheDefaultIncastClosesItsLoopOverRingsOnTwoLcores) {
  cc::Registry registry = cc::Registry::with_builtins();
  LoopOptions o;
  o.scenario = scenario::testing::in_scenarios("default.toml");
  o.lcores = {0, 1};
  o.duration = Time::us(400);
  o.dilation = 1000;
  o.overrides = {"run.warmup=\"100us\""};
  auto r = run_loop(o, registry);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_GT(r->figure("goodput_gbps"), 1.0);
  EXPECT_NEAR(r->figure("simulated_seconds"), 400e-6, 1e-6);
  // Hosts and the switch talk through bridges: frames crossed both ways.
  ASSERT_GT(r->details["bridges"].size(), 0u);
  uint64_t rx = 0;
  for (const auto& b : r->details["bridges"]) rx += b["rx_frames"].get<uint64_t>();
  EXPECT_GT(rx, 1'000u);
  EXPECT_EQ(r->details["realtime"]["lcores"].size(), 2u);
  const auto& over = r->config["overrides"];
  EXPECT_NE(std::find(over.begin(), over.end(), "realtime.place.sw0=1"), over.end());
}

// Switches go round the lcores after the first by their names (a leaf-spine's are leaf0..
// and spine0..). The run itself: RunCommand.BenchLoopRunsALeafSpine (its own EAL).
TEST(LoopBench, SwitchesArePlacedByName) {
  LoopOptions o;
  o.lcores = {0, 1, 2};
  const std::vector<std::string> v = loop_overrides(o, {"leaf0", "leaf1", "spine0"});
  for (const char* placed : {"realtime.place.leaf0=1", "realtime.place.leaf1=2", "realtime.place.spine0=1"}) {
    EXPECT_NE(std::find(v.begin(), v.end(), placed), v.end()) << placed;
  }
  o.lcores = {0};  // one lcore: everything on it, nothing placed
  for (const std::string& k : loop_overrides(o, {"leaf0"})) EXPECT_EQ(k.find("realtime.place."), std::string::npos) << k;
}

TEST(LoopBench, AnUnknownKeyIsTheScenarioError) {
  cc::Registry registry = cc::Registry::with_builtins();
  LoopOptions o;
  o.scenario = scenario::testing::in_scenarios("default.toml");
  o.overrides = {"run.no_such_key=1"};
  auto r = run_loop(o, registry);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("no_such_key"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace rtb::bench
