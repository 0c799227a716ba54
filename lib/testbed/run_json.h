// run.json's common part (design.md "Results"): what ran, on what, how fast. Not
// deterministic (wall time); shared by virtual and realtime runs.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/units.h"
#include "runtime/pool/mbuf_pool_set.h"
#include "runtime/pool/mbuf_pool_sizing.h"

namespace rtb::testbed {

nlohmann::ordered_json pools_json(const runtime::PoolSizes& z, const runtime::PoolSet& p);
nlohmann::ordered_json run_json(const std::string& command_line, double wall, Time simulated,
                                uint64_t hops, uint64_t polls);

}  // namespace rtb::testbed
