// The checks refuse bad sets, each with its arithmetic.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "plan/checks.h"
#include "plan/fabric.h"
#include "plan/planner.h"
#include "plan/threshold_set.h"

namespace rtb::plan {
namespace {

using ::testing::HasSubstr;

sw::SwitchConfig planned(Fabric f = {}) {
  auto p = make_plan(switch_config(f));
  EXPECT_TRUE(p.ok());
  return p.value().config;
}

const Check& find(const std::vector<Check>& checks, const std::string& what) {
  for (const Check& c : checks) {
    if (c.what == what) return c;
  }
  ADD_FAILURE() << "no check '" << what << "' in:\n" << describe(checks);
  static const Check none;
  return none;
}

TEST(Checks, ThePlannedSetPasses) {
  const std::vector<Check> checks = check_thresholds(planned());
  EXPECT_FALSE(any_failed(checks)) << describe(checks);
  for (const Check& c : checks) EXPECT_EQ(c.result, Check::Result::kOk) << c.what << ": " << c.arithmetic;
}

// The tuning guides' set (design.md: Kmin 150 KB, Kmax 1.2 MB, XOFF 2.4 MB, headroom
// 1.6 MB on 4 MB) on 9 ports: ECN is ordered and below XOFF, but 18 PGs x 2.4 MB =
// 43.2 MB against 4 MB - 1.6 MB = 2.4 MB shared: one PG at XOFF empties the pool.
TEST(Checks, TuningGuideSetRunsOutOfSharedPool) {
  Fabric f;
  f.ports = 9;
  const std::vector<Check> checks = check_thresholds(sw::tuning_guide_config(9, Rate::gbps(100)));
  EXPECT_EQ(find(checks, "ECN min < ECN max").result, Check::Result::kOk);
  EXPECT_EQ(find(checks, "ECN max < XOFF").arithmetic.substr(0, 23), "1200000 B < 2400000 B (");
  const Check& pool = find(checks, "the shared pool cannot run out before a PG reaches XOFF");
  EXPECT_EQ(pool.result, Check::Result::kFail);
  EXPECT_THAT(pool.arithmetic, HasSubstr("18 PGs (9 ports x 2) x static_th 2400000 B = 43200000 B > 2400000 B shared"));
  EXPECT_THAT(pool.arithmetic, HasSubstr("the pool is empty once 1 PG(s) are at XOFF"));
  EXPECT_TRUE(any_failed(checks));
}

TEST(Checks, InvertedEcnAndEcnAboveXoffFail) {
  sw::SwitchConfig c = planned();
  c.wred[3]->green_min_threshold = Bytes(300'000);
  c.wred[3]->green_max_threshold = Bytes(200'000);
  std::vector<Check> checks = check_thresholds(c);
  EXPECT_EQ(find(checks, "ECN min < ECN max").result, Check::Result::kFail);
  EXPECT_EQ(find(checks, "ECN min < ECN max").arithmetic, "300000 B < 200000 B");
  c.wred[3]->green_max_threshold = Bytes(600'000);  // XOFF point 455168 B (planner_test)
  checks = check_thresholds(c);
  EXPECT_EQ(find(checks, "ECN max < XOFF").result, Check::Result::kFail);
  EXPECT_THAT(find(checks, "ECN max < XOFF").arithmetic, HasSubstr("600000 B < 455168 B"));
}

// 20 KB of headroom at 100G over 7 m, which needs 44800 B: refused, term by term.
TEST(Checks, HeadroomBelowTheCablesNeedFailsWithTheTerms) {
  sw::SwitchConfig c = planned();
  for (int pg : {3, 4}) c.pg[pg].xoff = Bytes(20'000);
  const std::vector<Check> checks = check_thresholds(c);
  const Check& h = find(checks, "headroom >= the cable's need");
  EXPECT_EQ(h.result, Check::Result::kFail);
  EXPECT_THAT(h.arithmetic, HasSubstr("20000 B < 44800 B on port Ethernet0 (NVIDIA mlx5 56667 B, SONiC 45056 B)"));
  EXPECT_THAT(h.arithmetic, HasSubstr("394 pause quanta x 512 bit / 8 at 100 Gb/s"));
}

// A headroom pool below 64 x 44800 B is over-subscribed (a warning: SONiC does it on
// purpose); below one PG's need it fails.
TEST(Checks, SmallHeadroomPoolWarnsThenFails) {
  sw::SwitchConfig c = planned();
  c.pool.xoff = Bytes(716'800);
  const std::vector<Check> checks = check_thresholds(c);
  const Check& warn = find(checks, "the headroom pool holds every PG's headroom");
  EXPECT_EQ(warn.result, Check::Result::kWarn);
  EXPECT_THAT(warn.arithmetic, HasSubstr("716800 B < 64 PGs x 44800 B needed = 2867200 B: lossless only while at "
                                         "most 16 PG(s) use their headroom at once (over-subscribed 4.00:1)"));
  c.pool.xoff = Bytes(25'600);
  EXPECT_EQ(find(check_thresholds(c), "the headroom pool holds every PG's headroom").result, Check::Result::kFail);
}

TEST(Checks, XonAtOrAboveXoffFailsAndWithinAFrameWarns) {
  sw::SwitchConfig c = planned();
  for (int pg : {3, 4}) c.pg[pg].xon_offset = Bytes(455'168);
  const std::vector<Check> checks = check_thresholds(c);
  EXPECT_EQ(find(checks, "XON one frame or more below XOFF").result, Check::Result::kFail);
  EXPECT_EQ(find(checks, "the switch's own validation").result, Check::Result::kFail);  // validate() agrees
  for (int pg : {3, 4}) c.pg[pg].xon_offset = Bytes(1'024);
  const std::vector<Check> flapping = check_thresholds(c);
  const Check& w = find(flapping, "XON one frame or more below XOFF");
  EXPECT_EQ(w.result, Check::Result::kWarn);
  EXPECT_THAT(w.arithmetic, HasSubstr("MTU 9216 B <= xon_offset 1024 B < XOFF 455168 B: one frame crosses both"));
}

// A dynamic threshold cannot empty the pool: each of N PGs stops at alpha S / (1 + N alpha).
TEST(Checks, DynamicThresholdCannotExhaustThePool) {
  sw::SwitchConfig c = planned();
  for (int pg : {3, 4}) {
    c.pg[pg].mode = sw::ThresholdMode::kDynamic;
    c.pg[pg].dynamic_th = 0;
  }
  const std::vector<Check> checks = check_thresholds(c);
  const Check& pool = find(checks, "the shared pool cannot run out before a PG reaches XOFF");
  EXPECT_EQ(pool.result, Check::Result::kOk);
  // alpha 1, S = 29132800, N = 64: 29132800 / 65 = 448197 B each.
  EXPECT_THAT(pool.arithmetic, HasSubstr("= 448197 B, together"));
}

// Given thresholds reach every lossless PG and TC, and only those; a static_th replaces a
// dynamic threshold.
TEST(ThresholdSet, AppliesToEveryLosslessClassOnly) {
  sw::SwitchConfig c = planned();
  c.pg[4].mode = sw::ThresholdMode::kDynamic;
  ThresholdSet t;
  EXPECT_TRUE(t.empty());
  t.kmax = Bytes(300'000);
  t.pmax_percent = 7;
  t.xoff_threshold = Bytes(400'000);
  t.headroom_pool = Bytes(1'000'000);
  EXPECT_FALSE(t.empty());
  apply(t, c);
  for (int q : {3, 4}) {
    EXPECT_EQ(c.wred[q]->green_max_threshold, Bytes(300'000));
    EXPECT_EQ(c.wred[q]->green_drop_probability, 7u);
    EXPECT_EQ(c.pg[q].mode, sw::ThresholdMode::kStatic);
    EXPECT_EQ(c.pg[q].static_th, Bytes(400'000));
    EXPECT_EQ(c.pg[q].xoff, Bytes(44'800));  // not given: the plan's
  }
  EXPECT_FALSE(c.wred[0].has_value());
  EXPECT_EQ(c.pg[0].mode, sw::ThresholdMode::kDynamic);
  EXPECT_EQ(c.pool.xoff, Bytes(1'000'000));
}

}  // namespace
}  // namespace rtb::plan
