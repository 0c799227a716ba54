#include "replay/through_frames.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <unordered_map>

#include "analyze/dissect.h"
#include "analyze/link_layer.h"
#include "pcap/capture_reader.h"
#include "switch/classify.h"
#include "wire/ethernet.h"
#include "wire/icrc.h"
#include "wire/ipv4.h"
#include "wire/udp.h"

namespace rtb::replay {
namespace {

using analyze::Dissected;
using analyze::FrameKind;

// Every frame of the file; a fault keeps the frames before it and says where.
Expected<std::vector<capture::CapturedFrame>> read_frames(const std::string& path, std::string& read_error) {
  auto reader = capture::CaptureReader::open(path);
  if (!reader) return Error{reader.error().message};
  std::vector<capture::CapturedFrame> frames;
  capture::CapturedFrame f;
  while (true) {
    auto more = reader.value().next(f);
    if (!more) {
      read_error = more.error().message;
      break;
    }
    if (!more.value()) break;
    frames.push_back(std::move(f));
  }
  return frames;
}

bool is_roce_v4(const Dissected& d) { return d.kind == FrameKind::kRoce && !d.ipv6; }

// The captured IPv4 packet (padded to its IP length) behind the scenario's Ethernet header.
// Returns the frame's length, or 0 when the link layer cannot be read again.
uint32_t rewrite(const capture::CapturedFrame& f, const scenario::HostNode& src,
                 const scenario::HostNode& dst, std::vector<uint8_t>& arena, bool& padded) {
  analyze::LinkLayer ll;
  analyze::Malformed why{};
  if (!analyze::parse_link_layer(f.link, f.bytes.data(), f.captured_len, ll, why)) return 0;
  const uint8_t* ip = f.bytes.data() + ll.l3_offset;
  const auto* in = reinterpret_cast<const wire::Ipv4Hdr*>(ip);
  const uint32_t ip_len = in->length();
  if (ip_len < in->header_bytes() + sizeof(wire::UdpHdr) + 12 + 4) return 0;  // + BTH + ICRC
  const uint32_t have = std::min(ip_len, f.captured_len - ll.l3_offset);
  padded = have < ip_len;
  std::optional<wire::Vlan> vlan;
  if (f.link == capture::LinkType::kEthernet && ll.vlan_tags > 0) vlan = wire::Vlan{static_cast<uint8_t>(f.bytes[14] >> 5), 0};
  const size_t at = arena.size();
  arena.resize(at + sizeof(wire::EthHdr) + sizeof(wire::VlanTag) + ip_len, 0);
  uint8_t* out = arena.data() + at;
  const uint32_t l2 = wire::write_l2(out, dst.mac, src.mac, vlan ? &*vlan : nullptr, wire::kEtherTypeIpv4);
  std::memcpy(out + l2, ip, have);
  auto* hdr = reinterpret_cast<wire::Ipv4Hdr*>(out + l2);
  wire::store_be32(hdr->src, src.ip);
  wire::store_be32(hdr->dst, dst.ip);
  wire::store_be16(hdr->checksum, 0);
  wire::store_be16(hdr->checksum, wire::ipv4_checksum(out + l2, hdr->header_bytes()));
  auto* udp = reinterpret_cast<wire::UdpHdr*>(out + l2 + hdr->header_bytes());
  wire::store_be16(udp->checksum, 0);
  wire::store_icrc(out + l2 + ip_len - 4, wire::icrc_full(out + l2, ip_len - 4));
  arena.resize(at + l2 + ip_len);
  return l2 + ip_len;
}

// The RoCEv2-over-IPv4 endpoints in the order the capture first shows them.
std::vector<analyze::IpAddr> endpoints_seen(const std::vector<Dissected>& d) {
  std::vector<analyze::IpAddr> seen;
  for (const Dissected& x : d) {
    if (!is_roce_v4(x)) continue;
    for (const analyze::IpAddr& a : {x.src_ip, x.dst_ip}) {
      if (std::find(seen.begin(), seen.end(), a) == seen.end()) seen.push_back(a);
    }
  }
  return seen;
}

// FNV-1a over the IPv4 packet with the ECN bits and the header checksum left out.
uint64_t packet_hash(const capture::CapturedFrame& f) {
  analyze::LinkLayer ll;
  analyze::Malformed why{};
  if (!analyze::parse_link_layer(f.link, f.bytes.data(), f.captured_len, ll, why)) return 0;
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint32_t i = ll.l3_offset; i < f.captured_len; ++i) {
    const uint32_t at = i - ll.l3_offset;
    uint8_t b = f.bytes[i];
    if (at == 1) b &= 0xFC;          // TOS: DSCP kept, ECN masked
    if (at == 10 || at == 11) b = 0; // header checksum
    h = (h ^ b) * 0x100000001b3ull;
  }
  return h;
}

// True when the same packet was seen within the window before `ts` (and remembers it).
bool seen_again(std::unordered_map<uint64_t, Time>& last, uint64_t hash, Time ts, Time window) {
  auto [it, fresh] = last.try_emplace(hash, ts);
  if (fresh) return false;
  const bool again = ts - it->second <= window;
  it->second = ts;
  return again;
}

void count_skipped(const Dissected& d, ThroughFrames& out) {
  switch (d.kind) {
    case FrameKind::kPfc:
    case FrameKind::kPause: ++out.skipped_pfc; break;
    case FrameKind::kMalformed: ++out.skipped_malformed; break;
    case FrameKind::kRoce: ++out.skipped_ipv6; break;
    default: ++out.skipped_other; break;
  }
}

}  // namespace

const sw::QosMaps& first_hop_maps(const scenario::Scenario& s, uint32_t host) {
  static const sw::QosMaps defaults = sw::default_qos_maps();
  const scenario::Link& l = s.topology.links[s.topology.hosts[host].link];
  const scenario::NodeRef far = l.a.node == scenario::NodeRef{scenario::NodeKind::kHost, host} ? l.b.node : l.a.node;
  if (far.kind != scenario::NodeKind::kSwitch) return defaults;
  const scenario::SwitchNode& sw = s.topology.switches[far.index];
  for (size_t p = 0; p < sw.port_links.size(); ++p) {  // the port's own maps, if it has them
    if (sw.port_links[p] == s.topology.hosts[host].link) return sw.config.port_maps(p);
  }
  return sw.config.maps;
}

Expected<ThroughFrames> load_through_frames(const std::string& path, const scenario::Scenario& s,
                                            const ThroughOptions& options) {
  ThroughFrames out;
  auto frames = read_frames(path, out.read_error);
  if (!frames) return Error{frames.error().message};
  const auto& all = frames.value();
  out.frames_read = all.size();
  std::vector<Dissected> d(all.size());
  for (size_t i = 0; i < all.size(); ++i) {
    analyze::dissect(all[i].link, all[i].bytes.data(), all[i].captured_len, all[i].original_len, d[i]);
  }
  const std::vector<analyze::IpAddr> seen = endpoints_seen(d);
  if (seen.empty()) {
    return Error{fmt::format("{}: no RoCEv2 frame over IPv4 (UDP port 4791) in its {} frames{}", path,
                             all.size(), out.read_error.empty() ? "" : " before: " + out.read_error)};
  }
  auto map = scenario::map_endpoints(seen, options.map, s.topology);
  if (!map) return Error{fmt::format("{}: {}", path, map.error().message)};
  out.endpoints = std::move(map).value();
  out.per_host.resize(s.topology.hosts.size());
  const Time origin = all.front().ts;
  std::unordered_map<uint64_t, Time> last_seen;
  for (size_t i = 0; i < all.size(); ++i) {
    if (!is_roce_v4(d[i])) {
      count_skipped(d[i], out);
      continue;
    }
    if (options.dedup_window > Time::zero() &&
        seen_again(last_seen, packet_hash(all[i]), all[i].ts, options.dedup_window)) {
      ++out.skipped_duplicate;
      continue;
    }
    const uint32_t hs = *out.endpoints.host_of(d[i].src_ip), hd = *out.endpoints.host_of(d[i].dst_ip);
    const auto offset = static_cast<uint32_t>(out.arena.size());
    bool padded = false;
    const uint32_t len = rewrite(all[i], s.topology.hosts[hs], s.topology.hosts[hd], out.arena, padded);
    if (len == 0) {
      ++out.skipped_malformed;
      continue;
    }
    InjectedFrame f;
    f.due = Time::ps(static_cast<uint64_t>(static_cast<double>((all[i].ts - origin).ps()) / options.speed));
    f.offset = offset;
    f.length = len;
    f.priority = sw::classify(out.arena.data() + offset, len, first_hop_maps(s, hs)).tc;
    out.per_host[hs].push_back(f);
    out.last_due = std::max(out.last_due, f.due);
    out.largest_frame = std::max(out.largest_frame, len);
    out.padded += padded ? 1 : 0;
    ++out.injected;
  }
  return out;
}

}  // namespace rtb::replay
