// HPCC INT feedback at the end hosts (cc_algos/README.md "Feedback"; HPCC, SIGCOMM 2019,
// §3.2: "the receiver copies the INT information to the ACK").
//
// Receiver: the records of the last data frame a QP answered (an ACK or NAK was queued
// for it) are kept and written into the trailer of the QP's next ACK or NAK when that is
// built, after the ACK turnaround. So an ACK echoes the newest records its QP has when it
// leaves, as a NIC that fills the ACK at transmit would.
// Sender: an ACK's records become the algorithm's rtb_cc_int_hop values, the wrapping
// timestamp (2^24 ns) and tx-byte (2^20 x 128 B) counters extended to 64 bits against the
// previous ACK's record of the same hop (HPCC's GetTimeDelta / GetBytesDelta).
// Memory only when the algorithm asks for INT: about 300 bytes a QP.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "cc_algos/rocetb_cc.h"
#include "wire/int_trailer.h"

namespace rtb::host {

class IntFeedback {
 public:
  IntFeedback() = default;
  explicit IntFeedback(uint32_t max_qps) : qps_(max_qps) {}
  bool enabled() const { return !qps_.empty(); }

  // Receiver: a data frame of QP `qp` was answered; `end` is the end of its IPv4 packet,
  // `room` its UDP payload bytes.
  void keep(uint32_t qp, const uint8_t* end, uint32_t room);
  // Receiver: copies the kept records into the trailer of the ACK or NAK ending at `end`.
  void echo(uint32_t qp, uint8_t* end, uint32_t room) const;
  // Sender: the hops of an ACK or NAK of QP `qp` ending at `end`, as 64-bit values.
  std::span<const rtb_cc_int_hop> hops(uint32_t qp, const uint8_t* end, uint32_t room);

 private:
  struct Qp {
    std::array<uint64_t, wire::kIntMaxHops> kept{};  // receiver: the last answered records
    uint8_t kept_hops = 0;
    uint8_t known = 0;  // sender: hops seen before (their counters extend the next ones)
    std::array<rtb_cc_int_hop, wire::kIntMaxHops> out{};
    std::array<uint64_t, wire::kIntMaxHops> time_ns{}, tx_units{};
  };
  std::vector<Qp> qps_;
};

}  // namespace rtb::host
