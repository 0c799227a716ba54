// The plan as scenario keys `rocetb run` accepts: the thresholds written into a copy of
// the scenario the plan came from, or, for a fabric given by options, a whole scenario
// (one switch with a host per port and an (N-1):1 incast to try the thresholds on).
#pragma once

#include <string>
#include <vector>

#include "core/error.h"
#include "plan/fabric.h"
#include "switch/config.h"

namespace rtb::plan {

// The lossless thresholds of `c` as KEY=VALUE assignments (the `--set` syntax):
// switch.pfc_enable, switch.buffer_pool.{size,cell,xoff}, switch.pg_lossless.{static_th,
// xoff,xon_offset}, switch.wred_profile.green_{min,max}_threshold, green_drop_probability.
std::vector<std::string> threshold_keys(const sw::SwitchConfig& c);

// A scenario (TOML) for `f`: one switch with a host per port, an (N-1):1 incast on the
// first lossless priority for 5 ms, every other key at its default.
std::string fabric_scenario(const Fabric& f);

// `base_text` (TOML; empty for none) with `keys` applied, checked by loading it as
// `out_path` would be loaded, then written there. The scenario's comments are not kept.
Status write_scenario(const std::string& out_path, const std::string& base_text, const std::string& header,
                      const std::vector<std::string>& keys);

}  // namespace rtb::plan
