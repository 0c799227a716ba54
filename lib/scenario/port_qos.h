// [switch.port_qos."EthernetN"]: one port's own QoS maps and pfc_enable (SONiC binds
// maps per port in PORT_QOS_MAP|EthernetN). Keys: dscp_to_tc_map, dot1p_to_tc_map,
// tc_to_pg_map, tc_to_queue_map, trust, pfc_enable, as in [switch] (qos_settings.h). A
// map the port gives replaces the switch's map as a whole; one it does not give is the
// switch's. The name applies to that port of every switch (ports are Ethernet0,
// Ethernet4, ... on each switch, in link order).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "scenario/toml_table.h"

namespace rtb::scenario {

struct PortQos {
  std::string name;  // "Ethernet4"
  Table table;       // for errors at its keys
  std::optional<sw::QosMaps> maps;
  std::optional<uint8_t> pfc_enable;
};

struct PortQosSettings {
  std::optional<Table> table;  // [switch.port_qos], for errors at a port's name
  std::vector<PortQos> ports;
};

// Reads [switch.port_qos] (absent: no overrides) on top of the switch's `base` settings.
PortQosSettings read_port_qos(std::optional<Table> t, const sw::SwitchConfig& base);

// Gives every switch port named in `q` its maps and pfc_enable. Fails at the name when no
// switch has such a port (the valid names listed, the nearest suggested), and at the key
// when a lossless TC of the port lands in a priority group whose buffer profile is lossy
// (buffer profiles are the switch's: [switch] pfc_enable and tc_to_pg_map decide them).
void apply_port_qos(const PortQosSettings& q, Topology& topo);

}  // namespace rtb::scenario
