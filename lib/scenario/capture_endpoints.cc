#include "scenario/capture_endpoints.h"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <algorithm>

#include "analyze/names.h"

namespace rtb::scenario {
namespace {

std::optional<uint32_t> host_index(const Topology& topo, std::string_view name) {
  for (uint32_t i = 0; i < topo.hosts.size(); ++i) {
    if (topo.hosts[i].name == name) return i;
  }
  return std::nullopt;
}

std::string seen_list(const std::vector<analyze::IpAddr>& seen) {
  std::string out;
  for (size_t i = 0; i < seen.size() && i < 8; ++i) out += (i == 0 ? "" : ", ") + to_string(seen[i]);
  if (seen.size() > 8) out += fmt::format(" ... ({} in all)", seen.size());
  return out;
}

// One given pair checked against the capture, the topology and the pairs before it.
Expected<std::pair<analyze::IpAddr, uint32_t>> check_given(
    const std::pair<std::string, std::string>& g, const std::vector<analyze::IpAddr>& seen,
    const Topology& topo, const std::vector<std::pair<analyze::IpAddr, uint32_t>>& done) {
  const std::optional<analyze::IpAddr> addr = parse_ip(g.first);
  if (!addr) return Error{fmt::format("'{}' is not an IP address: expected IPv4 (192.0.2.1) or IPv6 (2001:db8::1) text", g.first)};
  const std::optional<uint32_t> host = host_index(topo, g.second);
  if (!host) {
    return Error{fmt::format("'{}' (for {}) is not a host of the topology: expected one of {}..{}", g.second, g.first,
                             topo.hosts.front().name, topo.hosts.back().name)};
  }
  if (std::find(seen.begin(), seen.end(), *addr) == seen.end()) {
    return Error{fmt::format("{} is not an address in the capture: expected one of {}", g.first, seen_list(seen))};
  }
  for (const auto& [a, h] : done) {
    if (a == *addr) return Error{fmt::format("{} is mapped twice: expected each address once", g.first)};
    if (h == *host) {
      return Error{fmt::format("host '{}' is given for both {} and {}: expected each host once", g.second,
                               to_string(a), g.first)};
    }
  }
  return std::pair{*addr, *host};
}

// An address that is a host's own (a capture of a run of this topology) plays that host,
// unless the user gave the address or the host.
void add_own_addresses(const std::vector<analyze::IpAddr>& seen, const Topology& topo,
                       std::vector<std::pair<analyze::IpAddr, uint32_t>>& fixed, std::vector<bool>& taken) {
  for (const analyze::IpAddr& a : seen) {
    if (std::any_of(fixed.begin(), fixed.end(), [&](const auto& p) { return p.first == a; })) continue;
    for (uint32_t h = 0; h < topo.hosts.size(); ++h) {
      uint8_t ip[4];
      wire::store_be32(ip, topo.hosts[h].ip);
      if (taken[h] || analyze::ipv4_addr(ip) != a) continue;
      fixed.emplace_back(a, h);
      taken[h] = true;
    }
  }
}

}  // namespace

std::optional<uint32_t> EndpointMap::host_of(const analyze::IpAddr& a) const {
  for (const auto& [addr, host] : pairs) {
    if (addr == a) return host;
  }
  return std::nullopt;
}

Expected<EndpointMap> map_endpoints(const std::vector<analyze::IpAddr>& seen,
                                    const std::vector<std::pair<std::string, std::string>>& given,
                                    const Topology& topo) {
  std::vector<std::pair<analyze::IpAddr, uint32_t>> fixed;
  for (const auto& g : given) {
    auto p = check_given(g, seen, topo, fixed);
    if (!p) return p.error();
    fixed.push_back(*p);
  }
  std::vector<bool> taken(topo.hosts.size(), false);
  for (const auto& p : fixed) taken[p.second] = true;
  add_own_addresses(seen, topo, fixed, taken);
  EndpointMap map;
  uint32_t next = 0;
  for (const analyze::IpAddr& a : seen) {
    if (map.host_of(a)) continue;  // listed twice in `seen`
    const auto f = std::find_if(fixed.begin(), fixed.end(), [&](const auto& p) { return p.first == a; });
    if (f != fixed.end()) {
      map.pairs.push_back(*f);
      continue;
    }
    while (next < taken.size() && taken[next]) ++next;
    if (next == taken.size()) {
      return Error{fmt::format("the capture has {} endpoint addresses but the topology has {} hosts: expected at most {} "
                               "addresses (add hosts to the topology)", seen.size(), topo.hosts.size(), topo.hosts.size())};
    }
    taken[next] = true;
    map.pairs.emplace_back(a, next);
  }
  return map;
}

std::string to_string(const analyze::IpAddr& a) { return analyze::ip_text(a); }

std::optional<analyze::IpAddr> parse_ip(std::string_view text) {
  const std::string s(text);
  uint8_t buf[16] = {};
  if (inet_pton(AF_INET, s.c_str(), buf) == 1) return analyze::ipv4_addr(buf);
  if (inet_pton(AF_INET6, s.c_str(), buf) == 1) return analyze::ipv6_addr(buf);
  return std::nullopt;
}

}  // namespace rtb::scenario
