#include "scenario/capture_streams.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analyze/analyze_capture.h"
#include "analyze/dissect.h"
#include "pcap/capture_reader.h"
#include "wire/icrc.h"

namespace rtb::scenario {
namespace {

using analyze::MessagePart;

// One stream while the file is read: its PSNs and the message not yet ended.
struct Open {
  size_t stream = 0;
  analyze::PsnTracker psn;
  bool open = false;
};

class StreamBuilder {
 public:
  explicit StreamBuilder(CaptureStreams& out) : out_(out) {}

  void add(const analyze::Dissected& d, Time ts) {
    const MessagePart part = analyze::message_part(d.opcode);
    if (part == MessagePart::kNone) return;  // ACK, NAK, CNP, READ request
    Open& s = state(d);
    if (s.psn.add(d.psn)) return;  // a retransmission
    std::vector<CapturedMessage>& m = out_.streams[s.stream].messages;
    const bool starts = part == MessagePart::kFirst || part == MessagePart::kOnly || !s.open;
    if (starts) {
      if (s.open) m.back().cut = true;  // interrupted by a new First
      const bool whole = part == MessagePart::kFirst || part == MessagePart::kOnly;
      m.push_back(CapturedMessage{0, ts, ts, !whole});
    }
    m.back().bytes += d.payload_bytes;
    m.back().last = ts;
    s.open = part == MessagePart::kFirst || part == MessagePart::kMiddle;
  }

  void finish() {
    for (auto& [key, s] : open_) {
      if (s.open) out_.streams[s.stream].messages.back().cut = true;
    }
  }

 private:
  Open& state(const analyze::Dissected& d) {
    const analyze::QpKey key{d.dest_qpn, d.src_ip, d.dst_ip};
    auto [it, added] = open_.try_emplace(key);
    if (added) {
      it->second.stream = out_.streams.size();
      out_.streams.push_back(CapturedStream{key, d.dscp, {}});
      for (const analyze::IpAddr& a : {d.src_ip, d.dst_ip}) {
        if (std::find(out_.endpoints.begin(), out_.endpoints.end(), a) == out_.endpoints.end()) {
          out_.endpoints.push_back(a);
        }
      }
    }
    return it->second;
  }

  CaptureStreams& out_;
  std::map<analyze::QpKey, Open> open_;
};

}  // namespace

uint64_t CapturedStream::bytes() const {
  uint64_t sum = 0;
  for (const CapturedMessage& m : messages) sum += m.bytes;
  return sum;
}

Time CapturedStream::last() const {
  Time t;
  for (const CapturedMessage& m : messages) t = std::max(t, m.last);
  return t;
}

Expected<CaptureStreams> read_capture_streams(const std::string& path) {
  auto reader = capture::CaptureReader::open(path);
  if (!reader) return reader.error();
  capture::CaptureReader& r = reader.value();
  if (!analyze::link_type_supported(r.link())) {
    return Error{fmt::format("capture '{}': link type {} is not supported: expected Ethernet, Linux cooked SLL or "
                             "SLL2, raw IP, IPv4 or IPv6", path, capture::link_type_name(r.link()))};
  }
  wire::use_fast_crc();
  CaptureStreams out;
  out.path = path;
  StreamBuilder builder(out);
  capture::FrameView v;
  uint64_t origin = 0;
  analyze::Dissected d;
  while (true) {
    auto more = r.next_view(v);
    if (!more) return Error{fmt::format("{} (after {} frames): expected a whole capture", more.error().message, r.frames_read())};
    if (!more.value()) break;
    if (out.frames++ == 0) origin = v.ts_ns;
    d = analyze::Dissected{};
    analyze::dissect(r.link(), v.data, v.captured_len, v.original_len, d);
    if (d.kind != analyze::FrameKind::kRoce) continue;
    ++out.roce_frames;
    builder.add(d, Time::ns(v.ts_ns > origin ? v.ts_ns - origin : 0));
  }
  builder.finish();
  if (out.streams.empty()) {
    return Error{fmt::format("capture '{}' holds no RoCE data ({} frames, {} RoCEv2): expected SEND, RDMA WRITE or "
                             "RDMA READ response packets", path, out.frames, out.roce_frames)};
  }
  return out;
}

}  // namespace rtb::scenario
