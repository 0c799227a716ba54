#include "ethport/port_spec.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace rtb::ethport {
namespace {

struct Driver {
  DeviceKind kind;
  std::string_view prefix;
  std::vector<std::string_view> keys;  // from the PMD's registered parameter string
};

const std::array<Driver, 5>& drivers() {
  static const std::array<Driver, 5> kDrivers = {{
      {DeviceKind::kNull, "net_null", {"size", "copy", "no-rx"}},
      {DeviceKind::kRing, "net_ring", {"nodeaction"}},
      {DeviceKind::kPcap, "net_pcap", {"rx_pcap", "tx_pcap", "infinite_rx", "rx_iface",
                                       "rx_iface_in", "tx_iface", "iface", "phy_mac"}},
      {DeviceKind::kMemif, "net_memif", {"role", "socket", "id", "bsize", "rsize", "mac",
                                         "secret", "zero-copy", "socket-abstract"}},
      {DeviceKind::kAfPacket, "net_af_packet", {"iface", "qpairs", "blocksz", "framesz",
                                                "framecnt", "qdisc_bypass"}},
  }};
  return kDrivers;
}

std::string supported_list() {
  std::vector<std::string_view> names;
  for (const auto& d : drivers()) names.push_back(d.prefix);
  return fmt::format("{} or a PCI address such as 0000:03:00.0", fmt::join(names, ", "));
}

bool is_hex(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isxdigit(
                           static_cast<unsigned char>(c)) != 0; });
}

// "0000:03:00.0" or "03:00.0" (domain 0000 implied); DPDK names the port in the long
// lower-case form.
bool parse_pci(std::string_view s, std::string& canonical) {
  std::string_view domain = "0000";
  if (std::count(s.begin(), s.end(), ':') == 2) {
    domain = s.substr(0, s.find(':'));
    s.remove_prefix(domain.size() + 1);
  }
  const size_t colon = s.find(':');
  const size_t dot = s.find('.');
  if (colon == std::string_view::npos || dot == std::string_view::npos || dot < colon) {
    return false;
  }
  const auto bus = s.substr(0, colon);
  const auto dev = s.substr(colon + 1, dot - colon - 1);
  const auto fn = s.substr(dot + 1);
  if (domain.size() != 4 || bus.size() != 2 || dev.size() != 2 || fn.size() != 1 ||
      !is_hex(domain) || !is_hex(bus) || !is_hex(dev) || fn[0] < '0' || fn[0] > '7') {
    return false;
  }
  canonical = fmt::format("{}:{}:{}.{}", domain, bus, dev, fn);
  std::transform(canonical.begin(), canonical.end(), canonical.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return true;
}

bool looks_like_pci(std::string_view s) {
  return !s.empty() && std::isxdigit(static_cast<unsigned char>(s[0])) != 0 &&
         s.find(':') != std::string_view::npos && s.rfind("net_", 0) != 0;
}

Expected<ParsedDevice> parse_pci_device(const std::string& device) {
  ParsedDevice out;
  out.kind = DeviceKind::kPci;
  if (device.find(',') != std::string::npos || !parse_pci(device, out.name)) {
    return Error{fmt::format("device '{}' is not a PCI address: write it as "
                             "DDDD:BB:DD.F (e.g. 0000:03:00.0, as lspci -D prints it), "
                             "without arguments", device)};
  }
  return out;
}

const Driver* find_driver(std::string_view name) {
  for (const auto& d : drivers()) {
    if (name.rfind(d.prefix, 0) != 0) continue;
    const auto suffix = name.substr(d.prefix.size());
    // DPDK vdev names are the driver name plus any suffix; keep it to what shells and
    // file names take without quoting.
    const bool ok = std::all_of(suffix.begin(), suffix.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
    });
    if (ok) return &d;
  }
  return nullptr;
}

Status parse_args(const Driver& d, std::string_view rest, ParsedDevice& out,
                  const std::string& device) {
  std::set<std::string> seen;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const auto item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      return Error{fmt::format("device '{}': argument '{}' is not key=value; write the "
                               "device as {}N,key=value,...", device, item, d.prefix)};
    }
    std::string key(item.substr(0, eq));
    if (std::find(d.keys.begin(), d.keys.end(), key) == d.keys.end()) {
      return Error{fmt::format("device '{}': '{}' is not an argument of {} (it takes: {})",
                               device, key, d.prefix, fmt::join(d.keys, ", "))};
    }
    if (!seen.insert(key).second) {
      return Error{fmt::format("device '{}': argument '{}' is given twice; keep one",
                               device, key)};
    }
    out.args.emplace_back(std::move(key), std::string(item.substr(eq + 1)));
  }
  return {};
}

Status check_required(const ParsedDevice& p, const std::string& device) {
  if (p.kind == DeviceKind::kPcap && !p.has("rx_pcap") && !p.has("tx_pcap")) {
    return Error{fmt::format("device '{}' names no capture: give rx_pcap=<file to read> "
                             "and/or tx_pcap=<file to write>", device)};
  }
  if (p.kind == DeviceKind::kAfPacket && p.arg("iface").empty()) {
    return Error{fmt::format("device '{}' names no interface: add iface=<name> (a Linux "
                             "interface, e.g. iface=veth0)", device)};
  }
  if (p.kind == DeviceKind::kMemif && p.has("role") && p.arg("role") != "server" &&
      p.arg("role") != "client") {
    return Error{fmt::format("device '{}': memif role '{}' is neither server nor client",
                             device, p.arg("role"))};
  }
  return {};
}

}  // namespace

const char* kind_name(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::kNull: return "null";
    case DeviceKind::kRing: return "ring";
    case DeviceKind::kPcap: return "pcap";
    case DeviceKind::kMemif: return "memif";
    case DeviceKind::kAfPacket: return "af_packet";
    case DeviceKind::kPci: return "pci";
  }
  return "?";
}

std::string ParsedDevice::arg(const std::string& key) const {
  for (const auto& [k, v] : args) {
    if (k == key) return v;
  }
  return {};
}

bool ParsedDevice::has(const std::string& key) const {
  return std::any_of(args.begin(), args.end(), [&](const auto& kv) { return kv.first == key; });
}

std::string ParsedDevice::args_string() const {
  std::string s;
  for (const auto& [k, v] : args) s += (s.empty() ? "" : ",") + k + "=" + v;
  return s;
}

Expected<ParsedDevice> parse_device(const std::string& device) {
  if (device.empty()) {
    return Error{fmt::format("the device string is empty; name one: {}", supported_list())};
  }
  if (looks_like_pci(device)) return parse_pci_device(device);
  const size_t comma = device.find(',');
  const std::string name = device.substr(0, comma);
  const Driver* d = find_driver(name);
  if (d == nullptr) {
    return Error{fmt::format("device '{}' has an unknown driver '{}'; supported: {}", device,
                             name, supported_list())};
  }
  ParsedDevice out;
  out.kind = d->kind;
  out.name = name;
  if (comma != std::string::npos) {
    if (Status s = parse_args(*d, std::string_view(device).substr(comma + 1), out, device);
        !s) {
      return Error{s.message()};
    }
  }
  if (Status s = check_required(out, device); !s) return Error{s.message()};
  return out;
}

Status check_spec(const PortSpec& spec) {
  if (spec.rx_descriptors == 0 || spec.tx_descriptors == 0) {
    return Error{fmt::format("device '{}': rx_descriptors ({}) and tx_descriptors ({}) must "
                             "be at least 1 (1024 suits most devices)", spec.device,
                             spec.rx_descriptors, spec.tx_descriptors)};
  }
  std::set<uint8_t> seen;
  for (uint8_t p : spec.hardware_pfc_priorities) {
    if (p > 7 || !seen.insert(p).second) {
      return Error{fmt::format("device '{}': hardware PFC priority {} is {}; give each of "
                               "0..7 at most once", spec.device, p,
                               p > 7 ? "out of range" : "repeated")};
    }
  }
  if (spec.pfc_low_water > spec.pfc_high_water) {
    return Error{fmt::format("device '{}': pfc_low_water {} is above pfc_high_water {}; the "
                             "XON watermark must not exceed the XOFF one", spec.device,
                             spec.pfc_low_water, spec.pfc_high_water)};
  }
  return {};
}

}  // namespace rtb::ethport
