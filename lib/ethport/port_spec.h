// What a DPDK port is, as the user writes it, checked before the EAL or any device is
// touched (style habit 8: validate once, before any port starts).
//
// A device string is a DPDK vdev string (driver name + optional suffix, then
// comma-separated key=value arguments) or a PCI address:
//
//   net_null0[,size=64,copy=0,no-rx=0]
//   net_ring0                                   (a loopback ring: what it sends it receives)
//   net_pcap0,rx_pcap=in.pcap,tx_pcap=out.pcap[,infinite_rx=1]
//   net_memif0,role=server|client,socket=/path.sock[,id=N]
//   net_af_packet0,iface=veth0
//   0000:03:00.0                                (needs EalOptions::pci and pci_allow)
//
// The accepted keys per driver are those its PMD registers in DPDK 22.11
// (RTE_PMD_REGISTER_PARAM_STRING; `strings librte_net_<x>.so | grep PMD_INFO`).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"

namespace rtb::ethport {

enum class DeviceKind { kNull, kRing, kPcap, kMemif, kAfPacket, kPci };

// "null", "ring", "pcap", "memif", "af_packet", "pci".
const char* kind_name(DeviceKind kind);

struct ParsedDevice {
  DeviceKind kind = DeviceKind::kNull;
  std::string name;  // the vdev name ("net_pcap0") or the canonical PCI address
  std::vector<std::pair<std::string, std::string>> args;  // key=value, in order
  // The value of `key`, or "" when absent.
  std::string arg(const std::string& key) const;
  bool has(const std::string& key) const;
  // The arguments joined back as DPDK wants them: "k1=v1,k2=v2".
  std::string args_string() const;
};

// Parses and checks a device string without the EAL. Errors (one sentence naming the
// device): empty string, unknown driver prefix (the message lists the supported ones), a
// name with characters DPDK does not allow, an argument without '=', an unknown or
// repeated key, a missing required key (pcap: rx_pcap or tx_pcap; af_packet: iface), a
// bad value (memif role), a malformed PCI address.
Expected<ParsedDevice> parse_device(const std::string& device);

// 9216 B: the largest frame (without FCS) rocetb builds; WireLinkConfig::max_frame.
inline constexpr uint32_t kMaxFrameBytes = 9'216;

struct PortSpec {
  std::string device;
  uint16_t rx_descriptors = 1024;
  uint16_t tx_descriptors = 1024;
  // Ask the device for 802.1Qbb PFC on these priorities (0..7). Empty: no hardware PFC
  // (rocetb's stages generate and honour PFC themselves).
  std::vector<uint8_t> hardware_pfc_priorities;
  // Passed to rte_eth_dev_priority_flow_ctrl_set: watermarks in the device's own units
  // (ixgbe, i40e: KB of rx buffer; 0 lets drivers that accept it pick), pause quanta
  // (512 bit times each) put in the PFC frames the device sends.
  uint32_t pfc_high_water = 0;
  uint32_t pfc_low_water = 0;
  uint16_t pfc_pause_quanta = 0xffff;
  // Network namespace (a name under /run/netns, as `ip netns add` makes) whose interface
  // an af_packet device opens; empty: the process's own. Other kinds ignore it.
  std::string netns;
};

// Checks the fields that are not the device string: descriptors non-zero, PFC priorities
// in 0..7 and not repeated, watermarks low <= high. One sentence naming the device.
Status check_spec(const PortSpec& spec);

}  // namespace rtb::ethport
