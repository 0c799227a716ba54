// A host port: its two wire directions, the arbiter's round-robin rings of ready queue
// pairs per priority, and control frames ready to send per priority. Private to the host.
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

  bool has_work(uint8_t p) const { return !ring[p].empty() || !control[p].empty(); }
};

}  // namespace rtb::host
