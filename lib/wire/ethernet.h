// Ethernet II header and the optional IEEE 802.1Q tag (PCP carries the PFC priority).
#pragma once

#include <cstdint>
#include <cstring>

#include "wire/bytes.h"

namespace rtb::wire {

inline constexpr uint16_t kEtherTypeIpv4 = 0x0800;
inline constexpr uint16_t kEtherTypeVlan = 0x8100;        // IEEE 802.1Q C-tag TPID
inline constexpr uint16_t kEtherTypeMacControl = 0x8808;  // IEEE 802.3 Annex 31A
// Shortest Ethernet frame without its 4-byte FCS (64 B on the wire with FCS).
inline constexpr uint32_t kMinFrameNoFcs = 60;

struct EthHdr {
  uint8_t dst[6];
  uint8_t src[6];
  uint8_t ethertype[2];

  MacAddr dst_mac() const { MacAddr m; std::memcpy(m.b.data(), dst, 6); return m; }
  MacAddr src_mac() const { MacAddr m; std::memcpy(m.b.data(), src, 6); return m; }
  void set_dst(const MacAddr& m) { std::memcpy(dst, m.b.data(), 6); }
  void set_src(const MacAddr& m) { std::memcpy(src, m.b.data(), 6); }
  uint16_t type() const { return load_be16(ethertype); }
  void set_type(uint16_t t) { store_be16(ethertype, t); }
};
static_assert(sizeof(EthHdr) == 14 && alignof(EthHdr) == 1);

// The 4 bytes after the source MAC when tagged: TPID 0x8100, then TCI = PCP(3) DEI(1)
// VID(12) (IEEE 802.1Q-2018 §9.6), then the inner EtherType lives in the next 2 bytes.
struct VlanTag {
  uint8_t tci[2];
  uint8_t ethertype[2];  // inner EtherType

  uint8_t pcp() const { return static_cast<uint8_t>(tci[0] >> 5); }
  bool dei() const { return (tci[0] & 0x10) != 0; }
  uint16_t vid() const { return load_be16(tci) & 0x0FFF; }
  void set_tci(uint8_t pcp, bool dei, uint16_t vid) {
    store_be16(tci, static_cast<uint16_t>(((pcp & 7u) << 13) | (dei ? 0x1000u : 0u) |
                                          (vid & 0x0FFFu)));
  }
  uint16_t type() const { return load_be16(ethertype); }
  void set_type(uint16_t t) { store_be16(ethertype, t); }
};
static_assert(sizeof(VlanTag) == 4 && alignof(VlanTag) == 1);

struct Vlan {
  uint8_t pcp = 0;   // 0..7
  uint16_t vid = 0;  // 0..4095; 0 = priority-tagged only
  constexpr bool operator==(const Vlan&) const = default;
};

// Write dst, src and (if tagged) the 802.1Q tag; returns the L2 header length (14 or 18).
inline uint32_t write_l2(uint8_t* p, const MacAddr& dst, const MacAddr& src, const Vlan* vlan,
                         uint16_t ethertype) {
  auto* eth = reinterpret_cast<EthHdr*>(p);
  eth->set_dst(dst);
  eth->set_src(src);
  if (vlan == nullptr) {
    eth->set_type(ethertype);
    return sizeof(EthHdr);
  }
  eth->set_type(kEtherTypeVlan);
  auto* tag = reinterpret_cast<VlanTag*>(p + sizeof(EthHdr));
  tag->set_tci(vlan->pcp, false, vlan->vid);
  tag->set_type(ethertype);
  return sizeof(EthHdr) + sizeof(VlanTag);
}

}  // namespace rtb::wire
