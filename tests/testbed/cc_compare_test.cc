// The ready comparison scenarios agree in direction with the papers they come from, in
// virtual time (deterministic, so each claim is an exact run, not a sample):
//   - HPCC keeps queues near empty where DCQCN and DCTCP hold them in the ECN ramp and
//     beyond (Li et al., HPCC, SIGCOMM 2019, §5 and Figure 10/11): on the 8:1 incast the
//     deepest queue's p99 under HPCC is a few KB, under DCQCN megabytes, and HPCC needs no
//     PFC pause where DCQCN triggers thousands;
//   - Swift's delay target (Kumar et al., SIGCOMM 2020) also keeps the queue to tens of KB;
//   - every algorithm delivers every byte of every flow (finite 2 MB flows), so the
//     comparison is of how, not whether.
// Thresholds are an order of magnitude from the measured figures (scenarios/README.md's
// table: HPCC 3,378 B, Swift 36,788 B, DCQCN 2,036,324 B), so only a change of behaviour
// (not a tweak of a constant) fails them.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "cc_algos/registry.h"
#include "scenario/load.h"
#include "results/summary_json.h"
#include "testbed/run.h"
#include "tests/testbed/test_util.h"

namespace rtb::testbed {
namespace {

using nlohmann::ordered_json;
using testing::source_root;

ordered_json run_incast(const std::string& algorithm) {
  auto s = scenario::load_scenario(source_root() + "/scenarios/cc_compare_incast.toml",
                                   {"cc.algorithm=\"" + algorithm + "\""});
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  cc::Registry registry = cc::Registry::with_builtins();
  auto r = run_virtual(s.value(), registry, "cc_compare_test");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? results::to_json(r.value().summary) : ordered_json{};
}

double deepest_queue_p99(const ordered_json& summary) {
  double deepest = 0;
  for (const auto& sw : summary["switches"]) {
    for (const auto& p : sw["ports"]) deepest = std::max(deepest, p["queue_bytes"]["p99"].get<double>());
  }
  return deepest;
}

void expect_every_flow_finished(const ordered_json& summary, const std::string& algorithm) {
  ASSERT_EQ(summary["flows"].size(), 8u) << algorithm;
  for (const auto& f : summary["flows"]) {
    EXPECT_EQ(f["bytes_total"], 2'000'000) << algorithm;
    EXPECT_FALSE(f["fct_ns"].is_null()) << algorithm;
  }
}

TEST(CcCompare, HpccAndSwiftKeepTheIncastQueueNearEmptyWhereDcqcnFillsIt) {
  const ordered_json dcqcn = run_incast("dcqcn"), hpcc = run_incast("hpcc"), swift = run_incast("swift");
  for (const auto& [name, s] : {std::pair{"dcqcn", &dcqcn}, {"hpcc", &hpcc}, {"swift", &swift}}) {
    expect_every_flow_finished(*s, name);
  }
  EXPECT_GT(deepest_queue_p99(dcqcn), 1'000'000);  // beyond Kmax (1.2 MB): PFC territory
  EXPECT_LT(deepest_queue_p99(hpcc), 30'000);      // a few frames: HPCC's eta = 95 %
  EXPECT_LT(deepest_queue_p99(swift), 200'000);
  EXPECT_GT(dcqcn["totals"]["pfc_frames"].get<uint64_t>(), 1'000u);
  EXPECT_EQ(hpcc["totals"]["pfc_frames"], 0);
  EXPECT_EQ(swift["totals"]["pfc_frames"], 0);
  // The short queue does not cost completion: HPCC's median slowdown is no worse than DCQCN's.
  EXPECT_LE(hpcc["fct_slowdown"]["p50"].get<double>(), dcqcn["fct_slowdown"]["p50"].get<double>());
}

}  // namespace
}  // namespace rtb::testbed
