// A host port: its two wire directions, the arbiter's round-robin rings of ready queue
// pairs per priority, and control frames ready to send per priority. Private to the host.
//
// Two bitmasks say which priorities have a ready QP or a ready control frame, so the
// arbiter and next_deadline() visit only those (push and pop keep them exact).
#pragma once

#include <array>
#include <cstdint>

#include "host/fifo.h"
#include "host/host.h"

namespace rtb::host {

struct Host::Port {
  PortConfig config;
  PortLinks links;
  std::array<Fifo<uint32_t>, 8> ring;         // ready QP indices, round robin
  std::array<ControlQueue, 8> control;        // ACK/NAK/CNP ready for the wire
  std::array<int64_t, 8> deficit{};           // DWRR byte deficits
  uint8_t dwrr_current = 0;
  uint8_t ring_mask = 0;     // bit p: ring[p] is not empty
  uint8_t control_mask = 0;  // bit p: control[p] is not empty

  bool has_work(uint8_t p) const { return ((ring_mask | control_mask) >> p) & 1u; }
  uint8_t work_mask() const { return ring_mask | control_mask; }

  void push_ring(uint8_t p, uint32_t qp) {
    ring[p].push(qp);
    ring_mask |= static_cast<uint8_t>(1u << p);
  }
  uint32_t pop_ring(uint8_t p) {
    const uint32_t qp = ring[p].front();
    ring[p].pop();
    if (ring[p].empty()) ring_mask &= static_cast<uint8_t>(~(1u << p));
    return qp;
  }
  void push_control(uint8_t p, const ControlItem& item) {
    control[p].push(item);
    control_mask |= static_cast<uint8_t>(1u << p);
  }
  ControlItem pop_control(uint8_t p) {
    const ControlItem item = control[p].front();
    control[p].pop();
    if (control[p].empty()) control_mask &= static_cast<uint8_t>(~(1u << p));
    return item;
  }
};

}  // namespace rtb::host
