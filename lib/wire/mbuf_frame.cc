#include "wire/mbuf_frame.h"

#include <algorithm>

#include "wire/bytes.h"
#include "wire/payload_pattern.h"

namespace rtb::wire {
namespace {

uint8_t* room(rte_mbuf* m) { return static_cast<uint8_t*>(m->buf_addr); }
uint8_t* payload_of(rte_mbuf* m) { return room(m) + kMbufPayloadOffset; }
uint32_t payload_capacity(const rte_mbuf* m) {
  return m->buf_len > kMbufPayloadOffset ? m->buf_len - kMbufPayloadOffset : 0;
}

// The dirty range [from, to) relative to the payload, kept in data-room bytes 0..3.
// Before a build of `payload` bytes, only its part inside the payload needs the pattern
// back: the build writes its own tail from `payload` on. Returns the end of what stays
// dirty past the payload (0: nothing), for the new record.
uint32_t restore_dirty_tail(rte_mbuf* m, uint32_t payload) {
  const uint16_t from = load_be16(room(m));
  const uint16_t to = load_be16(room(m) + 2);
  if (from >= to) return 0;
  restore_payload_pattern(payload_of(m), from, to < payload ? to : payload);
  return to;
}

void set_frame(rte_mbuf* m, const FrameSpan& s) {
  m->data_off = static_cast<uint16_t>(s.data - room(m));
  m->data_len = static_cast<uint16_t>(s.len);
  m->pkt_len = s.len;
  m->nb_segs = 1;
}

bool control_frame(rte_mbuf* m, const FrameSpan& s) {
  if (!s.ok()) return false;
  set_frame(m, s);
  return true;
}

uint8_t* control_start(rte_mbuf* m, uint32_t need) {
  return m->buf_len >= RTE_PKTMBUF_HEADROOM + need ? room(m) + RTE_PKTMBUF_HEADROOM : nullptr;
}

// Frame length of an ACK (4 extension bytes) or CNP (16) of this template.
uint32_t control_bytes(const FlowTemplate& t, uint32_t ext) {
  const uint32_t n = t.l2_bytes() + roce_ip_length(ext, 0, t.spec().int_trailer_bytes);
  return n < kMinFrameNoFcs ? kMinFrameNoFcs : n;
}

}  // namespace

void init_payload_mbuf(rte_mbuf* m) {
  write_payload_pattern(payload_of(m), payload_capacity(m));
  store_be16(room(m), 0);
  store_be16(room(m) + 2, 0);
}

void mbuf_payload_obj_init(rte_mempool*, void*, void* obj, unsigned) {
  init_payload_mbuf(static_cast<rte_mbuf*>(obj));
}

bool build_data_mbuf(const FlowTemplate& t, const DataFields& f, rte_mbuf* m) {
  if (f.payload_bytes + t.tail_room() > payload_capacity(m)) return false;
  const uint32_t still_dirty = restore_dirty_tail(m, f.payload_bytes);
  uint8_t* payload = payload_of(m);
  const FrameSpan s = t.build_data(f, payload);
  if (!s.ok()) return false;
  // The new tail, and any older dirty bytes beyond it (a longer frame's tail or trailer).
  const auto tail_end = static_cast<uint32_t>(s.data + s.len - payload);
  store_be16(room(m), static_cast<uint16_t>(f.payload_bytes));
  store_be16(room(m) + 2, static_cast<uint16_t>(std::max(tail_end, still_dirty)));
  set_frame(m, s);
  return true;
}

void mark_payload_dirty(rte_mbuf* m, uint32_t from, uint32_t to) {
  uint16_t lo = load_be16(room(m));
  uint16_t hi = load_be16(room(m) + 2);
  if (lo >= hi) {
    lo = static_cast<uint16_t>(from);
    hi = static_cast<uint16_t>(to);
  } else {
    lo = static_cast<uint16_t>(std::min<uint32_t>(lo, from));
    hi = static_cast<uint16_t>(std::max<uint32_t>(hi, to));
  }
  store_be16(room(m), lo);
  store_be16(room(m) + 2, hi);
}

bool build_ack_mbuf(const FlowTemplate& t, const AckFields& f, rte_mbuf* m) {
  uint8_t* out = control_start(m, control_bytes(t, 4));
  return out != nullptr && control_frame(m, t.build_ack(f, out));
}

bool build_cnp_mbuf(const FlowTemplate& t, const CnpFields& f, rte_mbuf* m) {
  uint8_t* out = control_start(m, control_bytes(t, 16));
  return out != nullptr && control_frame(m, t.build_cnp(f, out));
}

bool build_pfc_mbuf(const PfcFields& f, rte_mbuf* m) {
  uint8_t* out = control_start(m, kPfcFrameBytes);
  return out != nullptr && control_frame(m, FrameSpan{out, build_pfc(f, out)});
}

}  // namespace rtb::wire
