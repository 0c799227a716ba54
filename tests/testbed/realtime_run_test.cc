// Realtime runs of whole scenarios: the default scenario at reduced rates
// (time dilation), every cable through an in-process rte_ring port pair, against the same
// scenario in virtual time. One EAL for the binary (main lcore 0).
//
// On this shared 2-core machine a realtime run can be starved of CPU; such a run reports
// itself invalid (stalls, lateness). The comparison is asserted on valid runs only; an
// invalid one is retried once and then skipped with its own reason.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <utility>
#include <string>
#include <vector>

#include "cc_algos/registry.h"
#include "scenario/load.h"
#include "results/summary_json.h"
#include "testbed/run.h"
#include "tests/testbed/test_util.h"
#include "wire/crc_path.h"

namespace rtb::testbed {
namespace {

using nlohmann::ordered_json;

using testing::source_root;

// The default 8:1 incast with 200 KB flows, which finish well inside the run.
const std::vector<std::string> kFinite = {"run.duration=400us", "run.warmup=0us",
                                          "traffic[0].bytes=\"200KB\""};

Expected<RunReport> run(const std::string& clock, std::vector<std::string> sets) {
  sets.insert(sets.end(), kFinite.begin(), kFinite.end());
  sets.push_back("run.clock=\"" + clock + "\"");
  auto s = scenario::load_scenario(source_root() + "/scenarios/default.toml", sets);
  if (!s) return Error{s.error().message};
  cc::Registry registry = cc::Registry::with_builtins();
  return clock == "realtime" ? run_realtime(s.value(), registry, "realtime_run_test")
                             : run_virtual(s.value(), registry, "realtime_run_test");
}

// The incast's aggregate throughput: every byte over the last completion.
double incast_gbps(const ordered_json& summary) {
  uint64_t bytes = 0, last_ns = 0;
  for (const auto& f : summary["flows"]) {
    bytes += f["bytes_total"].get<uint64_t>();
    last_ns = std::max(last_ns, f["start_ns"].get<uint64_t>() + f["fct_ns"].get<uint64_t>());
  }
  return static_cast<double>(bytes) * 8 / static_cast<double>(last_ns);
}

// The switch port with the largest mean queue: (index, mean bytes).
std::pair<size_t, double> deepest_port(const ordered_json& summary) {
  std::pair<size_t, double> best{0, -1};
  const ordered_json& ports = summary["switches"][0]["ports"];
  for (size_t p = 0; p < ports.size(); ++p) {
    const double mean = ports[p]["queue_bytes"]["mean"].get<double>();
    if (mean > best.second) best = {p, mean};
  }
  return best;
}

// The realtime run goes first: the first run of a process starts its EAL, and a virtual
// run's holds only its pools' rings (its mbufs are mapped on demand, runtime/pool/README.md),
// too little for the realtime pools written up front.
TEST(RealtimeRun, DefaultScenarioOverRingsDeliversWhatVirtualTimeDelivers) {
  const std::vector<std::string> rt = {"realtime.dilation=4000", "realtime.links=\"ring\""};
  auto real = run("realtime", rt);
  ASSERT_TRUE(real.ok()) << real.error().message;  // includes the mbuf leak check
  if (!real.value().summary.valid.value_or(false)) real = run("realtime", rt);
  ASSERT_TRUE(real.ok()) << real.error().message;
  auto virt = run("virtual", {});
  ASSERT_TRUE(virt.ok()) << virt.error().message;
  const ordered_json r = results::to_json(real.value().summary);
  const ordered_json v = results::to_json(virt.value().summary);
  // The lateness report and the bridges are there, valid or not.
  const ordered_json& run_json = real.value().run;
  ASSERT_TRUE(run_json.contains("realtime"));
  EXPECT_GT(run_json["realtime"]["lateness"]["polls"].get<uint64_t>(), 0u);
  EXPECT_EQ(run_json["bridges"].size(), 2u * 9);  // 9 cables, a bridge at each end
  EXPECT_EQ(run_json["icrc_crc_path"], wire::crc_path_name(wire::crc_path()));
  EXPECT_EQ(r["clock"], "realtime");
  if (!r["valid"].get<bool>()) GTEST_SKIP() << "the realtime run was starved: " << r["invalid_reason"];

  ASSERT_EQ(r["flows"].size(), v["flows"].size());
  for (size_t f = 0; f < v["flows"].size(); ++f) {
    SCOPED_TRACE("flow " + std::to_string(f));
    EXPECT_EQ(r["flows"][f]["bytes_total"], v["flows"][f]["bytes_total"]);  // every byte, once
    EXPECT_FALSE(r["flows"][f]["fct_ns"].is_null());
  }
  EXPECT_EQ(r["totals"]["drops"], 0);
  const double vg = incast_gbps(v), rg = incast_gbps(r);
  EXPECT_NEAR(rg, vg, 0.05 * vg) << "virtual " << vg << " Gb/s, realtime " << rg << " Gb/s";
  // The bottleneck queue (the receiver's port) and the feedback it caused: the same
  // closed loop, so the same queue mean and CNP count within 5 %.
  const auto [port, vq] = deepest_port(v);
  const double rq = r["switches"][0]["ports"][port]["queue_bytes"]["mean"].get<double>();
  std::cout << "queue mean at port " << port << ": virtual " << vq << " B, realtime " << rq << " B; CNPs virtual "
            << v["totals"]["cnp_sent"] << ", realtime " << r["totals"]["cnp_sent"] << "\n";
  EXPECT_NEAR(rq, vq, 0.05 * vq);
  const auto vc = v["totals"]["cnp_sent"].get<double>(), rc = r["totals"]["cnp_sent"].get<double>();
  EXPECT_GT(vc, 0);
  EXPECT_NEAR(rc, vc, 0.05 * vc);
  EXPECT_FALSE(real.value().flow_samples.empty());  // the time series came through the channel
  EXPECT_FALSE(real.value().queue_samples.empty());
}

TEST(RealtimeRun, ATinyLatenessBudgetMakesTheRunInvalidWithItsReason) {
  auto real = run("realtime", {"realtime.dilation=4000", "realtime.max_lateness=\"1ps\""});
  ASSERT_TRUE(real.ok()) << real.error().message;
  const ordered_json r = results::to_json(real.value().summary);
  EXPECT_FALSE(r["valid"].get<bool>());
  EXPECT_NE(r["invalid_reason"].get<std::string>().find("late"), std::string::npos) << r["invalid_reason"];
}

// Pools far too small for the incast (64 data mbufs, one control mbuf): every stage counts
// its failed allocations, the counts add up to each pool's, the run goes on and every flow
// delivers all its bytes; run_realtime() fails if an mbuf is missing at the end.
TEST(RealtimeRun, TinyPoolsAreCountedPerStageAndPerPoolAndTheRunGoesOn) {
  auto real = run("realtime", {"realtime.dilation=4000", "run.data_mbufs=64", "run.control_mbufs=1"});
  ASSERT_TRUE(real.ok()) << real.error().message;
  const ordered_json r = results::to_json(real.value().summary);
  const ordered_json& pools = real.value().run["pools"];
  EXPECT_EQ(pools["data_mbufs"], 64);
  EXPECT_EQ(pools["control_mbufs"], 1);
  uint64_t data = 0, control = 0;
  for (const auto& h : r["hosts"]) {
    data += h["tx_nombuf_data"].get<uint64_t>();
    control += h["tx_nombuf_control"].get<uint64_t>();
  }
  for (const auto& sw : r["switches"]) control += sw["pfc_nombuf"].get<uint64_t>();
  EXPECT_GT(data, 0u);
  EXPECT_GT(control, 0u);  // the receiver's ACKs and CNPs share one mbuf
  EXPECT_EQ(pools["data_alloc_failures"].get<uint64_t>(), data);
  EXPECT_EQ(pools["control_alloc_failures"].get<uint64_t>(), control);
  for (const auto& f : r["flows"]) EXPECT_EQ(f["bytes_total"], 200'000);
}

TEST(RealtimeRun, ARoleWithACableLeavingItWithoutAPortIsRefused) {
  auto s = scenario::load_scenario(
      source_root() + "/scenarios/default.toml",
      {"run.clock=\"realtime\"", "realtime.role=\"a\"", "realtime.process.a.nodes=[\"sw0\"]"});
  // The loader accepts roles only with ports for every cable leaving the process.
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("leaves the process"), std::string::npos) << s.error().message;
}

// DPDK gives a process 32 port ids (RTE_MAX_ETHPORTS in Debian's build) and a ring pair takes
// one: the 16:1 incast's 17 cables fit, the 128-host leaf-spine's 192 do not, and the run
// says so before it builds anything.
TEST(RealtimeRun, MoreRingPairsThanDpdkHasPortsForAreRefusedInOneLine) {
  const std::vector<std::string> rt = {"run.clock=\"realtime\"", "realtime.links=\"ring\"",
                                       "realtime.dilation=1000", "run.duration=10us", "run.warmup=0us",
                                       "run.sample_interval=10us"};
  auto s = scenario::load_scenario(source_root() + "/scenarios/scale_alltoall_128.toml", rt);
  ASSERT_TRUE(s.ok()) << s.error().message;
  cc::Registry registry = cc::Registry::with_builtins();
  auto r = run_realtime(s.value(), registry, "realtime_run_test");
  ASSERT_FALSE(r.ok());
  const std::string& m = r.error().message;
  EXPECT_NE(m.find("scale_alltoall_128.toml: 192 cables run through rte_ring port pairs"), std::string::npos) << m;
  EXPECT_NE(m.find("a DPDK port each, but only"), std::string::npos) << m;
  EXPECT_NE(m.find("realtime.links = \"wire\""), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;

  auto fits = scenario::load_scenario(source_root() + "/scenarios/incast16_pfc.toml", rt);
  ASSERT_TRUE(fits.ok()) << fits.error().message;
  auto ran = run_realtime(fits.value(), registry, "realtime_run_test");
  ASSERT_TRUE(ran.ok()) << ran.error().message;  // 17 ring pairs, 17 port ids; no mbuf leaked
}

// [[realtime.commands]]: the control thread issues them through the control channel.
Expected<RunReport> run_with_commands(const std::string& commands) {
  auto s = scenario::load_scenario(source_root() + "/scenarios/default.toml",
                                   {"run.clock=\"realtime\"", "realtime.dilation=2000", "run.duration=1ms",
                                    "run.warmup=0us", "realtime.commands=" + commands});
  if (!s) return Error{s.error().message};
  cc::Registry registry = cc::Registry::with_builtins();
  return run_realtime(s.value(), registry, "realtime_run_test");
}

TEST(RealtimeRun, AStopCommandEndsTheRunEarlyWithItsResults) {
  auto r = run_with_commands("[{ at = \"200us\", command = \"stop\" }]");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r.value().run["realtime"]["stopped_early"].get<bool>());
  EXPECT_LT(r.value().summary.duration.ns(), 400'000u);
  EXPECT_GE(r.value().summary.duration.ns(), 200'000u);
  EXPECT_TRUE(r.value().run["commands"][0]["applied"].get<bool>());
}

// The handler on the hosts' lcore adopts the prepared parameters (what adopting does to
// the algorithm's decisions is tested in tests/cc: Controller.AdoptedParametersDrive...).
TEST(RealtimeRun, ASetCommandIsIssuedAtItsTimeAndHandledOnTheHostsLcore) {
  auto r = run_with_commands("[{ at = \"100us\", command = \"set rp_ai_rate 50000\" }, "
                             "{ at = \"300us\", command = \"set rp_hai_rate 100000\" }]");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& cmds = r.value().run["commands"];
  ASSERT_EQ(cmds.size(), 2u);
  for (const auto& c : cmds) EXPECT_TRUE(c["applied"].get<bool>()) << c.dump();
  EXPECT_GE(cmds[0]["issued_at_ns"].get<double>(), 100'000.0);
  EXPECT_GE(cmds[1]["issued_at_ns"].get<double>(), 300'000.0);
}

TEST(RealtimeRun, ABadSetCommandIsRefusedBeforeTheRunStarts) {
  auto r = run_with_commands("[{ at = \"100us\", command = \"set rp_gd 40\" }]");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("realtime.commands[0] (set rp_gd 40)"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace rtb::testbed
