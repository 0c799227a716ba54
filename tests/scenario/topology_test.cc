// Topology generation: counts, port numbering, addresses and routes (ECMP, BFS).
#include <gtest/gtest.h>

#include "scenario/addressing.h"
#include "scenario_test_util.h"

namespace rtb::scenario {
namespace {

using testing::load_ok;

const sw::Route& route_to(const SwitchNode& s, const HostNode& h) {
  for (const sw::Route& r : s.config.routes) {
    if (r.prefix == h.ip) return r;
  }
  throw std::runtime_error("no route");
}

TEST(ScenarioTopology, SingleSwitch) {
  const Scenario s = load_ok(R"([topology]
kind = "single_switch"
hosts = 3
rate = "40Gbps"
cable_length_m = 3
mtu = 4200
)");
  const Topology& t = s.topology;
  ASSERT_EQ(t.switches.size(), 1u);
  ASSERT_EQ(t.hosts.size(), 3u);
  ASSERT_EQ(t.links.size(), 3u);
  const sw::SwitchConfig& c = t.switches[0].config;
  ASSERT_EQ(c.ports.size(), 3u);
  EXPECT_EQ(c.ports[2].name, "Ethernet8");
  EXPECT_EQ(c.ports[1].rate, Rate::gbps(40));
  EXPECT_EQ(c.ports[1].propagation, Time::ns(15));  // 3 m x 5 ns/m
  EXPECT_EQ(c.ports[1].mtu, 4200u);
  EXPECT_EQ(t.hosts[2].link, 2u);
  EXPECT_EQ(t.links[2].b.port, 2);
  EXPECT_EQ(format_ipv4(t.hosts[0].ip), "192.168.1.1");
  EXPECT_EQ(format_ipv4(t.hosts[2].ip), "192.168.1.3");
  EXPECT_EQ(format_mac(t.hosts[2].mac), "02:72:74:00:00:02");
  EXPECT_EQ(t.hosts[2].config.ports[0].ip, t.hosts[2].ip);
  for (uint32_t h = 0; h < 3; ++h) EXPECT_EQ(route_to(t.switches[0], t.hosts[h]).ports, std::vector<uint16_t>{static_cast<uint16_t>(h)});
}

TEST(ScenarioTopology, LeafSpineCountsPortsAndEcmpRoutes) {
  const Scenario s = load_ok(R"([topology]
kind = "leaf_spine"
leaves = 3
spines = 2
hosts_per_leaf = 4
host_rate = "100Gbps"
uplink_rate = "400Gbps"
uplink_cable_length_m = 20
)");
  const Topology& t = s.topology;
  ASSERT_EQ(t.hosts.size(), 12u);
  ASSERT_EQ(t.switches.size(), 5u);
  ASSERT_EQ(t.links.size(), 12u + 6u);
  EXPECT_EQ(t.switches[0].name, "leaf0");
  EXPECT_EQ(t.switches[3].name, "spine0");
  const SwitchNode& leaf1 = t.switches[1];
  ASSERT_EQ(leaf1.config.ports.size(), 6u);
  EXPECT_EQ(leaf1.config.ports[4].rate, Rate::gbps(400));
  EXPECT_EQ(leaf1.config.ports[4].propagation, Time::ns(100));
  EXPECT_EQ(leaf1.config.ports[0].rate, Rate::gbps(100));
  // Leaf 1: its own hosts 4..7 direct on ports 0..3; every other host over both uplinks.
  EXPECT_EQ(route_to(leaf1, t.hosts[5]).ports, (std::vector<uint16_t>{1}));
  EXPECT_EQ(route_to(leaf1, t.hosts[0]).ports, (std::vector<uint16_t>{4, 5}));
  EXPECT_EQ(route_to(leaf1, t.hosts[11]).ports, (std::vector<uint16_t>{4, 5}));
  EXPECT_EQ(leaf1.config.routes.size(), 12u);
  // Spine 1: host h via its leaf, port = leaf index.
  const SwitchNode& spine1 = t.switches[4];
  ASSERT_EQ(spine1.config.ports.size(), 3u);
  EXPECT_EQ(route_to(spine1, t.hosts[0]).ports, (std::vector<uint16_t>{0}));
  EXPECT_EQ(route_to(spine1, t.hosts[9]).ports, (std::vector<uint16_t>{2}));
  // Links: host links first, then uplinks leaf-major.
  EXPECT_EQ(t.links[12 + 3].a.node, (NodeRef{NodeKind::kSwitch, 1}));
  EXPECT_EQ(t.links[12 + 3].b.node, (NodeRef{NodeKind::kSwitch, 4}));
  EXPECT_EQ(t.links[12 + 3].b.port, 1);
  for (const std::string& w : s.warnings) {  // only the tuning guide's static thresholds
    EXPECT_NE(w.find("lets the shared buffer run out before a PG reaches XOFF"), std::string::npos) << w;
  }
}

// A ring of four switches with a host on each: the opposite switch is two hops either way,
// so both directions are equal-cost next hops.
TEST(ScenarioTopology, ExplicitBfsRoutesWithEveryEqualCostNextHop) {
  const Scenario s = load_ok(R"([topology]
kind = "explicit"
hosts = [{ name = "a" }, { name = "b" }, { name = "c", ip = "10.0.0.3" }, { name = "d" }]
switches = [{ name = "s0" }, { name = "s1" }, { name = "s2" }, { name = "s3" }]
links = [
  { a = "a", b = "s0" }, { a = "b", b = "s1" }, { a = "c", b = "s2" }, { a = "d", b = "s3" },
  { a = "s0", b = "s1" }, { a = "s1", b = "s2" }, { a = "s2", b = "s3" }, { a = "s3", b = "s0", delay = "1us" },
]
)");
  const Topology& t = s.topology;
  // s0 ports: 0 host a, 1 -> s1, 2 -> s3 (listed order).
  const SwitchNode& s0 = t.switches[0];
  ASSERT_EQ(s0.config.ports.size(), 3u);
  EXPECT_EQ(s0.config.ports[2].propagation, Time::us(1));
  EXPECT_EQ(route_to(s0, t.hosts[0]).ports, (std::vector<uint16_t>{0}));
  EXPECT_EQ(route_to(s0, t.hosts[1]).ports, (std::vector<uint16_t>{1}));
  EXPECT_EQ(route_to(s0, t.hosts[3]).ports, (std::vector<uint16_t>{2}));
  EXPECT_EQ(route_to(s0, t.hosts[2]).ports, (std::vector<uint16_t>{1, 2}));
  EXPECT_EQ(format_ipv4(t.hosts[2].ip), "10.0.0.3");
  EXPECT_EQ(format_ipv4(t.hosts[3].ip), "192.168.1.4");
}

TEST(ScenarioTopology, ExplicitDisconnectedIsAnError) {
  const std::string e = testing::load_error(R"([topology]
kind = "explicit"
hosts = [{ name = "a" }, { name = "b" }]
switches = [{ name = "s0" }, { name = "s1" }]
links = [{ a = "a", b = "s0" }, { a = "b", b = "s1" }]
)");
  EXPECT_EQ(e, "t.toml:5: topology.links: switch 's1' has no path to host 'a': expected a connected topology");
}

TEST(ScenarioTopology, HostSettingsReachEveryHost) {
  const Scenario s = load_ok(std::string(testing::kSmall) + R"(
[host]
path_mtu = 4096
verb = "send"
cnp_generation_delay = "2us"
priority_policy = "dwrr"
dwrr_quantum = "9KB"
)");
  for (const HostNode& h : s.topology.hosts) {
    EXPECT_EQ(h.requester.path_mtu, 4096u);
    EXPECT_EQ(h.requester.verb, host::Verb::kSend);
    EXPECT_EQ(h.config.timings.cnp_generation_delay, Time::us(2));
    EXPECT_EQ(h.config.ports[0].policy, host::PriorityPolicy::kDwrr);
    EXPECT_EQ(h.config.ports[0].dwrr_quantum_bytes[5], 9'000u);
    EXPECT_EQ(h.config.name, h.name);
  }
  EXPECT_NE(s.topology.hosts[0].config.seed, s.topology.hosts[1].config.seed);
}

}  // namespace
}  // namespace rtb::scenario
