// The built-in algorithms end to end: the default 8:1 incast (scenarios/default.toml: 10 ms,
// figures after a 2 ms warm-up) under each of them, against fixed_rate (no congestion control) and DCQCN.
// Each assertion fails if the algorithm did nothing (it would then run as fixed_rate).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "cc_algos/registry.h"
#include "scenario/load.h"
#include "results/summary_json.h"
#include "testbed/run.h"
#include "tests/testbed/test_util.h"

namespace rtb::testbed {
namespace {

using testing::source_root;

RunReport incast(const std::string& algorithm, std::vector<std::string> more = {}) {
  std::vector<std::string> overrides{"cc.algorithm=\"" + algorithm + "\""};
  overrides.insert(overrides.end(), more.begin(), more.end());
  auto s = scenario::load_scenario(source_root() + "/scenarios/default.toml", overrides);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  cc::Registry registry = cc::Registry::with_builtins();
  auto r = run_virtual(s.value(), registry, "algorithms_test");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return std::move(r).value();
}

struct Outcome {
  double goodput_gbps;
  uint64_t pfc_frames;
  uint64_t cnp_sent;
  uint64_t marked;
  uint64_t queue_p99;
  Rate lowest_rate;  // over every flow's samples
};

Outcome outcome(const RunReport& r) {
  const nlohmann::ordered_json summary = results::to_json(r.summary);
  const auto& t = summary["totals"];
  Rate lowest = Rate::gbps(100);
  for (const FlowSample& s : r.flow_samples)
    if (s.parts & FlowSample::kSenderPart) lowest = std::min(lowest, s.cc_rate);
  return Outcome{t["goodput_gbps"].get<double>(), t["pfc_frames"].get<uint64_t>(),
                 t["cnp_sent"].get<uint64_t>(), t["ecn_marked_data_frames"].get<uint64_t>(),
                 summary["switches"][0]["ports"][8]["queue_bytes"]["p99"].get<uint64_t>(), lowest};
}

// The largest value of a CC state field over every sample.
double largest(const RunReport& r, size_t field) {
  double m = 0;
  for (const FlowSample& s : r.flow_samples)
    if (s.cc_state_count > field) m = std::max(m, s.cc_state[field]);
  return m;
}

class Algorithms : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    for (const char* a : {"fixed_rate", "dcqcn", "timely", "dctcp", "swift", "hpcc"}) {
      reports_->emplace(a, incast(a));
      outcomes_->emplace(a, outcome(reports_->at(a)));
    }
  }
  static const Outcome& of(const std::string& a) { return outcomes_->at(a); }
  static const RunReport& report(const std::string& a) { return reports_->at(a); }

 private:
  static inline auto* reports_ = new std::map<std::string, RunReport>;
  static inline auto* outcomes_ = new std::map<std::string, Outcome>;
};

TEST_F(Algorithms, WithoutCongestionControlTheIncastFillsTheBufferAndPauses) {
  EXPECT_GT(of("fixed_rate").pfc_frames, 0u);
  EXPECT_GT(of("fixed_rate").queue_p99, 2'000'000u);
  EXPECT_EQ(of("fixed_rate").lowest_rate, Rate::gbps(100));
  EXPECT_EQ(of("dcqcn").pfc_frames, 0u);  // the reference: DCQCN holds the queue without PFC
}

// TIMELY's rate falls once RTT samples rise past T_low (50 us) with a rising gradient: it
// holds the queue below the PFC point (as DCQCN does here) on RTT alone, with no CNP. Its
// share of the link is known to be uneven (CoNEXT'16 §5): no fairness claim here.
TEST_F(Algorithms, TimelyReactsToTheRtt) {
  const Outcome& o = of("timely");
  EXPECT_LT(o.lowest_rate, Rate::gbps(50));
  EXPECT_GT(largest(report("timely"), 2), 50e6);  // prev_rtt_ps: an RTT above T_low was seen
  EXPECT_LT(o.queue_p99, of("fixed_rate").queue_p99);
  EXPECT_EQ(o.pfc_frames, 0u);
  EXPECT_EQ(o.cnp_sent, 0u);  // RTT feedback only: no CNP on the wire
  EXPECT_GT(o.goodput_gbps, 70.0);
}

// DCTCP cuts on ECN echoes (BECN on ACKs for marked data), with no CNPs at all. Under the
// tuning guide's WRED (5 % at most below Kmax) the echoes are too few to hold the queue
// below the PFC point, but it pauses less than no congestion control and shares fairly.
TEST_F(Algorithms, DctcpCutsOnEchoes) {
  const Outcome& o = of("dctcp");
  EXPECT_GT(o.marked, 0u);
  EXPECT_EQ(o.cnp_sent, 0u);
  EXPECT_LT(o.lowest_rate, Rate::gbps(50));
  EXPECT_LT(o.pfc_frames, of("fixed_rate").pfc_frames);
  EXPECT_GT(o.goodput_gbps, of("fixed_rate").goodput_gbps);
  EXPECT_GT(results::to_json(report("dctcp").summary)["totals"]["jain_fairness"].get<double>(), 0.95);
}

// Swift's windows hold the queue near its target delay (a few microseconds): far below
// the ECN thresholds, no marks, no PFC, the link still full.
TEST_F(Algorithms, SwiftHoldsTheQueueNearItsTargetDelay) {
  const Outcome& o = of("swift");
  EXPECT_LT(o.queue_p99, 150'000u);  // below WRED's Kmin
  EXPECT_EQ(o.marked, 0u);
  EXPECT_EQ(o.pfc_frames, 0u);
  EXPECT_EQ(o.cnp_sent, 0u);
  EXPECT_GT(o.goodput_gbps, 90.0);
}

// HPCC (SIGCOMM'19) aims at near-empty queues: it paces each flow from the INT records of the
// bottleneck: the queue stays far below DCQCN's, which stands in the ECN ramp, without PFC
// or CNPs, and the link stays nearly full (eta = 95 %). INT is the only feedback it gets:
// without records it would run at the line rate as fixed_rate does.
TEST_F(Algorithms, HpccKeepsTheQueueNearEmpty) {
  const Outcome& o = of("hpcc");
  EXPECT_LT(o.queue_p99 * 10, of("dcqcn").queue_p99);
  EXPECT_LT(o.queue_p99, 100'000u);
  EXPECT_EQ(o.pfc_frames, 0u);
  EXPECT_EQ(o.cnp_sent, 0u);
  EXPECT_LT(o.lowest_rate, Rate::gbps(50));
  EXPECT_GT(o.goodput_gbps, 82.0);  // measured 85.4 (DCQCN 88.8, fixed_rate 80.4)
  EXPECT_GT(results::to_json(report("hpcc").summary)["totals"]["jain_fairness"].get<double>(), 0.99);
}

// With DCTCP's own marking (step at K) instead of WRED, DCTCP holds the queue near K.
TEST(AlgorithmsWithAqm, DctcpWithStepMarkingHoldsTheQueueNearK) {
  const Outcome o = outcome(incast("dctcp", {"switch.aqm=\"step\"", "switch.step.k_threshold=\"100KB\""}));
  EXPECT_GT(o.marked, 0u);
  EXPECT_EQ(o.pfc_frames, 0u);
  EXPECT_LT(o.queue_p99, 400'000u);
  EXPECT_GT(o.goodput_gbps, 90.0);
}

// PIE (RFC 8033) at data-centre scale (QDELAY_REF 20 us, updates every 10 us, alpha and beta
// scaled up by 10^5) holds DCQCN's queue near its delay target (20 us is 250 KB at 100 Gb/s),
// where WRED's ramp (150 KB to 1.2 MB at 5 %) lets it stand at about 1.4 MB.
TEST(AlgorithmsWithAqm, DcqcnWithPieHoldsTheQueueNearTheDelayTarget) {
  const Outcome o = outcome(incast("dcqcn", {"switch.aqm=\"pie\"", "switch.pie.qdelay_ref=\"20us\"",
                                             "switch.pie.t_update=\"10us\"", "switch.pie.max_burst=\"20us\"",
                                             "switch.pie.alpha=12500", "switch.pie.beta=125000"}));
  EXPECT_GT(o.marked, 0u);
  EXPECT_GT(o.cnp_sent, 0u);
  EXPECT_EQ(o.pfc_frames, 0u);
  EXPECT_LT(o.queue_p99, 600'000u);
  EXPECT_GT(o.goodput_gbps, 90.0);
}

}  // namespace
}  // namespace rtb::testbed
