// Base paths of many flows over one topology (base_rtt.h): the ways kept per switch and
// destination give every flow the path a walk of its own gives it.
#include <gtest/gtest.h>

#include <string>

#include "scenario/load.h"
#include "testbed/base_rtt.h"
#include "tests/testbed/test_util.h"

namespace rtb::testbed {
namespace {

// A 4 x 4 leaf-spine with 2 spines whose uplinks are slower than the hosts' links, and
// hosts of three path MTUs, some tagged: the kept ways must be told apart by frame length.
scenario::Scenario mixed_fabric() {
  auto s = scenario::load_scenario(testing::source_root() + "/scenarios/alltoall_leafspine.toml",
                                   {"topology.uplink_rate=\"40Gbps\""});
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  scenario::Scenario sc = std::move(s).value();
  for (size_t h = 0; h < sc.topology.hosts.size(); ++h) {
    sc.topology.hosts[h].requester.path_mtu = h % 3 == 0 ? 1024 : h % 3 == 1 ? 2048 : 4096;
    sc.topology.hosts[h].vlan_tagged = h % 2 == 0;
  }
  return sc;
}

TEST(BasePaths, KeptWaysGiveEveryFlowThePathOfAWalkOfItsOwn) {
  const scenario::Scenario s = mixed_fabric();
  ASSERT_EQ(s.flows.size(), 16u * 15u);
  BasePaths kept(s.topology);
  for (const scenario::Flow& f : s.flows) {
    const BasePath shared = kept.of(f);
    const BasePath alone = BasePaths(s.topology).of(f);
    EXPECT_EQ(shared.rtt, alone.rtt) << "flow " << f.id;
    EXPECT_EQ(shared.switches, alone.switches) << "flow " << f.id;
    EXPECT_EQ(shared.bottleneck, alone.bottleneck) << "flow " << f.id;
    const bool same_leaf = f.src / 4 == f.dst / 4;
    EXPECT_EQ(shared.switches, same_leaf ? 1u : 3u) << "flow " << f.id;
    EXPECT_EQ(shared.bottleneck, same_leaf ? Rate::gbps(100) : Rate::gbps(40)) << "flow " << f.id;
  }
}

// A flow's RTT grows with its sender's path MTU (a longer data frame on every hop) and its
// receiver's tag (a longer ACK), by those bytes' serialisation on each hop.
TEST(BasePaths, FrameLengthsOfTheFlowsEndsSetTheirRtt) {
  const scenario::Scenario s = mixed_fabric();
  BasePaths kept(s.topology);
  auto rtt = [&](uint32_t src, uint32_t dst) {
    for (const scenario::Flow& f : s.flows) {
      if (f.src == src && f.dst == dst) return kept.of(f).rtt;
    }
    ADD_FAILURE() << "no flow " << src << " -> " << dst;
    return Time::zero();
  };
  // Hosts 4 and 5 are on leaf 1 (MTUs 2048, 4096; 4 tagged); host 8 (leaf 2) is tagged,
  // host 9 is not. 4 -> 8 and 5 -> 8 cross four hops: two at 100, two at 40 Gb/s.
  const Time longer_data = rtt(5, 8) - rtt(4, 8);
  // 2048 more payload bytes, 4 fewer tag bytes: 2044 bytes twice at each rate.
  EXPECT_EQ(longer_data, Rate::gbps(100).time_for(Bytes(2044)) * 2 + Rate::gbps(40).time_for(Bytes(2044)) * 2);
  // An untagged receiver's ACKs are 4 bytes shorter on each of the four hops.
  EXPECT_EQ(rtt(4, 8) - rtt(4, 9),
            Rate::gbps(100).time_for(Bytes(4)) * 2 + Rate::gbps(40).time_for(Bytes(4)) * 2);
}

}  // namespace
}  // namespace rtb::testbed
