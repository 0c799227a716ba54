// [switch] QoS maps (DSCP_TO_TC_MAP, DOT1P_TO_TC_MAP, TC_TO_PRIORITY_GROUP_MAP, trust):
// reading, SONiC's replace-the-whole-map semantics, errors at their keys, and the warnings
// for a lossless class its DSCP does not reach.
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

std::string with(const std::string& text) { return std::string(kSmall) + text; }

bool any_warning(const Scenario& s, const std::string& part) {
  for (const std::string& w : s.warnings) {
    if (w.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(QosMaps, DefaultsAreSonicsAndShowInTheEffectiveConfiguration) {
  const Scenario s = load_ok(kSmall);
  const sw::QosMaps& m = config(s).maps;
  const sw::QosMaps d = sw::default_qos_maps();
  EXPECT_EQ(m.dscp_to_tc, d.dscp_to_tc);
  EXPECT_EQ(m.dot1p_to_tc, d.dot1p_to_tc);
  EXPECT_EQ(m.tc_to_pg, d.tc_to_pg);
  EXPECT_TRUE(m.trust_dot1p_when_tagged);
  const auto& e = s.effective["topology"]["switches"][0]["qos_maps"];
  EXPECT_EQ(e["trust"], "dot1p");
  EXPECT_EQ(e["dscp_to_tc"].size(), 64u);
  EXPECT_EQ(e["dscp_to_tc"][26], 3);
  EXPECT_EQ(e["dscp_to_tc"][24], 0);
  EXPECT_EQ(e["dot1p_to_tc"][5], 5);
  EXPECT_EQ(e["tc_to_pg"][4], 4);
}

TEST(QosMaps, AGivenMapReplacesTheDefaultAndUnlistedEntriesGoToZero) {
  const Scenario s = load_ok(with(R"(
[switch]
trust = "dscp"
pfc_enable = [3]
[switch.dscp_to_tc_map]
"24" = 3
"63" = 7
[switch.dot1p_to_tc_map]
"3" = 3
"7" = 1
[switch.tc_to_pg_map]
"3" = 3
"6" = 2
)"));
  const sw::QosMaps& m = config(s).maps;
  EXPECT_EQ(m.dscp_to_tc[24], 3);
  EXPECT_EQ(m.dscp_to_tc[63], 7);
  EXPECT_EQ(m.dscp_to_tc[26], 0);  // SONiC: the map lists every DSCP it maps
  EXPECT_EQ(m.dscp_to_tc[46], 0);
  EXPECT_EQ(m.dot1p_to_tc[3], 3);
  EXPECT_EQ(m.dot1p_to_tc[7], 1);
  EXPECT_EQ(m.dot1p_to_tc[4], 0);
  EXPECT_EQ(m.tc_to_pg[6], 2);
  EXPECT_EQ(m.tc_to_pg[4], 0);
  EXPECT_FALSE(m.trust_dot1p_when_tagged);
  EXPECT_EQ(s.effective["topology"]["switches"][0]["qos_maps"]["trust"], "dscp");
  EXPECT_EQ(s.effective["topology"]["switches"][0]["qos_maps"]["dscp_to_tc"][24], 3);
}

TEST(QosMaps, BadKeysAndValuesFailAtTheirKeys) {
  EXPECT_EQ(load_error(with("[switch.dscp_to_tc_map]\n\"64\" = 3\n")),
            "t.toml:6: switch.dscp_to_tc_map.64: is not a DSCP: expected a DSCP \"0\" ... \"63\" as the key");
  EXPECT_THAT(load_error(with("[switch.dscp_to_tc_map]\n\"026\" = 3\n")),
              StartsWith("t.toml:6: switch.dscp_to_tc_map.026: is not a DSCP"));
  EXPECT_THAT(load_error(with("[switch.dot1p_to_tc_map]\nx = 3\n")),
              StartsWith("t.toml:6: switch.dot1p_to_tc_map.x: is not a PCP: expected a PCP \"0\" ... \"7\""));
  EXPECT_EQ(load_error(with("[switch.dscp_to_tc_map]\n\"26\" = 8\n")),
            "t.toml:6: switch.dscp_to_tc_map.26: 8 is out of range: expected 0..7");
  EXPECT_THAT(load_error(with("[switch.tc_to_pg_map]\n\"3\" = \"3\"\n")),
              StartsWith("t.toml:6: switch.tc_to_pg_map.3: '3'"));
  EXPECT_EQ(load_error(with("[switch]\ntrust = \"pcp\"\n")),
            "t.toml:6: switch.trust: 'pcp' is not allowed: expected one of 'dscp', 'dot1p'");
  EXPECT_THAT(load_error(with("[switch]\ndscp_to_tc_maps = { \"26\" = 3 }\n")),
              StartsWith("t.toml:6: unknown key 'switch.dscp_to_tc_maps' (did you mean 'switch.dscp_to_tc_map'?)"));
  EXPECT_THAT(load_error(with("[switch]\ndscp_to_tc_map = 3\n")), StartsWith("t.toml:6: switch.dscp_to_tc_map: "));
}

TEST(QosMaps, ALosslessTcNoDscpReachesIsWarnedWhenTrustIsDscp) {
  const std::string maps = "[switch.dscp_to_tc_map]\n\"26\" = 3\n";
  const Scenario dscp = load_ok(with("[switch]\ntrust = \"dscp\"\n" + maps));
  EXPECT_TRUE(any_warning(dscp, "switch sw0: PORT_QOS_MAP pfc_enable: lossless TC 4 receives no traffic: no DSCP maps "
                                "to it in DSCP_TO_TC_MAP (trust dscp)"));
  EXPECT_FALSE(any_warning(dscp, "lossless TC 3 receives no traffic"));
  const Scenario dot1p = load_ok(with("[switch]\ntrust = \"dot1p\"\n" + maps));  // tagged frames reach TC 4
  EXPECT_FALSE(any_warning(dot1p, "receives no traffic"));
  EXPECT_FALSE(any_warning(load_ok(kSmall), "receives no traffic"));
}

TEST(QosMaps, ALosslessClassWhoseDscpMapsToAQueueWithoutPfcIsFlagged) {
  const std::string flows = "[[traffic]]\npattern = \"incast\"\nreceiver = \"h3\"\nsenders = 2\ndscp = 24\n";
  const Scenario bad = load_ok(with(flows));
  EXPECT_TRUE(any_warning(bad, "traffic[0]: dscp 24 maps to TC 0 (switch.dscp_to_tc_map), which has no PFC "
                               "(switch.pfc_enable = [3, 4]): a lossless class whose DSCP maps to a queue "
                               "without PFC"));
  const Scenario good = load_ok(with("[switch.dscp_to_tc_map]\n\"24\" = 3\n" + flows));
  EXPECT_FALSE(any_warning(good, "maps to TC"));
  const Scenario no_pfc = load_ok(with("[switch]\npfc_enable = []\n" + flows));
  EXPECT_FALSE(any_warning(no_pfc, "maps to TC"));
}

}  // namespace
}  // namespace rtb::scenario
