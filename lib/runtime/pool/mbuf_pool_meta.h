// Per-frame metadata in the mbuf private area (design.md "Memory and mbufs"): what the
// stages need to know about a frame that is not in its bytes. A small POD, reset to zero
// by MbufPool::alloc(); 32 bytes so it stays in the mbuf's third cache line.
#pragma once

#include <rte_mbuf.h>

#include <cstdint>
#include <type_traits>

#include "core/units.h"

namespace rtb::runtime {

struct FrameMeta {
  uint64_t enqueue_ps;  // when the frame joined its current queue (queueing delay)
  uint64_t sent_ps;     // when the sending host released it (one-way delay, FCT)
  uint32_t flow_id;     // index into the flow table
  uint32_t seq;         // per-flow sequence number (the PSN for RoCE data)
  uint16_t in_port;     // switch ingress port (ingress/PFC accounting at dequeue)
  uint16_t out_port;    // switch egress port chosen (ECMP decision)
  uint8_t priority;     // PFC priority / traffic class
  uint8_t flags;        // FrameFlag bits
  uint16_t reserved;

  Time enqueue_time() const { return Time::ps(enqueue_ps); }
  Time sent_time() const { return Time::ps(sent_ps); }
  void set_enqueue_time(Time t) { enqueue_ps = t.ps(); }
  void set_sent_time(Time t) { sent_ps = t.ps(); }
};

enum FrameFlag : uint8_t {
  kFrameCeMarked = 1u << 0,   // a switch set ECN CE on this frame (also in the IP header)
  kFrameControl = 1u << 1,    // ACK, NAK, CNP or PFC (from the control pool)
  kFrameCorrupted = 1u << 2,  // a fault hook corrupted its bytes on purpose
};

static_assert(sizeof(FrameMeta) == 32, "FrameMeta must stay small: it sits in every mbuf");
static_assert(sizeof(FrameMeta) % RTE_MBUF_PRIV_ALIGN == 0);
static_assert(std::is_trivially_copyable_v<FrameMeta> && std::is_standard_layout_v<FrameMeta>);

// The metadata of an mbuf from an MbufPool (whose priv_size is sizeof(FrameMeta)).
inline FrameMeta& frame_meta(rte_mbuf* m) {
  return *static_cast<FrameMeta*>(rte_mbuf_to_priv(m));
}
inline const FrameMeta& frame_meta(const rte_mbuf* m) {
  return *static_cast<const FrameMeta*>(rte_mbuf_to_priv(const_cast<rte_mbuf*>(m)));
}

}  // namespace rtb::runtime
