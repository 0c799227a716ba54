// Parallel virtual time on whole scenarios: split over 2 and 3 partitions, a run gives
// summary.json and the time series byte for byte as on one, leaks no mbuf in any partition's
// pools, and says how it was split. The partitions run in turn on one thread for the whole
// duration (every window, crossing and sample as on many threads, at the speed of one), and
// on a thread each for a shorter time: a thread that waits for a time slice per window
// (beside other busy processes) must not make the test run for minutes.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cc_algos/registry.h"
#include "results/summary_json.h"
#include "scenario/load.h"
#include "testbed/partitioning.h"
#include "testbed/pool_plan.h"
#include "testbed/resource_plan.h"
#include "testbed/run.h"
#include "tests/testbed/test_util.h"

namespace rtb::testbed {
namespace {

struct Case {
  const char* scenario;
  const char* duration;           // on one thread
  const char* threaded_duration;  // on a thread per partition
  const char* threaded_set = "";  // and this override ("": none), to reach the same events sooner
};

// Every figure a run publishes that is deterministic: summary.json and both time series.
struct Published {
  std::string summary;
  std::string series;
  nlohmann::ordered_json run;
};

Published run_with(const char* scenario, const char* duration, uint32_t partitions, uint32_t threads,
                   std::vector<std::string> overrides = {}) {
  overrides.push_back(std::string("run.duration=") + duration);
  overrides.push_back(fmt::format("run.partitions={}", partitions));
  overrides.push_back(fmt::format("run.threads={}", threads));
  auto s = scenario::load_scenario(testing::source_root() + "/scenarios/" + scenario + ".toml", overrides);
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

void expect_same(const Published& one, const Published& many, uint32_t n, uint32_t threads) {
  EXPECT_EQ(one.summary, many.summary) << n << " partitions on " << threads << " thread(s)";
  EXPECT_EQ(one.series, many.series) << n << " partitions on " << threads << " thread(s)";
  ASSERT_TRUE(many.run.contains("partitions")) << many.run.dump();
  const auto& p = many.run["partitions"];
  EXPECT_EQ(p["count"], n);
  EXPECT_EQ(p["threads"], threads);
  EXPECT_GT(p["windows"].get<uint64_t>(), 100u);
  EXPECT_GT(p["crossing_cables"].get<uint32_t>(), 0u);
  uint64_t polls = 0;
  for (const auto& each : p["each"]) {
    polls += each["polls"].get<uint64_t>();
    EXPECT_GT(each["stages"].get<uint32_t>(), 0u);
    // Windows another thread ran: never on one thread, at most every window.
    const uint64_t stolen = each["stolen_windows"].get<uint64_t>();
    if (threads == 1) {
      EXPECT_EQ(stolen, 0u);
    }
    EXPECT_LE(stolen, p["windows"].get<uint64_t>());
    // Every partition's pools got every mbuf back (the run also fails on a leak).
    EXPECT_EQ(each["pools"]["data_free_at_start"], each["pools"]["data_free_at_end"]) << p.dump();
    EXPECT_EQ(each["pools"]["control_free_at_start"], each["pools"]["control_free_at_end"]) << p.dump();
  }
  EXPECT_GT(polls, 1000u);
}

TEST_P(PartitionsRun, TwoAndThreePartitionsOnOneThreadPublishWhatOneDoes) {
  const Case& c = GetParam();
  const Published one = run_with(c.scenario, c.duration, 1, 1);
  ASSERT_FALSE(one.summary.empty());
  ASSERT_GT(one.series.size(), 1000u);
  EXPECT_FALSE(one.run.contains("partitions"));
  for (uint32_t n : {2u, 3u}) expect_same(one, run_with(c.scenario, c.duration, n, 1), n, 1);
}

TEST_P(PartitionsRun, TwoAndThreePartitionsOnAThreadEachPublishWhatOneDoes) {
  const Case& c = GetParam();
  const std::vector<std::string> set = *c.threaded_set != '\0' ? std::vector<std::string>{c.threaded_set}
                                                                 : std::vector<std::string>{};
  const Published one = run_with(c.scenario, c.threaded_duration, 1, 1, set);
  ASSERT_FALSE(one.summary.empty());
  for (uint32_t n : {2u, 3u}) expect_same(one, run_with(c.scenario, c.threaded_duration, n, n, set), n, n);
  // More partitions than threads: a thread done with its own runs the other's, any window.
  expect_same(one, run_with(c.scenario, c.threaded_duration, 3, 2, set), 3, 2);
}

// The PFC storm's pause spreads from leaf0 through the spine: placed by name with the spine
// beside leaf0 (where the automatic split puts it with leaf1), it publishes the same.
TEST(PartitionsRunPlaced, APlacementByNamePublishesWhatOneDoes) {
  const std::vector<std::string> placed = {"run.partition_of.leaf0=1", "run.partition_of.spine0=1"};
  const Published one = run_with("storm_leafspine", "3ms", 1, 1);
  ASSERT_FALSE(one.summary.empty());
  expect_same(one, run_with("storm_leafspine", "3ms", 2, 1, placed), 2, 1);
  std::vector<std::string> soon = placed;
  soon.push_back("faults[0].start=50us");
  expect_same(run_with("storm_leafspine", "150us", 1, 1, {"faults[0].start=50us"}),
              run_with("storm_leafspine", "150us", 2, 2, soon), 2, 2);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, PartitionsRun,
                         ::testing::Values(Case{"alltoall_leafspine", "400us", "100us"},
                                           Case{"storm_leafspine", "3ms", "150us", "faults[0].start=50us"},
                                           Case{"cc_compare_websearch", "2ms", "150us"},
                                           Case{"deadlock", "3ms", "100us"}),
                         [](const auto& p) { return std::string(p.param.scenario); });

scenario::Scenario load(const std::string& name, std::vector<std::string> overrides) {
  auto s = scenario::load_scenario(testing::source_root() + "/scenarios/" + name + ".toml", std::move(overrides));
  EXPECT_TRUE(s.ok()) << s.error().message;
  return s.ok() ? std::move(s).value() : scenario::Scenario{};
}

TEST(Partitioning, ALeafSpineSplitsBySwitchWithItsHostsAndCrossesOnlyUplinks) {
  const scenario::Scenario s = load("alltoall_leafspine", {"run.partitions=3"});
  auto plan = plan_partitions(s, 2);
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
  auto more = plan_partitions(load("storm_leafspine", {"run.partitions=4"}), 2);
  ASSERT_FALSE(more.ok());
  EXPECT_EQ(more.error().message,
            "run.partitions = 4: the topology has only 3 group(s) of a switch and the hosts cabled to it; "
            "expected at most 3");
  auto zero = plan_partitions(load("storm_leafspine", {"run.partitions=2", "topology.uplink_cable_length_m=0"}), 2);
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(zero.error().message.find("has no propagation delay"), std::string::npos) << zero.error().message;
  auto single = plan_partitions(load("default", {"run.partitions=2"}), 2);
  ASSERT_FALSE(single.ok());
  EXPECT_NE(single.error().message.find("only 1 group"), std::string::npos) << single.error().message;
}

TEST(Partitioning, RunPartitionOfPlacesSwitchesWithTheirHostsByName) {
  // leaf0, leaf1, spine0; h0-h2 on leaf0, h3-h5 on leaf1. Unplaced: leaf0 to 0, leaf1 to 1,
  // the spine to the lighter.
  auto automatic = plan_partitions(load("storm_leafspine", {"run.partitions=2"}), 2);
  ASSERT_TRUE(automatic.ok()) << automatic.error().message;
  EXPECT_EQ(automatic->of_switch, (std::vector<uint32_t>{0, 1, 0}));
  auto placed = plan_partitions(load("storm_leafspine", {"run.partitions=2", "run.partition_of.leaf0=1",
                                                         "run.partition_of.spine0=1"}), 2);
  ASSERT_TRUE(placed.ok()) << placed.error().message;
  EXPECT_EQ(placed->of_switch, (std::vector<uint32_t>{1, 0, 1}));
  EXPECT_EQ(placed->of_host, (std::vector<uint32_t>{1, 1, 1, 0, 0, 0}));
  auto one_named = plan_partitions(load("storm_leafspine", {"run.partitions=3", "run.partition_of.spine0=0"}), 2);
  ASSERT_TRUE(one_named.ok()) << one_named.error().message;
  EXPECT_EQ(one_named->of_switch, (std::vector<uint32_t>{1, 2, 0}));

  auto empty = plan_partitions(load("storm_leafspine", {"run.partitions=2", "run.partition_of.leaf0=1",
                                                        "run.partition_of.leaf1=1", "run.partition_of.spine0=1"}), 2);
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().message,
            "run.partition_of leaves partition 0 of 2 without a switch: expected every partition to hold one "
            "(place fewer switches by name, or give fewer partitions)");
  const std::string file = testing::source_root() + "/scenarios/storm_leafspine.toml";
  auto unknown = scenario::load_scenario(file, {"run.partitions=2", "run.partition_of.leaf7=1"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("run.partition_of.leaf7: 'leaf7' is not a switch of the topology "
                                         "(did you mean 'leaf0'?): expected a switch name (leaf0 .. spine0)"),
            std::string::npos) << unknown.error().message;
  auto beyond = scenario::load_scenario(file, {"run.partitions=2", "run.partition_of.leaf0=2"});
  ASSERT_FALSE(beyond.ok());
  EXPECT_NE(beyond.error().message.find("run.partition_of.leaf0: 2"), std::string::npos) << beyond.error().message;
}

TEST(Partitioning, ThreadsAreOnePerPartitionAtMostOnePerCpuUnlessSet) {
  const scenario::Scenario three = load("storm_leafspine", {"run.partitions=3"});
  EXPECT_EQ(plan_partitions(three, 2)->threads, 2u);
  EXPECT_EQ(plan_partitions(three, 8)->threads, 3u);
  EXPECT_EQ(plan_partitions(three, 1)->threads, 1u);
  EXPECT_EQ(plan_partitions(load("storm_leafspine", {"run.partitions=3", "run.threads=3"}), 1)->threads, 3u);
  EXPECT_EQ(plan_partitions(load("storm_leafspine", {"run.partitions=3", "run.threads=auto"}), 1)->threads, 1u);
  EXPECT_EQ(plan_partitions(load("default", {}), 2)->threads, 1u);
  auto more = scenario::load_scenario(testing::source_root() + "/scenarios/storm_leafspine.toml",
                                      {"run.partitions=2", "run.threads=3"});
  ASSERT_FALSE(more.ok());
  EXPECT_NE(more.error().message.find("run.threads: 3 is above run.partitions (2): expected \"auto\" or 1 .. 2"),
            std::string::npos) << more.error().message;
}

TEST(Partitioning, TheResourcePlanCountsAPoolSetPerPartition) {
  auto plan_of = [](const scenario::Scenario& s) {
    auto sizes = pool_sizes(s, pool_config(s));
    EXPECT_TRUE(sizes.ok());
    return plan_resources(s, pool_config(s), sizes.value());
  };
  const ResourcePlan one = plan_of(load("storm_leafspine", {}));
  const ResourcePlan three = plan_of(load("storm_leafspine", {"run.partitions=3"}));
  ASSERT_EQ(one.terms.front().what, "mbuf pools");
  ASSERT_EQ(three.terms.front().what, "mbuf pools");
  EXPECT_EQ(three.terms.front().bytes, 3 * one.terms.front().bytes);
  EXPECT_EQ(three.terms.front().driver, one.terms.front().driver + ", a pool set for each of run.partitions = 3");
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Every capture of a partitioned run, whichever partitions send its frames, holds the
// one-thread run's bytes: the taps keep each frame with its one-thread order and the files
// are written in it between windows. The PFC storm gives pause frames that wait for the
// frame on the wire (their tap sees them before they start).
TEST(Partitioning, EveryCaptureHoldsWhatOnePartitionWrites) {
  cc::Registry registry = cc::Registry::with_builtins();
  const std::vector<std::string> what = {"all", "hosts-tx", "leaf1", "h0", "spine0"};
  struct Split {
    uint32_t partitions, threads;
  };
  std::vector<std::vector<std::string>> files;
  for (const Split& split : {Split{1, 1}, Split{2, 2}, Split{3, 3}, Split{3, 1}}) {
    const scenario::Scenario s = load(
        "storm_leafspine", {fmt::format("run.partitions={}", split.partitions),
                            fmt::format("run.threads={}", split.threads), "run.duration=150us", "faults[0].start=50us"});
    tap::CaptureRequest capture;
    capture.what = what;
    capture.dir = ::testing::TempDir() + fmt::format("/partitions_capture_{}_{}", split.partitions, split.threads);
    auto r = run_virtual(s, registry, "partitions_run_test", capture);
    ASSERT_TRUE(r.ok()) << r.error().message;
    files.emplace_back();
    for (const std::string& w : what) files.back().push_back(read_file(capture.dir + "/capture-" + w + ".pcapng"));
  }
  for (size_t f = 0; f < what.size(); ++f) {
    EXPECT_GT(files[0][f].size(), 10'000u) << what[f];
    for (size_t split = 1; split < files.size(); ++split) {
      EXPECT_TRUE(files[0][f] == files[split][f]) << "capture-" << what[f] << ".pcapng differs, split " << split;
    }
  }
}

}  // namespace
}  // namespace rtb::testbed
