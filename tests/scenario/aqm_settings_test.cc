// [switch] AQM keys: a queue's AQM by name, step and PIE parameters, and the errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scenario_test_util.h"

namespace rtb::scenario {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::kSmall;
using testing::load_error;
using testing::load_ok;

const sw::SwitchConfig& config(const Scenario& s) { return s.topology.switches[0].config; }

TEST(AqmSettings, WredByDefaultOnTheLosslessQueues) {
  const Scenario s = load_ok(kSmall);
  const sw::SwitchConfig& c = config(s);
  for (int q = 0; q < sw::kPriorities; ++q) {
    EXPECT_EQ(c.wred[q].has_value(), q == 3 || q == 4) << q;
    EXPECT_FALSE(c.aqm[q].has_value()) << q;
  }
}

TEST(AqmSettings, StepAndPieByNameWithTheirParameters) {
  const Scenario s = load_ok(std::string(kSmall) + R"(
[switch]
aqm = "step"
aqm_by_queue = { "4" = "pie", "6" = "wred", "3" = "step" }
[switch.step]
k_threshold = "100KB"
[switch.pie]
qdelay_ref = "10us"
t_update = "5us"
max_burst = "20us"
alpha = 1250.5
beta = 12500
)");
  const sw::SwitchConfig& c = config(s);
  ASSERT_TRUE(c.aqm[3].has_value());
  EXPECT_EQ(std::get<sw::StepProfile>(*c.aqm[3]).k_threshold, Bytes::kb(100));
  EXPECT_FALSE(c.wred[3].has_value());
  ASSERT_TRUE(c.aqm[4].has_value());
  const auto& pie = std::get<sw::PieProfile>(*c.aqm[4]);
  EXPECT_EQ(pie.qdelay_ref, Time::us(10));
  EXPECT_EQ(pie.t_update, Time::us(5));
  EXPECT_EQ(pie.max_burst, Time::us(20));
  EXPECT_EQ(pie.alpha_hz, 1250.5);
  EXPECT_EQ(pie.beta_hz, 12500.0);
  EXPECT_TRUE(c.wred[6].has_value());  // a queue outside wred_queues given one by name
  EXPECT_FALSE(c.aqm[6].has_value());
  EXPECT_FALSE(c.wred[0].has_value() || c.aqm[0].has_value());
  EXPECT_EQ(s.effective["topology"]["switches"][0]["aqm"][4]["name"], "pie");
}

TEST(AqmSettings, NoneTurnsAQueuesMarkingOff) {
  const Scenario s = load_ok(std::string(kSmall) + "[switch]\naqm_by_queue = { \"3\" = \"none\" }\n");
  const sw::SwitchConfig& c = config(s);
  EXPECT_FALSE(c.wred[3].has_value() || c.aqm[3].has_value());
  EXPECT_TRUE(c.wred[4].has_value());
}

TEST(AqmSettings, ErrorsNameFileLineKeyValueAndWhatIsExpected) {
  EXPECT_EQ(load_error(std::string(kSmall) + "[switch]\naqm = \"codel\"\n"),
            "t.toml:6: switch.aqm: 'codel' is not allowed: expected one of 'wred', 'step', 'pie', 'none'");
  EXPECT_THAT(load_error(std::string(kSmall) + "[switch]\naqm_by_queue = { \"9\" = \"pie\" }\n"),
              StartsWith("t.toml:6: switch.aqm_by_queue.9: is not a queue: expected a queue number"));
  EXPECT_THAT(load_error(std::string(kSmall) + "[switch.pie]\nt_update = \"0s\"\n"),
              StartsWith("t.toml:6: switch.pie.t_update: '0s' is zero: expected a period above 0"));
  EXPECT_THAT(load_error(std::string(kSmall) + "[switch.step]\nk = \"1KB\"\n"),
              StartsWith("t.toml:6: unknown key 'switch.step.k'"));
}

TEST(AqmSettings, AStepThresholdAboveXoffIsWarned) {
  const Scenario s = load_ok(std::string(kSmall) + "[switch]\naqm = \"step\"\n[switch.step]\nk_threshold = \"3MB\"\n");
  ASSERT_FALSE(s.warnings.empty());
  EXPECT_THAT(s.warnings.front(), HasSubstr("STEP queue3 k_threshold = 3000000 B"));
  EXPECT_THAT(s.warnings.front(), HasSubstr("PFC will fire before ECN can act"));
}

}  // namespace
}  // namespace rtb::scenario
