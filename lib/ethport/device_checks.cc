#include "ethport/device_checks.h"

#include <net/if.h>
#include <unistd.h>

#include <filesystem>

#include <fmt/format.h>

#include "ethport/netns_guard.h"

namespace rtb::ethport {
namespace {

Status check_pcap(const ParsedDevice& p, const std::string& device) {
  if (p.has("rx_pcap")) {
    const std::string in = p.arg("rx_pcap");
    if (::access(in.c_str(), R_OK) != 0) {
      return Error{fmt::format("device '{}': capture file '{}' (rx_pcap) does not exist or "
                               "is not readable; give the path of a pcap file", device, in)};
    }
  }
  if (p.has("tx_pcap")) {
    const std::filesystem::path out = p.arg("tx_pcap");
    const auto dir = out.has_parent_path() ? out.parent_path() : std::filesystem::path(".");
    if (::access(dir.c_str(), W_OK) != 0) {
      return Error{fmt::format("device '{}': folder '{}' for tx_pcap does not exist or is "
                               "not writable; create it or write the capture elsewhere",
                               device, dir.string())};
    }
  }
  return {};
}

Status check_interface(const ParsedDevice& p, const std::string& device,
                       const std::string& netns) {
  auto guard = NetnsGuard::enter(netns);
  if (!guard) return Error{fmt::format("device '{}': {}", device, guard.error().message)};
  const std::string iface = p.arg("iface");
  if (::if_nametoindex(iface.c_str()) == 0) {
    return Error{fmt::format("device '{}': interface '{}' does not exist in {}; create it "
                             "(e.g. ip link add {} type veth peer name <other>) or name one "
                             "that `ip link show` lists", device, iface,
                             netns.empty() ? std::string("this network namespace")
                                           : fmt::format("network namespace '{}'", netns),
                             iface)};
  }
  return {};
}

}  // namespace

Status check_device_resources(const ParsedDevice& parsed, const std::string& device,
                              const std::string& netns) {
  switch (parsed.kind) {
    case DeviceKind::kPcap: return check_pcap(parsed, device);
    case DeviceKind::kAfPacket: return check_interface(parsed, device, netns);
    default: return {};
  }
}

}  // namespace rtb::ethport
