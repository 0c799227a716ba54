// [switch] QoS maps under SONiC's names: DSCP_TO_TC_MAP, DOT1P_TO_TC_MAP,
// TC_TO_PRIORITY_GROUP_MAP, TC_TO_QUEUE_MAP (tables keyed by the number as a string,
// `"26" = 3`), PORT_QOS_MAP's trust ("dscp" or "dot1p") and pfc_enable (`[3, 4]` or
// SONiC's string `"3,4"`). The same keys per port: port_qos.h.
//
// A map given replaces the default map as a whole, as a SONiC map does: entries it does
// not list go to 0 (SAI's default for an unmapped DSCP, PCP or TC). A map not given keeps
// sw::default_qos_maps().
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "scenario/toml_table.h"
#include "switch/config.h"

namespace rtb::scenario {

// Reads dscp_to_tc_map, dot1p_to_tc_map, tc_to_pg_map, tc_to_queue_map and trust from
// `t` ([switch] or one port's table).
void read_qos_maps(Table& t, sw::QosMaps& maps);
// The names read_qos_maps reads.
inline constexpr std::array<const char*, 5> kQosMapKeys{"dscp_to_tc_map", "dot1p_to_tc_map", "tc_to_pg_map",
                                                        "tc_to_queue_map", "trust"};

// pfc_enable as a list of priorities or SONiC's comma-separated string; nullopt if absent.
std::optional<uint8_t> read_pfc_enable(Table& t);

// Warns, once per [[traffic]] entry and DSCP, when flows of a lossless priority land off
// PFC at some switch port (by the maps that port uses): in a TC without PFC, or in an
// egress queue the PFC of their TC's priority group does not pause (TC_TO_QUEUE_MAP; PFC
// for priority n pauses queue n). The classic misconfiguration, a lossless class whose
// DSCP maps to a queue without PFC. A warning, so that a run can show what it does (drops
// where pauses were meant).
void warn_flows_off_pfc(const Scenario& s, std::vector<std::string>& warnings);

// The trust as the scenario spells it.
const char* trust_name(const sw::QosMaps& maps);

}  // namespace rtb::scenario
