// A realtime run placed on two lcores (lib/testbed/README.md, one owner per piece of
// state): of the default incast's eight senders, h0-h3 on lcore 0 and h4-h7 with the
// switch and the receiver h8 on lcore 1. The flows from h0-h3 are sampled in two parts
// (sender on 0, receiver on 1), the others whole on lcore 1, and a "set" command must
// reach the senders' controllers on both lcores. One EAL for the binary, main lcore 0 and worker lcore 1.
// scripts/tsan.sh runs this binary built with ThreadSanitizer.
//
// The assertions are functional (what the samples and commands say), never about speed:
// on a shared machine the run may be starved and report itself invalid, which changes
// nothing here.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "cc_algos/registry.h"
#include "scenario/load.h"
#include "results/summary_json.h"
#include "testbed/run.h"
#include "tests/testbed/test_util.h"

namespace rtb::testbed {
namespace {

using nlohmann::ordered_json;
using testing::source_root;

constexpr uint32_t kFlows = 8;

Expected<RunReport> run_on_two_lcores() {
  auto s = scenario::load_scenario(
      source_root() + "/scenarios/default.toml",
      {"run.clock=\"realtime\"", "run.duration=1ms", "run.warmup=100us", "run.sample_interval=20us",
       "realtime.dilation=2000", "realtime.lcores=[0, 1]", "realtime.place={ h4 = 1, h5 = 1, h6 = 1, h7 = 1, h8 = 1, sw0 = 1 }",
       "realtime.commands=[{ at = \"200us\", command = \"set rp_ai_rate 50000\" }, "
       "{ at = \"400us\", command = \"set rp_hai_rate 100000\" }]"});
  if (!s) return Error{s.error().message};
  cc::Registry registry = cc::Registry::with_builtins();
  return run_realtime(s.value(), registry, "lcores_run_test");
}

class TwoLcores : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto r = run_on_two_lcores();
    ASSERT_TRUE(r.ok()) << r.error().message;  // includes the mbuf leak check
    report_ = new RunReport(std::move(r).value());
  }
  static void TearDownTestSuite() { delete report_; }
  static RunReport* report_;
};
RunReport* TwoLcores::report_ = nullptr;

TEST_F(TwoLcores, EachLcoreSamplesItsOwnStagesIntoItsOwnChannel) {
  ASSERT_NE(report_, nullptr);
  const ordered_json& lcores = report_->run["sampling"]["lcores"];
  ASSERT_EQ(lcores.size(), 2u) << lcores.dump();
  for (size_t i = 0; i < 2; ++i) {
    SCOPED_TRACE(lcores[i].dump());
    EXPECT_EQ(lcores[i]["lcore"], i);
    EXPECT_GT(lcores[i]["flow_samples"].get<uint64_t>(), 0u);
    EXPECT_EQ(lcores[i]["flow_samples_lost"], 0);
  }
  // Lcore 0 samples the sender parts of h0-h3's flows, lcore 1 the receiver parts of those
  // and h4-h7's flows whole: twice as many.
  const uint64_t on0 = lcores[0]["flow_samples"], on1 = lcores[1]["flow_samples"];
  EXPECT_NEAR(static_cast<double>(on1), 2.0 * static_cast<double>(on0), 8.0) << on0 << " " << on1;
  EXPECT_EQ(lcores[0]["queue_samples"], 0);  // the switch is on lcore 1
  EXPECT_GT(lcores[1]["queue_samples"].get<uint64_t>(), 0u);
  EXPECT_EQ(report_->run["samples_lost"], 0);
}

// The joined series reads as one sampler's: by sample, then flow; each sample whole.
TEST_F(TwoLcores, FlowSamplesAreJoinedWholeAndInOneSamplersOrder) {
  ASSERT_NE(report_, nullptr);
  const std::vector<FlowSample>& v = report_->flow_samples;
  ASSERT_GE(v.size(), 10u * kFlows);
  std::vector<uint64_t> last_bytes(kFlows, 0);
  for (size_t i = 0; i < v.size(); ++i) {
    SCOPED_TRACE("sample " + std::to_string(i));
    EXPECT_EQ(v[i].parts, FlowSample::kSenderPart | FlowSample::kReceiverPart);
    EXPECT_EQ(v[i].flow, i % kFlows);  // no sample of a tick missing in the middle
    if (i > 0) {
      EXPECT_LT(std::tie(v[i - 1].tick, v[i - 1].flow), std::tie(v[i].tick, v[i].flow));
    }
    EXPECT_GT(v[i].cc_rate.bps(), 0u);      // the sender's part
    EXPECT_GT(v[i].cc_state_count, 0u);
    EXPECT_GE(v[i].bytes_received, last_bytes[v[i].flow]);  // the receiver's part
    last_bytes[v[i].flow] = v[i].bytes_received;
  }
  for (uint32_t f = 0; f < kFlows; ++f) EXPECT_GT(last_bytes[f], 0u) << "flow " << f;
  EXPECT_LE(report_->run["sampling"]["incomplete_flow_samples"].get<uint64_t>(), kFlows);
}

TEST_F(TwoLcores, QueueSamplesAreInOneSamplersOrder) {
  ASSERT_NE(report_, nullptr);
  const std::vector<QueueSample>& q = report_->queue_samples;
  ASSERT_FALSE(q.empty());
  for (size_t i = 1; i < q.size(); ++i) {
    EXPECT_LT(std::tie(q[i - 1].tick, q[i - 1].sw, q[i - 1].port, q[i - 1].queue),
              std::tie(q[i].tick, q[i].sw, q[i].port, q[i].queue)) << "sample " << i;
  }
}

TEST_F(TwoLcores, ASetCommandIsAdoptedOnEveryLcoreThatHoldsHosts) {
  ASSERT_NE(report_, nullptr);
  const ordered_json& cmds = report_->run["commands"];
  ASSERT_EQ(cmds.size(), 2u);
  for (const auto& c : cmds) {
    EXPECT_TRUE(c["applied"].get<bool>()) << c.dump();
    EXPECT_EQ(c["applied_on_lcores"], ordered_json::array({0, 1})) << c.dump();
  }
}

TEST_F(TwoLcores, TheSummaryHasEveryFlowAndTheSwitchQueueStatistics) {
  ASSERT_NE(report_, nullptr);
  const ordered_json s = results::to_json(report_->summary);
  ASSERT_EQ(s["flows"].size(), kFlows);
  for (const auto& f : s["flows"]) EXPECT_GT(f["bytes_total"].get<uint64_t>(), 0u) << f.dump();
  ASSERT_EQ(s["switches"].size(), 1u);
  EXPECT_TRUE(s["switches"][0]["ports"][0].contains("queue_bytes"));
}

}  // namespace
}  // namespace rtb::testbed
