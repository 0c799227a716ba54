// What `rocetb plan` plans for: one switch's ports and buffer, from command-line options
// or from a scenario's switch (whose sw::SwitchConfig is then used as it is).
#pragma once

#include <cstdint>
#include <string>

#include "core/units.h"
#include "switch/config.h"

namespace rtb::plan {

struct Fabric {
  Rate rate = Rate::gbps(100);
  double cable_length_m = 7;  // MLX5E_DEFAULT_CABLE_LEN
  uint32_t mtu = 9'216;       // largest frame, bytes without FCS
  Bytes buffer = Bytes::mb(32);  // BUFFER_POOL size (the lossless pool)
  uint8_t lossless = (1u << 3) | (1u << 4);  // PORT_QOS_MAP pfc_enable
  uint32_t ports = 32;
  Bytes cell = Bytes(256);
};

// Propagation as the scenario loader computes it from cable_length_m (5 ns per metre).
Time cable_propagation(double metres);

// A switch with these ports and buffer and rocetb's tuning-guide settings for the rest
// (sw::tuning_guide_config), ports named Ethernet0, Ethernet4, ...
sw::SwitchConfig switch_config(const Fabric& f);

// "3,4" for the priorities of `bits`.
std::string priority_list(uint8_t bits);

}  // namespace rtb::plan
