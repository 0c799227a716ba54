// The shared endpoint map of a capture replay: which topology host stands for each IP
// address a capture holds (scenarios/README.md, pattern "capture"; `rocetb replay --map`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyze/dissected.h"
#include "core/error.h"
#include "scenario/scenario.h"

namespace rtb::scenario {

struct EndpointMap {
  std::vector<std::pair<analyze::IpAddr, uint32_t>> pairs;  // address -> host index, first-appearance order
  std::optional<uint32_t> host_of(const analyze::IpAddr& a) const;
};

// `seen`: the capture's endpoint addresses in order of first appearance. `given`:
// ADDRESS -> host name pairs the user wrote (IPv4 or IPv6 text), each checked (address
// syntax, host exists, no address or host twice, an address not in the capture is an
// error naming it). An address that is a host's own goes to that host (a capture of a run
// of this topology replays as it ran) unless the address or the host is given. The other
// addresses go to the hosts not taken, in host index order;
// more addresses than hosts: an error naming both counts. Messages carry no location:
// the caller puts the file:line or option in front.
Expected<EndpointMap> map_endpoints(const std::vector<analyze::IpAddr>& seen,
                                    const std::vector<std::pair<std::string, std::string>>& given,
                                    const Topology& topo);

// "192.0.2.1" or "2001:db8::1" (RFC 5952), as `rocetb analyze` writes them.
std::string to_string(const analyze::IpAddr& a);
// IPv4 dotted quad or IPv6 text (inet_pton); nullopt otherwise.
std::optional<analyze::IpAddr> parse_ip(std::string_view text);

}  // namespace rtb::scenario
