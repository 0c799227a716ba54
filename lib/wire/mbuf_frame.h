// Thin rte_mbuf wrapper over the builders.
//
// Data mbufs hold the payload pattern at a fixed place, written once when the pool is
// initialised (runtime::MbufPool with wire::payload_byte, or init_payload_mbuf /
// mbuf_payload_obj_init as an rte_mempool_obj_iter callback): payload at buf_addr +
// kMbufPayloadOffset = RTE_PKTMBUF_HEADROOM, where a fresh mbuf's data starts. Each build moves data_off so the
// headers land right in front of the payload and sets data_len / pkt_len.
//
// The builder's tail (pad, ICRC, INT trailer, minimum-frame fill) overwrites pattern bytes
// after the payload. The range it dirtied is remembered in the first 4 bytes of the data
// room (never part of a frame: frames start at least RTE_PKTMBUF_HEADROOM in), and is
// restored to pattern before the mbuf's next build, so a recycled mbuf always carries the
// pattern (a few bytes per frame, never the payload).
//
// Control mbufs (ACK, NAK, CNP, PFC) need no pattern: those frames are written at the
// default data offset.
#pragma once

#include <cstdint>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "wire/flow_template.h"
#include "wire/pfc.h"

namespace rtb::wire {

inline constexpr uint32_t kMbufPayloadOffset = RTE_PKTMBUF_HEADROOM;
// The headers go in front of the payload; the dirty-range record sits at the start.
static_assert(RTE_PKTMBUF_HEADROOM >= kMaxHeaderBytes + 4, "headroom too small for headers");

// Data room a data mbuf needs for payloads up to `max_payload` (the path MTU).
constexpr uint32_t mbuf_data_room(uint32_t max_payload, uint32_t int_trailer_bytes = 0) {
  return kMbufPayloadOffset + max_payload + kTailBytes + int_trailer_bytes;
}

// Writes the pattern over the whole payload area of `m` (pool initialisation).
void init_payload_mbuf(rte_mbuf* m);
// rte_mempool_obj_iter callback: init_payload_mbuf on each mbuf. Call after
// rte_pktmbuf_init has run on the object.
void mbuf_payload_obj_init(rte_mempool* mp, void* opaque, void* obj, unsigned idx);

// false: invalid request (as FlowTemplate::build_data) or the data room is too small.
bool build_data_mbuf(const FlowTemplate& t, const DataFields& f, rte_mbuf* m);
bool build_ack_mbuf(const FlowTemplate& t, const AckFields& f, rte_mbuf* m);
bool build_cnp_mbuf(const FlowTemplate& t, const CnpFields& f, rte_mbuf* m);
bool build_pfc_mbuf(const PfcFields& f, rte_mbuf* m);

// Something other than a builder changed payload bytes [from, to) of a data mbuf (a fault
// hook corrupting a byte): widen the recorded dirty range so the next build restores
// them. Offsets are relative to the payload; see payload_offset().
void mark_payload_dirty(rte_mbuf* m, uint32_t from, uint32_t to);
// The payload offset of byte `frame_offset` of the frame `m` holds now; negative for a
// byte in front of the payload (a header).
inline int64_t payload_offset(const rte_mbuf* m, uint32_t frame_offset) {
  return int64_t{m->data_off} + frame_offset - int64_t{kMbufPayloadOffset};
}

}  // namespace rtb::wire
