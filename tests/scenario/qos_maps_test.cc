// [switch] QoS maps (DSCP_TO_TC_MAP, DOT1P_TO_TC_MAP, TC_TO_PRIORITY_GROUP_MAP,
// TC_TO_QUEUE_MAP, trust, pfc_enable) and a port's own ([switch.port_qos."EthernetN"]):
// reading, SONiC's replace-the-whole-map semantics, errors at their keys, and the warnings
// for a lossless class its DSCP does not reach; the hosts' DSCP from NCCL_IB_TC.
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

TEST(QosMaps, TcToQueueMapIsReadAndShownAndDefaultsToTheIdentity) {
  const Scenario d = load_ok(kSmall);
  for (int tc = 0; tc < sw::kPriorities; ++tc) EXPECT_EQ(config(d).maps.tc_to_queue[tc], tc);
  const Scenario s = load_ok(with("[switch.tc_to_queue_map]\n\"3\" = 3\n\"4\" = 4\n\"6\" = 1\n"));
  EXPECT_EQ(config(s).maps.tc_to_queue[6], 1);
  EXPECT_EQ(config(s).maps.tc_to_queue[3], 3);
  EXPECT_EQ(config(s).maps.tc_to_queue[5], 0);  // unlisted: 0, as SONiC
  EXPECT_EQ(s.effective["topology"]["switches"][0]["qos_maps"]["tc_to_queue"][6], 1);
  EXPECT_EQ(load_error(with("[switch.tc_to_queue_map]\n\"8\" = 3\n")),
            "t.toml:6: switch.tc_to_queue_map.8: is not a traffic class: expected a traffic class \"0\" ... \"7\" as "
            "the key");
  EXPECT_EQ(load_error(with("[switch.tc_to_queue_map]\n\"3\" = 9\n")),
            "t.toml:6: switch.tc_to_queue_map.3: 9 is out of range: expected 0..7");
}

TEST(QosMaps, PfcEnableTakesSonicsStringOrAList) {
  EXPECT_EQ(config(load_ok(with("[switch]\npfc_enable = \"3,5\"\n"))).pfc_enable, (1u << 3) | (1u << 5));
  EXPECT_EQ(config(load_ok(with("[switch]\npfc_enable = [3, 5]\n"))).pfc_enable, (1u << 3) | (1u << 5));
  EXPECT_EQ(config(load_ok(with("[switch]\npfc_enable = \"\"\n"))).pfc_enable, 0u);
  EXPECT_EQ(load_error(with("[switch]\npfc_enable = \"3;4\"\n")),
            "t.toml:6: switch.pfc_enable: '3;4' is not a list of priorities: expected \"3,4\" or [3, 4] (priorities "
            "0..7)");
  EXPECT_THAT(load_error(with("[switch]\npfc_enable = \"3,8\"\n")), StartsWith("t.toml:6: switch.pfc_enable: '3,8' "));
}

TEST(QosMaps, APortsOwnMapsApplyToThatPortOfEverySwitchOnly) {
  const Scenario s = load_ok(with(R"(
[switch.port_qos."Ethernet4"]
trust = "dscp"
pfc_enable = "3"
[switch.port_qos."Ethernet4".dscp_to_tc_map]
"24" = 3
)"));
  const sw::SwitchConfig& c = config(s);
  ASSERT_TRUE(c.ports[1].maps.has_value());
  EXPECT_EQ(c.ports[1].maps->dscp_to_tc[24], 3);
  EXPECT_EQ(c.ports[1].maps->dscp_to_tc[26], 0);        // the port's map replaces the switch's
  EXPECT_EQ(c.ports[1].maps->tc_to_queue, c.maps.tc_to_queue);  // maps it does not give: the switch's
  EXPECT_FALSE(c.ports[1].maps->trust_dot1p_when_tagged);
  EXPECT_EQ(c.port_pfc_enable(1), 1u << 3);
  EXPECT_FALSE(c.ports[0].maps.has_value());
  EXPECT_EQ(&c.port_maps(0), &c.maps);
  EXPECT_EQ(c.port_pfc_enable(0), (1u << 3) | (1u << 4));
  const auto& ports = s.effective["topology"]["switches"][0]["ports"];
  EXPECT_EQ(ports[1]["qos_maps"]["dscp_to_tc"][24], 3);
  EXPECT_EQ(ports[1]["qos_maps"]["trust"], "dscp");
  EXPECT_EQ(ports[1]["pfc_enable"], nlohmann::json::array({3}));
  EXPECT_FALSE(ports[0].contains("qos_maps"));
}

TEST(QosMaps, PortQosErrorsAreOneLineAtTheirKeys) {
  EXPECT_EQ(load_error(with("[switch.port_qos.\"Ethrnet4\"]\ntrust = \"dscp\"\n")),
            "t.toml:5: switch.port_qos.Ethrnet4: no switch has a port of that name: expected one of Ethernet0, "
            "Ethernet4, Ethernet8, Ethernet12 (did you mean 'Ethernet4'?)");
  EXPECT_THAT(load_error(with("[switch.port_qos.\"Ethernet4\"]\ntrusts = \"dscp\"\n")),
              StartsWith("t.toml:6: unknown key 'switch.port_qos.Ethernet4.trusts' (did you mean "
                         "'switch.port_qos.Ethernet4.trust'?)"));
  EXPECT_EQ(load_error(with("[switch.port_qos.\"Ethernet4\"]\ntc_to_queue_map = { \"3\" = 8 }\n")),
            "t.toml:6: switch.port_qos.Ethernet4.tc_to_queue_map.3: 8 is out of range: expected 0..7");
  EXPECT_THAT(load_error(with("[switch.port_qos]\nEthernet4 = 3\n")),
              StartsWith("t.toml:6: switch.port_qos.Ethernet4: "));
  // A lossless TC of the port in a PG whose buffer profile is lossy (pg5: no lossless TC
  // maps to it in [switch]).
  EXPECT_THAT(load_error(with("[switch.port_qos.\"Ethernet4\"]\ntc_to_pg_map = { \"3\" = 5, \"4\" = 4 }\n")),
              StartsWith("t.toml:6: switch.port_qos.Ethernet4.tc_to_pg_map: lossless TC 3 maps to pg5, whose buffer "
                         "profile is lossy"));
  EXPECT_THAT(load_error(with("[switch.port_qos.\"Ethernet4\"]\npfc_enable = [3, 5]\n")),
              StartsWith("t.toml:6: switch.port_qos.Ethernet4.pfc_enable: lossless TC 5 maps to pg5"));
}

TEST(QosMaps, ALosslessTcInAQueueItsPfcDoesNotPauseIsFlagged) {
  const std::string flows = "[[traffic]]\npattern = \"incast\"\nreceiver = \"h3\"\nsenders = 2\n";
  const Scenario bad = load_ok(with("[switch.tc_to_queue_map]\n\"3\" = 1\n\"4\" = 4\n" + flows));
  EXPECT_TRUE(any_warning(bad, "traffic[0]: dscp 26 maps to TC 3 and TC 3 to queue 1 (switch.tc_to_queue_map), "
                               "which the PFC of TC 3's priority group (pg3) does not pause: PFC for priority n "
                               "pauses queue n: a lossless class whose DSCP maps to a queue without PFC"));
  // The switch's own check, with or without flows.
  EXPECT_TRUE(any_warning(bad, "switch sw0: TC_TO_QUEUE_MAP 3 = 1: lossless TC 3 goes to queue 1, which the PFC of "
                               "its priority group pg3 does not pause (PFC for priority n pauses queue n)"));
  const Scenario port = load_ok(with("[switch.port_qos.\"Ethernet4\"]\ntc_to_queue_map = { \"3\" = 3 }\n"));
  EXPECT_TRUE(any_warning(port, "PORT_QOS_MAP|Ethernet4 TC_TO_QUEUE_MAP 4 = 0: lossless TC 4 goes to queue 0"));
  const Scenario good = load_ok(with("[switch.tc_to_queue_map]\n\"3\" = 3\n\"4\" = 4\n\"6\" = 1\n" + flows));
  EXPECT_FALSE(any_warning(good, "queue without PFC"));
}

TEST(QosMaps, APortsOwnMapSendingALosslessDscpOffPfcIsFlaggedAtThatPort) {
  const std::string flows = "[[traffic]]\npattern = \"incast\"\nreceiver = \"h3\"\nsenders = 2\n";
  const Scenario bad = load_ok(with("[switch.port_qos.\"Ethernet8\"]\ndscp_to_tc_map = { \"26\" = 1 }\n" + flows));
  EXPECT_TRUE(any_warning(bad, "traffic[0]: dscp 26 maps to TC 1 at port Ethernet8 "
                               "(switch.port_qos.Ethernet8.dscp_to_tc_map), which has no PFC (switch.pfc_enable = "
                               "[3, 4]): a lossless class"));
  const Scenario pfc = load_ok(with("[switch.port_qos.\"Ethernet8\"]\npfc_enable = [4]\n" + flows));
  EXPECT_TRUE(any_warning(pfc, "traffic[0]: dscp 26 maps to TC 3 at port Ethernet8 (switch.dscp_to_tc_map), which "
                               "has no PFC (switch.port_qos.Ethernet8.pfc_enable = [4])"));
}

TEST(QosMaps, TheSwitchsMapsAreNotCheckedWhenEveryPortHasItsOwn) {
  std::string text = "[switch.dscp_to_tc_map]\n\"26\" = 0\n";  // unused: every port maps 26 itself
  for (int p = 0; p < 4; ++p) {
    text += "[switch.port_qos.\"Ethernet" + std::to_string(4 * p) + "\"]\ndscp_to_tc_map = { \"26\" = 3 }\n";
  }
  const std::string flows = "[[traffic]]\npattern = \"incast\"\nreceiver = \"h3\"\nsenders = 2\n";
  EXPECT_FALSE(any_warning(load_ok(with(text + flows)), "a lossless class whose DSCP maps to a queue without PFC"));
}

TEST(QosMaps, NcclIbTcIsTheTosByteAndGivesTheDscp) {
  const std::string flows = "[[traffic]]\npattern = \"incast\"\nreceiver = \"h3\"\nsenders = 2\n";
  const Scenario s = load_ok(with("[host]\nnccl_ib_tc = 104\n" + flows));
  ASSERT_FALSE(s.flows.empty());
  for (const Flow& f : s.flows) EXPECT_EQ(f.dscp, 26);
  EXPECT_EQ(load_ok(with("[host]\nnccl_ib_tc = 96\n" + flows)).flows[0].dscp, 24);
  EXPECT_EQ(load_ok(with("[host]\ndscp = 24\n" + flows)).flows[0].dscp, 24);
  EXPECT_EQ(load_ok(with("[host]\nnccl_ib_tc = 96\n" + flows + "nccl_ib_tc = 160\n")).flows[0].dscp, 40);
  EXPECT_EQ(load_ok(with("[host]\nnccl_ib_tc = 96\n" + flows + "dscp = 10\n")).flows[0].dscp, 10);
  EXPECT_EQ(load_error(with("[host]\nnccl_ib_tc = 105\n")),
            "t.toml:6: host.nccl_ib_tc: 105 sets the ECN bits of the ToS byte (105 & 3 = 1): expected a multiple of "
            "4, DSCP x 4 (such as 104 for DSCP 26); the NIC sets ECN itself");
  EXPECT_EQ(load_error(with("[host]\ndscp = 26\nnccl_ib_tc = 104\n")),
            "t.toml:7: host.nccl_ib_tc: host.dscp and host.nccl_ib_tc are both given: expected one of them "
            "(nccl_ib_tc 104 is DSCP 26)");
  EXPECT_THAT(load_error(with(flows + "dscp = 26\nnccl_ib_tc = 104\n")),
              StartsWith("t.toml:10: traffic[0].nccl_ib_tc: traffic[0].dscp and traffic[0].nccl_ib_tc are both given"));
  EXPECT_EQ(load_error(with("[host]\nnccl_ib_tc = 256\n")),
            "t.toml:6: host.nccl_ib_tc: 256 is out of range: expected 0..255");
}

}  // namespace
}  // namespace rtb::scenario
