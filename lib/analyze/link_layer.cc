#include "analyze/link_layer.h"

#include <cstring>

#include "wire/ethernet.h"

namespace rtb::analyze {
namespace {

constexpr uint32_t kEthBytes = 14;
constexpr uint32_t kSllBytes = 16;
constexpr uint32_t kSll2Bytes = 20;
constexpr uint32_t kTagBytes = 4;

bool is_vlan_tpid(uint16_t t) { return t == 0x8100 || t == 0x88A8 || t == 0x9100; }

// Tags from `off` (the EtherType field at off - 2 held `type`).
bool skip_tags(const uint8_t* d, uint32_t len, uint32_t off, uint16_t type, LinkLayer& out,
               Malformed& why) {
  while (is_vlan_tpid(type)) {
    if (out.vlan_tags == kMaxVlanTags) { why = Malformed::kTooManyVlanTags; return false; }
    if (len - off < kTagBytes) { why = Malformed::kTruncatedVlan; return false; }
    type = wire::load_be16(d + off + 2);
    off += kTagBytes;
    ++out.vlan_tags;
  }
  out.ethertype = type;
  out.l3_offset = off;
  return true;
}

bool ethernet(const uint8_t* d, uint32_t len, LinkLayer& out, Malformed& why) {
  if (len < kEthBytes) { why = Malformed::kTruncatedLinkHeader; return false; }
  std::memcpy(out.dst_mac.b.data(), d, 6);
  std::memcpy(out.src_mac.b.data(), d + 6, 6);
  out.has_dst_mac = true;
  return skip_tags(d, len, kEthBytes, wire::load_be16(d + 12), out, why);
}

// The cooked header's link-layer address is the sender's; kept when it is a MAC.
void cooked_address(const uint8_t* addr, uint32_t addr_len, LinkLayer& out) {
  if (addr_len == 6) std::memcpy(out.src_mac.b.data(), addr, 6);
}

bool sll(const uint8_t* d, uint32_t len, LinkLayer& out, Malformed& why) {
  if (len < kSllBytes) { why = Malformed::kTruncatedLinkHeader; return false; }
  cooked_address(d + 6, wire::load_be16(d + 4), out);
  return skip_tags(d, len, kSllBytes, wire::load_be16(d + 14), out, why);
}

bool sll2(const uint8_t* d, uint32_t len, LinkLayer& out, Malformed& why) {
  if (len < kSll2Bytes) { why = Malformed::kTruncatedLinkHeader; return false; }
  cooked_address(d + 12, d[11], out);
  return skip_tags(d, len, kSll2Bytes, wire::load_be16(d), out, why);
}

bool raw_ip(const uint8_t* d, uint32_t len, LinkLayer& out, Malformed& why) {
  if (len < 1) { why = Malformed::kTruncatedIpv4; return false; }
  const uint8_t version = d[0] >> 4;
  if (version != 4 && version != 6) { why = Malformed::kBadIpVersion; return false; }
  out.ethertype = version == 4 ? wire::kEtherTypeIpv4 : kEtherTypeIpv6;
  return true;
}

}  // namespace

bool parse_link_layer(capture::LinkType link, const uint8_t* data, uint32_t len, LinkLayer& out,
                      Malformed& why) {
  out = LinkLayer{};
  switch (link) {
    case capture::LinkType::kEthernet: return ethernet(data, len, out, why);
    case capture::LinkType::kLinuxSll: return sll(data, len, out, why);
    case capture::LinkType::kLinuxSll2: return sll2(data, len, out, why);
    case capture::LinkType::kRaw: return raw_ip(data, len, out, why);
    case capture::LinkType::kIpv4: out.ethertype = wire::kEtherTypeIpv4; return true;
    case capture::LinkType::kIpv6: out.ethertype = kEtherTypeIpv6; return true;
  }
  why = Malformed::kUnsupportedLinkType;
  return false;
}

}  // namespace rtb::analyze
