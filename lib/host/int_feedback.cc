#include "host/int_feedback.h"

#include <algorithm>

namespace rtb::host {

void IntFeedback::keep(uint32_t qp, const uint8_t* end, uint32_t room) {
  const std::optional<wire::IntDescriptor> d = wire::read_int_descriptor(end, room);
  if (!d) return;
  Qp& q = qps_[qp];
  q.kept_hops = static_cast<uint8_t>(std::min<uint32_t>(d->hops, wire::kIntMaxHops));
  for (uint32_t i = 0; i < q.kept_hops; ++i) q.kept[i] = wire::int_hop_word(end, *d, i);
}

void IntFeedback::echo(uint32_t qp, uint8_t* end, uint32_t room) const {
  const Qp& q = qps_[qp];
  for (uint32_t i = 0; i < q.kept_hops; ++i)
    if (!wire::push_int_hop(end, room, q.kept[i])) return;
}

std::span<const rtb_cc_int_hop> IntFeedback::hops(uint32_t qp, const uint8_t* end, uint32_t room) {
  const std::optional<wire::IntDescriptor> d = wire::read_int_descriptor(end, room);
  if (!d) return {};
  Qp& q = qps_[qp];
  const uint32_t n = std::min<uint32_t>(d->hops, wire::kIntMaxHops);
  for (uint32_t i = 0; i < n; ++i) {
    const wire::IntHopRecord r = wire::decode_int_hop(wire::int_hop_word(end, *d, i));
    const bool seen = i < q.known;
    q.time_ns[i] = seen ? wire::int_unwrap(q.time_ns[i], r.time_ns, wire::kIntTimeBits) : r.time_ns;
    q.tx_units[i] = seen ? wire::int_unwrap(q.tx_units[i], r.tx_units, wire::kIntBytesBits) : r.tx_units;
    q.out[i] = rtb_cc_int_hop{q.time_ns[i] * 1000, q.tx_units[i] * wire::kIntByteUnit,
                              uint64_t{r.qlen_units} * wire::kIntQlenUnit,
                              wire::kIntRateBps[r.rate_code & 7]};
  }
  q.known = static_cast<uint8_t>(std::max<uint32_t>(q.known, n));
  return {q.out.data(), n};
}

}  // namespace rtb::host
