// One flow of a registered algorithm driven by hand: start, ACKs, timers, at given times.
#pragma once

#include "test_util.h"

namespace rtb::cc::testing {

class HandFlow {
 public:
  HandFlow(std::string_view name, const ParamMap& params, FlowStart start, Time now = Time::zero())
      : c_(configure_or_die(name, params)),
        table_(std::move(FlowTable::create(c_.algorithm(), 1)).value()),
        last_(c_.start(table_.state(0), start, now)) {}

  // An ACK of `acked_bytes` with RTT sample `rtt` (zero: none), the echo and NAK flags.
  const Decision& ack(Time now, uint64_t acked_bytes, Time rtt, bool echo = false, bool nak = false) {
    last_ = c_.on_ack(table_.state(0), AckEvent{Bytes(acked_bytes), rtt, echo, nak, {}}, now);
    return last_;
  }
  // An ACK carrying INT hops (no RTT sample, no echo).
  const Decision& ack_int(Time now, uint64_t acked_bytes, std::span<const rtb_cc_int_hop> hops) {
    last_ = c_.on_ack(table_.state(0), AckEvent{Bytes(acked_bytes), Time::zero(), false, false, hops}, now);
    return last_;
  }
  // Payload bytes just sent (the on_bytes_sent hook).
  void sent(Time now, uint64_t bytes) {
    if (auto d = c_.on_bytes_sent(table_.state(0), Bytes(bytes), now)) last_ = *d;
  }
  const Decision& last() const { return last_; }
  double field(std::string_view name, Time now) const {
    const auto v = c_.describe_state(table_.state(0), now);
    for (size_t i = 0; i < v.count; ++i)
      if (name == v.fields[i].name) return v.fields[i].value;
    ADD_FAILURE() << "no state field " << name;
    return -1;
  }
  const Controller& controller() const { return c_; }
  void* state() { return table_.state(0); }

 private:
  Controller c_;
  FlowTable table_;
  Decision last_;
};

}  // namespace rtb::cc::testing
