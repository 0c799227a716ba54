#include "ethport/eth_bridge.h"

#include <rte_mbuf.h>

#include <algorithm>
#include <utility>

#include "runtime/pool/mbuf_pool_meta.h"
#include "wire/mbuf_frame.h"

namespace rtb::ethport {

EthBridge::EthBridge(std::string name, EthPort& port, runtime::WireLink* outbound,
                     runtime::WireLink* inbound)
    : Stage(std::move(name)),
      port_(port),
      outbound_(outbound),
      inbound_(inbound),
      copies_(port.kind() != DeviceKind::kRing) {}

void EthBridge::poll(Time now) {
  if (outbound_ != nullptr) transmit(now);
  if (inbound_ != nullptr) receive(now);
}

// Held frames go first; only when none are left does the bridge take new bursts from the
// link, as many as have arrived (a catching-up stage starts several bursts' worth in one
// loop iteration), so a full port stops the link, and through it the sending stage.
void EthBridge::transmit(Time now) {
  if (held_count_ > 0 && !send_held()) return;
  while (true) {
    const uint32_t n = outbound_->receive(now, held_.data(), kBurst);
    if (n == 0) return;
    for (uint32_t i = 0; i < n; ++i) held_len_[i] = held_[i]->pkt_len;
    held_first_ = 0;
    held_count_ = static_cast<uint16_t>(n);
    if (!send_held() || n < kBurst) return;
  }
}

bool EthBridge::send_held() {
  // The lengths are read before tx: frames the port accepts belong to it at once.
  const uint16_t sent = port_.tx(held_.data() + held_first_, held_count_);
  for (uint16_t i = 0; i < sent; ++i) counters_.tx_bytes += held_len_[held_first_ + i];
  counters_.tx_frames += sent;
  held_first_ = static_cast<uint16_t>(held_first_ + sent);
  held_count_ = static_cast<uint16_t>(held_count_ - sent);
  if (held_count_ == 0) return true;
  ++counters_.tx_held_retries;
  return false;
}

namespace {

// A one-segment frame the stages may read: its bytes lie inside its buffer.
bool lengths_fit(const rte_mbuf& m) {
  return m.pkt_len == m.data_len && uint32_t{m.data_off} + m.data_len <= m.buf_len;
}

}  // namespace

void EthBridge::receive(Time now) {
  const uint16_t max = static_cast<uint16_t>(std::min<uint32_t>(inbound_->room(), kBurst));
  if (max == 0) return;
  const uint16_t n = port_.rx(rx_burst_.data(), max);
  for (uint16_t i = 0; i < n; ++i) {
    rte_mbuf* frame = rx_burst_[i];
    if (frame->nb_segs != 1) {  // the stages read frames as one segment: never split them
      ++counters_.rx_dropped_chained;
      rte_pktmbuf_free(frame);
      continue;
    }
    if (!lengths_fit(*frame)) {
      ++counters_.rx_dropped_malformed;
      rte_pktmbuf_free(frame);
      continue;
    }
    counters_.rx_bytes += frame->pkt_len;
    // Ring pairs hand over the sender's mbuf, which may come from a pool without the
    // FrameMeta area (open() checks the rx pools of every other kind).
    if (rte_pktmbuf_priv_size(frame->pool) >= sizeof(runtime::FrameMeta)) {
      runtime::frame_meta(frame) = runtime::FrameMeta{};
    }
    // A copying driver wrote the frame over the payload pattern of an rtb data mbuf: the
    // mbuf's next build must restore those bytes (wire/mbuf_frame.h). Ring pairs hand over
    // the sender's own mbuf, pattern intact.
    const int64_t end = wire::payload_offset(frame, frame->pkt_len);
    if (copies_ && end > 0) {
      const int64_t begin = std::max<int64_t>(0, wire::payload_offset(frame, 0));
      wire::mark_payload_dirty(frame, static_cast<uint32_t>(begin), static_cast<uint32_t>(end));
    }
    if (rx_rewrite_ != nullptr) rx_rewrite_(rx_rewrite_context_, frame);
    inbound_->deliver(now, frame);
    ++counters_.rx_frames;
  }
}

uint32_t EthBridge::drain() {
  const uint32_t n = held_count_;
  if (n > 0) rte_pktmbuf_free_bulk(held_.data() + held_first_, n);
  held_first_ = 0;
  held_count_ = 0;
  return n;
}

}  // namespace rtb::ethport
