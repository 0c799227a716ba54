// [switch]: the QoS settings every switch of the topology gets, under SONiC's names
// (lib/switch/config.h), with the RoCE tuning-guide settings as defaults
// (sw::tuning_guide_config: 4 MB buffer, 1.6 MB shared headroom, lossless PGs with a
// 2.4 MB static threshold and 1.6 MB xoff, WRED 150 KB / 1.2 MB / 5 %, PFC on 3 and 4),
// plus rocetb's 1 MB lossy pool (BUFFER_POOL lossy_size) on top of the 4 MB.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scenario/port_qos.h"
#include "scenario/scenario.h"
#include "scenario/toml_table.h"

namespace rtb::scenario {

struct SwitchSettings {
  sw::SwitchConfig config;   // without ports or routes
  PortQosSettings port_qos;  // [switch.port_qos]: per-port maps, applied once ports exist
};

// The settings without ports or routes. `t` may be absent (all defaults).
SwitchSettings read_switch_settings(std::optional<Table> t);

// Copies `settings` into every switch with its ports (from its links: rate, propagation,
// the topology MTU, named Ethernet0, Ethernet4, ...), the ports' own QoS (port_qos.h) and
// its routes (routes.h); a disconnected topology fails at `topology_table`.
void apply_switch_settings(Topology& topo, const SwitchSettings& settings, const Table& topology_table);

}  // namespace rtb::scenario
