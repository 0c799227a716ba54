// How much headroom a lossless priority group needs, from first principles, with the
// vendor formulas beside it for comparison (reference §3.2).
//
// After the PG crosses XOFF the switch keeps receiving, until the neighbour stops:
//   1. the frame the switch is sending when it decides: the PFC frame waits for it
//      (one maximum frame from this side, at the line rate);
//   2. the PFC frame itself (64 B + 20 B preamble and gap);
//   3. the PFC frame's flight to the neighbour, and the neighbour's last bytes' flight
//      back: 2 x propagation x rate (in-flight bytes on the cable, both directions);
//   4. the neighbour's response time: pause_quanta(speed) x 512 bit times (the IEEE
//      802.3 31B.3.7 table as SONiC's buffer_headroom_mellanox.lua holds it);
//   5. the frame the neighbour had started: it is not cut (one maximum frame from there).
// Frames are stored in whole cells, so the byte sum is scaled by the cell rounding of the
// frames that arrive (stored cells x cell size / bytes on the wire), when above 1: of a
// neighbour-MTU frame, mixed with that of a minimum frame (60 B, one cell, 84 B on the
// wire) for the share of small frames (SONiC's small_packet_percentage, whose stock
// LOSSLESS_TRAFFIC_PATTERN is 100 %: every frame may be small).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/units.h"

namespace rtb::sw {

struct HeadroomInputs {
  Rate rate;          // both directions of the cable
  Time propagation;   // one way
  uint32_t local_mtu = 9'216;  // largest frame this port sends (without FCS)
  uint32_t peer_mtu = 9'216;   // largest frame the neighbour sends
  Bytes cell = Bytes(256);
  uint32_t small_packet_percent = 0;  // share of minimum-size frames, 0..100
};

struct HeadroomTerm {
  std::string what;
  Bytes bytes;
  std::string arithmetic;
};

struct HeadroomNeed {
  std::vector<HeadroomTerm> terms;  // 1..5 above
  Bytes wire_sum;                   // sum of the terms
  double cell_factor = 1.0;         // >= 1
  Bytes need;                       // wire_sum x cell_factor, rounded up to a cell
  uint32_t pause_quanta = 0;        // the table entry used for term 4
  Bytes mlx5;                       // NVIDIA mlx5 calculate_xoff
  std::string mlx5_arithmetic;
  Bytes sonic;                      // SONiC buffer_headroom_mellanox.lua xoff
  std::string sonic_arithmetic;

  // Term by term, one line each, then the vendor formulas.
  std::string describe() const;
};

// Pause quanta a neighbour of this speed may take to stop (SONiC's table: 10G 67,
// 25G 80, 40G 118, 50G 147, 100G 394, 200G 453, 400G and 800G 905); a speed between
// entries takes the next faster entry's value, below 10G the 10G value.
uint32_t peer_response_quanta(Rate rate);

HeadroomNeed headroom_need(const HeadroomInputs& in);

}  // namespace rtb::sw
