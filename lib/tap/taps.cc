#include "tap/taps.h"

#include <rte_mbuf.h>

#include <algorithm>

namespace rtb::tap {

DirectTap::DirectTap(std::vector<Target> targets, uint32_t max_frame)
    : targets_(std::move(targets)), scratch_(max_frame) {}

void DirectTap::on_frame(Time, Time start, const rte_mbuf* frame, runtime::LinkFaults::Verdict verdict) {
  const uint32_t len = rte_pktmbuf_pkt_len(frame);
  const uint32_t n = std::min<uint32_t>(len, static_cast<uint32_t>(scratch_.size()));
  const auto* p = static_cast<const uint8_t*>(rte_pktmbuf_read(frame, 0, n, scratch_.data()));
  for (const Target& t : targets_) t.file->write(t.iface, start, {p, n}, len, verdict);
}

void OrderedTap::on_frame(Time now, Time start, const rte_mbuf* frame, runtime::LinkFaults::Verdict verdict) {
  const uint32_t len = rte_pktmbuf_pkt_len(frame);
  const uint32_t n = std::min(len, max_captured_);
  const size_t offset = bytes_.size();
  bytes_.resize(offset + n);
  const auto* p = static_cast<const uint8_t*>(rte_pktmbuf_read(frame, 0, n, bytes_.data() + offset));
  if (p != bytes_.data() + offset) std::copy(p, p + n, bytes_.data() + offset);
  kept_.push_back({now, stage_, (*stage_frames_)++, start, len, n, offset, verdict});
}

}  // namespace rtb::tap
