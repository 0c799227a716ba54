// run.json's common part (design.md "Results"): what ran, on what, how fast. Not
// deterministic (wall time); shared by virtual and realtime runs.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/fingerprint.h"
#include "core/units.h"
#include "runtime/pool/mbuf_pool_set.h"
#include "runtime/pool/mbuf_pool_sizing.h"
#include "scenario/scenario.h"

namespace rtb::testbed {

nlohmann::ordered_json pools_json(const runtime::PoolSizes& z, const runtime::PoolSet& p);
// Each pool's free mbufs (of its configured count: a pool populated on demand counts the
// mbufs it has not written yet as free) before the testbed took any and after it gave
// every one back:
// "data_free_at_start", "data_free_at_end", "control_free_at_start", "control_free_at_end"
// added to `pools` (run.json "pools"); equal when the run leaked none.
struct PoolFree {
  uint32_t data = 0;
  uint32_t control = 0;
  static PoolFree of(const runtime::PoolSet& p) {
    return {p.data().size() - p.data().in_use(), p.control().size() - p.control().in_use()};
  }
};
void add_pool_free(nlohmann::ordered_json& pools, PoolFree start, PoolFree end);

// run.json "inputs": what the scenario file and each file it names (Scenario::files) held,
// as size and FNV-1a hash (core/fingerprint.h): {"scenario": {"file", "bytes", "fnv1a64"}
// or null when it was not read from a file, "files": [the same, or {"file", "error"}]}.
// Taken before the run starts.
nlohmann::ordered_json inputs_json(const scenario::Scenario& s);
// One file of it: {"file", "bytes", "fnv1a64"} (a sweep's record lists its files the same way).
nlohmann::ordered_json fingerprint_json(const FileFingerprint& f);

nlohmann::ordered_json run_json(const std::string& command_line, nlohmann::ordered_json inputs, double wall,
                                Time simulated, uint64_t hops, uint64_t polls);

}  // namespace rtb::testbed
