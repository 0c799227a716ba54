#include "ethport/eth_bridge.h"

#include <rte_mbuf.h>

#include <algorithm>
#include <utility>

#include "runtime/pool/mbuf_pool_meta.h"

namespace rtb::ethport {

EthBridge::EthBridge(std::string name, EthPort& port, runtime::WireLink* outbound,
                     runtime::WireLink* inbound)
    : Stage(std::move(name)), port_(port), outbound_(outbound), inbound_(inbound) {}

void EthBridge::poll(Time now) {
  if (outbound_ != nullptr) transmit(now);
  if (inbound_ != nullptr) receive(now);
}

// Held frames go first; only when none are left does the bridge take a new burst from the
// link (so a full port stops the link, and through it the sending stage).
void EthBridge::transmit(Time now) {
  if (held_count_ > 0 && !send_held()) return;
  const uint32_t n = outbound_->receive(now, held_.data(), kBurst);
  if (n == 0) return;
  for (uint32_t i = 0; i < n; ++i) held_len_[i] = held_[i]->pkt_len;
  held_first_ = 0;
  held_count_ = static_cast<uint16_t>(n);
  send_held();
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

void EthBridge::receive(Time now) {
  const uint16_t max = static_cast<uint16_t>(std::min<uint32_t>(inbound_->room(), kBurst));
  if (max == 0) return;
  const uint16_t n = port_.rx(rx_burst_.data(), max);
  for (uint16_t i = 0; i < n; ++i) {
    rte_mbuf* frame = rx_burst_[i];
    counters_.rx_bytes += frame->pkt_len;
    // Ring pairs hand over the sender's mbuf, which may come from a pool without the
    // FrameMeta area (open() checks the rx pools of every other kind).
    if (rte_pktmbuf_priv_size(frame->pool) >= sizeof(runtime::FrameMeta)) {
      runtime::frame_meta(frame) = runtime::FrameMeta{};
    }
    inbound_->deliver(now, frame);
  }
  counters_.rx_frames += n;
}

uint32_t EthBridge::drain() {
  const uint32_t n = held_count_;
  if (n > 0) rte_pktmbuf_free_bulk(held_.data() + held_first_, n);
  held_first_ = 0;
  held_count_ = 0;
  return n;
}

}  // namespace rtb::ethport
