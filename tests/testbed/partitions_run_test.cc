// Parallel virtual time on whole scenarios: split over 2 and 3 partitions (threads), a run
// gives summary.json and the time series byte for byte as on one, leaks no mbuf in any
// partition's pools, and says how it was split.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "cc_algos/registry.h"
#include "results/summary_json.h"
#include "scenario/load.h"
#include "testbed/partitioning.h"
#include "testbed/run.h"
#include "tests/testbed/test_util.h"

namespace rtb::testbed {
namespace {

struct Case {
  const char* scenario;
  const char* duration;
};

// Every figure a run publishes that is deterministic: summary.json and both time series.
struct Published {
  std::string summary;
  std::string series;
  nlohmann::ordered_json run;
};

Published run_with(const Case& c, uint32_t partitions) {
  auto s = scenario::load_scenario(testing::source_root() + "/scenarios/" + c.scenario + ".toml",
                                   {std::string("run.duration=") + c.duration,
                                    fmt::format("run.partitions={}", partitions)});
  EXPECT_TRUE(s.ok()) << s.error().message;
  if (!s.ok()) return {};
  cc::Registry registry = cc::Registry::with_builtins();
  auto r = run_virtual(s.value(), registry, "partitions_run_test");
  EXPECT_TRUE(r.ok()) << r.error().message;
  if (!r.ok()) return {};
  Published p;
  p.summary = results::to_json(r.value().summary).dump(1);
  for (const FlowSample& f : r.value().flow_samples) {
    p.series += fmt::format("f {} {} {} {} {} {} {}", f.at.ps(), f.flow, f.parts, f.cc_rate.bps(),
                            f.throughput_gbps, f.bytes_received, f.cnp_handled);
    for (uint32_t i = 0; i < f.cc_state_count; ++i) p.series += fmt::format(" {}", f.cc_state[i]);
    p.series += '\n';
  }
  for (const QueueSample& q : r.value().queue_samples) {
    p.series += fmt::format("q {} {} {} {} {} {} {} {} {}\n", q.at.ps(), q.sw, q.port, q.queue, q.depth_bytes,
                            q.ecn_marked, q.drops, q.paused, q.pfc_tx);
  }
  p.run = r.value().run;
  return p;
}

class PartitionsRun : public ::testing::TestWithParam<Case> {};

TEST_P(PartitionsRun, TwoAndThreePartitionsPublishWhatOneDoes) {
  const Published one = run_with(GetParam(), 1);
  ASSERT_FALSE(one.summary.empty());
  ASSERT_GT(one.series.size(), 1000u);
  EXPECT_FALSE(one.run.contains("partitions"));
  for (uint32_t n : {2u, 3u}) {
    const Published many = run_with(GetParam(), n);
    EXPECT_EQ(one.summary, many.summary) << n << " partitions";
    EXPECT_EQ(one.series, many.series) << n << " partitions";
    ASSERT_TRUE(many.run.contains("partitions")) << many.run.dump();
    const auto& p = many.run["partitions"];
    EXPECT_EQ(p["count"], n);
    EXPECT_GT(p["windows"].get<uint64_t>(), 100u);
    EXPECT_GT(p["crossing_cables"].get<uint32_t>(), 0u);
    uint64_t polls = 0;
    for (const auto& each : p["each"]) {
      polls += each["polls"].get<uint64_t>();
      EXPECT_GT(each["stages"].get<uint32_t>(), 0u);
      // Every partition's pools got every mbuf back (the run also fails on a leak).
      EXPECT_EQ(each["pools"]["data_free_at_start"], each["pools"]["data_free_at_end"]) << p.dump();
      EXPECT_EQ(each["pools"]["control_free_at_start"], each["pools"]["control_free_at_end"]) << p.dump();
    }
    EXPECT_GT(polls, 1000u);
  }
}

INSTANTIATE_TEST_SUITE_P(Scenarios, PartitionsRun,
                         ::testing::Values(Case{"alltoall_leafspine", "400us"}, Case{"storm_leafspine", "3ms"},
                                           Case{"cc_compare_websearch", "2ms"}, Case{"deadlock", "3ms"}),
                         [](const auto& p) { return std::string(p.param.scenario); });

scenario::Scenario load(const std::string& name, std::vector<std::string> overrides) {
  auto s = scenario::load_scenario(testing::source_root() + "/scenarios/" + name + ".toml", std::move(overrides));
  EXPECT_TRUE(s.ok()) << s.error().message;
  return s.ok() ? std::move(s).value() : scenario::Scenario{};
}

TEST(Partitioning, ALeafSpineSplitsBySwitchWithItsHostsAndCrossesOnlyUplinks) {
  const scenario::Scenario s = load("alltoall_leafspine", {"run.partitions=3"});
  auto plan = plan_partitions(s);
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ(plan->groups, 6u);  // 4 leaves with their hosts, 2 spines
  for (const scenario::HostNode& h : s.topology.hosts) {
    const scenario::Link& l = s.topology.links[h.link];
    EXPECT_FALSE(plan->crosses(l)) << h.name;
  }
  for (const scenario::Link& l : s.topology.links) {
    if (plan->crosses(l)) {
      EXPECT_GE(l.propagation, plan->lookahead);
    }
  }
  EXPECT_EQ(plan->lookahead, Time::ns(50));  // 10 m uplinks
  EXPECT_GT(plan->crossing_cables, 0u);
}

TEST(Partitioning, RefusesMorePartitionsThanGroupsACableWithoutDelayAndRealtime) {
  auto more = plan_partitions(load("storm_leafspine", {"run.partitions=4"}));
  ASSERT_FALSE(more.ok());
  EXPECT_EQ(more.error().message,
            "run.partitions = 4: the topology has only 3 group(s) of a switch and the hosts cabled to it; "
            "expected at most 3");
  auto zero = plan_partitions(load("storm_leafspine", {"run.partitions=2", "topology.uplink_cable_length_m=0"}));
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(zero.error().message.find("has no propagation delay"), std::string::npos) << zero.error().message;
  auto single = plan_partitions(load("default", {"run.partitions=2"}));
  ASSERT_FALSE(single.ok());
  EXPECT_NE(single.error().message.find("only 1 group"), std::string::npos) << single.error().message;
}

TEST(Partitioning, CapturesNeedOnePartition) {
  const scenario::Scenario s = load("storm_leafspine", {"run.partitions=2", "run.duration=3ms"});
  cc::Registry registry = cc::Registry::with_builtins();
  tap::CaptureRequest capture;
  capture.what = {"all"};
  capture.dir = ::testing::TempDir() + "/partitions_capture";
  auto r = run_virtual(s, registry, "partitions_run_test", capture);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("--capture: not available with run.partitions = 2"), std::string::npos)
      << r.error().message;
}

}  // namespace
}  // namespace rtb::testbed
