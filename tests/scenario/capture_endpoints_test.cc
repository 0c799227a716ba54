// The shared endpoint map: automatic order, explicit pairs, and each refused input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scenario/capture_endpoints.h"
#include "scenario_test_util.h"

namespace rtb::scenario {
namespace {

using ::testing::HasSubstr;

analyze::IpAddr ip(const char* text) { return parse_ip(text).value(); }

Topology four_hosts() { return testing::load_ok(testing::kSmall).topology; }

const std::vector<analyze::IpAddr> kSeen = {ip("10.0.0.7"), ip("10.0.0.3"), ip("2001:db8::1")};

std::string error_of(const std::vector<analyze::IpAddr>& seen,
                     const std::vector<std::pair<std::string, std::string>>& given, const Topology& topo) {
  Expected<EndpointMap> m = map_endpoints(seen, given, topo);
  EXPECT_FALSE(m.ok());
  return m.ok() ? "" : m.error().message;
}

TEST(CaptureEndpoints, AutomaticFollowsFirstAppearanceAndHostOrder) {
  Expected<EndpointMap> m = map_endpoints(kSeen, {}, four_hosts());
  ASSERT_TRUE(m.ok()) << m.error().message;
  ASSERT_EQ(m->pairs.size(), 3u);
  EXPECT_EQ(m->pairs[0], std::pair(ip("10.0.0.7"), 0u));
  EXPECT_EQ(m->pairs[1], std::pair(ip("10.0.0.3"), 1u));
  EXPECT_EQ(m->pairs[2], std::pair(ip("2001:db8::1"), 2u));
  EXPECT_EQ(m->host_of(ip("2001:db8::1")), 2u);
  EXPECT_EQ(m->host_of(ip("10.0.0.1")), std::nullopt);
}

TEST(CaptureEndpoints, GivenPairsFirstTheRestToHostsNotGiven) {
  Expected<EndpointMap> m = map_endpoints(kSeen, {{"10.0.0.3", "h0"}, {"2001:db8:0::1", "h3"}}, four_hosts());
  ASSERT_TRUE(m.ok()) << m.error().message;
  ASSERT_EQ(m->pairs.size(), 3u);
  EXPECT_EQ(m->pairs[0], std::pair(ip("10.0.0.7"), 1u));  // h0 is taken: the next host
  EXPECT_EQ(m->pairs[1], std::pair(ip("10.0.0.3"), 0u));
  EXPECT_EQ(m->pairs[2], std::pair(ip("2001:db8::1"), 3u));
}

TEST(CaptureEndpoints, AddressesAsAnalyzeWritesThem) {
  EXPECT_EQ(to_string(ip("10.0.0.7")), "10.0.0.7");
  EXPECT_EQ(to_string(ip("2001:0db8:0:0::1")), "2001:db8::1");
  EXPECT_EQ(parse_ip("10.0.0"), std::nullopt);
  EXPECT_EQ(parse_ip("h1"), std::nullopt);
}

TEST(CaptureEndpoints, RefusedInputsNameTheValue) {
  const Topology topo = four_hosts();
  EXPECT_THAT(error_of(kSeen, {{"10.0.0.300", "h1"}}, topo),
              HasSubstr("'10.0.0.300' is not an IP address: expected IPv4"));
  EXPECT_THAT(error_of(kSeen, {{"10.0.0.3", "h9"}}, topo),
              HasSubstr("'h9' (for 10.0.0.3) is not a host of the topology: expected one of h0..h3"));
  EXPECT_THAT(error_of(kSeen, {{"10.0.0.9", "h1"}}, topo),
              HasSubstr("10.0.0.9 is not an address in the capture: expected one of 10.0.0.7, 10.0.0.3, 2001:db8::1"));
  EXPECT_THAT(error_of(kSeen, {{"10.0.0.3", "h1"}, {"10.0.0.3", "h2"}}, topo),
              HasSubstr("10.0.0.3 is mapped twice"));
  EXPECT_THAT(error_of(kSeen, {{"10.0.0.3", "h1"}, {"10.0.0.7", "h1"}}, topo),
              HasSubstr("host 'h1' is given for both 10.0.0.3 and 10.0.0.7: expected each host once"));
}

TEST(CaptureEndpoints, MoreAddressesThanHostsNamesBothCounts) {
  std::vector<analyze::IpAddr> five = kSeen;
  five.push_back(ip("10.0.0.8"));
  five.push_back(ip("10.0.0.9"));
  EXPECT_EQ(error_of(five, {}, four_hosts()),
            "the capture has 5 endpoint addresses but the topology has 4 hosts: expected at most 4 addresses "
            "(add hosts to the topology)");
}

}  // namespace
}  // namespace rtb::scenario

namespace rtb::scenario {
namespace {

// A capture of a run of this topology: an address that is a host's own plays that host,
// unless the user gave the address or the host; the rest fill the hosts left.
TEST(CaptureEndpointsOwn, AHostsOwnAddressPlaysThatHost) {
  const Topology topo = testing::load_ok(testing::kSmall).topology;
  uint8_t b[4];
  wire::store_be32(b, topo.hosts[2].ip);
  const analyze::IpAddr own = analyze::ipv4_addr(b);
  const analyze::IpAddr other = parse_ip("10.0.0.7").value();
  Expected<EndpointMap> m = map_endpoints({other, own}, {}, topo);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->host_of(own), 2u);
  EXPECT_EQ(m->host_of(other), 0u);
  Expected<EndpointMap> given = map_endpoints({other, own}, {{"10.0.0.7", topo.hosts[2].name}}, topo);
  ASSERT_TRUE(given.ok()) << given.error().message;
  EXPECT_EQ(given->host_of(other), 2u);
  EXPECT_EQ(given->host_of(own), 0u) << "its host was given to another address";
}

}  // namespace
}  // namespace rtb::scenario
