// The effective configuration: everything the loader resolved, as JSON, with every size
// in bytes (keys ending _bytes), every time in nanoseconds (_ns; a fraction when not a
// whole nanosecond; null for "never") and every rate in bits per second (_bps).
#pragma once

#include <nlohmann/json.hpp>

#include "scenario/scenario.h"

namespace rtb::scenario {

nlohmann::json effective_json(const Scenario& s);

// Helpers, also for the runner's own JSON.
nlohmann::json ns_json(Time t);

}  // namespace rtb::scenario
