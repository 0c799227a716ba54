// [switch] QoS maps under SONiC's names: DSCP_TO_TC_MAP, DOT1P_TO_TC_MAP,
// TC_TO_PRIORITY_GROUP_MAP (tables keyed by the number as a string, `"26" = 3`) and
// PORT_QOS_MAP's trust ("dscp" or "dot1p").
//
// A map given replaces the default map as a whole, as a SONiC map does: entries it does
// not list go to 0 (SAI's default for an unmapped DSCP, PCP or TC). A map not given keeps
// sw::default_qos_maps().
#pragma once

#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "scenario/toml_table.h"
#include "switch/config.h"

namespace rtb::scenario {

// Reads dscp_to_tc_map, dot1p_to_tc_map, tc_to_pg_map and trust from the [switch] table.
void read_qos_maps(Table& t, sw::QosMaps& maps);

// Warns, once per [[traffic]] entry and DSCP, when flows of a lossless priority land in a
// TC without PFC at the switches (pfc_enable non-empty): the classic misconfiguration, a
// lossless class whose DSCP maps to a queue without PFC. A warning, so that a run can show
// what it does (drops where pauses were meant).
void warn_flows_off_pfc(const Scenario& s, std::vector<std::string>& warnings);

// The trust as the scenario spells it.
const char* trust_name(const sw::QosMaps& maps);

}  // namespace rtb::scenario
