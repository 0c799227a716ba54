#include "replay/ethernet_frame.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace rtb::replay {
namespace {

using capture::LinkType;

constexpr uint32_t kEthBytes = 14;
constexpr uint32_t kSllBytes = 16;   // tcpdump.org/linktypes/LINKTYPE_LINUX_SLL.html
constexpr uint32_t kSll2Bytes = 20;  // tcpdump.org/linktypes/LINKTYPE_LINUX_SLL2.html
constexpr uint16_t kMinEtherType = 0x0600;  // below: an 802.3 length (IEEE 802.3 §3.2.6)

uint16_t be16(const uint8_t* p) { return static_cast<uint16_t>(p[0] << 8 | p[1]); }

// The bytes a frame is made of before padding: an Ethernet header and where the rest of
// the captured bytes start.
struct Rebuilt {
  std::array<uint8_t, 6> src = kDefaultSrcMac;
  uint16_t ethertype = 0;
  uint32_t header = 0;  // captured bytes replaced by the Ethernet header
};

Expected<Rebuilt> rebuild(LinkType link, const capture::FrameView& f, uint64_t number,
                          const std::string& path) {
  const uint8_t* d = f.data;
  const uint32_t len = f.captured_len;
  const auto too_short = [&](uint32_t need) {
    return Error{fmt::format("{}: frame {} has {} bytes, shorter than its {} header ({} bytes)",
                             path, number, len, capture::link_type_name(link), need)};
  };
  Rebuilt r;
  switch (link) {
    case LinkType::kLinuxSll:
      if (len < kSllBytes) return too_short(kSllBytes);
      if (be16(d + 4) == 6) std::memcpy(r.src.data(), d + 6, 6);
      r.ethertype = be16(d + 14);
      r.header = kSllBytes;
      break;
    case LinkType::kLinuxSll2:
      if (len < kSll2Bytes) return too_short(kSll2Bytes);
      if (d[11] == 6) std::memcpy(r.src.data(), d + 12, 6);
      r.ethertype = be16(d);
      r.header = kSll2Bytes;
      break;
    default: {  // raw IP: the version nibble decides
      const uint8_t version = len > 0 ? d[0] >> 4 : 0;
      if (version != 4 && version != 6) {
        return Error{fmt::format("{}: frame {} is not IPv4 or IPv6 (version nibble {}) in a "
                                 "{} capture", path, number, version, capture::link_type_name(link))};
      }
      r.ethertype = version == 4 ? 0x0800 : 0x86DD;
    }
  }
  if (r.ethertype < kMinEtherType) {
    return Error{fmt::format("{}: frame {} carries Linux cooked protocol 0x{:04x}, an 802.3 "
                             "length or LLC frame, not an EtherType: it cannot be given an "
                             "Ethernet II header", path, number, r.ethertype)};
  }
  return r;
}

}  // namespace

bool replayable(LinkType link) {
  switch (link) {
    case LinkType::kEthernet: case LinkType::kLinuxSll: case LinkType::kLinuxSll2:
    case LinkType::kRaw: case LinkType::kIpv4: case LinkType::kIpv6:
      return true;
  }
  return false;
}

Status to_ethernet(LinkType link, const capture::FrameView& f, uint64_t number,
                   const std::string& path, std::vector<uint8_t>& out, ConversionCounts& counts) {
  if (!replayable(link)) {
    return Error{fmt::format("{}: link type {} cannot be replayed onto Ethernet; expected "
                             "Ethernet (1), Linux cooked SLL (113) or SLL2 (276), or raw IP "
                             "(101, 228, 229)", path, capture::link_type_name(link))};
  }
  const uint8_t* d = f.data;
  const uint32_t len = f.captured_len;
  const uint32_t original = std::max(f.original_len, len);
  if (link == LinkType::kEthernet) {
    if (len < kEthBytes) {
      return Error{fmt::format("{}: frame {} has {} bytes, shorter than its Ethernet header "
                               "(14 bytes)", path, number, len)};
    }
    out.assign(d, d + len);
    out.resize(original, 0);
  } else {
    auto r = rebuild(link, f, number, path);
    if (!r) return Error{r.error().message};
    const Rebuilt& h = r.value();
    out.resize(kEthBytes);
    std::copy(kDefaultDstMac.begin(), kDefaultDstMac.end(), out.begin());
    std::copy(h.src.begin(), h.src.end(), out.begin() + 6);
    out[12] = static_cast<uint8_t>(h.ethertype >> 8);
    out[13] = static_cast<uint8_t>(h.ethertype);
    out.insert(out.end(), d + h.header, d + len);
    out.resize(kEthBytes + original - h.header, 0);
    ++counts.link_header_rebuilt;
  }
  if (f.original_len > len) {
    ++counts.padded;
    counts.padding_bytes += f.original_len - len;
  }
  return {};
}

}  // namespace rtb::replay
