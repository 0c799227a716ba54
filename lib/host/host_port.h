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

// Eight per-priority FIFOs and a bitmask of the non-empty ones (push and pop keep it exact).
template <typename T>
struct PriorityFifos {
  std::array<Fifo<T>, 8> fifo;
  uint8_t mask = 0;  // bit p: fifo[p] is not empty

  bool empty(uint8_t p) const { return fifo[p].empty(); }
  const T& front(uint8_t p) const { return fifo[p].front(); }
  void push(uint8_t p, const T& item) {
    fifo[p].push(item);
    mask |= static_cast<uint8_t>(1u << p);
  }
  T pop(uint8_t p) {
    const T item = fifo[p].front();
    fifo[p].pop();
    if (fifo[p].empty()) mask &= static_cast<uint8_t>(~(1u << p));
    return item;
  }
};

struct Host::Port {
  PortConfig config;
  PortLinks links;
  PriorityFifos<uint32_t> ring;        // ready QP indices, round robin
  PriorityFifos<ControlItem> control;  // ACK/NAK/CNP ready for the wire
  std::array<int64_t, 8> deficit{};    // DWRR byte deficits
  uint8_t dwrr_current = 0;

  uint8_t work_mask() const { return ring.mask | control.mask; }
};

}  // namespace rtb::host
