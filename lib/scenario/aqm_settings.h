// [switch] AQM keys: which active queue management each egress queue runs, by name
// ("wred", "step", "pie", "none"), and the parameters of step and PIE (WRED keeps its
// SONiC [switch.wred_profile]). Documented in scenarios/README.md.
#pragma once

#include <optional>

#include "scenario/toml_table.h"
#include "switch/config.h"

namespace rtb::scenario {

// Reads `aqm`, [switch.aqm_by_queue], [switch.step] and [switch.pie] from the [switch]
// table into `c`, whose `wred` already marks the queues that have an AQM (`wred_queues`):
// a queue whose AQM is "wred" gets `wred` (the [switch.wred_profile]), "step" or "pie"
// gets c.aqm[q] and no WRED profile, "none" neither.
void read_aqm_settings(Table& t, const sw::WredProfile& wred, sw::SwitchConfig& c);

}  // namespace rtb::scenario
