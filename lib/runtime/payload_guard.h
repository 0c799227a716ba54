// Keeps the "payload written once" promise (design.md "Memory and mbufs") honest.
//
// Every mbuf of a data pool holds the payload pattern from RTE_PKTMBUF_HEADROOM on, and
// the ICRC of a frame is computed from tables that assume those bytes are intact. Two
// things write into that region: a builder (pad, ICRC and INT trailer go right after the
// payload) and a fault hook that corrupts a payload byte. Each records the range it dirtied
// in a watermark kept in the first bytes of the headroom, which no header ever reaches
// (headers are written backwards from the payload, at most wire::kMaxHeaderBytes); the
// next builder of a frame restores only the dirty bytes its payload covers. A zeroed
// headroom means "clean", which is how a pool starts.
#pragma once

#include <rte_mbuf.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace rtb::runtime {

struct PayloadDirtyRange {
  uint16_t from = 0;  // payload offsets [from, to) may differ from the pattern
  uint16_t to = 0;
};
static_assert(RTE_PKTMBUF_HEADROOM >= 96, "headers need 80 bytes of headroom plus the watermark");

inline PayloadDirtyRange payload_dirty_range(const rte_mbuf* m) {
  PayloadDirtyRange r;
  std::memcpy(&r, m->buf_addr, sizeof r);
  return r;
}

inline void set_payload_dirty_range(rte_mbuf* m, PayloadDirtyRange r) {
  std::memcpy(m->buf_addr, &r, sizeof r);
}

// Widens the dirty range to cover payload offsets [from, to).
inline void mark_payload_dirty(rte_mbuf* m, uint32_t from, uint32_t to) {
  PayloadDirtyRange r = payload_dirty_range(m);
  if (r.from == r.to) {
    r = {static_cast<uint16_t>(from), static_cast<uint16_t>(to)};
  } else {
    r.from = static_cast<uint16_t>(std::min<uint32_t>(r.from, from));
    r.to = static_cast<uint16_t>(std::max<uint32_t>(r.to, to));
  }
  set_payload_dirty_range(m, r);
}

// The payload offset of the byte at `frame_offset` in the frame the mbuf holds now, or -1
// when that byte is in front of the payload area (a header).
inline int64_t payload_offset_of(const rte_mbuf* m, uint32_t frame_offset) {
  return static_cast<int64_t>(m->data_off) + frame_offset - RTE_PKTMBUF_HEADROOM;
}

}  // namespace rtb::runtime
